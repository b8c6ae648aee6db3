"""PDF contracts: the text layer of each page, through the optional `pypdf` extra."""

from __future__ import annotations

import io
import logging

INSTALL = "pip install 'clusterlint[pdf]'"


def pages(data: bytes) -> list[str]:
    """The text of each page, in order. ValueError with a message a user can act on."""
    try:
        from pypdf import PdfReader
        from pypdf.errors import PdfReadError
    except ImportError:
        raise ValueError(f"reading PDF contracts needs the pdf extra: {INSTALL}") from None
    logging.getLogger("pypdf").setLevel(logging.ERROR)  # its warnings about sloppy PDFs are not findings
    from .loader import too_big

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
        return [page.extract_text() or "" for page in reader.pages]
    except (PdfReadError, KeyError, TypeError, AttributeError) as exc:
        raise ValueError(f"cannot read the PDF ({type(exc).__name__}: {exc})") from None
