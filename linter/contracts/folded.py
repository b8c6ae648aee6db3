"""Case-insensitive patterns, run fast: as case-sensitive patterns over lower-cased text.

Python's regular expression engine folds the case of every character it compares when a pattern
is compiled with IGNORECASE, which makes the long phrase and date patterns of the contract rules
two to three times slower than the same pattern without it. A pattern whose letters are all ASCII
(or have no case) and are written lower-case, matched case-sensitively over the lower-cased text,
finds exactly what the pattern finds with IGNORECASE over the text, at the same positions: lower()
keeps every character's length but one, and relates every character to an ASCII letter as
IGNORECASE does but three (`SPECIAL`). `Folded` does that where it can and runs the pattern as
written everywhere else (a pattern with a cased letter outside ASCII or a flag group; a text with
one of the three), so what is found never changes, only how fast.
"""

from __future__ import annotations

import re
import sys
from functools import lru_cache

_NAMING = frozenset("xuUN0123456789gP")  # escapes that name a character or a group: their letters are not literals


# an escape (its follower), a named group's head, a group that sets flags or refers back, a run of the rest
_TOKEN = re.compile(r"\\(.)|(\(\?P<[^>]*>)|(\(\?(?![:=!<]))|([^\\(]+|\()", re.DOTALL)


def lowered(source: str) -> str | None:
    """`source` with every letter outside an escape or a group's name lower-cased, or None when that
    would not be the same pattern under IGNORECASE: an escape that names a character or a group, a
    flag group (which might turn IGNORECASE off) or a back reference, or a letter outside ASCII that
    has case."""
    out = []
    for token in _TOKEN.finditer(source):
        escaped, named, flagged, run = token.groups()
        if flagged is not None or escaped is not None and escaped in _NAMING:
            return None
        if run is None:
            out.append(token.group(0))  # an escape or a group's name, as written
            continue
        if not run.isascii() and any(not c.isascii() and (c.lower() != c or c.upper() != c) for c in run):
            return None
        out.append(run.lower())
    return "".join(out) if sum(map(len, out)) == len(source) else None  # a lone trailing backslash: not a pattern


# The characters whose case Python's IGNORECASE relates to an ASCII letter otherwise than lower() does
# (dotted and dotless I, long s; tests/test_folded.py works the set out again on the running Python)
SPECIAL = "\u0130\u0131\u017f"
_SPECIAL = re.compile(f"[{SPECIAL}]")


@lru_cache(maxsize=4096)
def _lower(text: str) -> str | None:
    """The text lower-cased, or None when it holds a character lower() folds otherwise than IGNORECASE."""
    if not text.isascii() and _SPECIAL.search(text):
        return None
    return text.lower()


class Match:
    """A match found in the lower-cased text, read back from the text itself."""

    __slots__ = ("_match", "string")

    def __init__(self, match: re.Match, text: str):
        self._match, self.string = match, text

    def start(self, group=0) -> int:
        return self._match.start(group)

    def end(self, group=0) -> int:
        return self._match.end(group)

    def span(self, group=0) -> tuple[int, int]:
        return self._match.span(group)

    def __getattr__(self, name):  # pos, endpos, lastgroup, lastindex, re: the same in both texts
        return getattr(self._match, name)

    def group(self, *groups):
        if len(groups) > 1:
            return tuple(self._one(g) for g in groups)
        return self._one(groups[0] if groups else 0)

    def _one(self, group):
        start, end = self._match.span(group)
        return None if start < 0 else self.string[start:end]

    __getitem__ = _one

    def groups(self, default=None):
        return tuple(default if (found := self._one(i)) is None else found for i in range(1, self._match.re.groups + 1))


_UNREAD = object()


class Folded:
    """A pattern compiled with IGNORECASE (from `source` and `flags`), searched the fast way where
    the text allows it; as a compiled pattern, with `search`, `match`, `fullmatch`, `finditer` and
    `sub` (the rest of a pattern's methods are not used on these)."""

    __slots__ = ("pattern", "flags", "_lowered", "_fast", "_exact")

    def __init__(self, source: str, flags: int = 0):
        self.pattern, self.flags = source, flags | re.IGNORECASE
        self._lowered, self._fast, self._exact = _UNREAD, None, None  # worked out on first use: a run compiles only the patterns it reaches

    def exact(self) -> re.Pattern:
        """The pattern as written, with IGNORECASE."""
        if self._exact is None:
            self._exact = re.compile(self.pattern, self.flags)
        return self._exact

    def _search_in(self, text: str):
        """(pattern, text) to search: the fast pattern and the lower-cased text where they find the same."""
        if self._lowered is _UNREAD:
            self._lowered = lowered(self.pattern)
            if self._lowered is not None:
                self._fast = re.compile(self._lowered, self.flags & ~re.IGNORECASE)
        if self._fast is not None:
            low = _lower(text)
            if low is not None:
                return self._fast, low
        return self.exact(), text

    def _first(self, method: str, text: str, pos: int, endpos: int):
        pattern, low = self._search_in(text)
        found = getattr(pattern, method)(low, pos, endpos)
        return found if found is None or low is text else Match(found, text)

    def search(self, text: str, pos: int = 0, endpos: int = sys.maxsize):
        return self._first("search", text, pos, endpos)

    def match(self, text: str, pos: int = 0, endpos: int = sys.maxsize):
        return self._first("match", text, pos, endpos)

    def fullmatch(self, text: str, pos: int = 0, endpos: int = sys.maxsize):
        return self._first("fullmatch", text, pos, endpos)

    def finditer(self, text: str, pos: int = 0, endpos: int = sys.maxsize):
        pattern, low = self._search_in(text)
        if low is text:
            return pattern.finditer(text, pos, endpos)
        return (Match(found, text) for found in pattern.finditer(low, pos, endpos))

    def sub(self, repl, text: str, count: int = 0) -> str:
        return self.exact().sub(repl, text, count)
