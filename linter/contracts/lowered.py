"""Case-insensitive searches run as case-sensitive ones over the lower-cased text: the same matches, faster.

Under IGNORECASE `re` folds the case of every character it compares, and the contract rules' long
patterns compare many: the modal scan of a 150-character clause costs about three times what the same
scan of its lower-cased copy costs without the flag. `twin(pattern)` rewrites a pattern's parse
tree for lower-cased text (each ASCII letter, and each ASCII range that holds capitals, as its lower
case) and compiles it without the flag (the command line keeps what was compiled between runs,
`clusterlint.regex_cache`, under the pattern and this module's version, time and size). `search`
and `finditer` run the twin over the lowered text and match the pattern itself, anchored, where the
twin matched: the caller gets the pattern's own match objects over the original text (its groups in
the text's own case) at the same places.

Exact, not approximately so:
- the text is lowered after the four characters `re` takes as an ASCII letter in any case are
  written as that letter (`FOLD`); lowering then keeps every character's place (U+0130,
  the one character whose lower case is two, is among the four);
- a pattern is rewritten only when nothing in it has a case beyond ASCII and no group sets or
  clears a flag; ASCII and LOCALE patterns are not rewritten. Any other pattern is searched as it is.
- lowering keeps what `\\w`, `\\d`, `\\s` and `\\b` see (a test checks every code point).

Three changes to the twin make `re` try fewer places, without changing where it matches:
- neighbouring alternatives that start with the same one-character or zero-width item (`\\b`, a
  letter, a class) share it: `\\bup|\\bdown` is searched as `\\b(?:up|down)`. `re` tests an
  alternative that starts with a character or a class without entering it, but enters every one
  that starts with `\\b`; tried in the same order, the alternatives give the same match.
- an alternative led by a repeated character or class is led by one of it (`\\d{1,2}` as
  `\\d\\d{0,1}`): the same counts in the same order, and `re` can skip it on its first character.
- the twin's first characters: `re` skips over characters that cannot start a match only when the
  pattern's first item is a character or a class. A twin that starts with `\\b`, a look-around or
  an alternation of words has its own set written in (`_first`): every character a match can begin
  with, a superset where in doubt (look-arounds and `\\b` are passed over), none when any
  character could (a negated class, `.`, a back-reference) or a match could be empty.
"""

from __future__ import annotations

import sys

try:
    from re import _compiler, _constants as _c, _parser as _p  # Python 3.11+
except ImportError:  # Python 3.10
    import sre_compile as _compiler  # type: ignore[no-redef]
    import sre_constants as _c  # type: ignore[no-redef]
    import sre_parse as _p  # type: ignore[no-redef]

# the characters beyond ASCII that `re` matches to an ASCII letter under IGNORECASE (tests/test_prefilter.py
# recomputes them from the running Python's own case tables)
FOLD = {0x130: "i", 0x131: "i", 0x17F: "s", 0x212A: "k"}
_IGNORECASE = _c.SRE_FLAG_IGNORECASE
_NOT_REWRITTEN = _c.SRE_FLAG_ASCII | _c.SRE_FLAG_LOCALE
_twins: dict = {}  # id(pattern) -> (pattern, twin or None): by identity, as in `prefilter`
_recent = ["", ""]  # the last text lowered and its lowered form: a rule asks several patterns about one text
_KEPT = 4096  # a text this long is also kept among the last few: windows of a long clause are searched one after the
# other, between searches of its sentences, and lowering it again for each would be quadratic
_lowered: dict = {}  # id(text) -> (text, lowered) of those, the most recently asked last


class _Cased(Exception):
    """The pattern holds something with a case beyond ASCII, or a scoped flag: not rewritten."""


def twin(pattern):
    """The pattern for lower-cased text, without IGNORECASE; None when it is not rewritten."""
    known = _twins.get(id(pattern))
    if known is None:
        if len(_twins) >= 1024:  # user rules reloaded again and again by a language server
            _twins.clear()
        known = _twins[id(pattern)] = (pattern, _rewrite(pattern))
    return known[1]


def lower(text: str) -> str:
    """The text as the twins read it: as long as the text, each character in its place."""
    if _recent[0] is text:
        return _recent[1]
    if len(text) < _KEPT:
        _recent[:] = text, (text if text.isascii() else text.translate(FOLD)).lower()
        return _recent[1]
    known = _lowered.pop(id(text), None)
    if known is None or known[0] is not text:
        known = text, (text if text.isascii() else text.translate(FOLD)).lower()
        if len(_lowered) >= 8:
            del _lowered[next(iter(_lowered))]
    _lowered[id(text)] = known
    _recent[:] = known
    return known[1]


