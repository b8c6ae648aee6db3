"""A case-insensitive search run over the lowered text finds exactly what the pattern finds."""

from __future__ import annotations

import re
import sys

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from clusterlint.contracts import lowered, obligations
from clusterlint import regex_cache
from clusterlint.engine.registry import builtin_rules
from clusterlint.rules import clauses, contract, missing


def _phrase_patterns() -> dict:
    out = {}
    for rule in builtin_rules().values():
        if rule.id.startswith(("CON", "CST", "LCK", "REL")) and rule.check != "document":
            pattern = getattr(rule.settings, "pattern", None)
            if isinstance(pattern, re.Pattern):
                out[f"{rule.id}.phrases"] = pattern
    return out


PATTERNS = {**{f"{module.__name__}.{name}": value for module in (contract, clauses, missing, obligations)
               for name, value in vars(module).items() if isinstance(value, re.Pattern)},
            **_phrase_patterns()}


def test_most_of_the_rules_patterns_have_a_twin():
    ignoring_case = [p for p in PATTERNS.values() if p.flags & re.IGNORECASE]
    twins = [p for p in ignoring_case if lowered.twin(p) is not None]
    assert len(PATTERNS) > 80 and len(twins) > 0.8 * len(ignoring_case), (len(PATTERNS), len(twins), len(ignoring_case))
    assert all(lowered.twin(p) is None for p in PATTERNS.values() if not p.flags & re.IGNORECASE)


def test_lowering_keeps_every_character_in_its_place_and_kind():
    text = "".join(chr(c) for c in range(sys.maxunicode + 1) if not 0xD800 <= c <= 0xDFFF)
    low = lowered.lower(text)
    assert len(low) == len(text)
    for category in (r"\w", r"\d", r"\s"):
        pattern = re.compile(category)
        assert [m.start() for m in pattern.finditer(low)] == [m.start() for m in pattern.finditer(text)], category


@pytest.mark.parametrize("pattern", [
    re.compile("provider"),  # case-sensitive already
    re.compile("x(?i:provider)"),  # a scoped flag
    re.compile("(?-i:P)rovider", re.IGNORECASE),
    re.compile("café", re.IGNORECASE),  # a letter with a case beyond ASCII
    re.compile("[à-ÿ]+", re.IGNORECASE),
    re.compile(r"\b(?:credits?)?", re.IGNORECASE),  # matches the empty string
    re.compile("provider", re.IGNORECASE | re.ASCII),
])
def test_patterns_searched_as_written(pattern):
    assert lowered.twin(pattern) is None
    text = "Café PROVIDER credits"
    found, expected = lowered.search(pattern, text), pattern.search(text)
    assert (found and found.span()) == (expected and expected.span())


@pytest.mark.parametrize("pattern, text, span, group", [
    (re.compile(r"\bprovider\b", re.IGNORECASE), "The PROVIDER shall", (4, 12), "PROVIDER"),  # the text's own case
    (re.compile(r"[A-Z]{2}\d", re.IGNORECASE), "node ab7", (5, 8), "ab7"),  # a class of capitals is any letter
    (re.compile(r"[^a-z ]+", re.IGNORECASE), "abc XYZ 42", (8, 10), "42"),
    (re.compile(r"service", re.IGNORECASE), "the ſervice", (4, 11), "ſervice"),  # long s is an s to re
    (re.compile(r"k\w+", re.IGNORECASE), "a \u212aELVIN", (2, 8), "\u212aELVIN"),  # the Kelvin sign is a k
    (re.compile(r"\bi\w+", re.IGNORECASE), "İSTANBUL", (0, 8), "İSTANBUL"),  # dotted capital I, one character
    (re.compile(r"(?<!not )\bavailable\b", re.IGNORECASE), "NOT AVAILABLE, then Available", (20, 29), "Available"),
    (re.compile(r"(?P<w>will|shall)\s+(?P=w)", re.IGNORECASE), "it WILL will", (3, 12), "WILL will"),  # a back-reference
])
def test_search_finds_the_patterns_match(pattern, text, span, group):
    assert lowered.twin(pattern) is not None
    found = lowered.search(pattern, text)
    assert (found.span(), found.group(0)) == (span, group)
    assert found.re is pattern


