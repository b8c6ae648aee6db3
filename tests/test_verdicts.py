"""Verdicts a buyer can trust: a quote's findings caused with the workload belong to that quote,
suppressions act in their own file, a file that was not reviewed has no score, skipped rules and
excludes are per file, and output stays bounded and well-formed."""

from __future__ import annotations

import json
import re
from pathlib import Path
from xml.etree import ElementTree as ET

from conftest import SPECS, check_json, run_cli

WORKLOAD = SPECS / "llama70b-pretrain.yaml"
AWS = SPECS / "aws-p5-48xlarge.yaml"  # 85.3 days for the 60-day deadline: CST002


def _copy(tmp_path: Path, source: Path, name: str, replace: tuple = ()) -> Path:
    text = source.read_text(encoding="utf-8")
    for old, new in replace:
        assert old in text
        text = text.replace(old, new)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _cst002(report: dict) -> list[dict]:
    return [f for f in report["findings"] if f["rule"] == "CST002"]


def test_a_quote_that_misses_the_deadline_is_reported_in_the_quote_with_the_workload_line_related(tmp_path):
    report = check_json(str(AWS), str(SPECS / "forge-h100-quote.yaml"), "--workload", str(WORKLOAD))
    [finding] = _cst002(report)
    assert (finding["file"], finding["line"], finding["column"]) == ("specs/aws-p5-48xlarge.yaml", 9, 9)  # the quote's name
    assert finding["related"] == [{"file": "specs/llama70b-pretrain.yaml", "line": 20, "column": 13, "message": "workload spec.deadline"}]
    assert "specs/llama70b-pretrain.yaml" not in report["score"]["files"]  # the workload has no finding of its own
    assert report["score"]["files"]["specs/aws-p5-48xlarge.yaml"]["areas"]["CST"] == 80
    text = run_cli("check", str(AWS), "--workload", str(WORKLOAD))[1]
    assert "  = with workload spec.deadline at specs/llama70b-pretrain.yaml:20:13\n" in text


def test_a_baseline_for_one_quote_hides_neither_another_quote_nor_a_worse_figure(tmp_path):
    workload = _copy(tmp_path, WORKLOAD, "workload.yaml")
    a = _copy(tmp_path, AWS, "a.yaml")
    c = _copy(tmp_path, AWS, "c.yaml", (("name: aws-p5-32-nodes", "name: other-vendor"),))
    baseline = tmp_path / "baseline.json"
    assert run_cli("check", str(a), "--workload", str(workload), "--write-baseline", str(baseline))[0] == 0
    entries = [e for e in json.loads(baseline.read_text())["findings"] if e["rule"] == "CST002"]
    assert [e["file"] for e in entries] == ["a.yaml"]
    assert _cst002(check_json(str(a), "--workload", str(workload), "--baseline", str(baseline))) == []
    assert len(_cst002(check_json(str(c), "--workload", str(workload), "--baseline", str(baseline)))) == 1  # a new quote
    _copy(tmp_path, AWS, "a.yaml", (("count: 32", "count: 8"),))  # four times slower
    [worse] = _cst002(check_json(str(a), "--workload", str(workload), "--baseline", str(baseline)))
    assert "341.2 days" in worse["message"]


