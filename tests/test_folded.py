"""`contracts.folded`: a case-insensitive pattern run over lower-cased text finds exactly what the
pattern finds with IGNORECASE, or is run as written."""

from __future__ import annotations

import importlib
import re

from hypothesis import given, settings, strategies as st

from clusterlint.contracts.folded import SPECIAL, Folded, lowered

LETTERS = "abcdefghijklmnopqrstuvwxyz"
MODULES = ["clusterlint.rules." + m for m in ("clauses", "contract", "service", "effort", "sole_remedy", "downtime", "security",
                                               "supply", "lockin", "delivery")] + \
          ["clusterlint.contracts." + m for m in ("kinds", "figures", "obligations")]


def test_the_special_characters_are_all_this_python_folds_otherwise():
    """Worked out on the running interpreter (its Unicode tables): every cased character whose
    lower() is not one character, or that IGNORECASE relates to an ASCII letter otherwise than
    lower() does, is in SPECIAL, so a text holding none of them is folded exactly."""
    letters = {a: re.compile(a, re.IGNORECASE) for a in LETTERS}
    ranged = re.compile("[a-z]", re.IGNORECASE)
    odd = set()
    for point in range(0x80, 0x110000):
        char = chr(point)
        low = char.lower()
        if low == char and char.upper() == char:
            continue
        if len(low) != 1 or bool(ranged.fullmatch(char)) != ("a" <= low <= "z") \
                or any(bool(p.fullmatch(char)) != (low == a) for a, p in letters.items()):
            odd.add(char)
    assert odd <= set(SPECIAL)


def test_lowered_keeps_escapes_and_group_names_and_refuses_what_it_cannot_vouch_for():
    assert lowered(r"\bQ[1-4]\s+\d{4}\b") == r"\bq[1-4]\s+\d{4}\b"
    assert lowered(r"(?P<Must>Shall|Will)\S") == r"(?P<Must>shall|will)\S"
    assert lowered(r"(?:a|(?=b)|(?<!c))") == r"(?:a|(?=b)|(?<!c))"
    for refused in (r"(?-i:A)", r"(?i)a", r"\x41", r"\u00e9", r"\N{LATIN SMALL LETTER A}", r"(a)\1", r"(?P<n>a)(?P=n)", "µs", "é"):
        assert lowered(refused) is None, refused
    assert lowered("[a-z'’-]") == "[a-z'’-]"  # a letter without case passes


def _patterns():
    found = []
    for name in MODULES:
        found += [v for v in vars(importlib.import_module(name)).values() if isinstance(v, Folded)]
    from clusterlint.engine.registry import builtin_rules
    from clusterlint.rules.clauses import phrase_pattern

    rules = builtin_rules()
    found += [phrase_pattern(rules[r].settings.phrases) for r in ("CON001", "CON005")]
    return found


PATTERNS = _patterns()
WORDS = ["Provider", "SHALL", "will", "use", "Commercially", "Reasonable", "efforts", "subject", "To", "Availability", "credits",
         "sole", "exclusive", "remedy", "Downtime", "means", "within", "30", "days", "Q1", "2027", "January", "15", "99.9%", "USD",
         "GPU", "nodes", "If", "you", "Customer", "may", "terminate", "not", "’s", "Zürich", "Société", "ſ", "İ", "ı", "\u212a",
         "µs", "(a)", "1.2", ";", ",", ".", "\n", " ", "  "]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(WORDS), max_size=40).map(" ".join), st.integers(0, 10))
def test_every_contract_pattern_finds_what_it_finds_with_ignorecase(text, pos):
    for pattern in PATTERNS:
        exact = pattern.exact()
        assert [(m.span(), m.group(0), m.lastgroup) for m in pattern.finditer(text)] == \
               [(m.span(), m.group(0), m.lastgroup) for m in exact.finditer(text)], pattern.pattern[:80]
        got, want = pattern.search(text, pos), exact.search(text, pos)
        assert (got and (got.span(), got.group(0))) == (want and (want.span(), want.group(0)))
        got, want = pattern.match(text, pos), exact.match(text, pos)
        assert (got and got.span()) == (want and want.span())
