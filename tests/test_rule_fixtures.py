"""Every rule fires exactly on its bad fixture's marked lines and stays silent on its good one.

Rules that need evidence (DLV) run under `clusterlint accept` with the folder beside the fixture
(bad-evidence/, good-evidence/)."""

from __future__ import annotations

import pytest

from clusterlint.engine.registry import builtin_rules

from conftest import FIXTURES, expected_markers, fixture_json

RULES = sorted(builtin_rules())


@pytest.mark.parametrize("rule_id", RULES)
def test_bad_fixture_fires_on_marked_lines(rule_id):
    bad = FIXTURES / rule_id / "bad.yaml"
    expected = {m for m in expected_markers(bad) if m[1] == rule_id}
    assert expected, f"{bad} has no '# expect: {rule_id}' marker"
    report = fixture_json(bad)
    found = {(f["line"], f["rule"]) for f in report["findings"] if f["rule"] == rule_id}
    assert found == expected


@pytest.mark.parametrize("rule_id", RULES)
def test_good_fixture_is_silent_and_the_rule_ran(rule_id):
    good = FIXTURES / rule_id / "good.yaml"
    report = fixture_json(good)
    assert [f for f in report["findings"] if f["rule"] == rule_id] == []
    assert [s for s in report["skipped"] if s["rule"] == rule_id] == [], "a skipped rule did not pass, it did not run"


def test_every_fixture_folder_names_a_rule():
    assert sorted(p.name for p in FIXTURES.iterdir() if p.is_dir()) == RULES