def test_search_keeps_the_span_asked_for():
    pattern = re.compile(r"\bcredits?\b", re.IGNORECASE)
    text = "Credit one, CREDIT two, credits three"
    assert lowered.search(pattern, text, 1).span() == (12, 18)  # "redit" at 1 is no word start
    assert lowered.search(pattern, text, 0, 5) is None  # "Credi": the word ends beyond endpos
    assert [m.span() for m in lowered.finditer(pattern, text)] == [m.span() for m in pattern.finditer(text)]


def test_a_pattern_whose_twin_does_not_compile_is_searched_as_written(monkeypatch):
    def refuse(*args):
        raise RuntimeError("an internal interface that changed")

    pattern = re.compile(r"\buser[- ]phrase\b", re.IGNORECASE)  # a user rule's phrase, say
    monkeypatch.setattr(regex_cache, "_table", {})  # not a twin kept by an earlier run
    monkeypatch.setattr(lowered._compiler, "_code", refuse)  # `re`'s code generator
    assert lowered.twin(pattern) is None
    assert lowered.search(pattern, "a USER-phrase here").span() == (2, 13)
    assert [m.group(0) for m in lowered.finditer(pattern, "User phrase, user-PHRASE")] == ["User phrase", "user-PHRASE"]


def test_a_twin_that_reads_differently_is_dropped(monkeypatch):
    pattern = re.compile(r"\bcredit\b", re.IGNORECASE)
    wrong = re.compile(r"\bdebit\b")
    monkeypatch.setitem(lowered._twins, id(pattern), (pattern, wrong))
    assert lowered.search(pattern, "a debit and a Credit").span() == (14, 20)  # what the pattern finds, not the twin
    assert lowered.twin(pattern) is None


_WORDS = sorted({w for p in PATTERNS.values() for w in re.findall(r"[a-z]{3,}", (p.pattern or "").lower())})
_PIECES = st.one_of(
    st.sampled_from(_WORDS),
    st.sampled_from([" ", ", ", ". ", "; ", "-", "’", "'", "ſ", "İ", "ı", "\u212a", "Σ", "ς", "ß", "ẞ", "É", "é", "Ǆ", "ﬁ", "1", "99.9%", "2026-03-01", "$2.10"]),
    st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ 0123456789.,;:'\"()%$-", max_size=6),
)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_PIECES, min_size=1, max_size=24).map("".join), st.sampled_from(["as is", "upper", "title"]), st.integers(0, 40), st.integers(0, 400))
def test_every_rule_pattern_finds_the_same(text, case, pos, endpos):
    text = {"as is": text, "upper": text.upper(), "title": text.title()}[case]
    for name, pattern in PATTERNS.items():
        expected = pattern.search(text, pos, endpos)
        found = lowered.search(pattern, text, pos, endpos)
        assert (found and (found.span(), found.groups())) == (expected and (expected.span(), expected.groups())), name
        if pos == 0:
            assert [(m.span(), m.groups()) for m in lowered.finditer(pattern, text)] == [(m.span(), m.groups()) for m in pattern.finditer(text)], name
    assert all(lowered.twin(p) is not None for p in PATTERNS.values() if p.flags & re.IGNORECASE and lowered._rewrite(p) is not None), \
        "no twin was dropped: each read the text as its pattern does"


def test_a_long_text_is_lowered_once_while_its_sentences_are_searched():
    text = "Provider WILL deliver. " * 300  # past the length at which a lowered text is kept
    first = lowered.lower(text)
    for i in range(20):  # sentences in between, each a new string
        lowered.lower(text[i * 23 : i * 23 + 22])
        assert lowered.lower(text) is first
    assert first == text.lower() and len(first) == len(text)


def _start_set(pattern) -> set | None:
    """The characters the twin's info block says a match can start with (None: no set written)."""
    items, empty = lowered._first(lowered._tree(pattern).data)
    if items is None or empty:
        return None
    return {chr(c) for c in range(128) if re.fullmatch(lowered._compiler.compile(lowered._p.SubPattern(
        lowered._tree(pattern).state, [(lowered._c.IN, items)]), 0), chr(c))}


