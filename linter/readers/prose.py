"""Contracts as the vendor sends them: plain text, Markdown or PDF, read into a Contract document.

The clauses are the file's numbered sections and paragraphs. Every character of a clause keeps
the line and column (and page, for a PDF) it was read from, so a finding points at the words it
is about, not at the paragraph it sits in. Headings are not clauses: they number the paragraphs
under them and say what those paragraphs are (a "Definitions" heading makes definitions).
"""

from __future__ import annotations

import os
import re

from clusterlint.readers.layout import (
    RUNNING,
    double_spaced,
    front_matter,
    note,
    numbered_margin,
    table_row,
    unwrapped,
    without_comments,
    without_running_lines,
)
from clusterlint.readers.loader import Document, LoadedFile, Problem, decode, too_big

_HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(\S.*)$")  # closing #s are stripped after: no backtracking over spaces
_UNDERLINE = re.compile(r"^\s{0,3}(=+|-+)\s*$")
_RULE = re.compile(r"^[ \t]*([-*_=~])(?:[ \t]*\1){2,}[ \t]*$")
# "4.2", "4.2.", "1.2(a)(iii)", "Section 13.5(a)", "§ 5.2", "Article 7", "Article VII", "(a)", "a)", "1." at the start of a line
_NUMBER = re.compile(
    r"^\s*(?:(?:section|clause|article|§{1,2})\s*)?(?P<number>(?P<digits>\d+(?:\.\d+)*(?:\([a-z0-9]{1,4}\))*)[.)]?|\((?P<item>[a-z0-9]{1,4})\)"
    r"|(?P<letter>[a-z])[.)])(?=\s)"
    r"|^\s*article\s+(?P<number2>(?P<roman>[ivxlc]{1,6})[.:]?)(?=\s|$)",
    re.IGNORECASE,
)
_ROMAN = re.compile(r"[ivxlc]+")
_ITEMS = re.compile(r"\(([a-z0-9]{1,4})\)", re.IGNORECASE)
_BULLET = re.compile(r"^\s*[-*+]\s+")
_BOLD_HEADING = re.compile(r"^ {0,3}(\*\*|__)(?P<title>[^*_\s][^*_]{0,150}?)\1[ \t]*(?::[ \t]*)?$")  # "**4. Delivery**" alone on its line
_SUPPRESSION = re.compile(r"^\s*(?:#|<!--|//)\s*clusterlint:")
_DEFINITIONS = re.compile(r"\b(definitions?|interpretation|defined terms)\b", re.IGNORECASE)
_RECITALS = re.compile(r"\b(recitals?|background|preamble|whereas)\b", re.IGNORECASE)


def load(data: bytes, file: str) -> LoadedFile:
    """Read a prose contract (by its file name's suffix) into one Contract document."""
    if file.lower().endswith(".pdf"):
        from clusterlint.readers.pdf import pages

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
    front: dict = {}
    readable = pages
    if markdown and pages:
        first, front = front_matter(pages[0])
        readable = [without_comments(lines) for lines in [first, *pages[1:]]]
    readable = numbered_margin(without_running_lines(readable))
    paragraphs = _paragraphs(readable, paged, not markdown and double_spaced(pages), markdown, unwrapped(readable))
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
    for key, path in (("contract-kind", ("spec", "kind")), ("title", ("metadata", "title"))):
        if key in front:
            value, line, column = front[key]
            data[path[0]][path[1]] = value
            doc.positions[path] = doc.key_positions[path] = (line, column)
    title = _title_of(paragraphs) if "title" not in data["metadata"] else None
    if title is not None:
        data["metadata"]["title"] = title[0]
        doc.positions[("metadata", "title")] = title[1][0][1:3]
        if paged:
            doc.spans[("metadata", "title")] = title[1][:1]
    _clauses(paragraphs, doc, paged)
    return LoadedFile(file, [] if paged else pages[0], [doc], [], pages=pages if paged else None)


def _title_of(paragraphs: list):
    """The document's title: its first heading, when one comes before any numbered clause and among
    the first few paragraphs ("Last updated: ..." may precede it)."""
    for text, where, is_heading in paragraphs[:5]:
        if is_heading:
            return text, where
        if _NUMBER.match(text):
            return None
    return None