def search(pattern, text: str, pos: int = 0, endpos: int = sys.maxsize):
    """`pattern.search(text, pos, endpos)`."""
    other = twin(pattern)
    if other is None:
        return pattern.search(text, pos, endpos)
    found = other.search(lower(text), pos, endpos)
    if found is None:
        return None
    match = pattern.match(text, found.start(), endpos)
    if match is None or match.end() != found.end():  # not the same reading: never guess, search as written from now on
        _twins[id(pattern)] = (pattern, None)
        return pattern.search(text, pos, endpos)
    return match


def finditer(pattern, text: str):
    """`pattern.finditer(text)` (a twin's pattern never matches the empty string, so each search
    goes on where the last match ended)."""
    if twin(pattern) is None:
        yield from pattern.finditer(text)
        return
    pos = 0
    while True:
        match = search(pattern, text, pos)
        if match is None:
            return
        yield match
        pos = match.end()


def _rewrite(pattern):
    if not isinstance(pattern.pattern, str) or not pattern.flags & _IGNORECASE or pattern.flags & _NOT_REWRITTEN:
        return None
    from clusterlint import regex_cache

    try:
        return regex_cache.pattern_from_tree(("lowered", regex_cache.source_form(__file__), pattern.pattern, pattern.flags), pattern.flags & ~_IGNORECASE, lambda: _tree(pattern), _code)
    except Exception:  # `re`'s internals are not a public interface: a tree this Python will not compile is searched as written
        return None


def _tree(pattern):
    """The twin's parse tree, or None."""
    tree = _p.parse(pattern.pattern, pattern.flags)
    if tree.getwidth()[0] == 0:
        return None  # it can match the empty string: `finditer` would have to step as `re` does
    try:
        tree.data = _items(tree.data)
    except _Cased:
        return None
    tree.state.flags &= ~_IGNORECASE
    return tree


def _char(code: int) -> int:
    if code < 128:
        return ord(chr(code).lower())
    char = chr(code)
    if char.lower() != char or char.upper() != char or code in FOLD:
        raise _Cased
    return code


def _ranges(lo: int, hi: int) -> list:
    if hi >= 128:
        if hi - lo > 4096 or any(chr(c).lower() != chr(c) or chr(c).upper() != chr(c) for c in range(max(lo, 128), hi + 1)):
            raise _Cased
        hi_ascii = min(hi, 127)
        out = [(_c.RANGE, (max(lo, 128), hi))]
        if lo > 127:
            return out
        return out + _ranges(lo, hi_ascii)
    out = [(_c.RANGE, (lo, hi))]
    capitals = max(lo, 65), min(hi, 90)
    if capitals[0] <= capitals[1]:
        out.append((_c.RANGE, (capitals[0] + 32, capitals[1] + 32)))
    return out


def _items(data) -> list:
    out = []
    for op, av in data:
        if op in (_c.LITERAL, _c.NOT_LITERAL):
            av = _char(av)
        elif op is _c.IN:
            members = []
            for kind, value in av:
                if kind is _c.LITERAL:
                    members.append((kind, _char(value)))
                elif kind is _c.RANGE:
                    members.extend(_ranges(*value))
                elif kind in (_c.NEGATE, _c.CATEGORY):
                    members.append((kind, value))
                else:
                    raise _Cased
            av = members
        elif op is _c.SUBPATTERN:
            group, add, remove, body = av
            if add or remove:
                raise _Cased
            av = group, add, remove, _sub(body)
        elif op is _c.BRANCH:
            av = av[0], _shared([_sub(branch) for branch in av[1]])
        elif op in (_c.MAX_REPEAT, _c.MIN_REPEAT) or op is getattr(_c, "POSSESSIVE_REPEAT", None):
            av = av[0], av[1], _sub(av[2])
        elif op in (_c.ASSERT, _c.ASSERT_NOT):
            av = av[0], _sub(av[1])
        elif op is getattr(_c, "ATOMIC_GROUP", None):
            av = _sub(av)
        elif op is _c.GROUPREF_EXISTS:
            av = (av[0], _sub(av[1]), None if av[2] is None else _sub(av[2]))
        elif op not in (_c.AT, _c.ANY, _c.GROUPREF, _c.CATEGORY):
            raise _Cased
        out.append((op, av))
    return out