@pytest.mark.parametrize("pattern, starts", [
    (r"\b(?:credits?|refund)\b", set("cr")),
    (r"(?=[^\W_])(?:\bup|\bdown|n['’]t)", set("udn")),  # a look-ahead takes no character: the alternatives' letters
    (r"(?:\bno\s+)?(?:longer|more)", set("nlm")),  # an optional first item: what follows it may start too
    (r"\d+(?:st|nd)?|Q[1-4]", set("0123456789q")),
    (r"(?<!not )\bavailable", set("a")),
    (r"[^a-z]x", None),  # a negated class: any character could start
    (r"(?:x?)*\by", set("xy")),
    (r"(?P<w>will|shall)\s+(?P=w)", set("ws")),
])
def test_the_twins_start_set(pattern, starts):
    assert _start_set(re.compile(pattern, re.IGNORECASE)) == starts


def test_neighbouring_alternatives_share_their_first_item():
    tree = lowered._tree(re.compile(r"\bup\b|\bdown\b|n't|\bleft|\bright", re.IGNORECASE))
    (op, (_, branches)), = tree.data
    assert op is lowered._c.BRANCH
    assert [b.data[0] for b in branches] == [(lowered._c.AT, lowered._c.AT_BOUNDARY), (lowered._c.LITERAL, ord("n")),
                                             (lowered._c.AT, lowered._c.AT_BOUNDARY)]  # in their order, n't between
    for source, text, expected in ((r"\bdown|\bdo", "Download", "Down"), (r"\bdo|\bdown", "Download", "Do"),
                                   (r"\d{1,2}th|\d{1,2}", "on the 12TH", "12TH")):  # the first alternative that matches wins
        pattern = re.compile(source, re.IGNORECASE)
        assert lowered.search(pattern, text).group(0) == expected
        assert lowered.twin(pattern) is not None, source  # the twin found the same match: kept


_ATOMS = st.sampled_from(["up", "down", "do", "ab", "a", "n't", "[a-c]", "[^a ]", r"\d", r"\w", r"\s", ".", "-", r"\b", r"\B", "^", "$",
                          "(?<=a)", "(?<!b)", "(?=u)", "(?!d)", r"(?=\w)", "(?!up)",
                          r"\d{1,2}", "[a-c]+", "a+?", "t{2}", r"\w{2,3}?"])


def _combined(inner):
    return st.one_of(
        st.lists(inner, min_size=2, max_size=4).map("".join),
        st.lists(inner, min_size=2, max_size=5).map(lambda alternatives: "(?:" + "|".join(alternatives) + ")"),
        st.lists(inner, min_size=2, max_size=4).map(lambda alternatives: "(?:" + "|".join(r"\b" + a for a in alternatives) + ")"),
        st.tuples(inner, st.sampled_from(["?", "*", "+", "{0,2}", "{1,2}", "??"])).map(lambda t: f"(?:{t[0]}){t[1]}"),
        inner.map(lambda a: f"({a})"),
    )


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.recursive(_ATOMS, _combined, max_leaves=10), st.sampled_from(["", "t", "[a-d]", r"\w"]),
       st.lists(st.sampled_from(["up", "down", "do", "ab", "a", "n't", "t", "c", "w", " ", "-", "1", ".", "UP", "Do", "N'T"]), max_size=12).map("".join))
def test_generated_patterns_find_the_same_through_their_twin(source, last, text):
    """The twin's shared first items and start set never change what is found (nor drop the twin);
    a last character makes most generated patterns take one, so that they have a twin."""
    try:
        pattern = re.compile(source + last, re.IGNORECASE)
    except re.error:
        return  # a look-behind of varying width and the like: not a pattern
    for pos in range(len(text) + 1):
        expected = pattern.search(text, pos)
        found = lowered.search(pattern, text, pos)
        assert (found and (found.span(), found.groups())) == (expected and (expected.span(), expected.groups())), (source + last, pos)
    assert lowered._rewrite(pattern) is None or lowered.twin(pattern) is not None, f"{source + last}: the twin read the text differently"
