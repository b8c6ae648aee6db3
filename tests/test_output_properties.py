"""Every output format parses whatever the file names, messages and source text hold: control
characters, newlines, backticks, brackets, %, markup and any unicode."""

from __future__ import annotations

import json
import re
from xml.etree import ElementTree as ET

import jsonschema
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clusterlint.engine.review import FileResult
from clusterlint.model.findings import Finding, Related
from clusterlint.reporters import render
from clusterlint.check import Report

from conftest import ROOT

SARIF = jsonschema.Draft4Validator(json.loads((ROOT / "tests" / "vendor" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8")))
HOSTILE = "\x00\x07\x08\x0b\x0c\x1b\x7f\x85\u2028\u202e\ufeff\r\n\t%:,`[]()!<>&|*_#\\/\"'\U0001f600é"
text = st.text(st.one_of(st.sampled_from(HOSTILE), st.characters(exclude_categories=("Cs",))), max_size=40)
name = st.text(st.one_of(st.sampled_from(HOSTILE.replace("/", "")), st.characters(exclude_categories=("Cs",), exclude_characters="/\x00")),
               min_size=1, max_size=20)
PROPERTIES = settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def reports(draw) -> Report:
    results = []
    files = draw(st.lists(name, min_size=1, max_size=3, unique=True))
    for file in files:
        lines = draw(st.lists(text, min_size=1, max_size=4))
        findings = []
        for _ in range(draw(st.integers(0, 4))):
            related = draw(st.lists(st.builds(Related, file=name, line=st.integers(1, 9), column=st.integers(1, 9), message=text), max_size=1))
            findings.append(Finding(
                file=file, line=draw(st.integers(1, len(lines) + 1)), column=draw(st.integers(1, 50)),
                rule=draw(st.sampled_from(["NET003", "CON001", "CST002", "SPEC002"])), message=draw(text), name="rule-name",
                severity=draw(st.sampled_from(["error", "warning", "info"])), evidence=tuple(draw(st.lists(text, max_size=2))),
                length=draw(st.integers(0, 5)), fingerprint="f" * 24, related=tuple(related)))
        skips = {("NET004", draw(text)): None} if draw(st.booleans()) else {}
        results.append(FileResult(file, lines, findings=findings, skips=skips))
    return Report(results=results, show_skipped=draw(st.booleans()), show_suppressed=True)


def _outside_code_spans(markdown: str) -> str:
    """The Markdown with its code spans removed, as CommonMark reads them: outside a span a backslash
    escapes the next character; a run of N backticks opens a span that the next run of exactly N closes."""
    out, i = [], 0
    while i < len(markdown):
        char = markdown[i]
        if char == "\\":
            out.append(markdown[i : i + 2])
            i += 2
            continue
        if char == "`":
            run = re.match(r"`+", markdown[i:]).group(0)
            close = re.compile(rf"(?<!`){run}(?!`)").search(markdown, i + len(run))
            if close:
                i = close.end()
                continue
            out.append(run)
            i += len(run)
            continue
        out.append(char)
        i += 1
    return "".join(out)


@PROPERTIES
@given(reports())
def test_json_loads_and_keeps_every_message(report):
    data = json.loads(render("json", report))
    assert sorted(f["message"] for f in data["findings"]) == sorted(f.message for f in report.findings)


@PROPERTIES
@given(reports())
def test_jsonl_is_one_object_per_line_and_keeps_every_message(report):
    out = render("jsonl", report)
    objects = [json.loads(line) for line in out.split("\n")[:-1]]
    assert out.endswith("\n") and [o["type"] for o in objects].count("file") == len(report.results)
    assert sorted(o["message"] for o in objects if o["type"] == "finding") == sorted(f.message for f in report.findings)
    assert objects[-1]["type"] == "summary" and objects[-1]["findings"] == len(report.findings)


@PROPERTIES
@given(reports())
def test_sarif_validates_against_the_vendored_schema_with_encoded_uris(report):
    sarif = json.loads(render("sarif", report))
    SARIF.validate(sarif)
    for result in sarif["runs"][0]["results"]:
        for location in result["locations"] + result.get("relatedLocations", []):
            uri = location["physicalLocation"]["artifactLocation"]["uri"]
            assert re.fullmatch(r"[A-Za-z0-9\-._~!$&'()*+,;=:@/%]*", uri) and not uri.startswith("/")  # RFC 3986 characters only


@PROPERTIES
@given(reports())
def test_junit_is_well_formed_xml(report):
    root = ET.fromstring(render("junit", report))
    assert root.tag == "testsuites" and len(root.findall("testsuite")) == len(report.results)


@PROPERTIES
@given(reports())
def test_github_output_is_one_command_per_line(report):
    import os

    os.environ.pop("GITHUB_STEP_SUMMARY", None)
    out = render("github", report)
    assert "\r" not in out
    lines = out.rstrip("\n").split("\n")
    commands = [line for line in lines if line.startswith("::")]
    assert len(commands) == len(report.findings)
    assert all(re.fullmatch(r"::(error|warning|notice) file=[^,:\n]*,line=\d+,col=\d+(,endColumn=\d+)?,title=[^:,]*::[^\n]*", c) for c in commands)
    assert not any("::" in line for line in lines if not line.startswith("::"))


@PROPERTIES
@given(reports())
def test_markdown_has_no_injected_link_image_or_html(report):
    plain = _outside_code_spans(render("markdown", report))
    assert not re.search(r"(?<!\\)[\[\]<>]", plain)  # no link, image, autolink or HTML can start
    assert "://" not in plain and "www." not in plain.lower()  # no bare URL for GitHub to link
    assert not re.search(r"^(?!\| |#|- |$|\|---|\d+ findings|No findings\.$)", plain, re.MULTILINE)  # every line is one we started


@PROPERTIES
@given(reports())
def test_text_has_no_terminal_control_characters(report):
    out = render("text", report)
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e]", out)
    assert out.count("\n") == render("text", report).count("\n")  # deterministic


@settings(max_examples=100, deadline=None)
@given(st.lists(st.builds(
    Finding, file=st.sampled_from(["a.yaml", "b.yaml"]), line=st.integers(1, 3), column=st.integers(1, 3),
    rule=st.sampled_from(["NET003", "CON001"]), message=st.sampled_from(["m", "n"]), name=st.sampled_from(["x", "y"]),
    severity=st.sampled_from(["error", "info"]), score=st.sampled_from([0.0, 2.5]), path=st.sampled_from(["", "spec"]),
    page=st.integers(0, 2), length=st.integers(0, 3), fingerprint=st.sampled_from(["f", "g"])), max_size=8))
def test_the_order_key_sorts_findings_as_their_own_order_does(findings):
    """findings.ORDER names the fields Finding's order compares: a field added to the order and not
    to ORDER (or the other way round) sorts differently here."""
    from clusterlint.model.findings import ORDER

    assert [ORDER(f) for f in sorted(findings, key=ORDER)] == [ORDER(f) for f in sorted(findings)]
    assert all(ORDER(a) < ORDER(b) for a, b in zip(findings, findings[1:]) if a < b)
    assert all(not ORDER(a) < ORDER(b) for a, b in zip(findings, findings[1:]) if not a < b)