def _sub(body):
    body.data = _items(body.data)
    return body


_ONE_WAY = {_c.LITERAL, _c.NOT_LITERAL, _c.IN, _c.AT, _c.ANY}  # one character or none, matched one way only


def _shared(branches: list) -> list:
    """The alternatives, each run of neighbours that start with the same `_ONE_WAY` item written as
    that item and then the run's rests, in their order. Such an item gives the same answer however
    often it is tried, so `re` meets the rests in the same order as before. An alternative that
    starts with a repeated character or class starts with one of it (`_peeled`)."""
    branches = [_peeled(branch) for branch in branches]
    out, i = [], 0
    while i < len(branches):
        head = branches[i].data[0] if len(branches[i].data) > 1 else None
        j = i + 1
        if head is not None and head[0] in _ONE_WAY:
            while j < len(branches) and len(branches[j].data) > 1 and branches[j].data[0] == head:
                j += 1
        if j - i == 1:
            out.append(branches[i])
        else:
            state = branches[i].state
            rests = _shared([_p.SubPattern(state, branch.data[1:]) for branch in branches[i:j]])
            out.append(_p.SubPattern(state, [head, (_c.BRANCH, (None, rests))] if len(rests) > 1 else [head, *rests[0].data]))
        i = j
    return out


def _peeled(branch):
    """`branch`, when it starts with a greedy or lazy repeat of one `_ONE_WAY` character item taken
    at least once, as that item and then the repeat taken once less (`\\d{1,2}` as `\\d\\d{0,1}`):
    the same counts tried in the same order, and `re` can skip the alternative on its first
    character without entering it."""
    if not branch.data or branch.data[0][0] not in (_c.MAX_REPEAT, _c.MIN_REPEAT):
        return branch
    op, (low, high, body) = branch.data[0]
    if low < 1 or len(body.data) != 1 or body.data[0][0] not in _ONE_WAY or body.data[0][0] is _c.AT:
        return branch
    rest = [] if high == 1 else [(op, (low - 1, high if high == _c.MAXREPEAT else high - 1, body))]
    return _p.SubPattern(branch.state, [body.data[0], *rest, *branch.data[1:]])


def _code(tree, flags: int) -> list:
    """`re`'s code for the twin, with the characters a match can start with in its info block when
    `re`'s compiler wrote none there."""
    code = _compiler._code(tree, flags)
    first, empty = _first(tree.data)
    if code[0] != _c.INFO or code[2] & (_c.SRE_INFO_PREFIX | _c.SRE_INFO_CHARSET) or first is None or empty:
        return code
    info = [_c.INFO, 0, _c.SRE_INFO_CHARSET, code[3], code[4]]  # min and max width as re wrote them
    _compiler._compile_charset(_compiler._optimize_charset(first)[0], tree.state.flags | flags, info)
    info[1] = len(info) - 1
    return info + code[code[1] + 1 :]


def _first(data) -> tuple:
    """(the class items of every character a match of the sequence `data` can start with, or None for
    any character; whether it can match without taking a character)."""
    out = []
    for op, av in data:
        if op is _c.LITERAL:
            return out + [(op, av)], False
        if op is _c.IN:
            return (None, False) if any(kind is _c.NEGATE for kind, _ in av) else (out + list(av), False)
        if op in (_c.AT, _c.ASSERT, _c.ASSERT_NOT):
            continue  # takes no character (what it asks of the text is not used: a superset)
        if op is _c.SUBPATTERN:
            items, empty = _first(av[3].data)
        elif op is getattr(_c, "ATOMIC_GROUP", None):
            items, empty = _first(av.data)
        elif op in (_c.MAX_REPEAT, _c.MIN_REPEAT) or op is getattr(_c, "POSSESSIVE_REPEAT", None):
            items, empty = _first(av[2].data)
            empty = empty or av[0] == 0
        elif op is _c.BRANCH:
            items, empty = [], False
            for branch in av[1]:
                more, may = _first(branch.data)
                if more is None:
                    return None, False
                items, empty = items + more, empty or may
        else:
            return None, False  # any character, a back-reference
        if items is None:
            return None, False
        out += items
        if not empty:
            return out, False
    return out, True