def _clauses(paragraphs: list, doc: Document, paged: bool) -> None:
    """The paragraphs as clauses of `doc`, each labelled by its number ("4.2", "4.2(a)(iii)") or,
    unnumbered, by its place under the last number or heading ("4 ¶2", "Service Credits ¶1"); a
    label that repeats gets its line. Each clause names the heading it sits under (`section`)."""
    clauses = doc.data["spec"]["clauses"]
    section, counter, kind, heading = "", 0, None, None
    letter = None  # (label, letter) of the last "(a)" item: "(iii)" after it is nested under it
    seen: set = set()
    for text, where, is_heading in paragraphs:
        if is_heading:
            number = _NUMBER.match(text)
            section = _number(number) if number else " ".join(text.split())[:60]
            counter, letter, heading = 0, None, (text, where)
            kind = "definition" if _DEFINITIONS.search(text) else "recital" if _RECITALS.search(text) else None
            continue
        number = _NUMBER.match(text)
        if number and (number.group("digits") or number.group("roman")):
            ref = _number(number)
            section, counter, letter = ref.split("(")[0], 0, None
            items = _ITEMS.findall(ref)
            if items:  # "13.5(a)": the "(b)" after it is 13.5(b), an "(i)" 13.5(a)(i)
                letter = (f"{section}({items[0]})", items[0].lower())
        elif number:
            item = (number.group("item") or number.group("letter")).lower()
            if letter and _ROMAN.fullmatch(item) and not _successor(letter[1], item):
                ref = f"{letter[0]}({item})"  # "(i)" after "(a)": nested; "(i)" after "(h)", "(ii)" after "(i)": the next item
            else:
                ref = f"{section}({item})"
                letter = (ref, item)
        else:
            counter += 1
            ref = f"{section} ¶{counter}" if section else f"¶{counter}"
        if ref in seen:
            ref += f" (page {where[0][3]} line {where[0][1]})" if paged else f" (line {where[0][1]})"
        seen.add(ref)
        clause = {"ref": ref, "text": text}
        if kind:
            clause["kind"] = kind
        i = len(clauses)
        path = ("spec", "clauses", i, "text")
        if heading:
            clause["section"] = heading[0]
            doc.positions[("spec", "clauses", i, "section")] = heading[1][0][1:3]
            doc.spans[("spec", "clauses", i, "section")] = heading[1][:1]
        clauses.append(clause)
        doc.spans[path] = where
        doc.positions[("spec", "clauses", i)] = doc.positions[path] = doc.positions[("spec", "clauses", i, "ref")] = where[0][1:3]


def _number(match: re.Match) -> str:
    """A clause number as its label: "4.2." -> "4.2", "13.5(a)" stays, "Article VII" -> "VII"."""
    return match.group("digits") or match.group("roman")


_ROMANS = ("i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii")


def _successor(previous: str, item: str) -> bool:
    """Whether list item `item` follows `previous` in one scheme: "b" after "a", "ii" after "i"."""
    if previous in _ROMANS and item in _ROMANS and _ROMANS.index(item) == _ROMANS.index(previous) + 1:
        return True
    return len(previous) == len(item) == 1 and ord(item) == ord(previous) + 1


# Lines end at \n, \r\n or \r only: a form feed (a PDF's page break) or a vertical tab is a
# character of its line, so it never shifts the line numbers after it (str.splitlines would).
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_HYPHENATED = re.compile(r"[a-z]-$")
def _closing_hashes(title: str) -> str:
    """A Markdown heading's text without its closing '#'s ("Terms ##" -> "Terms", "C#" stays)."""
    title = title.rstrip()
    bare = title.rstrip("#")
    return bare.rstrip() if bare != title and (not bare or bare[-1].isspace()) else title


