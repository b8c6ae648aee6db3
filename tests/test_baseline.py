"""Baselines: accepted findings survive unrelated edits; new ones are reported; fixed ones drop out."""

from __future__ import annotations

import json
from collections import Counter
from types import SimpleNamespace

import pytest

from clusterlint import __version__
from clusterlint.policy import baseline
from conftest import FIXTURES, run_cli

QUOTE = (FIXTURES / "NET003" / "bad.yaml").read_text(encoding="utf-8")  # NET003 at line 19, CST001 at line 7


@pytest.fixture
def repo(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "q.yaml").write_text(QUOTE, encoding="utf-8")
    return tmp_path


def check(*args) -> tuple[int, dict]:
    code, out, err = run_cli("check", "--isolated", "--format", "json", *args)
    assert code in (0, 1), err
    return code, json.loads(out)


def write_baseline(*args):
    code, out, err = run_cli("check", "--isolated", "q.yaml", "--write-baseline", "baseline.json", *args)
    assert code == 0, err
    return err


def test_write_baseline_records_every_finding(repo):
    message = write_baseline()
    assert message == "wrote baseline.json: 2 findings recorded; check with --baseline baseline.json to see only new ones\n"
    data = json.loads((repo / "baseline.json").read_text())
    assert [(e["rule"], e["file"], e["path"], e["line"]) for e in data["findings"]] == [
        ("CST001", "q.yaml", "spec.node_pools[0].count", 7), ("NET003", "q.yaml", "spec.network.inter_node.nic_speed", 19)]


def test_baseline_hides_known_findings_and_survives_a_line_shift(repo):
    write_baseline("--fail-on", "warning")
    shifted = QUOTE.replace("spec:\n", "# quote revised 2026-11-20\n# second comment line\nspec:\n", 1)
    (repo / "q.yaml").write_text(shifted, encoding="utf-8")
    code, data = check("q.yaml", "--baseline", "baseline.json", "--fail-on", "warning")
    assert (code, data["findings"]) == (0, [])
    assert sorted((s["rule"], s["line"]) for s in data["suppressed"]) == [("CST001", 9), ("NET003", 21)]
    assert [s["suppression"] for s in data["suppressed"]] == [{"kind": "external", "justification": "in the baseline baseline.json"}] * 2


def test_a_new_finding_of_the_same_rule_elsewhere_is_reported(repo):
    write_baseline()
    worse = QUOTE.replace("  storage:\n", "  storage:\n    - {name: scratch, type: nfs, capacity: 10TB, purpose: [checkpoints]}\n", 1)
    (repo / "q.yaml").write_text(worse, encoding="utf-8")
    _, data = check("q.yaml", "--baseline", "baseline.json")
    assert [f["rule"] for f in data["findings"]] == ["STO001"]
    slower = QUOTE.replace("nic_speed: 400Gbps", "nic_speed: 200Gbps")  # same rule, same path, worse value
    (repo / "q.yaml").write_text(slower, encoding="utf-8")
    _, data = check("q.yaml", "--baseline", "baseline.json")
    assert [f["rule"] for f in data["findings"]] == ["NET003"]


def test_fixed_findings_drop_out_when_rewritten(repo):
    write_baseline()
    (repo / "q.yaml").write_text(QUOTE.replace("nics_per_node: 4", "nics_per_node: 8"), encoding="utf-8")
    write_baseline()
    assert [e["rule"] for e in json.loads((repo / "baseline.json").read_text())["findings"]] == ["CST001"]


def test_baseline_works_from_another_directory(repo, monkeypatch):
    write_baseline()
    (repo / "sub").mkdir()
    monkeypatch.chdir(repo / "sub")
    _, data = check("../q.yaml", "--baseline", "../baseline.json")
    assert data["findings"] == [] and len(data["suppressed"]) == 2


def test_baseline_from_the_configuration(repo):
    write_baseline()
    (repo / ".clusterlint.yaml").write_text("baseline: baseline.json\n")
    code, out, _ = run_cli("check", "--format", "json", "q.yaml")
    assert json.loads(out)["findings"] == []


