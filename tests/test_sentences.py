"""The sentence split the contract rules and the findings' fingerprints rest on."""

from __future__ import annotations

import re

from hypothesis import given, settings, strategies as st

from clusterlint.contracts.sentences import _starts, sentence_at, spans

# the split as first written: a run of spaces that follows a sentence's mark. The module's pattern is
# led by the mark instead (faster); the sentences must be the same.
_LOOK_BEHIND = re.compile(r"(?<=[.;!?])\s+(?=[A-Z(\"“0-9])(?!A:)|(?<=\|)[ \t]*\n[ \t]*(?=\|)|\n(?=[^\n]*\t)")


def reference(text: str) -> tuple[int, ...]:
    return (0, *(m.end() for m in _LOOK_BEHIND.finditer(text)))


def test_a_clause_splits_after_each_mark_before_a_capital_or_a_number():
    text = "1. Provider will deliver. Customer may; (b) pay!  2 days later? A: yes. no split here"
    assert [text[a:b] for a, b in spans(text)] == [
        "1. ", "Provider will deliver. ", "Customer may; ", "(b) pay!  ", "2 days later? A: yes. no split here"]
    assert sentence_at(text, text.index("Customer")) == "Customer may; "


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.sampled_from(list(".;!?:,aAbZ09(\"“ \t\n\u00a0\u2003x|")), max_size=60))
def test_the_split_is_the_look_behind_one(text):
    assert _starts(text) == reference(text)


def test_a_table_row_is_a_sentence():
    text = "| Severity | Response |\n| Severity 1 | we will use reasonable efforts to respond |\n| Severity 2 | 1 business day |"
    assert [text[a:b] for a, b in spans(text)] == [
        "| Severity | Response |\n", "| Severity 1 | we will use reasonable efforts to respond |\n", "| Severity 2 | 1 business day |"]
    rows = "Uptime\tCredit\n99.9%\t10%"
    assert sentence_at(rows, rows.index("99.9")) == "99.9%\t10%"