_SMALL_WORDS = {"a", "an", "and", "for", "in", "of", "on", "or", "the", "to", "with", "by"}
# words no heading ends with: a capitalised line that ends with one runs on ("THE CREDITS ABOVE ARE")
_RUNS_ON = _SMALL_WORDS | {"is", "are", "be", "shall", "will", "may", "must", "that", "any", "all", "your", "its", "their", "our"}
# words no heading holds: a capitalised line with one is a sentence wrapped across lines ("DOWNTIME MEANS ANY PERIOD")
_IN_A_SENTENCE = {"means", "shall", "will", "must", "which", "whereby", "are", "has", "have", "except", "notwithstanding"}
# ("EXCEPT FOR THE SERVICE CREDITS DESCRIBED" is the first line of an all-caps limitation, not a heading)


_BROKEN_WORD = re.compile(r"[^\W\d_]-\s*$")  # a word broken at the line's end ("FAIL-"): the sentence runs on
_RUN_IN = re.compile(r"[^\W\d_]{2}[.;:]\s+[A-Z][a-z]")  # a heading run into its first sentence: "9.4 Service Credits. Service Credits represent"


def _title(line: str) -> bool:
    """A heading standing alone: a few words, each capitalised, no closing punctuation ("4. Delivery"),
    not ending with a word that needs more after it (an all-caps disclaimer wrapped across lines)."""
    if len(line) > 120 or line.rstrip().endswith((".", ";", ":", ",")):
        return False  # the cheap tests first: most lines of a contract end a sentence
    words = [w for w in line.split() if any(c.isalpha() for c in w)]
    return (
        0 < len(words) <= 8
        and all(w.lstrip("\"'(§")[:1].isupper() or w.lower() in _SMALL_WORDS for w in words)
        and (len(words) == 1 or line.split()[-1].lower() not in _RUNS_ON)
        and not _BROKEN_WORD.search(line)
        and not _RUN_IN.search(line)
        and not any(w.lower() in _IN_A_SENTENCE for w in words)
    )


