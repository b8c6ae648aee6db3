"""Contracts as vendors send them: text, Markdown and PDF, read into clauses with exact places."""

from __future__ import annotations

import time
import zlib

import pytest
from hypothesis import given, settings, strategies as st

from clusterlint.readers.prose import load

from conftest import SPECS, check_json, run_cli

WEAK = "1. Delivery\n\n1.1 Provider will use commercially\nreasonable efforts to deliver the Cluster.\n"


def _clauses(text: str, name: str = "c.txt"):
    loaded = load(text.encode("utf-8"), name)
    assert loaded.problems == []
    return loaded.documents[0]


def test_numbered_sections_headings_and_paragraphs_become_clauses():
    doc = _clauses(
        "MASTER AGREEMENT\n\n1. DEFINITIONS\n\"Uptime\" means minutes up.\n\n2. Delivery\n2.1 Provider shall deliver.\n"
        "2.2 Provider shall test.\n(a) with nccl-tests;\nPlain paragraph after.\n\nAnother paragraph.\n"
    )
    clauses = doc.data["spec"]["clauses"]
    assert [(c["ref"], c.get("kind")) for c in clauses] == [("1 ¶1", "definition"), ("2.1", None), ("2.2", None), ("2.2(a)", None), ("2.2 ¶1", None)]
    assert clauses[3]["text"] == "(a) with nccl-tests; Plain paragraph after."


def test_a_wrapped_amount_does_not_start_a_clause():
    doc = _clauses("4.1 The price is charged at a rate of\n2.10 USD per GPU-hour.\n")
    assert [c["text"] for c in doc.data["spec"]["clauses"]] == ["4.1 The price is charged at a rate of 2.10 USD per GPU-hour."]


def test_findings_point_at_the_words_across_line_breaks():
    path = SPECS / "nimbus-gpu-cloud-sla.md"
    report = check_json(str(path))
    lines = path.read_text(encoding="utf-8").splitlines()
    for f in report["findings"]:
        if f["rule"] == "CON001" and f["line"] == 18:
            assert lines[17][f["column"] - 1 :].startswith("commercially reasonable efforts")
            break
    else:
        pytest.fail("no CON001 on line 18")


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_line_endings_do_not_move_findings(tmp_path, newline):
    path = tmp_path / "msa.txt"
    path.write_bytes(WEAK.replace("\n", newline).encode("utf-8"))
    report = check_json(str(path))
    assert [(f["line"], f["column"]) for f in report["findings"] if f["rule"] == "CON001"] == [(3, 23)]
    assert not [f for f in report["findings"] if "page" in f]  # only PDFs have pages


def test_utf8_bom_and_markdown_emphasis(tmp_path):
    path = tmp_path / "terms.md"
    path.write_bytes("\ufeff## 3. Service\n\n3.1 Provider will use **best\nefforts** to keep nodes up.\n".encode("utf-8"))
    found = [f for f in check_json(str(path))["findings"] if f["rule"] == "CON001"]
    assert [(f["line"], f["column"], f["message"].split(":")[0]) for f in found] == [(3, 25, 'clause 3.1 is a vendor obligation ("Provider" + "will") that promises only \'best efforts\'')]


def test_empty_file_is_a_clear_error(tmp_path):
    path = tmp_path / "empty.txt"
    path.write_bytes(b"  \n\n")
    code, out, _ = run_cli("check", str(path))
    assert code == 1
    assert f"{path}:1:1: SPEC001 [error] the file is empty: no contract text to review" in out


def test_non_utf8_names_the_byte_and_its_place(tmp_path):
    path = tmp_path / "latin1.txt"
    path.write_bytes("1.1 Provider shall deliver.\n1.2 Caf\u00e9 terms.\n".encode("latin-1"))
    finding = check_json(str(path))["findings"][0]
    assert (finding["rule"], finding["line"], finding["column"]) == ("SPEC001", 2, 8)
    assert finding["message"].startswith("not valid UTF-8: byte 0xe9 cannot be decoded")


def test_enormous_single_line_is_read_in_bounded_time(tmp_path):
    path = tmp_path / "one-line.txt"
    path.write_bytes(b"Provider will deliver the nodes and " * 100_000 + b"use reasonable efforts.")  # 3.6 MB, one line
    start = time.perf_counter()
    report = check_json(str(path))
    assert [f["rule"] for f in report["findings"] if f["rule"] == "CON001"] == ["CON001"]
    assert time.perf_counter() - start < 60  # a guard against quadratic scans, not a benchmark
    too_big = tmp_path / "huge.txt"
    too_big.write_bytes(b"x" * (4 * 2**20 + 1))
    assert check_json(str(too_big))["findings"][0]["message"] == "file is 4.0 MiB, over the 4 MiB limit"


def test_directories_recurse_only_into_yaml(tmp_path):
    (tmp_path / "msa.txt").write_text(WEAK, encoding="utf-8")
    code, _, err = run_cli("check", str(tmp_path))
    assert code == 2 and "no clusterlint documents found" in err


