"""One escape function per output syntax. Every string that comes from a user's file (file names,
messages that quote spec or contract text, source lines) passes through the one for its format.
"""

from __future__ import annotations

import re

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")  # C0, C1, line separators, bidi controls
_CONTROL_NOT_LAYOUT = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")  # _CONTROL less tab and newline, and lone surrogates
_XML_ILLEGAL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _visible(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def terminal(text: str) -> str:
    """A message or file name for a terminal: control characters (escape sequences, carriage
    returns, newlines, bidi overrides) written as visible escapes, so they neither act nor hide."""
    text = str(text)
    if text.isprintable():  # no character of _CONTROL is printable: most texts, checked faster than the regex scans
        return text
    return _CONTROL.sub(lambda m: _visible(m.group(0)), text)


def terminal_line(text: str) -> str:
    """A source line for an excerpt: each control character becomes one visible character, so the
    caret under it still lines up; a tab becomes a space."""
    text = str(text)
    if text.isprintable():
        return text
    return _CONTROL.sub(lambda m: " " if m.group(0) == "\t" else "\ufffd", text)


def github_data(text: str) -> str:
    """The message of a workflow command: %, CR and LF encoded, so no text starts a new command, and
    the other control characters (escape sequences, bidi overrides) written as visible escapes."""
    return terminal(str(text).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def github_property(text: str) -> str:
    """A workflow command property value (file, title): as data, and `:` and `,` encoded too."""
    return github_data(text).replace(":", "%3A").replace(",", "%2C")


_MARKDOWN_SPECIAL = re.compile(r"[\\`*_{}\[\]()#+!~|<>&]")


def markdown(text: str) -> str:
    """Text inside a Markdown paragraph or table cell: every character that could start a link, an
    image, emphasis, code, HTML or a table column is escaped, control characters (newlines too) are
    written as visible escapes, and bare URLs are broken so GitHub does not link them."""
    def one(m):
        char = m.group(0)
        return {"<": "&lt;", ">": "&gt;", "&": "&amp;", "|": "\\|"}.get(char, "\\" + char)

    text = _MARKDOWN_SPECIAL.sub(one, terminal(text))
    return re.sub(r"(?i)(://|www\.)", lambda m: "&#58;//" if m.group(0) == "://" else m.group(0)[:3] + "&#46;", text)


def markdown_code(text: str) -> str:
    """A code span that holds `text` verbatim whatever backticks it contains (CommonMark: a fence
    longer than any run inside, padded when the text starts or ends with a backtick), safe in a
    table cell (`|` escaped)."""
    text = terminal(str(text)).replace("|", "\\|")
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or not text.strip() else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def html(text: str) -> str:
    """Text for HTML, in an element or a quoted attribute: markup escaped, and control characters
    (which HTML forbids, and which would act in a terminal showing the file) written as visible escapes."""
    from html import escape

    text = str(text)
    return escape(text if text.isprintable() else _CONTROL_NOT_LAYOUT.sub(lambda m: _visible(m.group(0)), text))


def xml(text: str) -> str:
    """Text for an XML 1.0 document (ElementTree escapes markup): the characters XML 1.0 forbids,
    which no parser accepts even as references, written as visible escapes."""
    return _XML_ILLEGAL.sub(lambda m: _visible(m.group(0)), str(text))


def uri(path: str) -> str:
    """A file name as a percent-encoded URI reference (RFC 3986): relative paths stay relative
    (resolved against %SRCROOT% in SARIF), absolute ones become file:// URIs."""
    from urllib.parse import quote

    path = str(path).replace("\\", "/")
    encoded = quote(path, safe="/", errors="surrogateescape")
    return "file://" + encoded if path.startswith("/") else encoded