def test_sarif_never_has_two_results_with_one_rule_place_and_fingerprint(tmp_path):
    a = _copy(tmp_path, AWS, "a.yaml")
    b = _copy(tmp_path, AWS, "b.yaml")
    sarif = json.loads(run_cli("check", "--format", "sarif", str(a), str(b), "--workload", str(WORKLOAD))[1])
    results = sarif["runs"][0]["results"]
    keys = [(r["ruleId"], json.dumps(r["locations"]), r["partialFingerprints"]["clusterlint/v1"]) for r in results]
    assert len(keys) == len(set(keys))
    assert sum(1 for r in results if r["ruleId"] == "CST002") == 2
    assert all(r["relatedLocations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "specs/llama70b-pretrain.yaml"
               for r in results if r["ruleId"] == "CST002")


def test_a_suppression_acts_in_its_own_file_only(tmp_path):
    # NET002 (tensor parallel over PCIe) is caused by the quote with the workload's line 15.
    workload = _copy(tmp_path, WORKLOAD, "workload.yaml")
    lines = (SPECS / "budget-pcie-nfs.yaml").read_text(encoding="utf-8").splitlines()
    assert lines[14].strip() == "accelerator: {model: H100-PCIe, count: 8}"
    lines[14] += "  # clusterlint: ignore[NET002] accepted"  # line 15 of the quote, not of the workload
    quote = tmp_path / "quote.yaml"
    quote.write_text("\n".join(lines) + "\n", encoding="utf-8")
    report = check_json(str(quote), "--workload", str(workload))
    assert [f["rule"] for f in report["findings"]].count("NET002") == 1
    assert any(f["rule"] == "SUP002" and f["line"] == 15 and f["file"].endswith("quote.yaml") for f in report["findings"])
    _copy(tmp_path, WORKLOAD, "workload.yaml", (("zero_stage: 1}", "zero_stage: 1}  # clusterlint: ignore[NET002] PCIe is accepted"),))
    report = check_json(str(quote), "--workload", str(workload))
    assert "NET002" not in [f["rule"] for f in report["findings"]]
    [silenced] = [s for s in report["suppressed"] if s["rule"] == "NET002"]
    assert silenced["suppression"] == {"kind": "inSource", "justification": "PCIe is accepted", "line": 15}


def test_a_file_that_was_not_reviewed_has_no_score_and_fails_min_score(tmp_path):
    broken = _copy(tmp_path, SPECS / "forge-h100-quote.yaml", "quote.yaml", (("node_pools:", "node_pool:"),))
    code, out, _ = run_cli("check", str(broken), "--fail-on", "never", "--min-score", "10", "--format", "json")
    card = json.loads(out)["score"]
    assert code == 1 and card["score"] is None and card["grade"] is None
    assert card["not_reviewed"].startswith(f"{broken}:") and "SPEC002" in card["not_reviewed"]
    text = run_cli("check", str(broken), "--fail-on", "never")[1]
    assert re.search(r"quote\.yaml: not reviewed  \(.*SPEC002", text) and "/100" not in text
    md = run_cli("check", str(broken), "--fail-on", "never", "--format", "markdown")[1]
    assert "| - | not reviewed |" in md


def test_a_broken_workload_leaves_the_quote_not_reviewed_instead_of_better(tmp_path):
    workload = _copy(tmp_path, WORKLOAD, "workload.yaml", (("deadline: 60d", "dedline: 60d"),))
    report = check_json(str(AWS), "--workload", str(workload))
    cards = report["score"]["files"]
    assert cards["specs/aws-p5-48xlarge.yaml"]["score"] is None
    assert cards["specs/aws-p5-48xlarge.yaml"]["not_reviewed"] == f"the workload {workload} was not reviewed (see its findings)"
    assert cards[str(workload)]["score"] is None and report["score"]["score"] is None


def test_skipped_rules_are_listed_per_file(tmp_path):
    out = run_cli("check", str(SPECS / "budget-pcie-nfs.yaml"), str(WORKLOAD), "--show-skipped")[1]
    quote = out[out.index("Skipped in specs/budget-pcie-nfs.yaml"):out.index("Skipped in specs/llama70b-pretrain.yaml")]
    assert "NET003" not in quote  # it ran on the quote (and fired)
    assert re.search(r"Skipped in specs/llama70b-pretrain\.yaml \(58 rules.*\n(?:  .*\n)*  .*NET003.*: needs Cluster document", out)


def test_a_directory_check_honours_excludes(tmp_path):
    spec = (SPECS / "forge-h100-quote.yaml").read_text(encoding="utf-8")
    for folder in ("build", "node_modules/pkg", ".venv", "vendor/x", "kept", "kept/generated"):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "q.yaml").write_text(spec, encoding="utf-8")
    (tmp_path / ".clusterlint.yaml").write_text("extend-exclude: [vendor/, generated]\n", encoding="utf-8")
    assert check_json(str(tmp_path))["files"] == [str(tmp_path / "kept" / "q.yaml")]
    code, _, err = run_cli("check", str(tmp_path), "--extend-exclude", "kept")
    assert code == 2 and "no clusterlint documents found" in err
    (tmp_path / ".clusterlint.yaml").write_text("exclude: []\n", encoding="utf-8")
    assert len(check_json(str(tmp_path))["files"]) == 5  # hidden folders stay skipped
    (tmp_path / ".clusterlint.yaml").write_text("exclude: [/kept, build/q.yaml, pkg/]\n", encoding="utf-8")
    (tmp_path / "more" / "kept").mkdir(parents=True)
    (tmp_path / "more" / "kept" / "q.yaml").write_text(spec, encoding="utf-8")
    assert check_json(str(tmp_path))["files"] == [str(tmp_path / p / "q.yaml") for p in ("more/kept", "vendor/x")]


