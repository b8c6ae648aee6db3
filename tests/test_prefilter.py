"""The regex prefilter rules a text out only when the pattern cannot match it, and read_at's caches
read a sentence the same whatever was read before."""

from __future__ import annotations

import re
import sys

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from clusterlint.contracts import obligations, prefilter
from clusterlint.contracts.obligations import Parties, read_at
from clusterlint.contracts.lowered import FOLD
from clusterlint.contracts.prefilter import may_match, search
from clusterlint.rules import clauses, contract, missing
from clusterlint.contracts.sentences import per_sentence

@pytest.fixture(autouse=True)
def _read_at_once(monkeypatch):
    monkeypatch.setattr(prefilter, "WORTH", 0)  # the requirements are read from the first text on


PATTERNS = {f"{module.__name__}.{name}": value for module in (contract, clauses, missing, obligations)
            for name, value in vars(module).items() if isinstance(value, re.Pattern)}


def test_fold_is_every_character_re_takes_for_an_ascii_letter():
    letters = re.compile("[a-z]", re.IGNORECASE)
    found = {}
    for code in range(128, sys.maxunicode + 1):
        char = chr(code)
        if letters.fullmatch(char):
            found[code] = next(a for a in "abcdefghijklmnopqrstuvwxyz" if re.fullmatch(a, char, re.IGNORECASE))
    assert found == FOLD


@pytest.mark.parametrize("pattern, text, expected", [
    (re.compile(r"\bcredits?\b", re.IGNORECASE), "Service CREDITS apply", True),
    (re.compile(r"\bcredits?\b", re.IGNORECASE), "a debit note", False),
    (re.compile(r"service", re.IGNORECASE), "the ſervice", True),  # long s is an s to re under IGNORECASE
    (re.compile(r"kelvin", re.IGNORECASE), "\u212aELVIN", True),  # the Kelvin sign is a k
    (re.compile(r"Provider"), "provider", False),  # case-sensitive: the text is not lower-cased
    (re.compile(r"x(?i:provider)"), "xPROVIDER", True),  # a scoped case flag requires nothing
    (re.compile(r"subject to (?:capacity|stock)", re.IGNORECASE), "subject to availability", False),
    (re.compile(r"subject to (?:capacity|stock)", re.IGNORECASE), "Subject To STOCK", True),
    (re.compile(r"subject\s+to\s+(?:capacity|stock)", re.IGNORECASE), "Stock is subject to change", True),  # every word there, not in order
    (re.compile(r"\bagrees?\s+(?:to|that)\b", re.IGNORECASE), "the agreed date", False),  # re writes "(?:to|that)" as "t(?:o|hat)"
    (re.compile(r"\b(?:won|shan)['’]t\b", re.IGNORECASE), "we won’t", True),  # a class of a few literals: each spelling
    (re.compile(r"\b(?:won|shan)['’]t\b", re.IGNORECASE), "we won t", False),
    (re.compile(r"(?:best )?efforts?", re.IGNORECASE), "an effort", True),  # "best" is optional
    (re.compile(r"a\d+b", re.IGNORECASE), "anything", True),  # one character required is not tested
    (re.compile(r"(?:tim(?:e|es)\s+out)", re.IGNORECASE), "the timer ran", False),  # "out" is missing
])
def test_may_match(pattern, text, expected):
    assert may_match(pattern, text) is expected


def test_a_pattern_is_read_once_it_has_been_asked_about_enough_text(monkeypatch):
    monkeypatch.setattr(prefilter, "WORTH", 25)
    pattern = re.compile(r"\bunlikely words\b")
    assert [may_match(pattern, "other text") for _ in range(4)] == [True, True, False, False]  # 10, 20, then 30 characters


def test_requirements_read_from_the_parse_tree():
    need = prefilter._gate  # the function of the text, and whether it lower-cases
    gate, ignore_case = need(re.compile(r"\b(?:disconnect\w*|connect(?:ion)?s?|reachab\w*)\b", re.IGNORECASE))
    assert ignore_case and gate("reachable") and gate("disconnected") and not gate("unreached")
    assert need(re.compile(r"\d+\s*x"))[0] is None  # one letter is in nearly every text: not worth a test
    percent = need(re.compile(r"\d+\s*%"))[0]  # one mark of punctuation is
    assert percent("50 %") and not percent("50 percent")


def test_search_takes_the_span():
    pattern = re.compile(r"credit", re.IGNORECASE)
    assert search(pattern, "a credit here", 2).start() == 2
    assert search(pattern, "a credit here", 3) is None
    assert search(pattern, "no such word") is None


# words of the rules' own patterns, the characters re folds to ASCII letters, and punctuation
_WORDS = sorted({w for p in PATTERNS.values() for w in re.findall(r"[a-z]{3,}", p.pattern.lower())})
_PIECES = st.one_of(st.sampled_from(_WORDS), st.sampled_from([" ", ", ", ". ", "-", "’", "ſ", "İ", "ı", "\u212a", "1", "2026-03-01"]),
                    st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ 0123456789.,;:'\"()%$-", max_size=6))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_PIECES, min_size=1, max_size=24).map("".join), st.booleans())
def test_a_text_ruled_out_has_no_match(text, upper):
    text = text.upper() if upper else text
    for name, pattern in PATTERNS.items():
        if not may_match(pattern, text):
            assert pattern.search(text) is None, name
            assert list(per_sentence(pattern, text)) == []


def test_corpus_sentences_ruled_out_have_no_match():
    import yaml
    from pathlib import Path

    texts = [item["text"] for name in ("clauses.yaml", "tuning-2.yaml", "blind.yaml")
             for item in yaml.load((Path(__file__).parent / "corpus" / name).read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)["clauses"]]
    assert len(texts) > 300
    ruled_out = 0
    for pattern in PATTERNS.values():
        for text in texts:
            if not may_match(pattern, text):
                ruled_out += 1
                assert pattern.search(text) is None, (pattern.pattern[:60], text)
    assert ruled_out > len(PATTERNS) * len(texts) // 4  # the point of it: most pairs are never scanned


_WHO = Parties(frozenset(obligations.VENDOR_WORDS), frozenset(obligations.CUSTOMER_WORDS))
_SENTENCES = [
    "Provider will use commercially reasonable efforts to deliver the nodes, subject to availability.",
    "If you attempt to exceed your quota, we may suspend the account and Provider shall not refund the fees.",
    "Every reasonable effort will be made to restore service; the Customer must notify Provider and may terminate.",
    "The Centre aims to answer tickets. Credits are Customer's sole remedy.",
]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_SENTENCES), st.integers(0, 120)), min_size=1, max_size=12))
def test_read_at_is_the_same_whatever_was_read_before(reads):
    """The modal scan of a sentence is kept and extended as later words ask for more: a reading does
    not depend on the order of the words read before it."""
    kept = [read_at(text, min(at, len(text) - 1), _WHO) for text, at in reads]
    fresh = []
    for text, at in reads:
        obligations._scan.cache_clear()
        obligations._governed.cache_clear()
        fresh.append(read_at(text, min(at, len(text) - 1), _WHO))
    assert kept == fresh
