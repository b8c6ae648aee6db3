"""The layout of a page of contract text, read before its sentences: running headers and footers,
line numbers in the margin, tables, notes, and text saved from a web page with one paragraph a line
and no blank lines between them."""

from __future__ import annotations

import re

RUNNING = "\x00"  # a header or footer line: no text, and no break in a sentence that runs past it
_PAGE_OF = re.compile(r"^\W*page\s+\d{1,4}\s+(?:of|/)\s+\d{1,4}\W*$", re.IGNORECASE)  # "Page 7 of 12": a footer wherever it is
_PAGE_NUMBER = re.compile(r"^\W*(?:page\s+)?\d{1,4}(?:\s+(?:of|/)\s+\d{1,4})?\W*$", re.IGNORECASE)


def double_spaced(pages: list[list[str]]) -> bool:
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


def without_running_lines(pages: list[list[str]]) -> list[list[str]]:
    """Pages with their running headers and footers blanked: a page number alone ("7", "Page 7 of
    12", "- 7 -") and a line repeated in the first or last three text lines of several pages.
    Lines are marked RUNNING, not removed, so every other line keeps its number."""
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
        out.append([RUNNING if _PAGE_OF.match(line) or i in near and (_PAGE_NUMBER.match(line) or _running(line) in repeated) and len(pages) >= 2
                    else line for i, line in enumerate(lines)])
    return out




# ---- tables: a Markdown table's rows, or a table saved from a web page with its cells between tabs
_TABLE_ROW = re.compile(r"^[ \t]*\|.*\|[ \t]*$")
_RULE_CHARS = frozenset("|-: \t")  # a header separator is made of these alone ("|---|:--:|")
_TAB_CELLS = re.compile(r"\S\t+\S")


def table_row(line: str, starts_numbered: bool) -> str | None:
    """"rule" for a table's header separator ("|---|:--:|"), "row" for a row of cells ("| 99.0% | 10% |",
    or cells between tabs), None for a line of text. A numbered line with a tab after its number
    ("1.1\tProvider shall ...") is text."""
    if "|" in line:
        if "--" in line and _RULE_CHARS.issuperset(line):
            return "rule"
        if _TABLE_ROW.match(line) and line.count("|") >= 3:
            return "row"
    if "\t" in line and not starts_numbered and _TAB_CELLS.search(line):
        return "row"
    return None


# ---- notes: "Note: ...", "* Excludes ...", "[1] ...", "¹ ...", "[^1]: ...": their own clause, never the end of the sentence before
_NOTE = re.compile(r"^[ \t]*(?:notes?[ \t]*[:.\u2013\u2014-][ \t]*\S|\*(?=[^*\s])|[\u2020\u2021][ \t]*\S|\[\^?\d{1,2}\]:?[ \t]+\S|[\u00b9\u00b2\u00b3\u2070-\u2079]+[ \t]*[A-Za-z])", re.IGNORECASE)


def note(line: str) -> bool:
    return bool(_NOTE.match(line))


# ---- line numbers printed in a PDF's margin ("1  The Contractor shall", "2  deliver the ..."): blanked
_MARGIN = re.compile(r"^([ \t]*)(\d{1,3})([ \t]+)(?=\S)")


def numbered_margin(pages: list[list[str]]) -> list[list[str]]:
    """Pages with the line numbers of a numbered-line layout turned to spaces (columns kept): a run
    of at least five text lines each led by a bare number one more than the last."""
    out = []
    for lines in pages:
        lines = list(lines)
        run: list[int] = []
        for i in [*range(len(lines)), None]:
            match = _MARGIN.match(lines[i]) if i is not None and lines[i].strip() else None
            if i is not None and not lines[i].strip():
                continue
            if match and (not run or int(match.group(2)) == int(_MARGIN.match(lines[run[-1]]).group(2)) + 1):
                run.append(i)
                continue
            if len(run) >= 5:
                for j in run:
                    m = _MARGIN.match(lines[j])
                    lines[j] = " " * m.end() + lines[j][m.end():]
            run = [i] if match else []
        out.append(lines)
    return out


def unwrapped(pages: list[list[str]]) -> bool:
    """Text saved from a web page: one paragraph a line and (almost) no blank lines between them, so
    each line ends its paragraph. A wrapped text's lines are short; this one's are long."""
    lines = [line for page in pages for line in page]
    text = [line for line in lines if line.strip() and line != RUNNING]
    if len(text) < 4:
        return False
    blank = len(lines) - len(text)
    long = sum(len(line) > 120 for line in text)
    return blank < 0.1 * len(text) and long >= max(2, 0.15 * len(text))


_YAMLISH = re.compile(r"^(?:[\w-]{1,40}[ \t]*:(?:\s|$)|[ \t]|-[ \t]|#)")  # a key, a continuation, a list item, a comment
_FRONT_KEY = re.compile(r"^(?P<key>[A-Za-z][\w-]{0,40})[ \t]*:[ \t]*(?P<value>.{0,200}?)[ \t]*$")


def front_matter(lines: list[str]) -> tuple[list[str], dict]:
    """A Markdown file's YAML front matter (between '---' lines at its top) blanked, so it is no
    clause, and its plain `key: value` lines: {key: (value, line, column of the value)}."""
    if not lines or lines[0].strip() != "---":
        return lines, {}
    for end in range(1, min(len(lines), 200)):
        if lines[end].strip() in ("---", "..."):
            break
    else:
        return lines, {}
    if not all(_YAMLISH.match(line) for line in lines[1:end] if line.strip()):
        return lines, {}  # a thematic break over prose, not front matter
    keys = {}
    for number in range(1, end):
        match = _FRONT_KEY.match(lines[number])
        if match:
            value = match.group("value").strip("\"'")
            keys[match.group("key").lower()] = (value, number + 1, match.start("value") + 1)
    return [""] * (end + 1) + lines[end + 1 :], keys


_COMMENT_OPEN, _COMMENT_CLOSE = "<!--", "-->"


def without_comments(lines: list[str]) -> list[str]:
    """Lines with their HTML comments (on one line or across several) turned to spaces: a comment is
    no clause and no heading, and every other character keeps its column."""
    out, open_ = [], False
    for line in lines:
        if not open_ and _COMMENT_OPEN not in line:
            out.append(line)
            continue
        chars, i = list(line), 0
        while i < len(line):
            if open_:
                end = line.find(_COMMENT_CLOSE, i)
                stop = len(line) if end < 0 else end + len(_COMMENT_CLOSE)
                chars[i:stop] = " " * (stop - i)
                open_, i = end < 0, stop
            else:
                start = line.find(_COMMENT_OPEN, i)
                if start < 0 or (line.find(_COMMENT_CLOSE, start + 4) < 0 and line[:start].strip()):
                    break  # no comment, or an unclosed "<!--" inside a line: text, as Markdown reads it
                open_, i = True, start
        out.append("".join(chars))
    return out
