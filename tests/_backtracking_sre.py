"""The catastrophic-backtracking analysis as it was before issue 36, over CPython's private parser
(`re._parser`, `sre_parse` on 3.10): kept in the tests only, as the reference the analysis over
`clusterlint.engine.regex_syntax` is compared with (tests/test_regex_syntax.py). Not imported by the
package; a Python without the private parser skips the comparison."""

from __future__ import annotations

import re
from functools import lru_cache

try:
    from re import _constants as _c, _parser as _p  # Python 3.11+
except ImportError:  # Python 3.10
    import sre_constants as _c  # type: ignore[no-redef]
    import sre_parse as _p  # type: ignore[no-redef]

_ALPHABET = [chr(i) for i in range(0x250)]
_ALL = frozenset(range(len(_ALPHABET)))
_UNBOUNDED = 16  # a repeat allowed more times than this counts as unbounded
_CATEGORIES = {"DIGIT": r"\d", "NOT_DIGIT": r"\D", "SPACE": r"\s", "NOT_SPACE": r"\S", "WORD": r"\w", "NOT_WORD": r"\W"}
_REPEATS = {_c.MAX_REPEAT, _c.MIN_REPEAT} | ({_c.POSSESSIVE_REPEAT} if hasattr(_c, "POSSESSIVE_REPEAT") else set())


@lru_cache(maxsize=None)
def _category(name) -> frozenset:
    text = _CATEGORIES.get(str(name).replace("CATEGORY_", "").replace("LOC_", "").replace("UNI_", ""), r"[\s\S]")
    pattern = re.compile(text)
    return frozenset(i for i, ch in enumerate(_ALPHABET) if pattern.fullmatch(ch))


def _fold(chars: frozenset, ignore_case: bool) -> frozenset:
    if not ignore_case:
        return chars
    extra = {ord(_ALPHABET[i].swapcase()) for i in chars if len(_ALPHABET[i].swapcase()) == 1}
    return chars | frozenset(i for i in extra if i < len(_ALPHABET))


