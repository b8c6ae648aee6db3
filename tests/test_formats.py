"""Output formats: SARIF against the official schema, GitHub annotations and job summary, Markdown,
JUnit; `--format auto`, `--output` pairing, and agreement between formats."""

from __future__ import annotations

import json
import re
from pathlib import Path
from xml.etree import ElementTree as ET

import jsonschema
import pytest
from hypothesis import given, settings, strategies as st

from clusterlint.engine.registry import builtin_rules

from conftest import ROOT, SPECS, check_json, run_cli

SARIF_SCHEMA = json.loads((ROOT / "tests" / "vendor" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
WORKLOAD = str(SPECS / "llama70b-pretrain.yaml")
BUDGET = str(SPECS / "budget-pcie-nfs.yaml")
WEAK = str(SPECS / "nimbus-gpu-cloud-sla.md")
CASES = [(BUDGET, "--workload", WORKLOAD), (WEAK,), (str(SPECS / "gcp-a3-highgpu-8g.yaml"), "--workload", WORKLOAD, "--contract", WEAK)]


def _out(fmt: str, *args) -> str:
    return run_cli("check", "--format", fmt, *args)[1]


@pytest.mark.parametrize("args", CASES)
def test_sarif_validates_against_the_official_schema(args):
    sarif = json.loads(_out("sarif", *args))
    jsonschema.Draft4Validator(SARIF_SCHEMA).validate(sarif)
    run = sarif["runs"][0]
    assert len(sarif["runs"]) == 1
    assert [r["id"] for r in run["tool"]["driver"]["rules"]] == list(builtin_rules())
    for rule in run["tool"]["driver"]["rules"]:
        assert rule["name"] and rule["shortDescription"]["text"] and rule["fullDescription"]["text"] and rule["helpUri"].startswith("https://")
        assert rule["defaultConfiguration"]["level"] in ("error", "warning", "note")


def test_sarif_results_point_at_real_places_with_stable_fingerprints():
    report = check_json(BUDGET, "--workload", WORKLOAD)
    sarif = json.loads(_out("sarif", BUDGET, "--workload", WORKLOAD))
    results = sarif["runs"][0]["results"]
    assert [(r["ruleId"], r["locations"][0]["physicalLocation"]["region"]["startLine"], r["locations"][0]["physicalLocation"]["region"]["startColumn"])
            for r in results] == [(f["rule"], f["line"], f["column"]) for f in report["findings"]]
    assert {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results} == {"specs/budget-pcie-nfs.yaml"}
    related = {loc["physicalLocation"]["artifactLocation"]["uri"] for r in results for loc in r.get("relatedLocations", [])}
    assert related == {"specs/llama70b-pretrain.yaml"}  # the quote's findings caused with the workload name its line
    assert any(r["locations"][0]["physicalLocation"]["region"]["startLine"] > 1 for r in results)
    again = json.loads(_out("sarif", BUDGET, "--workload", WORKLOAD))["runs"][0]["results"]
    assert [r["partialFingerprints"] for r in again] == [r["partialFingerprints"] for r in results]
    assert len({r["partialFingerprints"]["clusterlint/v1"] for r in results}) == len(results)
    assert sarif["runs"][0]["properties"]["score"]["score"] == report["score"]["score"]
    levels = {r["ruleId"]: r["level"] for r in results}
    assert levels["CPU001"] == "error" and levels["CPU002"] == "warning" and levels["SPEC006"] == "note"


def test_fingerprints_survive_a_line_shift(tmp_path):
    spec = tmp_path / "budget.yaml"
    text = Path(BUDGET).read_text(encoding="utf-8")
    spec.write_text(text, encoding="utf-8")
    before = check_json(str(spec))["findings"]
    spec.write_text("# a new comment\n# and another\n" + text, encoding="utf-8")
    after = check_json(str(spec))["findings"]
    assert [f["line"] + 2 for f in before] == [f["line"] for f in after]
    assert [f["fingerprint"] for f in before] == [f["fingerprint"] for f in after]


def test_github_annotations_escape_and_place(monkeypatch, tmp_path):
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    out = _out("github", BUDGET, "--workload", WORKLOAD)
    lines = out.splitlines()
    assert "::error file=specs/budget-pcie-nfs.yaml,line=16,col=43,title=CPU001 too-few-cpu-cores::1 x 16 = 16 physical cores per node" in out
    assert any(line.startswith("::notice file=specs/budget-pcie-nfs.yaml,line=11,col=1,title=SPEC006 not-stated::the quote does not state the local drives") for line in lines)
    assert all("\n" not in line for line in lines)
    text = summary.read_text(encoding="utf-8")
    assert text.startswith("# clusterlint review") and "| `specs/budget-pcie-nfs.yaml` | 62.5 | D |" in text


def test_github_escapes_newlines_and_percent():
    from clusterlint.reporters.escape import github_data, github_property

    assert github_data("50%\nnext") == "50%25%0Anext"
    assert github_property("a:b,c") == "a%3Ab%2Cc"


def test_auto_is_github_in_actions_and_text_elsewhere(monkeypatch):
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    assert _out("auto", BUDGET).startswith("::")
    monkeypatch.setenv("GITHUB_ACTIONS", "false")
    assert run_cli("check", BUDGET)[1].startswith("specs/budget-pcie-nfs.yaml:")


def test_markdown_report_has_scorecard_estimates_findings_by_area_and_skipped():
    md = _out("markdown", BUDGET, "--workload", WORKLOAD)
    assert "## Scorecard" in md and "| `specs/budget-pcie-nfs.yaml` | 62.5 | D |" in md
    assert "## Estimates" in md and "estimated training time 893.1 days" in md
    assert "### Network (NET)" in md and "### Storage (STO)" in md
    assert "## Skipped rules" not in md and md.count("| 30 |") == 1  # a count per file by default
    md = _out("markdown", BUDGET, "--workload", WORKLOAD, "--show-skipped")
    assert "## Skipped rules (not run, so not passed)" in md
    assert "- `specs/budget-pcie-nfs.yaml`: CON001, CON002" in md
    assert "&gt;= 305.6 Gbps" in _out("markdown", BUDGET)  # spec text is escaped for the table (NET003 alone: no workload)


def test_junit_has_a_case_per_finding_and_per_clean_rule():
    root = ET.fromstring(_out("junit", BUDGET, "--workload", WORKLOAD))
    assert set(root.attrib) <= {"name", "time", "tests", "failures", "disabled", "errors"}  # the common JUnit XSD's testsuites
    suite = root.find("testsuite")
    assert suite.get("name") == "specs/budget-pcie-nfs.yaml"
    cases = suite.findall("testcase")
    findings = check_json(BUDGET, "--workload", WORKLOAD)["findings"]
    assert len(cases) == len(builtin_rules()) - len({f["rule"] for f in findings}) + len(findings) == int(suite.get("tests"))
    failed = [c.get("name").split()[0] for c in cases if c.find("failure") is not None]
    assert sorted(failed) == sorted(f["rule"] for f in findings if f["severity"] == "error")  # fail-on error: warnings and info pass
    assert all(c.find("failure").text.startswith(c.get("name").split(" at ")[1]) for c in cases if c.find("failure") is not None)
    skipped = [c for c in cases if c.find("skipped") is not None]
    assert skipped and all(c.find("skipped").get("message") for c in skipped)


@pytest.mark.parametrize("args", CASES)
def test_every_format_reports_the_same_findings(args, monkeypatch):
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    report = check_json(*args)
    n = report["summary"]["findings"]
    assert len(report["findings"]) == n
    assert [json.loads(line)["type"] for line in _out("jsonl", *args).splitlines()].count("finding") == n
    assert len(json.loads(_out("sarif", *args))["runs"][0]["results"]) == n
    assert len([l for l in _out("github", *args).splitlines() if l.startswith("::")]) == n
    assert len(re.findall(r"^\| (?:🔴|🟠|🔵) ", _out("markdown", *args), re.MULTILINE)) == n
    junit = ET.fromstring(_out("junit", *args))
    assert len(junit.findall(".//failure")) + len(junit.findall(".//system-out")) == n
    assert re.search(rf"^Found {n} finding", _out("text", *args), re.MULTILINE) or n == 0


def test_several_formats_with_outputs(tmp_path):
    sarif, junit = tmp_path / "out.sarif", tmp_path / "out.xml"
    code, out, _ = run_cli("check", BUDGET, "--format", "sarif", "--output", str(sarif), "--format", "junit", "--output", str(junit),
                           "--format", "json")
    assert code == 1
    assert json.loads(out)["summary"]["findings"] == len(json.loads(sarif.read_text())["runs"][0]["results"])
    assert ET.fromstring(junit.read_text()).tag == "testsuites"


def test_two_formats_on_stdout_is_a_usage_error():
    code, _, err = run_cli("check", BUDGET, "--format", "json", "--format", "text")
    assert code == 2 and "only one format can print to standard output" in err
    code, _, err = run_cli("check", BUDGET, "--output", "a", "--output", "b")
    assert code == 2 and "2 --output for 1 --format" in err


def test_min_score_fails_a_review_below_it():
    args = (str(SPECS / "gcp-a3-highgpu-8g.yaml"), "--workload", WORKLOAD, "--fail-on", "never")
    assert run_cli("check", *args)[0] == 0
    assert run_cli("check", *args, "--min-score", "75")[0] == 0
    assert run_cli("check", *args, "--min-score", "75.5")[0] == 1


def test_skip_non_specs_lists_foreign_yaml(tmp_path):
    foreign = tmp_path / "workflow.yaml"
    foreign.write_text("on: push\njobs: {}\n", encoding="utf-8")
    code, out, _ = run_cli("check", str(foreign), BUDGET, "--skip-non-specs")
    assert f"Not linted (1 file with no clusterlint document): {foreign}" in out
    assert run_cli("check", str(foreign))[0] == 1  # without the flag it is linted, and is not a spec


# ---------------------------------------------------------------- editor support


@pytest.mark.parametrize("kind", ["Cluster", "Contract", "Workload"])
def test_init_writes_a_valid_starter_with_the_schema_modeline(tmp_path, kind):
    target = tmp_path / f"{kind.lower()}.yaml"
    code, out, _ = run_cli("init", "--kind", kind, str(target))
    assert code == 0 and f"wrote {target}" in out
    first = target.read_text(encoding="utf-8").splitlines()[0]
    assert first == f"# yaml-language-server: $schema=schemas/{kind.lower()}.schema.json"  # tmp_path has no .git: beside FILE
    copy = json.loads((tmp_path / "schemas" / f"{kind.lower()}.schema.json").read_text(encoding="utf-8"))
    assert copy == json.loads(run_cli("schema", "--kind", kind)[1])
    report = check_json(str(target))
    assert not [f for f in report["findings"] if f["rule"].startswith("SPEC")]
    assert run_cli("init", "--kind", kind, str(target))[0] == 2  # never overwrites without --force


def test_init_starters_pass_together(tmp_path):
    for kind in ("Cluster", "Contract", "Workload"):
        run_cli("init", "--kind", kind, str(tmp_path / f"{kind.lower()}.yaml"))
    report = check_json(str(tmp_path / "cluster.yaml"), "--workload", str(tmp_path / "workload.yaml"), "--contract", str(tmp_path / "contract.yaml"))
    assert report["summary"]["error"] == report["summary"]["warning"] == 0


def test_terminal_escapes_every_control_character_and_leaves_the_rest_alone():
    """terminal() skips its regex for printable text: every character the regex escapes must be
    one that str.isprintable() refuses, so the shortcut can never let one through."""
    from clusterlint.reporters.escape import terminal, terminal_line

    for code in [*range(0x3000), *range(0xfe00, 0x10000), 0x1f600, 0xe0001]:
        char = chr(code)
        text = f"a{char}b"
        escaped = code < 0x20 or 0x7f <= code <= 0x9f or code in (0x2028, 0x2029) or 0x202a <= code <= 0x202e or 0x2066 <= code <= 0x2069
        if escaped:
            visible = f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
            assert terminal(text) == f"a{visible}b"
            assert terminal_line(text) == ("a b" if char == "\t" else "a\ufffdb")
        else:
            assert terminal(text) == text and terminal_line(text) == text, hex(code)


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4), max_leaves=20)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.text(max_size=8), _JSON, max_size=6))
def test_a_json_lines_line_is_what_json_dumps_writes(fields):
    """The JSON Lines encoder (the C encoder made once) writes what json.dumps does, NaN and all."""
    from clusterlint.reporters.jsonl import _line

    assert _line("finding", fields) == json.dumps({"type": "finding", **fields}, ensure_ascii=False) + "\n"