def _paragraphs(pages: list[list[str]], paged: bool, double_spaced: bool = False, markdown: bool = False, unwrapped: bool = False):
    """(text, segments, is_heading) for each paragraph, in order; a segment is (offset in the text,
    line, column, page: 0 when not `paged`) for each source line the paragraph joins, so memory grows with lines, not
    characters.

    A paragraph ends at a blank line, and before a numbered or bulleted line that follows a line
    ending a sentence (so a wrapped "2.10 USD" does not start a clause). Bullets after a lead-in
    that ends with a colon, and bullets nested under a bullet, stay with it (blank lines between
    them too), so a definition list or "Customer shall not: - ...; - ..." is one clause. A heading
    is a Markdown heading, a bold-only Markdown line ("**4. Delivery**"), or a short line standing
    alone without closing punctuation ("4. DELIVERY").

    A table (Markdown rows, or cells between tabs) is a paragraph of its own, its rows joined by line
    breaks and its header row no heading. A note ("Note: ...", "* Excludes ...", "[1] ...") starts a
    paragraph. In `unwrapped` text (a web page saved as text) each line ends its paragraph, except a
    lead-in ending with a colon, which keeps the short lines after it as its items.
    """
    out = []
    text: list[str] = []
    where: list[tuple] = []
    state = {"lines": 0, "bullet": False, "heading": False, "listing": False, "length": 0, "table": False}

    def close():
        if text:
            body = "".join(text)
            alone = state["lines"] == 1 and not state["bullet"] and not state["table"]
            out.append((body, list(where), state["heading"] or (alone and _title(body))))
        text.clear()
        where.clear()
        state.update(lines=0, bullet=False, heading=False, listing=False, length=0, table=False)

    def add(body: str, number: int, column: int, page: int):
        if text and _HYPHENATED.search(text[-1]) and body[:1].islower() and not state["table"]:
            text[-1] = text[-1][:-1]  # "reason-" + "able": a word hyphenated across lines
            state["length"] -= 1
        elif text:
            text.append("\n" if state["table"] else " ")  # a table's rows stay rows
            state["length"] += 1
        where.append((state["length"], number, column, page))
        text.append(body)
        state["length"] += len(body)
        state["lines"] += 1

    def heading(title: str, number: int, column: int, page: int):
        close()
        add(title, number, column, page)
        state["heading"] = True
        close()

    for number_of_page, lines in enumerate(pages, 1):
        page = number_of_page if paged else 0
        following = _next_text(lines)
        for number, raw in enumerate(lines, 1):
            if raw == RUNNING:
                if text and not text[-1].rstrip().endswith((".", ";", ":")):
                    continue  # a sentence that runs on past the page's footer or the next page's header
                close()
                continue
            line = raw.rstrip()
            if (not line.strip() and double_spaced and text and not text[-1].rstrip().endswith((".", ";", ":"))
                    and not (state["lines"] == 1 and _title(text[0]))):
                continue  # the blank line after each printed line: the sentence goes on
            if not line.strip() and text and (state["listing"] or text[-1].rstrip().endswith(":")) and following[number - 1] is not None and _BULLET.match(lines[following[number - 1]]):
                continue  # a loose list: the next item still belongs to the lead-in
            if not line.strip() or _SUPPRESSION.match(line):
                close()
                continue
            if _UNDERLINE.match(line) and state["lines"] == 1:  # setext heading underline
                state["heading"] = True
                close()
                continue
            if _RULE.match(line):  # a separator line ("---", "***", "====="): no text
                close()
                continue
            found = _HEADING.match(line)
            if found:
                heading(_closing_hashes(found.group(2)), number, found.start(2) + 1, page)
                continue
            found = _BOLD_HEADING.match(line) if markdown else None
            if found and _bold_title(found.group("title")):
                heading(found.group("title").strip(), number, found.start("title") + 1, page)
                continue
            numbered = _NUMBER.match(line)
            row = table_row(line, bool(numbered))
            if row or state["table"]:
                if not state["table"] or not row:
                    close()
                if row == "rule":
                    continue  # the line under a table's header row: no text
                if row:
                    state["table"] = True
                    start = len(line) - len(line.lstrip())
                    add(line[start:], number, start + 1, page)
                    continue
            if text and (note(line) or unwrapped and state["listing"] and _ends_items(line, numbered, lines, following[number - 1])):
                close()  # a note is no end of the sentence before it; a long line ends a lead-in's items
            if state["lines"] == 1 and not state["bullet"] and _title("".join(text)):
                close()
            bullet = _BULLET.match(line)
            ends = text and text[-1].rstrip().endswith((".", ";", ":"))
            nested = state["bullet"] and line[:2].isspace()
            if bullet and text and (state["listing"] or text[-1].rstrip().endswith(":") or nested):
                state["listing"] = True  # an item of the lead-in's list, or nested under a bullet
            elif ends and (bullet or numbered):
                close()
            start = bullet.end() if bullet else len(line) - len(line.lstrip())
            state["bullet"] = state["bullet"] or bool(bullet and not text)
            add(line[start:], number, start + 1, page)
            if unwrapped and line.endswith(":"):
                state["listing"] = True  # a lead-in: its items follow, one a line
            elif unwrapped and not state["listing"]:
                close()
    close()
    return out


def _ends_items(line: str, numbered, lines: list[str], after) -> bool:
    """Whether `line` of a web page saved as text ends a lead-in's items: a paragraph-long line (over 150 characters), a
    numbered section, or a heading (a title line over a paragraph-long line)."""
    long = len(line) > 150
    return long or bool(numbered and numbered.group("digits")) or (after is not None and len(lines[after]) > 150 and _title(line))


_MODAL_VERB = re.compile(r"\b(?:shall|will|must|may|agrees?|undertakes?|warrants?)\b", re.IGNORECASE)


def _bold_title(title: str) -> bool:
    """A bold-only line is a heading when it reads as one: a few words, no modal verb, no clause
    punctuation ("**4. Delivery**"); a sentence set in bold ("**Provider shall deliver ...**") is a clause."""
    return len(title.split()) <= 10 and not _MODAL_VERB.search(title) and not title.rstrip().endswith((";", ","))


def _next_text(lines: list[str]) -> list:
    """For each line, the index of the next line that holds text (None at the end): one pass."""
    out: list = [None] * len(lines)
    upcoming = None
    for i in range(len(lines) - 1, -1, -1):
        out[i] = upcoming
        if lines[i].strip() and lines[i] != RUNNING:
            upcoming = i
    return out
