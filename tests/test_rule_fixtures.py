"""Every rule fires exactly on its bad fixture's marked lines and stays silent on its good one.

Rules that need evidence (DLV) run under `clusterlint accept` with the folder beside the fixture
(bad-evidence/, good-evidence/)."""

from __future__ import annotations

import pytest

from clusterlint.registry import builtin_rules

from conftest import FIXTURES, accept_json, check_json, expected_markers

RULES = sorted(builtin_rules())


def _report(path) -> dict:
    evidence = path.parent / f"{path.stem}-evidence"
    return accept_json(str(path), str(evidence)) if evidence.is_dir() else check_json(str(path))


@pytest.mark.parametrize("rule_id", RULES)
def test_bad_fixture_fires_on_marked_lines(rule_id):
    bad = FIXTURES / rule_id / "bad.yaml"
    expected = {m for m in expected_markers(bad) if m[1] == rule_id}
    assert expected, f"{bad} has no '# expect: {rule_id}' marker"
    report = _report(bad)
    found = {(f["line"], f["rule"]) for f in report["findings"] if f["rule"] == rule_id}
    assert found == expected


@pytest.mark.parametrize("rule_id", RULES)
def test_good_fixture_is_silent_and_the_rule_ran(rule_id):
    good = FIXTURES / rule_id / "good.yaml"
    report = _report(good)
    assert [f for f in report["findings"] if f["rule"] == rule_id] == []
    assert [s for s in report["skipped"] if s["rule"] == rule_id] == [], "a skipped rule did not pass, it did not run"


def test_every_fixture_folder_names_a_rule():
    assert sorted(p.name for p in FIXTURES.iterdir() if p.is_dir()) == RULES
