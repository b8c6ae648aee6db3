"""Contracts as the vendor sends them: plain text, Markdown or PDF, read into a Contract document.

The clauses are the file's numbered sections and paragraphs. Every character of a clause keeps
the line and column (and page, for a PDF) it was read from, so a finding points at the words it
is about, not at the paragraph it sits in. Headings are not clauses: they number the paragraphs
under them and say what those paragraphs are (a "Definitions" heading makes definitions).
"""

from __future__ import annotations

import os
import re

from .loader import Document, LoadedFile, Problem, decode, too_big

SUFFIXES = (".txt", ".text", ".md", ".markdown", ".pdf")

_HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(\S.*)$")  # closing #s are stripped after: no backtracking over spaces
_UNDERLINE = re.compile(r"^\s{0,3}(=+|-+)\s*$")
# "4.2", "4.2.", "Section 4.2", "§ 4", "Article 7", "(a)", "a)", "1." at the start of a line
_NUMBER = re.compile(
    r"^\s*(?:(?:section|clause|article|§)\s*)?(\d+(?:\.\d+)*[.)]?|\([a-z0-9ivx]{1,4}\)|[a-z][.)])(?=\s)",
    re.IGNORECASE,
)
_BULLET = re.compile(r"^\s*[-*+]\s+")
_SUPPRESSION = re.compile(r"^\s*(?:#|<!--|//)\s*clusterlint:")
_DEFINITIONS = re.compile(r"\b(definitions?|interpretation|defined terms)\b", re.IGNORECASE)
_RECITALS = re.compile(r"\b(recitals?|background|preamble|whereas)\b", re.IGNORECASE)


def is_prose(path: str) -> bool:
    return path.lower().endswith(SUFFIXES)


def load(data: bytes, file: str) -> LoadedFile:
    """Read a prose contract (by its file name's suffix) into one Contract document."""
    if file.lower().endswith(".pdf"):
        from .pdf import pages

        try:
            texts = pages(data)
        except ValueError as exc:
            return LoadedFile(file, [], [], [Problem("SPEC001", str(exc), 1, 1)])
        return read_pages(texts, file)
    problem = too_big(data)
    if problem is None:
        text, problem = decode(data, "a text contract")
    if problem:
        return LoadedFile(file, [], [], [problem])
    return read_pages([text], file)


def read_pages(texts: list[str], file: str) -> LoadedFile:
    """Clauses from the pages' text; positions are (line, column) within a page, plus the page."""
    paged = file.lower().endswith(".pdf")
    pages = [_LINE_BREAK.split(text.removesuffix("\n").removesuffix("\r")) if text else [] for text in texts]
    markdown = file.lower().endswith((".md", ".markdown"))
    paragraphs = _paragraphs(_without_running_lines(pages), paged, not markdown and _double_spaced(pages))
    if not paragraphs:
        what = "the PDF has no text layer (a scanned image?): no text to review" if paged else "the file is empty: no contract text to review"
        return LoadedFile(file, [], [], [Problem("SPEC001", what, 1, 1)])
    name = os.path.splitext(os.path.basename(file))[0] or "contract"
    data = {"apiVersion": "clusterlint/v1", "kind": "Contract", "metadata": {"name": name, "source": file}, "spec": {"clauses": []}}
    doc = Document(file, 0, data)
    first = paragraphs[0][1][0]  # (offset, line, column, page) of the first segment
    for path in ((), ("kind",), ("metadata",), ("metadata", "name"), ("spec",), ("spec", "clauses")):
        doc.positions[path] = first[1:3]
    if paged:
        doc.spans[()] = [first]
    section, counter, kind = "", 0, None
    for text, where, heading in paragraphs:
        if heading:
            number = _NUMBER.match(text)
            section = number.group(1).rstrip(".)") if number else section
            counter = 0
            kind = "definition" if _DEFINITIONS.search(text) else "recital" if _RECITALS.search(text) else None
            continue
        number = _NUMBER.match(text)
        if number and number.group(1)[0].isdigit():
            ref = number.group(1).rstrip(".)")
            section, counter = ref, 0
        elif number:
            ref = f"{section}{number.group(1) if number.group(1).startswith('(') else '(' + number.group(1)[0] + ')'}"
        else:
            counter += 1
            ref = f"{section} ¶{counter}" if section else f"¶{counter}"
        clause = {"ref": ref, "text": text}
        if kind:
            clause["kind"] = kind
        i = len(data["spec"]["clauses"])
        data["spec"]["clauses"].append(clause)
        path = ("spec", "clauses", i, "text")
        doc.spans[path] = where
        doc.positions[("spec", "clauses", i)] = doc.positions[path] = doc.positions[("spec", "clauses", i, "ref")] = where[0][1:3]
    return LoadedFile(file, [] if paged else pages[0], [doc], [], pages=pages if paged else None)


# Lines end at \n, \r\n or \r only: a form feed (a PDF's page break) or a vertical tab is a
# character of its line, so it never shifts the line numbers after it (str.splitlines would).
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_PAGE_NUMBER = re.compile(r"^\W*(?:page\s+)?\d{1,4}(?:\s+(?:of|/)\s+\d{1,4})?\W*$", re.IGNORECASE)
_HYPHENATED = re.compile(r"[a-z]-$")


