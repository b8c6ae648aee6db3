"""A cheap test that a regular expression cannot match a text: the words every match must contain.

A long alternation under IGNORECASE is the slowest thing `re` does: it has no literal prefix to
skip ahead with, so it tries every branch at every word of the text. Most texts of a contract hold
none of the words such a pattern needs. `may_match(pattern, text)` reads the pattern once (its
parse tree) for the literal runs a match must contain: a sequence needs all of its items'
literals, an alternation one of its branches', an optional item nothing. It answers False only
when the text holds none of them, so a search it rules out could not have matched: the answer of
the search, not just its speed, is the same. Reading a long pattern costs more than scanning a short
document with it, so a pattern is read only once it has been asked about `WORTH` characters (and
what it requires is kept between runs).

Exact under IGNORECASE: the text is lower-cased, after the four characters `re` takes as an ASCII
letter in any case (dotless and dotted i, long s, the Kelvin sign) are written as that letter; only
runs of ASCII characters are required, and a scoped case flag (`(?i:...)`) requires nothing.
"""

from __future__ import annotations

try:
    from re import _constants as _c, _parser as _p  # Python 3.11+
except ImportError:  # Python 3.10
    import sre_constants as _c  # type: ignore[no-redef]
    import sre_parse as _p  # type: ignore[no-redef]

from clusterlint.contracts import lowered
from clusterlint.contracts.lowered import lower

_REPEATS = {_c.MAX_REPEAT, _c.MIN_REPEAT} | ({_c.POSSESSIVE_REPEAT} if hasattr(_c, "POSSESSIVE_REPEAT") else set())
_GROUPS = {_c.SUBPATTERN} | ({_c.ATOMIC_GROUP} if hasattr(_c, "ATOMIC_GROUP") else set())
_IGNORECASE = _c.SRE_FLAG_IGNORECASE


# characters of text a pattern is asked about before its requirements are read: reading the rules'
# patterns costs what scanning some 35 KB with them does (on a run that does not find them kept, see
# `_gate`), so a short contract is scanned as it is
# (callgrind, 300 KB of terms: 7.45 G instructions before, 5.18 G with 32 KB, 5.53 G with 64 KB;
# 30 KB of them: +1.0% with 32 KB, +5.6% with 16 KB)
WORTH = 32768
# id(pattern) -> [pattern, characters asked about, gate, whether it lower-cases, the last text asked
# about, the answer]: by identity, since a pattern's own hash reads its whole compiled program each time
_known: dict = {}
_UNREAD = object()


def may_match(pattern, text: str) -> bool:
    """False only when `pattern` cannot match anywhere in `text` (nor in any part of it)."""
    known = _known.get(id(pattern))
    if known is None:
        if len(_known) >= 1024:  # user rules reloaded again and again by a language server
            _known.clear()
        known = _known[id(pattern)] = [pattern, 0, _UNREAD, False, None, True]  # holding the pattern keeps its id its own
    if known[4] is text:
        return known[5]  # a rule that tests a text before it scans it asks twice
    if known[2] is _UNREAD:
        known[1] += len(text)
        if known[1] <= WORTH:
            return True
        known[2], known[3] = _gate(pattern)
    gate = known[2]
    if gate is None:
        return True
    if known[3]:
        answer = gate(lower(text))
    else:
        answer = gate(text)
    known[4], known[5] = text, answer
    return answer


def search(pattern, text: str, *span):
    """`pattern.search(text, *span)`, skipped when the text lacks what every match needs (and run
    over the lowered text where that is faster: `clusterlint.contracts.lowered`)."""
    return lowered.search(pattern, text, *span) if may_match(pattern, text) else None


def _gate(pattern) -> tuple:
    """(a function of the text, lower-cased under IGNORECASE, that is False when no match can exist,
    or None when nothing is required; whether the pattern ignores case). What the pattern requires
    is kept between runs (`clusterlint.regex_cache`): reading its parse tree is the slow part."""
    if not isinstance(pattern.pattern, str):
        return None, False
    from clusterlint import regex_cache

    need, ignore_case = regex_cache.kept(("prefilter", regex_cache.source_form(__file__), pattern.pattern, pattern.flags),
                                         lambda: _read(pattern), _well_formed)
    if need is None:
        return None, ignore_case
    code = _code(need)
    words = _cover(need)
    cover = sorted(word for word in words if not any(other in word and other != word for other in words))  # "available" does for "as available"
    if need[0] == "and" or any(item[0] != "lit" for item in need[1]):
        code = f"any(map(t.__contains__, {cover!r})) and {code}"  # a few words first, the whole test only for a text that holds one
    return eval(compile(f"lambda t: {code}", "<prefilter>", "eval")), ignore_case  # only `in`, `and`, `or` and string literals


def _read(pattern) -> tuple:
    """(what every match of the pattern requires, or None; whether it ignores case)."""
    ignore_case = bool(pattern.flags & _IGNORECASE)
    return _sequence(_p.parse(pattern.pattern, pattern.flags), ignore_case), ignore_case


def _well_formed(kept) -> bool:
    """Whether a kept value has the shape `_read` gives: its strings become literals of the gate."""
    def need(item) -> bool:
        return (isinstance(item, tuple) and len(item) == 2 and (
            item[0] == "lit" and isinstance(item[1], str)
            or item[0] in ("and", "or") and isinstance(item[1], tuple) and len(item[1]) > 1 and all(map(need, item[1]))))

    return isinstance(kept, tuple) and len(kept) == 2 and isinstance(kept[1], bool) and (kept[0] is None or need(kept[0]))