def test_junit_failures_agree_with_fail_on():
    args = ("check", "--format", "junit", str(SPECS / "gcp-a3-highgpu-8g.yaml"))  # 2 info, 2 warnings
    passing = ET.fromstring(run_cli(*args)[1])
    assert run_cli(*args)[0] == 0 and passing.get("failures") == "0" and len(passing.findall(".//system-out")) == 4
    assert ET.fromstring(run_cli(*args, "--fail-on", "warning")[1]).get("failures") == "2"
    assert ET.fromstring(run_cli(*args, "--fail-on", "info")[1]).get("failures") == "4"


def _report(findings, file="q.yaml", lines=()):
    from clusterlint.engine.review import FileResult
    from clusterlint.check import Report

    return Report(results=[FileResult(file, list(lines), findings=list(findings))])


def _finding(rule="NET003", severity="warning", line=1, file="q.yaml", message="m", column=1):
    from clusterlint.model.findings import Finding

    return Finding(file=file, line=line, column=column, rule=rule, message=message, severity=severity, name="n")


def test_github_annotations_come_errors_first_and_the_summary_counts_what_github_hides(tmp_path, monkeypatch):
    from clusterlint.reporters import github

    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    findings = [_finding("NET003", "info", n) for n in range(1, 4)] + [_finding("NET004", "warning", n) for n in range(1, 13)]
    findings += [_finding("NET005", "error", 20)]
    out = github.render(_report(findings)).splitlines()
    kinds = [line.split()[0] for line in out if line.startswith("::")]
    assert kinds == ["::error"] + ["::warning"] * 12 + ["::notice"] * 3
    assert "GitHub shows 10 annotations of each kind per step: 2 warnings were not shown as annotations" in summary.read_text()
    assert out[-1] == "clusterlint: GitHub shows 10 annotations of each kind per step: 2 warnings were not shown as annotations; "\
                      "the log above and the job summary list every finding."