def test_contract_option_reviews_a_cluster_with_a_text_contract():
    with_contract = check_json(str(SPECS / "gcp-a3-highgpu-8g.yaml"), "--contract", str(SPECS / "nimbus-gpu-cloud-sla.md"))
    files = {f["file"] for f in with_contract["findings"] if f["rule"].startswith("CON")}
    assert files == {"specs/nimbus-gpu-cloud-sla.md"}
    assert not [s for s in with_contract["skipped"] if s["rule"].startswith("CON")]


def test_unknown_extension_is_a_usage_error(tmp_path):
    path = tmp_path / "msa.docx"
    path.write_bytes(b"PK")
    code, _, err = run_cli("check", str(path))
    assert code == 2 and "not a spec (.yaml, .yml) or a contract (.txt, .md, .pdf)" in err


# ---------------------------------------------------------------- PDF


def _pdf(pages: list[list[str]] | None = None, image: bool = False) -> bytes:
    """A small, valid PDF: a text layer with `pages` of lines (Helvetica), or one image and no text."""
    objects: list[bytes] = []
    page_ids = []
    kids_at = 2
    font_id = 3
    next_id = 4
    body = []
    for lines in pages or [[]]:
        if image:
            stream = b"q 200 0 0 200 72 500 cm /Im1 Do Q"
            resources = f"<< /XObject << /Im1 {next_id + 2} 0 R >> >>".encode()
        else:
            ops = ["BT /F1 11 Tf 14 TL 72 760 Td"] + [f"({line}) Tj T*" for line in lines] + ["ET"]
            stream = "\n".join(ops).encode("latin-1")
            resources = f"<< /Font << /F1 {font_id} 0 R >> >>".encode()
        page_id, content_id = next_id, next_id + 1
        next_id += 3 if image else 2
        page_ids.append(page_id)
        body.append((page_id, b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources " + resources + f" /Contents {content_id} 0 R >>".encode()))
        body.append((content_id, f"<< /Length {len(stream)} >>\nstream\n".encode() + stream + b"\nendstream"))
        if image:
            pixels = zlib.compress(bytes(range(256)) * 4)
            body.append((page_id + 2, f"<< /Type /XObject /Subtype /Image /Width 32 /Height 32 /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode /Length {len(pixels)} >>\nstream\n".encode() + pixels + b"\nendstream"))
    objects = [
        (1, b"<< /Type /Catalog /Pages 2 0 R >>"),
        (kids_at, f"<< /Type /Pages /Kids [{' '.join(f'{p} 0 R' for p in page_ids)}] /Count {len(page_ids)} >>".encode()),
        (font_id, b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"),
        *body,
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = {}
    for number, content in sorted(objects):
        offsets[number] = len(out)
        out += f"{number} 0 obj\n".encode() + content + b"\nendobj\n"
    xref = len(out)
    count = max(offsets) + 1
    out += f"xref\n0 {count}\n0000000000 65535 f \n".encode()
    for number in range(1, count):
        out += f"{offsets[number]:010d} 00000 n \n".encode()
    out += f"trailer\n<< /Size {count} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def test_pdf_findings_point_at_page_and_line(tmp_path):
    path = tmp_path / "msa.pdf"
    path.write_bytes(_pdf([
        ["1. Delivery", "", "1.1 Provider shall deliver 32 nodes by 2027-01-15."],
        ["2. Service", "", "2.1 Provider will use commercially reasonable", "efforts to keep the nodes up."],
    ]))
    code, out, _ = run_cli("check", str(path))
    report = check_json(str(path))
    found = [f for f in report["findings"] if f["rule"] == "CON001"]
    # pypdf drops the empty line: "2.1 ..." is the page's second line of text
    assert [(f["page"], f["line"], f["column"]) for f in found] == [(2, 2, 23)]
    assert f"{path}:page 2:2:23: CON001 [error]" in out
    assert "2 | 2.1 Provider will use commercially reasonable" in out


def test_scanned_pdf_without_text_layer_says_so(tmp_path):
    path = tmp_path / "scan.pdf"
    path.write_bytes(_pdf([[]], image=True))
    finding = check_json(str(path))["findings"][0]
    assert finding["message"] == "the PDF has no text layer (a scanned image?): no text to review"


def test_pdf_without_the_extra_says_how_to_install(tmp_path, monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_pypdf(name, *args, **kwargs):
        if name == "pypdf" or name.startswith("pypdf."):
            raise ImportError("No module named 'pypdf'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pypdf)
    path = tmp_path / "msa.pdf"
    path.write_bytes(_pdf([["1.1 Provider shall deliver."]]))
    finding = check_json(str(path))["findings"][0]
    assert finding["message"] == "reading PDF contracts needs the pdf extra: pip install 'clusterlint[pdf]'"


def test_a_file_named_pdf_that_is_not_one(tmp_path):
    path = tmp_path / "fake.pdf"
    path.write_bytes(b"1.1 Provider will use best efforts.")
    assert check_json(str(path))["findings"][0]["message"] == "not a PDF file: it does not start with %PDF-"


def test_markdown_front_matter_and_comments_are_no_clauses():
    doc = _clauses("---\ntitle: Nimbus Terms\nowner: legal\n---\n<!-- reviewed 2026-11 -->\n# Terms\n\n"
                   "1. Provider shall host <!-- was: may host --> the nodes.\n<!--\n2. Provider shall never\nfail.\n-->\n", "t.md")
    clauses = doc.data["spec"]["clauses"]
    assert [(c["ref"], " ".join(c["text"].split())) for c in clauses] == [("1", "1. Provider shall host the nodes.")]
    assert doc.data["metadata"]["title"] == "Nimbus Terms" and doc.positions[("metadata", "title")] == (2, 8)
    assert doc.positions[("spec", "clauses", 0, "text")] == (8, 1)


def test_bold_only_lines_are_headings_and_nested_bullets_stay_with_their_lead_in():
    doc = _clauses("**Definitions**\n\nIn this Agreement:\n\n- \"Cluster\" means the nodes;\n\n- \"Downtime\" means minutes in which:\n"
                   "  - no node answers; or\n  - the fabric is down.\n\n__4. Delivery__\n\n- Provider shall deliver.\n- Provider shall test.\n",
                   "t.md")
    clauses = doc.data["spec"]["clauses"]
    assert [(c["ref"], c.get("kind"), c.get("section")) for c in clauses] == [
        ("Definitions ¶1", "definition", "Definitions"), ("4 ¶1", None, "4. Delivery"), ("4 ¶2", None, "4. Delivery")]
    assert clauses[0]["text"] == ('In this Agreement: "Cluster" means the nodes; "Downtime" means minutes in which: no node answers; '
                                  "or the fabric is down.")
    assert doc.positions[("spec", "clauses", 1, "section")] == (11, 3)  # the heading's words, inside the underscores


def test_numbering_schemes_and_unique_labels():
    doc = _clauses("Section 13.5(a) Customer shall pay.\n(i) in USD;\n(ii) by wire.\n(b) Provider shall invoice.\n(h) x;\n(i) y.\n\n"
                   "§ 5.2 Fees apply.\n\nArticle VII. Provider shall host.\n\n1.2(a)(iii) Provider shall test.\n\n"
                   "## Notes\n\nFirst.\n\n## Notes\n\nSecond.\n", "t.md")
    assert [c["ref"] for c in doc.data["spec"]["clauses"]] == [
        "13.5(a)", "13.5(a)(i)", "13.5(a)(ii)", "13.5(b)", "13.5(h)", "13.5(i)", "5.2", "VII", "1.2(a)(iii)",
        "Notes ¶1", "Notes ¶1 (line 20)"]


def test_what_only_looks_like_front_matter_a_comment_or_a_bold_heading_stays_text():
    doc = _clauses("---\n\n1.1 Provider shall host the nodes.\n\n---\n\n**Provider shall deliver by 2027-01-15.**\n\n"
                   "1.2 Prices in <!-- USD apply.\n", "t.md")
    assert [c["text"] for c in doc.data["spec"]["clauses"]] == [
        "1.1 Provider shall host the nodes.", "**Provider shall deliver by 2027-01-15.**", "1.2 Prices in <!-- USD apply."]


_SHAPES = ["# Terms", "## 4. Delivery", "**Fees**", "1. Provider shall host.", "1.2(a) Customer shall pay.", "(a) first;", "(i) sub;",
           "(ii) sub;", "- item;", "  - nested.", "Plain text.", "In this Agreement:", "", "", "<!-- note -->", "<!--", "hidden", "-->",
           "Article VII. Terms", "---", "Section 13.5(a) Fees apply."]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(_SHAPES), max_size=30))
def test_markdown_labels_are_unique_and_never_point_into_a_comment(shapes):
    source = "\n".join(shapes) + "\n"
    loaded = load(source.encode("utf-8"), "t.md")
    if not loaded.documents:
        return  # nothing but blanks, comments and separators: SPEC001 says the file is empty
    doc = loaded.documents[0]
    refs = [c["ref"] for c in doc.data["spec"]["clauses"]]
    assert len(refs) == len(set(refs))
    hidden, inside = set(), False  # lines inside a block comment
    for number, line in enumerate(shapes, 1):
        if inside or line.startswith("<!--"):
            hidden.add(number)
        inside = (inside or line.startswith("<!--")) and "-->" not in line
    for i, clause in enumerate(doc.data["spec"]["clauses"]):
        line, column = doc.positions[("spec", "clauses", i, "text")]
        assert line not in hidden
        rest = shapes[line - 1][column - 1 :]
        assert clause["text"][: min(5, len(rest))] == rest[:5]
        if "section" in clause:
            assert doc.positions[("spec", "clauses", i, "section")][0] not in hidden
