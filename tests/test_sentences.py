"""The sentence split the contract rules and the findings' fingerprints rest on."""

from __future__ import annotations

import re

from hypothesis import given, settings, strategies as st

from clusterlint.contracts.sentences import _starts, sentence_at, spans

# the split as first written: a run of spaces that follows a sentence's mark. The module's pattern is
# led by the mark instead (faster); the sentences must be the same.
_LOOK_BEHIND = re.compile(r"(?<=[.;!?])\s+(?=[A-Z(\"“0-9])(?!A:)|[ \t]*(?:\|[ \t]*\n?[ \t]*)+|\t+")


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


def test_a_table_cell_is_a_sentence():
    text = "| Severity | Response |\n| Severity 1 | we will use reasonable efforts to respond |\n| Severity 2 | 1 business day |"
    cells = [" ".join(text[a:b].strip(" |\n").split()) for a, b in spans(text)]
    assert [c for c in cells if c] == ["Severity", "Response", "Severity 1", "we will use reasonable efforts to respond", "Severity 2", "1 business day"]
    assert sentence_at("Uptime\t99.9%\tcredit 10%", 8).strip() == "99.9%"