def test_text_excerpts_are_clipped_and_findings_capped_on_a_200kb_one_line_spec(tmp_path):
    clause = '{"ref": "%d", "text": "Provider will use commercially reasonable efforts to deliver item %d."}'
    clauses = ", ".join(clause % (i, i) for i in range(2300))
    doc = ('{"apiVersion": "clusterlint/v1", "kind": "Contract", "metadata": {"name": "big"}, "spec": {"clauses": [%s]}}' % clauses)
    path = tmp_path / "big.yaml"
    path.write_text(doc + "\n", encoding="utf-8")
    assert len(doc) > 200_000
    code, out, _ = run_cli("check", str(path))
    assert len(out.encode()) < 100_000
    assert f"and 2,200 more CON001 in {path}" in out
    excerpt = next(line for line in out.splitlines() if line.startswith("1 | "))
    assert excerpt.startswith("1 | ...") or len(excerpt) < 120
    assert len(excerpt) <= 4 + 3 + 100 + 3
    report = check_json(str(path))
    assert sum(1 for f in report["findings"] if f["rule"] == "CON001") == 100  # the documented default cap
    assert report["summary"]["findings"] == len(report["findings"]) + 2200
    assert report["not_listed"] == [{"file": str(path), "rule": "CON001", "count": 2200}]
    for fmt in ("markdown", "html", "junit", "github", "sarif"):
        assert "and 2,200 more CON001 in " in run_cli("check", str(path), "--format", fmt)[1], fmt


def test_a_file_name_with_a_newline_cannot_start_a_workflow_command(tmp_path):
    spec = (SPECS / "budget-pcie-nfs.yaml").read_text(encoding="utf-8")
    path = tmp_path / "evil\n::error file=x::owned\x1b[31m.yaml"
    path.write_text(spec, encoding="utf-8")
    out = run_cli("check", "--format", "github", str(path))[1]
    assert not any(line.startswith("::error file=x") for line in out.splitlines())
    text = run_cli("check", str(path))[1]
    assert "\x1b" not in text and "\\x1b[31m" in text and "evil\\x0a::error" in text


EVIL_CONTRACT = """apiVersion: clusterlint/v1
kind: Contract
metadata: {name: evil}
spec:
  clauses:
    - ref: "![x](https://evil.example/a.png) <b>[link](http://x)\\e[2J\\u0007 `tick"
      text: Provider will use commercially reasonable efforts to deliver.
"""


def test_spec_text_cannot_drive_the_terminal_markdown_xml_or_sarif(tmp_path):
    path = tmp_path / "we`ird [x](y) %.yaml"
    path.write_text(EVIL_CONTRACT, encoding="utf-8")
    text = run_cli("check", str(path))[1]
    assert "\x1b" not in text and "\x07" not in text and "\\x1b[2J\\x07" in text
    md = run_cli("check", str(path), "--format", "markdown")[1]
    from test_output_properties import _outside_code_spans

    plain = _outside_code_spans(md)
    assert not re.search(r"(?<!\\)[\[\]<>]", plain) and "://" not in plain
    assert "\\!\\[x\\]\\(https&#58;//evil.example/a.png\\) &lt;b&gt;" in md
    assert f"``{path}:" in md  # a backtick in the name: a longer fence keeps the code span whole
    root = ET.fromstring(run_cli("check", str(path), "--format", "junit")[1])
    assert any("\\x1b[2J\\x07" in (f.get("message") or "") for f in root.iter("failure"))
    sarif = json.loads(run_cli("check", str(path), "--format", "sarif")[1])
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in sarif["runs"][0]["results"]}
    assert uris == {"file://" + str(path).replace("`", "%60").replace(" ", "%20").replace("[", "%5B").replace("]", "%5D")
                    .replace("(", "%28").replace(")", "%29").replace("%.", "%25.")}


def test_compare_ranks_a_quote_that_was_not_reviewed_last(tmp_path):
    forge = _copy(tmp_path, SPECS / "forge-h100-quote.yaml", "forge.yaml")  # the faster and cheaper quote
    with forge.open("a", encoding="utf-8") as handle:
        handle.write("---\napiVersion: clusterlint/v1\nkind: Contract\nmetadata: {name: terms}\nspec: {pricng: {}}\n")
    out = run_cli("compare", str(forge), str(AWS), "--workload", str(WORKLOAD), "--format", "json")[1]
    quotes = json.loads(out)["quotes"]
    assert [(q["name"], q["score"]["score"]) for q in quotes] == [("aws-p5-32-nodes", 12.5), ("forge-h100-64-nodes", None)]
