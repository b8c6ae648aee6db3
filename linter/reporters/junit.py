"""`--format junit`: JUnit XML for CI systems that show test reports.

One test suite per file. A rule that ran and found nothing is one passed test case; a rule that
could not run is one skipped test case (with the reason); a rule that found something gives one
test case per finding (CI servers show one failure per case), failed when the finding is at or
above the file's `fail-on`, passed with the finding as its output otherwise, so the report agrees
with the exit code. The root carries only attributes the common JUnit XSD accepts.
"""

from __future__ import annotations

from xml.etree import ElementTree as ET

from clusterlint.model.findings import RANK
from clusterlint.engine.registry import builtin_rules
from clusterlint.reporters import listed, more_line
from clusterlint.reporters.escape import xml
from clusterlint.reporters.text import location


def _fail_on(result) -> str:
    return result.settings.values["fail-on"] if result.settings else "error"


def render(report, rules: dict | None = None) -> str:
    rules = rules or report.rules or builtin_rules()  # the rules that ran, with their configured severities
    root = ET.Element("testsuites", name="clusterlint")
    totals = {"tests": 0, "failures": 0, "errors": 0}
    shown, more = listed(report)
    for result in report.results:
        suite = ET.SubElement(root, "testsuite", name=xml(result.file))
        found: dict[str, list] = {}
        for f in shown:
            if f.file == result.file:
                found.setdefault(f.rule, []).append(f)
        skipped = {s.rule: s.reason for s in result.skipped}
        counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
        fail_on = RANK[_fail_on(result)]
        for rule in rules.values():
            classname, name = f"clusterlint.{rule.area}", f"{rule.id} {rule.name}"
            if rule.id not in found:
                case = ET.SubElement(suite, "testcase", classname=classname, name=name)
                counts["tests"] += 1
                if rule.id in skipped:
                    counts["skipped"] += 1
                    ET.SubElement(case, "skipped", message=xml(skipped[rule.id]))
                continue
            for f in found[rule.id]:
                case = ET.SubElement(suite, "testcase", classname=classname, name=xml(f"{name} at {location(f)}"))
                counts["tests"] += 1
                text = xml(f"{location(f)}: {f.rule} [{f.severity}] {f.message}")
                if RANK[f.severity] >= fail_on:
                    counts["failures"] += 1
                    ET.SubElement(case, "failure", message=xml(f.message), type=f.severity).text = text
                else:
                    ET.SubElement(case, "system-out").text = text
            hidden = more.get((result.file, rule.id))
            if hidden:
                case = ET.SubElement(suite, "testcase", classname=classname, name=xml(f"{name}: {hidden} more"))
                counts["tests"] += 1
                failing = sum(1 for f in result.findings if f.rule == rule.id and RANK[f.severity] >= fail_on)
                failing -= sum(1 for f in found[rule.id] if RANK[f.severity] >= fail_on)
                text = xml(more_line(result.file, rule.id, hidden))
                if failing:
                    counts["failures"] += 1
                    ET.SubElement(case, "failure", message=text, type="more").text = text
                else:
                    ET.SubElement(case, "system-out").text = text
        for key, value in counts.items():
            suite.set(key, str(value))
            if key in totals:
                totals[key] += value
    for key, value in totals.items():
        root.set(key, str(value))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
