"""Inline suppressions in YAML and in contract text, and how each output format shows them."""

from __future__ import annotations

import json
from dataclasses import FrozenInstanceError
from types import SimpleNamespace

import jsonschema
import pytest

from clusterlint.policy.suppressions import Suppressed
from conftest import FIXTURES, ROOT, run_cli

QUOTE = (FIXTURES / "NET003" / "bad.yaml").read_text(encoding="utf-8")  # NET003 at line 19
NIC_LINE = "      nic_speed: 400Gbps  # expect: NET003\n"


def quote(tmp_path, text: str, name: str = "q.yaml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def report(path, *args) -> dict:
    code, out, err = run_cli("check", "--isolated", "--format", "json", str(path), *args)
    assert code in (0, 1), err
    return json.loads(out)


def rules(data) -> list[str]:
    return [f["rule"] for f in data["findings"]]


def test_comment_on_the_line_silences_it(tmp_path):
    path = quote(tmp_path, QUOTE.replace(NIC_LINE, "      nic_speed: 400Gbps  # clusterlint: ignore[NET003] inference only\n"))
    data = report(path)
    assert rules(data) == ["CST001"]
    [silenced] = data["suppressed"]
    assert (silenced["rule"], silenced["line"]) == ("NET003", 19)
    assert silenced["suppression"] == {"kind": "inSource", "justification": "inference only", "line": 19}
    assert data["score"]["score"] == 100.0  # an accepted finding costs nothing


def test_comment_on_the_line_above_silences_the_next_line(tmp_path):
    text = QUOTE.replace(NIC_LINE, "      # clusterlint: ignore[NET003] inference only\n      # another comment\n      nic_speed: 400Gbps\n")
    assert rules(report(quote(tmp_path, text))) == ["CST001"]


def test_comment_two_lines_away_does_not(tmp_path):
    text = QUOTE.replace(NIC_LINE, "      # clusterlint: ignore[NET003] inference only\n      rdma: true\n      nic_speed: 400Gbps\n").replace(
        "      rdma: true\n      oversubscription", "      oversubscription")
    data = report(quote(tmp_path, text))
    assert "NET003" in rules(data)
    assert any(f["rule"] == "SUP002" and f["message"] == "unused suppression: no NET003 finding on line 20" for f in data["findings"])


def test_ignore_file_silences_every_line_and_reason_is_required(tmp_path):
    text = "# clusterlint: ignore-file[NET003, CST001]\n" + QUOTE
    data = report(quote(tmp_path, text))
    assert rules(data) == ["SUP001", "SUP001"]
    assert [f["line"] for f in data["findings"]] == [1, 1]
    assert {s["rule"] for s in data["suppressed"]} == {"NET003", "CST001"}
    assert {s["suppression"]["justification"] for s in data["suppressed"]} == {"(no reason given)"}


def test_missing_reason_is_configurable_as_a_rule(tmp_path):
    path = quote(tmp_path, QUOTE.replace(NIC_LINE, "      nic_speed: 400Gbps  # clusterlint: ignore[NET003]\n"))
    assert rules(report(path)) == ["CST001", "SUP001"]
    assert rules(report(path, "--ignore", "SUP001")) == ["CST001"]
    code, _, _ = run_cli("check", "--isolated", str(path), "--severity", "SUP001=error")
    assert code == 1


def test_unused_is_not_reported_for_a_rule_that_did_not_run(tmp_path):
    text = QUOTE.replace(NIC_LINE, "      nic_speed: 400Gbps  # clusterlint: ignore[NET003] inference only\n")
    assert rules(report(quote(tmp_path, text), "--ignore", "NET003")) == ["CST001"]


def test_spec_errors_cannot_be_suppressed(tmp_path):
    text = QUOTE.replace(NIC_LINE, "      nic_sped: 400Gbps  # clusterlint: ignore[SPEC002] typo accepted\n")
    data = report(quote(tmp_path, text))
    assert "SPEC002" in rules(data) and data["suppressed"] == []


CONTRACT_MD = """# Master Services Agreement

## 4. Delivery

<!-- clusterlint: ignore[CON001] legal accepted: the order form carries the date and credits -->
4.2 The Provider will use commercially reasonable efforts to deliver
the Cluster in the second quarter.

4.3 The Provider will use commercially reasonable efforts to meet the SLA.
"""


def test_contract_comment_before_a_clause_covers_the_whole_clause(tmp_path):
    data = report(quote(tmp_path, CONTRACT_MD, "msa.md"), "--select", "CON001")
    assert [(f["rule"], f["line"]) for f in data["findings"]] == [("CON001", 9)]
    assert [(s["rule"], s["line"], s["suppression"]["line"]) for s in data["suppressed"]] == [("CON001", 6, 5)]


def test_text_contract_accepts_hash_and_slash_comments(tmp_path):
    text = "1. Delivery\n\n// clusterlint: ignore[CON001] accepted\n1.1 The Provider will use best efforts to deliver in Q2.\n"
    data = report(quote(tmp_path, text, "msa.txt"), "--select", "CON001")
    assert rules(data) == [] and len(data["suppressed"]) == 1


def test_show_suppressed_lists_them_with_reasons(tmp_path):
    path = quote(tmp_path, QUOTE.replace(NIC_LINE, "      nic_speed: 400Gbps  # clusterlint: ignore[NET003] inference only\n"))
    _, hidden, _ = run_cli("check", "--isolated", str(path))
    assert "1 suppressed (--show-suppressed lists them)." in hidden and "inference only" not in hidden
    _, shown, _ = run_cli("check", "--isolated", str(path), "--show-suppressed")
    assert "Suppressed (1, not counted):" in shown
    assert f"  {path}:19:18: NET003 [warning] 4 x 400 Gbps" in shown
    assert "    ignored on line 19: inference only" in shown


def test_sarif_marks_suppressed_results_and_validates(tmp_path):
    path = quote(tmp_path, QUOTE.replace(NIC_LINE, "      nic_speed: 400Gbps  # clusterlint: ignore[NET003] inference only\n"))
    _, out, _ = run_cli("check", "--isolated", "--format", "sarif", str(path))
    sarif = json.loads(out)
    schema = json.loads((ROOT / "tests" / "vendor" / "sarif-schema-2.1.0.json").read_text())
    jsonschema.validate(sarif, schema)
    results = sarif["runs"][0]["results"]
    silenced = [r for r in results if r.get("suppressions")]
    assert [(r["ruleId"], r["suppressions"]) for r in silenced] == [("NET003", [{"kind": "inSource", "justification": "inference only"}])]
    assert all("suppressions" not in r for r in results if r["ruleId"] != "NET003")


@pytest.mark.parametrize("comment", ["# clusterlint: ignore NET003 ok", "# clusterlint: ignore[] ok", "# clusterlint: ignore[ , ] ok", "# clusterlint: disable[NET003] ok"])
def test_malformed_comments_are_reported_and_silence_nothing(tmp_path, comment):
    data = report(quote(tmp_path, QUOTE.replace(NIC_LINE, f"      nic_speed: 400Gbps  {comment}\n")))
    assert rules(data) == ["CST001", "NET003", "SUP003"]


def test_comment_inside_a_value_is_not_a_suppression(tmp_path):
    text = QUOTE.replace("metadata: {name: fixture-cluster,", "metadata: {name: 'a#clusterlint: ignore[NET003] x',")
    assert "NET003" in rules(report(quote(tmp_path, text)))


def with_comment(text: str, line: int, comment: str, own_line: bool = False) -> str:
    """QUOTE-like `text` with `comment` at the end of `line` (instead of its `# expect:` marker), or on its
    own line before it (line 0: after the last)."""
    lines = text.splitlines(keepends=True)
    if own_line:
        lines.insert(len(lines) if line == 0 else line - 1, comment + "\n")
    else:
        lines[line - 1] = lines[line - 1].rstrip("\n").split("  # expect:")[0] + "  " + comment + "\n"
    return "".join(lines)


NIC = 19  # the NET003 finding's line in QUOTE; a comment at its end starts at column 27
CLUSTER_ONLY = "".join(QUOTE.splitlines(keepends=True)[:33])  # no workload: ACC001 is skipped, NET003 still runs


@pytest.mark.parametrize("text, args, findings, suppressed", [
    (with_comment(QUOTE, NIC, "# clusterlint: ignore[NET003]"), [],
     [("SUP001", 19, 27, "suppression of NET003 gives no reason; write it after the brackets: clusterlint: ignore[NET003] why it is accepted")],
     [("NET003", 19, "(no reason given)", 19)]),
    (with_comment(QUOTE, 1, "# clusterlint: ignore-file[NET001]", own_line=True), [],
     [("SUP001", 1, 1, "suppression of NET001 gives no reason; write it after the brackets: clusterlint: ignore-file[NET001] why it is accepted"),
      ("SUP002", 1, 1, "unused suppression: no NET001 finding in this file")],
     []),
    (with_comment(QUOTE, NIC, "# clusterlint: ignore[NET003, NET001] accepted"), [],
     [("SUP002", 19, 27, "unused suppression: no NET001 finding on line 19")],
     [("NET003", 19, "accepted", 19)]),
    (with_comment(QUOTE, 0, "# clusterlint: ignore[NET001] accepted", own_line=True), [],
     [("SUP002", 63, 1, "unused suppression: no NET001 finding on the line after it (there is none)")],
     []),
    (with_comment(QUOTE, NIC, "# clusterlint: ignore[NET999, NET03, net003] accepted"), [],
     [("SUP002", 19, 27, "suppression names unknown rule 'NET999'"),
      ("SUP002", 19, 27, "suppression names unknown rule 'NET03' (did you mean 'NET003'?)"),
      ("SUP002", 19, 27, "suppression names unknown rule 'net003'")],
     []),
    (with_comment(QUOTE, 20, "# clusterlint: ignore[SPEC002, SUP001]"), [],
     [("SUP001", 20, 19, "suppression of SPEC002 gives no reason; write it after the brackets: clusterlint: ignore[SPEC002] why it is accepted"),
      ("SUP002", 20, 19, "SPEC002 cannot be suppressed: fix the file (or the comment) instead"),
      ("SUP001", 20, 19, "suppression of SUP001 gives no reason; write it after the brackets: clusterlint: ignore[SUP001] why it is accepted"),
      ("SUP002", 20, 19, "SUP001 cannot be suppressed: fix the file (or the comment) instead")],
     []),
    # a rule that did not run says nothing about the comment: not selected, or skipped for want of a document
    (with_comment(QUOTE, NIC, "# clusterlint: ignore[NET001] accepted"), ["--ignore", "NET001"], [], []),
    (with_comment(CLUSTER_ONLY, NIC, "# clusterlint: ignore[ACC001] accepted"), [], [], []),
    # the comments' own findings are rules too: not selected, not reported
    (with_comment(QUOTE, NIC, "# clusterlint: ignore[NET001, NET999]"), ["--ignore", "SUP001,SUP002"], [], []),
    (with_comment(QUOTE, NIC, "# clusterlint: ignore NET003"), ["--ignore", "SUP003"], [], []),
])
def test_comment_findings_and_what_they_silence(tmp_path, text, args, findings, suppressed):
    data = report(quote(tmp_path, text), *args)
    assert sorted((f["rule"], f["line"], f["column"], f["message"]) for f in data["findings"] if f["rule"].startswith("SUP")) == sorted(findings)
    assert [(s["rule"], s["line"], s["suppression"]["justification"], s["suppression"]["line"]) for s in data["suppressed"]] == suppressed
    silenced = {s[0] for s in suppressed}
    assert "NET003" in rules(data) or "NET003" in silenced


def test_a_suppressed_finding_says_how_and_where_it_was_silenced():
    finding = SimpleNamespace(as_json=lambda: {"rule": "NET003", "line": 19})
    inline = Suppressed(finding, "inSource", "inference only", 18)
    external = Suppressed(finding, "external", "in the baseline baseline.json")
    assert inline.as_json() == {"rule": "NET003", "line": 19,
                                "suppression": {"kind": "inSource", "justification": "inference only", "line": 18}}
    assert external.as_json() == {"rule": "NET003", "line": 19,  # a baseline entry is written nowhere in the file
                                  "suppression": {"kind": "external", "justification": "in the baseline baseline.json"}}
    with pytest.raises(FrozenInstanceError):
        inline.line = 1