class _Analysis:
    def __init__(self, ignore_case: bool):
        self.ignore_case = ignore_case

    def atom(self, op, av) -> frozenset | None:
        """The characters a one-character item matches, or None when it is not one."""
        if op is _c.LITERAL:
            return _fold(frozenset({av}) & _ALL, self.ignore_case)
        if op is _c.NOT_LITERAL:
            return _ALL - _fold(frozenset({av}), self.ignore_case)
        if op is _c.ANY:
            return _ALL
        if op is _c.IN:
            chars, negate = set(), False
            for kind, value in av:
                if kind is _c.NEGATE:
                    negate = True
                elif kind is _c.LITERAL:
                    chars.add(value)
                elif kind is _c.RANGE:
                    chars.update(range(value[0], min(value[1], len(_ALPHABET) - 1) + 1))
                elif kind is _c.CATEGORY:
                    chars |= _category(value)
                else:
                    chars |= _ALL
            found = _fold(frozenset(chars) & _ALL, self.ignore_case)
            return _ALL - found if negate else found
        return None

    def items(self, op, av):
        """(sub-sequences of an item, whether it is a repeat, its min, its max)."""
        if op in _REPEATS:
            return [av[2]], True, av[0], av[1]
        if op is _c.SUBPATTERN:
            return [av[-1]], False, 1, 1
        if op is _c.BRANCH:
            return list(av[1]), False, 1, 1
        if op in (_c.ASSERT, _c.ASSERT_NOT):
            return [], False, 1, 1
        if hasattr(_c, "ATOMIC_GROUP") and op is _c.ATOMIC_GROUP:
            return [av], False, 1, 1
        return [], False, 1, 1

    def nullable(self, seq) -> bool:
        return all(self.item_nullable(op, av) for op, av in seq)

    def item_nullable(self, op, av) -> bool:
        if self.atom(op, av) is not None:
            return False
        if op in (_c.AT, _c.ASSERT, _c.ASSERT_NOT, _c.GROUPREF):
            return True
        subs, repeat, low, _ = self.items(op, av)
        if repeat and low == 0:
            return True
        if op is _c.BRANCH:
            return any(self.nullable(s) for s in subs)
        return all(self.nullable(s) for s in subs)

    def chars(self, seq) -> frozenset:
        """Every character the sequence can consume."""
        found: frozenset = frozenset()
        for op, av in seq:
            atom = self.atom(op, av)
            if atom is not None:
                found |= atom
            elif op is _c.GROUPREF:
                found |= _ALL
            else:
                for sub in self.items(op, av)[0]:
                    found |= self.chars(sub)
        return found

    def first(self, seq) -> frozenset:
        found: frozenset = frozenset()
        for op, av in seq:
            atom = self.atom(op, av)
            if atom is not None:
                return found | atom
            if op is _c.GROUPREF:
                return _ALL
            for sub in self.items(op, av)[0]:
                found |= self.first(sub)
            if not self.item_nullable(op, av):
                return found
        return found

    def tail_repeats(self, seq) -> frozenset:
        """Characters of unbounded repeats and optional items the sequence can end with."""
        found: frozenset = frozenset()
        for op, av in reversed(list(seq)):
            subs, repeat, _, high = self.items(op, av)
            if (repeat and (high == _c.MAXREPEAT or high > _UNBOUNDED)) or self.item_nullable(op, av):
                found |= self.chars([(op, av)])
            else:
                for sub in subs:
                    found |= self.tail_repeats(sub)
            if not self.item_nullable(op, av):
                break
        return found

    def problem(self, seq) -> str | None:
        seq = list(seq)
        for i, (op, av) in enumerate(seq):
            subs, repeat, _, high = self.items(op, av)
            for sub in subs:
                found = self.problem(sub)
                if found:
                    return found
            if not repeat or not (high == _c.MAXREPEAT or high > _UNBOUNDED):
                continue
            body = list(subs[0])
            if self.tail_repeats(body) & self.first(body):
                return "a repeated group can end in a part that also matches its start, as (a+)+ and (a|aa)* do"
            while len(body) == 1 and body[0][0] is _c.SUBPATTERN:
                body = list(body[0][1][-1])
            starts = [self.first(b) for b in (body[0][1][1] if len(body) == 1 and body[0][0] is _c.BRANCH else [])]
            if any(starts[x] & starts[y] for x in range(len(starts)) for y in range(x + 1, len(starts))):
                return "a repeat over alternatives that can start with the same character, as (a|ab)* does"
            for later_op, later_av in seq[i + 1 :]:
                later_subs, later_repeat, _, later_high = self.items(later_op, later_av)
                if later_repeat and (later_high == _c.MAXREPEAT or later_high > _UNBOUNDED):
                    if self.chars(body) & self.first(later_subs[0]):
                        return "two repeats in a row can match the same characters, as \\d+\\d+ does"
                if not self.item_nullable(later_op, later_av):
                    break
        return None


def problem(pattern: str, ignore_case: bool = False) -> str | None:
    """Why `pattern` can backtrack catastrophically, or None. It must compile (re.error otherwise)."""
    parsed = _p.parse(pattern, re.IGNORECASE if ignore_case else 0)
    flags = parsed.state.flags if hasattr(parsed, "state") else parsed.pattern.flags
    return _Analysis(bool(flags & re.IGNORECASE)).problem(parsed)


def starts_with_letter(pattern: str) -> bool:
    """Whether every match of `pattern` (read case-insensitively) starts with a letter, so that a scan
    may pass over anything else before trying it; False when that cannot be told. The items are read
    exactly, not through `_Analysis.first`, whose character sets stop at U+024F: a phrase opening
    with a curly quote must not be taken for one opening with a letter."""

    def first(items: list, rest: list) -> bool:
        for i, (code, value) in enumerate(items):
            if code in (_c.ASSERT, _c.ASSERT_NOT, _c.AT):
                continue  # zero-width: the next item decides
            if code is _c.LITERAL:
                return chr(value).isalpha()
            if code is _c.IN:
                return all(kind is _c.LITERAL and chr(v).isalpha() or kind is _c.RANGE and chr(v[0]).isalpha() and chr(v[1]).isalpha()
                           for kind, v in value)
            if code is _c.BRANCH:
                return all(first(list(branch), items[i + 1 :] + rest) for branch in value[1])
            if code is _c.SUBPATTERN:
                return first(list(value[-1]), items[i + 1 :] + rest)
            if code in _REPEATS:
                return first(list(value[2]), []) and (value[0] > 0 or first(items[i + 1 :] + rest, []))
            return False
        return bool(rest) and first(rest, [])

    try:
        return first(list(_p.parse(pattern, re.IGNORECASE)), [])
    except (re.error, RecursionError):
        return False