def _cover(need) -> set:
    """Words one of which every text that meets `need` holds: each alternative's, and of the items a
    sequence needs, the rarest."""
    kind, items = need
    if kind == "lit":
        return {items}
    covers = [_cover(item) for item in items]
    if kind == "or":
        return set().union(*covers)
    return max(covers, key=lambda words: (min(map(len, words)), -len(words)))


def _code(need) -> str:
    kind, items = need
    if kind == "lit":
        return f"{items!r} in t"
    return "(" + f" {kind} ".join(_code(item) for item in items) + ")"


def _char(code: int, ignore_case: bool) -> str | None:
    """A pattern's literal character as the lowered text holds it; None when it cannot be required
    (a letter beyond ASCII under IGNORECASE: `re` may match it to another)."""
    char = chr(code)
    if code < 128:
        return char.lower() if ignore_case else char
    import unicodedata  # only when a pattern is read

    return char if not ignore_case or unicodedata.category(char).startswith("P") else None  # punctuation has no case


def _chars(op, av, ignore_case: bool) -> list | None:
    """The characters a one-character item matches, when it is a literal or a class of a few literals."""
    if op is _c.LITERAL:
        char = _char(av, ignore_case)
        return None if char is None else [char]
    if op is _c.IN and len(av) <= 4 and all(kind is _c.LITERAL for kind, _ in av):  # "['’]"
        chars = [_char(code, ignore_case) for _, code in av]
        return None if None in chars else sorted(set(chars))
    return None


def _sequence(items, ignore_case: bool):
    """What a sequence of parsed items requires: ("lit", s), ("and", [...]), ("or", [...]) or None."""
    terms: list = []
    run = [""]  # the spellings of the literal run so far: "['’]ll" is "'ll" or "’ll"

    def close_run():
        if len(run[0]) >= 2 or run[0] and not any(spelling.isalnum() or spelling.isspace() for spelling in run):
            terms.append(_any([("lit", spelling) for spelling in run]))  # not one letter, digit or space: nearly every text has it
        run[:] = [""]

    for op, av in items:
        chars = _chars(op, av, ignore_case)
        if chars is not None:
            if len(run) * len(chars) > 16:
                close_run()
            run[:] = [spelling + char for spelling in run for char in chars]
            continue
        if not (op is _c.BRANCH and len(run[0]) > 0):
            close_run()
        if op in _GROUPS:
            body = av if op is not _c.SUBPATTERN else av[-1]
            scoped = op is _c.SUBPATTERN and (av[1] | av[2]) & _IGNORECASE
            need = None if scoped else _sequence(body, ignore_case)
        elif op is _c.BRANCH and run[0]:  # `re` writes "agrees (?:to|that)" as "agrees t(?:o|hat)"
            need, run[:] = _after(run, av[1], ignore_case), [""]
        elif op is _c.BRANCH:
            need = _any([_sequence(branch, ignore_case) for branch in av[1]])
        elif op in _REPEATS:
            need = _sequence(av[2], ignore_case) if av[0] >= 1 else None
        else:
            need = None  # a class, a look-around, an anchor, a back-reference: nothing required
        if need is not None:
            terms.append(need)
    close_run()
    return _all(terms)


def _after(run: list, branches, ignore_case: bool):
    """What a literal run followed by alternatives requires: each alternative's leading literals
    spelled on after the run, then the rest of that alternative."""
    options = []
    for branch in branches:
        spellings, i = list(run), 0
        while i < len(branch):
            chars = _chars(*branch[i], ignore_case)
            if chars is None or len(spellings) * len(chars) > 16:
                break
            spellings, i = [spelling + char for spelling in spellings for char in chars], i + 1
        head = _any([("lit", spelling) for spelling in spellings]) if len(spellings[0]) >= 2 else None
        options.append(_all([need for need in (head, _sequence(branch[i:], ignore_case)) if need is not None]))
    return _any(options)


def _all(terms: list):
    flat: list = []
    for term in terms:
        for item in term[1] if term[0] == "and" else (term,):
            if item not in flat:
                flat.append(item)
    lits = [item[1] for item in flat if item[0] == "lit"]
    flat = [item for item in flat if item[0] != "lit" or not any(item[1] in other and item[1] != other for other in lits)]  # "credit" needs no "cred"
    flat.sort(key=_rarity, reverse=True)  # the rarest first: the first to fail
    return None if not flat else flat[0] if len(flat) == 1 else ("and", tuple(flat))


def _rarity(need) -> int:
    """How rare a requirement is, by the length of words: any of several is as rare as its shortest."""
    kind, items = need
    if kind == "lit":
        return len(items)
    return (min if kind == "or" else max)(_rarity(item) for item in items)


def _any(options: list):
    if not options or any(option is None for option in options):
        return None
    flat: list = []
    for option in options:
        for item in option[1] if option[0] == "or" else (option,):
            if item not in flat:
                flat.append(item)
    lits = {item[1] for item in flat if item[0] == "lit"}
    # "connect" makes "disconnect" redundant, and "connect" ... "to"
    flat = [item for item in flat if not (item[0] == "lit" and any(lit in item[1] and lit != item[1] for lit in lits))
            and not (item[0] == "and" and any(part[0] == "lit" and any(lit in part[1] for lit in lits) for part in item[1]))]
    groups: dict = {}  # options that need the same first word: that word, then any of the rest
    for item in flat:
        groups.setdefault(item[1][0] if item[0] == "and" else item, []).append(item)
    flat = [items[0] if len(items) == 1 else _joined(head, _any([_all(list(item[1][1:])) for item in items])) for head, items in groups.items()]
    return flat[0] if len(flat) == 1 else ("or", tuple(flat))


def _joined(head, rest):
    return head if rest is None else _all([head, rest])
