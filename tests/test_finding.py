"""A Finding compares, orders and hashes by its place, rule and message, as the reporters rely on."""

from __future__ import annotations

from hypothesis import given, strategies as st

from clusterlint.model.findings import ORDER, Finding

_findings = st.builds(
    Finding, file=st.sampled_from(["a.yaml", "b.yaml"]), line=st.integers(1, 3), column=st.integers(1, 2),
    rule=st.sampled_from(["NET003", "STO001"]), message=st.sampled_from(["m", "n"]), severity=st.sampled_from(["error", "info"]),
    evidence=st.sampled_from([(), ("e",)]), length=st.integers(0, 2), fingerprint=st.sampled_from(["", "f"]), page=st.integers(0, 1),
)


@given(_findings, _findings)
def test_compared_ordered_and_hashed_by_place_rule_and_message_not_by_evidence(a, b):
    assert (a == b) is (ORDER(a) == ORDER(b))
    assert (a < b, a <= b, a > b, a >= b) == (ORDER(a) < ORDER(b), ORDER(a) <= ORDER(b), ORDER(a) > ORDER(b), ORDER(a) >= ORDER(b))
    if a == b:
        assert hash(a) == hash(b)


def test_a_finding_is_not_equal_to_another_kind_of_thing_and_shows_every_field():
    f = Finding("q.yaml", 2, 3, "NET003", "slow", page=1, evidence=("x",))
    assert f != ORDER(f) and f != "q.yaml"
    assert sorted([f, Finding("q.yaml", 9, 1, "A", "m")]) == [Finding("q.yaml", 9, 1, "A", "m"), f]  # page 1 after page 0
    assert repr(f).startswith("Finding(file='q.yaml', page=1, line=2, column=3, rule='NET003', message='slow'") and "evidence=('x',)" in repr(f)
