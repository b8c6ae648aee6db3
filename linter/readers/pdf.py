"""PDF contracts: the text layer of each page, through the optional `pypdf` extra.

A PDF obeys the byte limit of every file, plus a cap on pages (counted on the page tree before any
page is read, so a tree that lists one page thousands of times is refused in microseconds), on the
decompressed content of each page and of the whole (a 14 KB stream that inflates to 4.6 MB is
refused before the text extractor spends seconds on it) and on extracted characters. Each is refused with a reason the caller reports as SPEC001.
"""

from __future__ import annotations

import io
import logging

INSTALL = "pip install 'clusterlint[pdf]'"
MAX_PAGES = 1000  # a long master agreement has a few hundred
MAX_CHARS = 2**21  # 2 Mi characters of text: ten times a long contract
MAX_PAGE_CONTENT = 2**20  # decompressed content (drawing operators) of a page and its forms: a dense text page has 10-100 KB
MAX_CONTENT = 2**24  # ... and of the whole document: the text extractor reads about 1 MB of operators a second
_MAX_TREE_NODES = 4 * MAX_PAGES  # page-tree nodes visited while counting (cycles, deep trees)


def pages(data: bytes) -> list[str]:
    """The text of each page, in order. ValueError with a message a user can act on."""
    from clusterlint.readers.loader import too_big

    try:
        from pypdf import PdfReader
        from pypdf.errors import PdfReadError
    except ImportError:
        raise ValueError(f"reading PDF contracts needs the pdf extra: {INSTALL}") from None
    logging.getLogger("pypdf").setLevel(logging.ERROR)  # its warnings about sloppy PDFs are not findings
    problem = too_big(data)
    if problem:
        raise ValueError(problem.message)
    if not data.startswith(b"%PDF-"):
        raise ValueError("not a PDF file: it does not start with %PDF-")
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            try:
                reader.decrypt("")
            except Exception:
                raise ValueError("the PDF is encrypted: save an unprotected copy to review it") from None
        _count_pages(reader)
        texts, total, content = [], 0, 0
        for number, page in enumerate(reader.pages, 1):
            size = _content_size(page)
            content += size
            if size > MAX_PAGE_CONTENT or content > MAX_CONTENT:
                raise ValueError(f"the PDF's page {number} inflates to {size / 2**20:.1f} MiB of content ({content / 2**20:.1f} MiB so far), "
                                 f"over the limit of {MAX_PAGE_CONTENT // 2**20} MiB a page and {MAX_CONTENT // 2**20} MiB in all: "
                                 "not reviewed (a compression bomb?)")
            text = page.extract_text() or ""
            total += len(text)
            if total > MAX_CHARS:
                raise ValueError(f"the PDF's text is over {MAX_CHARS:,} characters: not reviewed (split the document)")
            texts.append(text)
        return texts
    except ValueError as exc:
        if str(exc).startswith(("the PDF", "not a PDF")):
            raise
        raise ValueError(f"cannot read the PDF (ValueError: {exc})") from None
    except NotImplementedError as exc:  # an unsupported stream filter, e.g. /FooDecode (pypdf's words in brackets)
        raise ValueError(f"cannot read the PDF: a stream uses a filter the reader does not support ({exc}); "
                         "save it again with standard compression") from None
    except PdfReadError as exc:
        raise ValueError(f"cannot read the PDF ({type(exc).__name__}: {exc})") from None
    except Exception as exc:  # pypdf on hostile input: JBIG2 without its decoder, broken objects, recursion
        if type(exc).__name__ == "DependencyError":
            raise ValueError(f"cannot read the PDF: a stream needs a decoder that is not installed ({exc}); "
                             "save it again with standard compression") from None
        raise ValueError(f"cannot read the PDF ({type(exc).__name__}: {exc})") from None


def _content_size(page) -> int:
    """Bytes of the page's content streams and of the forms its resources name, decompressed
    (each once; pypdf keeps the decoded data for the text extraction that follows)."""
    streams = page.get("/Contents")
    streams = [] if streams is None else streams.get_object()
    if not isinstance(streams, list):
        streams = [streams]
    resources = page.get("/Resources")
    xobjects = resources.get_object().get("/XObject") if resources is not None else None
    if xobjects is not None:
        forms = [x.get_object() for x in xobjects.get_object().values()]
        streams += [form for form in forms if hasattr(form, "get") and form.get("/Subtype") == "/Form"]
    return sum(len(stream.get_object().get_data()) for stream in streams)


def _count_pages(reader) -> int:
    """Leaves of the page tree, counted without building pages; ValueError over MAX_PAGES."""
    stack = [reader.trailer["/Root"].get_object()["/Pages"]]
    count = visited = 0
    while stack:
        node = stack.pop().get_object()
        visited += 1
        if visited > _MAX_TREE_NODES:
            raise ValueError(f"the PDF's page tree has over {_MAX_TREE_NODES:,} entries (a loop?): not reviewed")
        kids = node.get("/Kids") if hasattr(node, "get") else None
        if kids is None:
            count += 1
            if count > MAX_PAGES:
                raise ValueError(f"the PDF has over {MAX_PAGES:,} pages (its page tree may list one page many times): not reviewed")
        else:
            stack.extend(reversed(list(kids.get_object())))
    return count