def _double_spaced(pages: list[list[str]]) -> bool:
    """Text extracted with a blank line after every printed line: most text lines are followed by
    exactly one blank line and then more text."""
    text = spaced = 0
    for lines in pages:
        numbers = [i for i, line in enumerate(lines) if line.strip()]
        for i, after in zip(numbers, numbers[1:]):
            text += 1
            spaced += after == i + 2
    return text >= 2 and spaced >= 0.8 * text


def _running(line: str) -> str:
    return re.sub(r"\d+", "#", " ".join(line.split()).lower())


def _without_running_lines(pages: list[list[str]]) -> list[list[str]]:
    """Pages with their running headers and footers blanked: a page number alone ("7", "Page 7 of
    12", "- 7 -") and a line repeated in the first or last three text lines of several pages.
    Lines are blanked, not removed, so every other line keeps its number."""
    edges = []
    for lines in pages:
        text = [i for i, line in enumerate(lines) if line.strip()]
        edges.append(set(text[:3] + text[-3:]))
    seen: dict[str, int] = {}
    for lines, near in zip(pages, edges):
        for key in {_running(lines[i]) for i in near}:
            seen[key] = seen.get(key, 0) + 1
    repeated = {key for key, n in seen.items() if n >= 2} if len(pages) >= 2 else set()
    out = []
    for lines, near in zip(pages, edges):
        out.append(["" if i in near and (_PAGE_NUMBER.match(line) or _running(line) in repeated) and len(pages) >= 2 else line
                    for i, line in enumerate(lines)])
    return out


def _closing_hashes(title: str) -> str:
    """A Markdown heading's text without its closing '#'s ("Terms ##" -> "Terms", "C#" stays)."""
    title = title.rstrip()
    bare = title.rstrip("#")
    return bare.rstrip() if bare != title and (not bare or bare[-1].isspace()) else title


_SMALL_WORDS = {"a", "an", "and", "for", "in", "of", "on", "or", "the", "to", "with", "by"}


def _title(line: str) -> bool:
    """A heading standing alone: a few words, each capitalised, no closing punctuation ("4. Delivery")."""
    if len(line) > 120:
        return False
    words = [w for w in line.split() if any(c.isalpha() for c in w)]
    return (
        0 < len(words) <= 8
        and not line.rstrip().endswith((".", ";", ":", ","))
        and all(w.lstrip("\"'(§")[:1].isupper() or w.lower() in _SMALL_WORDS for w in words)
    )


def _paragraphs(pages: list[list[str]], paged: bool, double_spaced: bool = False):
    """(text, segments, is_heading) for each paragraph, in order; a segment is (offset in the text,
    line, column, page: 0 when not `paged`) for each source line the paragraph joins, so memory grows with lines, not
    characters.

    A paragraph ends at a blank line, and before a numbered or bulleted line that follows a line
    ending a sentence (so a wrapped "2.10 USD" does not start a clause). A heading is a Markdown
    heading, or a short line standing alone without closing punctuation ("4. DELIVERY").
    """
    out = []
    text: list[str] = []
    where: list[tuple] = []
    state = {"lines": 0, "bullet": False, "heading": False}

    def close():
        if text:
            body = "".join(text)
            out.append((body, list(where), state["heading"] or (state["lines"] == 1 and not state["bullet"] and _title(body))))
        text.clear()
        where.clear()
        state.update(lines=0, bullet=False, heading=False)

    def add(body: str, number: int, column: int, page: int):
        if text and _HYPHENATED.search(text[-1]) and body[:1].islower():
            text[-1] = text[-1][:-1]  # "reason-" + "able": a word hyphenated across lines
        elif text:
            text.append(" ")
        where.append((sum(len(t) for t in text), number, column, page))
        text.append(body)
        state["lines"] += 1

    for number_of_page, lines in enumerate(pages, 1):
        page = number_of_page if paged else 0
        for number, raw in enumerate(lines, 1):
            line = raw.rstrip()
            if (not line.strip() and double_spaced and text and not text[-1].rstrip().endswith((".", ";", ":"))
                    and not (state["lines"] == 1 and _title(text[0]))):
                continue  # the blank line after each printed line: the sentence goes on
            if not line.strip() or _SUPPRESSION.match(line):
                close()
                continue
            if _UNDERLINE.match(line) and state["lines"] == 1:  # setext heading underline
                state["heading"] = True
                close()
                continue
            heading = _HEADING.match(line)
            if heading:
                close()
                add(_closing_hashes(heading.group(2)), number, heading.start(2) + 1, page)
                state["heading"] = True
                close()
                continue
            if state["lines"] == 1 and not state["bullet"] and _title("".join(text)):
                close()
            bullet = _BULLET.match(line)
            if text and (bullet or _NUMBER.match(line)) and text[-1].rstrip().endswith((".", ";", ":")):
                close()
            start = bullet.end() if bullet else len(line) - len(line.lstrip())
            state["bullet"] = state["bullet"] or bool(bullet and not text)
            add(line[start:], number, start + 1, page)
    close()
    return out
