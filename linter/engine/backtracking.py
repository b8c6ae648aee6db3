"""Reject user regular expressions that can backtrack catastrophically, before they run.

Python's `re` backtracks: `(a+)+$` takes exponential time on "aaaa…b", and `\\d+\\d+x` cubic time on
a line of digits. User patterns (generic `pattern` checks, phrase params) run over whole contracts,
so a pattern is refused at load when its tree (`clusterlint.engine.regex_syntax`) holds one of the
shapes that cause it:

- a repeat whose body can end in an unbounded repeat or an optional item able to match the body's
  first character (`(a+)+`, `(\\w+\\s?)*`, `(aa?)*`): a run of text splits into iterations in
  exponentially many ways;
- a repeat over alternatives that can start with the same character (`(a|ab)*`);
- two unbounded repeats with only optional items between them that can match the same character
  (`\\d+\\d+`, `.*\\s*`): every split of a run is tried again from every start.

The analysis over-approximates character sets (on the first 0x250 code points, case folded when
asked), so it may refuse a pattern that is in fact safe; it never runs the pattern.
"""

from __future__ import annotations

import re
from functools import lru_cache

from clusterlint.engine.regex_syntax import Node, Unsupported, parse

_ALPHABET = [chr(i) for i in range(0x250)]
_ALL = frozenset(range(len(_ALPHABET)))
_UNBOUNDED = 16  # a repeat allowed more times than this counts as unbounded
_CATEGORIES = {"d": r"\d", "D": r"\D", "s": r"\s", "S": r"\S", "w": r"\w", "W": r"\W"}


@lru_cache(maxsize=None)
def _category(letter: str) -> frozenset:
    pattern = re.compile(_CATEGORIES[letter])
    return frozenset(i for i, ch in enumerate(_ALPHABET) if pattern.fullmatch(ch))


def _fold(chars: frozenset, ignore_case: bool) -> frozenset:
    if not ignore_case:
        return chars
    extra = {ord(_ALPHABET[i].swapcase()) for i in chars if len(_ALPHABET[i].swapcase()) == 1}
    return chars | frozenset(i for i in extra if i < len(_ALPHABET))


def _unbounded(high: int | None) -> bool:
    return high is None or high > _UNBOUNDED


def _atom(node: Node, fold: bool) -> frozenset | None:
    if node.kind == "char":
        return _fold(frozenset({node.value}) & _ALL, fold)
    if node.kind == "any":
        return _ALL
    if node.kind != "set":
        return None
    negate, members = node.value
    chars: set = set()
    for member in members:
        if member[0] == "lit":
            chars.add(member[1])
        elif member[0] == "range":
            chars.update(range(member[1], min(member[2], len(_ALPHABET) - 1) + 1))
        else:
            chars |= _category(member[1])
    found = _fold(frozenset(chars) & _ALL, fold)
    return _ALL - found if negate else found


