"""`--format junit`: JUnit XML for CI systems that show test reports.

One test suite per file, one test case per rule: passed when the rule ran and found nothing,
failed with each finding when it found something, skipped (with the reason) when it could not run.
"""

from __future__ import annotations

from xml.etree import ElementTree as ET

from ..registry import builtin_rules


def render(report, rules: dict | None = None) -> str:
    rules = rules or report.rules or builtin_rules()  # the rules that ran, with their configured severities
    root = ET.Element("testsuites", name="clusterlint")
    totals = {"tests": 0, "failures": 0, "skipped": 0}
    for result in report.results:
        suite = ET.SubElement(root, "testsuite", name=result.file)
        found: dict[str, list] = {}
        for f in result.findings:
            found.setdefault(f.rule, []).append(f)
        skipped = {s.rule: s.reason for s in result.skipped}
        counts = {"tests": 0, "failures": 0, "skipped": 0}
        for rule in rules.values():
            case = ET.SubElement(suite, "testcase", classname=f"clusterlint.{rule.area}", name=f"{rule.id} {rule.name}")
            counts["tests"] += 1
            if rule.id in found:
                counts["failures"] += 1
                for f in found[rule.id]:
                    failure = ET.SubElement(case, "failure", message=f.message, type=f.severity)
                    failure.text = f"{f.file}:{f.line}:{f.column}: {f.rule} [{f.severity}] {f.message}"
            elif rule.id in skipped:
                counts["skipped"] += 1
                ET.SubElement(case, "skipped", message=skipped[rule.id])
        for key, value in counts.items():
            suite.set(key, str(value))
            totals[key] += value
    for key, value in totals.items():
        root.set(key, str(value))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