@pytest.mark.parametrize("content, message", [
    (None, "clusterlint: error: nothing.json: cannot read baseline (No such file or directory); write one with --write-baseline nothing.json\n"),
    ("{", "clusterlint: error: nothing.json: not a clusterlint baseline: invalid JSON (Expecting property name enclosed in double quotes: line 1 column 2 (char 1))\n"),
    ('{"findings": []}', "clusterlint: error: nothing.json: not a clusterlint baseline (format 1); write one with --write-baseline nothing.json\n"),
])
def test_unreadable_baseline_is_a_usage_error(repo, content, message):
    if content is not None:
        (repo / "nothing.json").write_text(content)
    code, _, err = run_cli("check", "--isolated", "q.yaml", "--baseline", "nothing.json")
    assert (code, err) == (2, message)


def entry(rule, file, line, fingerprint, message="m", path="spec.x"):
    return SimpleNamespace(rule=rule, file=file, line=line, fingerprint=fingerprint, message=message, path=path)


def test_the_written_file_is_indented_sorted_json_that_keeps_non_ascii_text(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    findings = [entry("NET003", "sub/q.yaml", 19, "f2", "4 × 400 Gbps"), entry("CST001", "sub/q.yaml", 7, "f1"),
                entry("SPEC002", "<stdin>", 3, "f3")]
    assert baseline.dumps(findings, "sub/baseline.json") == f"""{{
  "clusterlint_baseline": 1,
  "written_by": "clusterlint {__version__}",
  "about": "Findings accepted when this file was written; clusterlint check --baseline reports only others. Matched on rule, file and fingerprint (spec path and value); line and message are for readers.",
  "findings": [
    {{
      "rule": "SPEC002",
      "file": "<stdin>",
      "path": "spec.x",
      "fingerprint": "f3",
      "line": 3,
      "message": "m"
    }},
    {{
      "rule": "CST001",
      "file": "q.yaml",
      "path": "spec.x",
      "fingerprint": "f1",
      "line": 7,
      "message": "m"
    }},
    {{
      "rule": "NET003",
      "file": "q.yaml",
      "path": "spec.x",
      "fingerprint": "f2",
      "line": 19,
      "message": "4 × 400 Gbps"
    }}
  ]
}}
"""


def write(path, findings) -> str:
    path.write_text(json.dumps({"clusterlint_baseline": 1, "findings": findings}), encoding="utf-8")
    return str(path)


NET = {"rule": "NET003", "file": "q.yaml", "fingerprint": "f1", "line": 19, "message": "m"}


@pytest.mark.parametrize("entries, matched", [
    ([], 0),
    ([NET], 1),          # one entry absorbs one finding: the second identical finding is new
    ([NET, NET], 2),
    ([NET, NET, NET], 2),
    ([{**NET, "line": 40, "message": "another"}], 1),    # line and message are for readers only
    ([{**NET, "fingerprint": "f2"}], 0),
    ([{**NET, "file": "other.yaml"}], 0),
    ([{**NET, "rule": "NET001"}], 0),
])
def test_each_entry_absorbs_one_finding_with_its_rule_file_and_fingerprint(tmp_path, monkeypatch, entries, matched):
    monkeypatch.chdir(tmp_path)
    path = write(tmp_path / "baseline.json", entries)
    twins = [entry("NET003", "q.yaml", 19, "f1"), entry("NET003", "q.yaml", 20, "f1")]
    new, known = baseline.split(twins, baseline.load(path), path)
    assert (known, new) == (twins[:matched], twins[matched:])


def test_load_counts_the_entries_by_match_key(tmp_path):
    path = write(tmp_path / "baseline.json", [NET, NET, {**NET, "rule": "CST001"}])
    assert baseline.load(path) == Counter({("NET003", "q.yaml", "f1"): 2, ("CST001", "q.yaml", "f1"): 1})


def test_a_baseline_may_be_4_mib_and_no_more(tmp_path):
    limit = 4 * 1024 * 1024  # the loader's limit on every input file, in bytes
    path = tmp_path / "baseline.json"
    document = '{"clusterlint_baseline": 1, "findings": []}'
    path.write_text(document + " " * (limit - len(document)), encoding="utf-8")
    assert baseline.load(str(path)) == Counter()
    path.write_text(document + " " * (limit + 1 - len(document)), encoding="utf-8")
    with pytest.raises(baseline.BaselineError) as info:
        baseline.load(str(path))
    assert str(info.value) == f"{path}: baseline is over the 4 MiB limit"