class _Analysis:
    def __init__(self, ignore_case: bool):
        self.ignore_case = ignore_case

    def atom(self, node: Node) -> frozenset | None:
        """The characters a one-character item matches, or None when it is not one. Inside (?i:...)
        both readings count, folded and not: folding widens a class but narrows a negated one.
        (?-i:...) under IGNORECASE still folds: the analysis only ever over-approximates."""
        found = _atom(node, self.ignore_case)
        if found is not None and node.fold and not self.ignore_case:
            found |= _atom(node, True)
        return found

    @staticmethod
    def items(node: Node):
        """(sub-sequences of an item, whether it is a repeat, its min, its max or None)."""
        if node.kind == "repeat":
            return [node.value[2]], True, node.value[0], node.value[1]
        if node.kind == "group":
            return [node.value[2]], False, 1, 1
        if node.kind == "branch":
            return list(node.value), False, 1, 1
        if node.kind == "atomic":
            return [node.value], False, 1, 1
        return [], False, 1, 1  # a look-around is zero-width: its body is not read

    def nullable(self, seq) -> bool:
        return all(self.item_nullable(node) for node in seq)

    def item_nullable(self, node: Node) -> bool:
        if self.atom(node) is not None:
            return False
        if node.kind in ("at", "look", "ref"):
            return True
        subs, repeat, low, _ = self.items(node)
        if repeat and low == 0:
            return True
        if node.kind == "branch":
            return any(self.nullable(s) for s in subs)
        return all(self.nullable(s) for s in subs)

    def chars(self, seq) -> frozenset:
        """Every character the sequence can consume."""
        found: frozenset = frozenset()
        for node in seq:
            atom = self.atom(node)
            if atom is not None:
                found |= atom
            elif node.kind == "ref":
                found |= _ALL
            else:
                for sub in self.items(node)[0]:
                    found |= self.chars(sub)
        return found

    def first(self, seq) -> frozenset:
        found: frozenset = frozenset()
        for node in seq:
            atom = self.atom(node)
            if atom is not None:
                return found | atom
            if node.kind == "ref":
                return _ALL
            for sub in self.items(node)[0]:
                found |= self.first(sub)
            if not self.item_nullable(node):
                return found
        return found

    def tail_repeats(self, seq) -> frozenset:
        """Characters of unbounded repeats and optional items the sequence can end with."""
        found: frozenset = frozenset()
        for node in reversed(list(seq)):
            subs, repeat, _, high = self.items(node)
            if (repeat and _unbounded(high)) or self.item_nullable(node):
                found |= self.chars([node])
            else:
                for sub in subs:
                    found |= self.tail_repeats(sub)
            if not self.item_nullable(node):
                break
        return found

    def problem(self, seq) -> str | None:
        seq = list(seq)
        for i, node in enumerate(seq):
            subs, repeat, _, high = self.items(node)
            for sub in subs:
                found = self.problem(sub)
                if found:
                    return found
            if not repeat or not _unbounded(high):
                continue
            body = list(subs[0])
            if self.tail_repeats(body) & self.first(body):
                return "a repeated group can end in a part that also matches its start, as (a+)+ and (a|aa)* do"
            while len(body) == 1 and body[0].kind == "group":
                body = list(body[0].value[2])
            starts = [self.first(b) for b in (body[0].value if len(body) == 1 and body[0].kind == "branch" else [])]
            if any(starts[x] & starts[y] for x in range(len(starts)) for y in range(x + 1, len(starts))):
                return "a repeat over alternatives that can start with the same character, as (a|ab)* does"
            for later in seq[i + 1 :]:
                later_subs, later_repeat, _, later_high = self.items(later)
                if later_repeat and _unbounded(later_high) and self.chars(body) & self.first(later_subs[0]):
                    return "two repeats in a row can match the same characters, as \\d+\\d+ does"
                if not self.item_nullable(later):
                    break
        return None


def problem(pattern: str, ignore_case: bool = False) -> str | None:
    """Why `pattern` can backtrack catastrophically, or None. A pattern the reader
    (`clusterlint.engine.regex_syntax`) does not read gets the reason it was not read."""
    parsed = parse(pattern, ignore_case)
    if isinstance(parsed, Unsupported):
        return parsed.reason
    try:
        return _Analysis(parsed.ignore_case).problem(parsed.items)
    except RecursionError:
        return "its groups are nested too deeply to analyse"


def starts_with_letter(pattern: str) -> bool:
    """Whether every match of `pattern` (read case-insensitively) starts with a letter, so that a scan
    may pass over anything else before trying it; False when that cannot be told. The items are read
    exactly, not through `_Analysis.first`, whose character sets stop at U+024F: a phrase opening
    with a curly quote must not be taken for one opening with a letter."""

    def letter(member: tuple) -> bool:
        return member[0] == "lit" and chr(member[1]).isalpha() or member[0] == "range" and chr(member[1]).isalpha() and chr(member[2]).isalpha()

    def first(items: list, rest: list) -> bool:
        for i, node in enumerate(items):
            if node.kind in ("look", "at"):
                continue  # zero-width: the next item decides
            if node.kind == "char":
                return chr(node.value).isalpha()
            if node.kind == "set":
                return not node.value[0] and all(letter(member) for member in node.value[1])
            if node.kind == "branch":
                return all(first(list(branch), items[i + 1 :] + rest) for branch in node.value)
            if node.kind == "group":
                return first(list(node.value[2]), items[i + 1 :] + rest)
            if node.kind == "repeat":
                return first(list(node.value[2]), []) and (node.value[0] > 0 or first(items[i + 1 :] + rest, []))
            return False
        return bool(rest) and first(rest, [])

    parsed = parse(pattern, ignore_case=True)
    if isinstance(parsed, Unsupported):
        return False
    try:
        return first(list(parsed.items), [])
    except RecursionError:
        return False
