"""PDF contracts under hostile input: page and text caps, the byte limit, unsupported filters."""

from __future__ import annotations

import pytest

from clusterlint.readers import pdf

from conftest import check_json


def _build(objects) -> bytes:
    out, offsets = bytearray(b"%PDF-1.4\n"), {}
    for number, content in sorted(objects):
        offsets[number] = len(out)
        out += f"{number} 0 obj\n".encode() + content + b"\nendobj\n"
    xref, count = len(out), max(offsets) + 1
    out += f"xref\n0 {count}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{offsets[n]:010d} 00000 n \n".encode() for n in range(1, count))
    return bytes(out + f"trailer\n<< /Size {count} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode())


def one_page_pdf(kids: int = 1, filter_name: str | None = None) -> bytes:
    """One page of text; the page tree lists it `kids` times; its content stream may name a filter."""
    stream = b"BT /F1 11 Tf 72 760 Td (1.1 Provider shall deliver 32 nodes.) Tj ET"
    named = f" /Filter /{filter_name}" if filter_name else ""
    return _build([
        (1, b"<< /Type /Catalog /Pages 2 0 R >>"),
        (2, f"<< /Type /Pages /Kids [{' '.join(['4 0 R'] * kids)}] /Count {kids} >>".encode()),
        (3, b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"),
        (4, b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R >>"),
        (5, f"<< /Length {len(stream)}{named} >>\nstream\n".encode() + stream + b"\nendstream"),
    ])


def messages(tmp_path, data: bytes) -> list[tuple]:
    path = tmp_path / "msa.pdf"
    path.write_bytes(data)
    return [(f["rule"], f["line"], f["message"]) for f in check_json(str(path))["findings"] if f["rule"] == "SPEC001"]


def test_a_page_tree_listing_one_page_4000_times_is_refused(tmp_path):
    assert messages(tmp_path, one_page_pdf(kids=4000)) == [
        ("SPEC001", 1, "the PDF has over 1,000 pages (its page tree may list one page many times): not reviewed")]


def test_a_page_tree_loop_is_refused(tmp_path):
    data = one_page_pdf().replace(b"/Kids [4 0 R] /Count 1", b"/Kids [2 0 R] /Count 1")  # same length: offsets hold
    assert messages(tmp_path, data) == [("SPEC001", 1, "the PDF's page tree has over 4,000 entries (a loop?): not reviewed")]


@pytest.mark.parametrize("name", ["FooDecode", "JBIG2Decode"])
def test_unsupported_filters_are_a_finding(tmp_path, name):
    # clusterlint's words around the PDF library's own (which vary by its version): one SPEC001 naming the filter
    [(rule, line, message)] = messages(tmp_path, one_page_pdf(filter_name=name))
    assert (rule, line) == ("SPEC001", 1)
    assert message.startswith("cannot read the PDF: a stream ") and message.endswith("; save it again with standard compression")
    assert name[:5].lower() in message.lower()


def test_extracted_text_is_capped(tmp_path, monkeypatch):
    monkeypatch.setattr(pdf, "MAX_CHARS", 10)
    assert messages(tmp_path, one_page_pdf()) == [("SPEC001", 1, "the PDF's text is over 10 characters: not reviewed (split the document)")]


def test_a_pdf_over_the_byte_limit_is_refused(tmp_path):
    data = one_page_pdf() + b"%" + b"x" * (4 * 2**20)
    assert messages(tmp_path, data) == [("SPEC001", 1, "file is 4.0 MiB, over the 4 MiB limit")]
