"""Every example spec produces exactly what specs/README.md says it does."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from conftest import SPECS, check_json

ROW = re.compile(r"^\| (\S+\.yaml) \| (.+?) \| ([0-9.]+) \|$")


def _table():
    rows = {}
    for line in (SPECS / "README.md").read_text(encoding="utf-8").splitlines():
        match = ROW.match(line)
        if match:
            name, findings, score = match.groups()
            expected = Counter() if findings == "none" else Counter(tuple(item.split()) for item in findings.split(", "))
            rows[name] = (expected, float(score))
    return rows


TABLE = _table()


def test_table_covers_every_spec():
    assert sorted(TABLE) == sorted(p.name for p in SPECS.glob("*.yaml"))


@pytest.mark.parametrize("name", sorted(TABLE))
def test_spec_lints_as_documented(name):
    expected, score = TABLE[name]
    report = check_json(str(SPECS / name), "--workload", str(SPECS / "llama70b-pretrain.yaml"))
    assert Counter((f["rule"], f["severity"]) for f in report["findings"]) == expected
    assert report["score"]["score"] == score


def test_good_cluster_has_no_error_and_no_warning():
    report = check_json(str(SPECS / "dgx-h100-superpod.yaml"), "--workload", str(SPECS / "llama70b-pretrain.yaml"))
    assert report["summary"]["error"] == report["summary"]["warning"] == 0
    assert not [s for s in report["skipped"] if s["rule"] != "CST003" and s["rule"] != "REL001"]
