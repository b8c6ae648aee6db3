"""`--format sarif`: SARIF 2.1.0 for GitHub code scanning and other SARIF viewers.

One run; the driver lists every rule that can fire, each result points at a repo-relative file
with its real line and column, and `partialFingerprints` carry the finding's fingerprint so code
scanning tracks a finding across commits that move it.
"""

from __future__ import annotations

import json
import re

from .. import HOMEPAGE, __version__
from ..registry import builtin_rules
from .json import overall

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
LEVELS = {"error": "error", "warning": "warning", "info": "note"}
_EVIDENCE = re.compile(r"^(\S+?):(\d+)(?:: (.*))?$")  # file:line: text, as DLV findings cite their evidence


def help_uri(rule_id: str) -> str:
    return f"{HOMEPAGE}/rules/{rule_id}"


def _rule(rule) -> dict:
    return {
        "id": rule.id,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": rule.why},
        "help": {"text": rule.fix},
        **({"helpUri": help_uri(rule.id)} if rule.origin == "built-in" else {}),
        "defaultConfiguration": {"level": LEVELS[rule.severity]},
        "properties": {"tags": [rule.area], "weight": rule.weight},
    }


def _result(f, index: dict, suppression=None) -> dict:
    region = {"startLine": f.line, "startColumn": f.column}
    if f.length:
        region["endColumn"] = f.column + f.length  # clipped by viewers at the line's end
    result = {
        "ruleId": f.rule,
        "ruleIndex": index[f.rule],
        "level": LEVELS[f.severity],
        "message": {"text": f.message},
        "locations": [{"physicalLocation": {"artifactLocation": {"uri": f.file, "uriBaseId": "%SRCROOT%"}, "region": region}}],
        "partialFingerprints": {"clusterlint/v1": f.fingerprint},
        "properties": {"score": f.score, "path": f.path, **({"page": f.page} if f.page else {}), **({"evidence": list(f.evidence)} if f.evidence else {})},
    }
    related = [m for m in map(_EVIDENCE.match, f.evidence if f.rule.startswith("DLV") else ()) if m]
    if related:  # clusterlint accept: the evidence file and line each shortfall was measured in
        result["relatedLocations"] = [{"id": i, "message": {"text": m.group(3) or "evidence"}, "physicalLocation": {
            "artifactLocation": {"uri": m.group(1), "uriBaseId": "%SRCROOT%"}, "region": {"startLine": int(m.group(2))}}} for i, m in enumerate(related)]
    if suppression is not None:  # viewers show it as dismissed, with the reason
        result["suppressions"] = [{"kind": suppression.kind, "justification": suppression.justification}]
    return result


def render(report, rules: dict | None = None) -> str:
    rules = rules or {**builtin_rules(), **report.rules}
    index = {rule_id: i for i, rule_id in enumerate(rules)}
    findings = report.findings
    document = {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "clusterlint", "version": __version__, "informationUri": HOMEPAGE,
                                "rules": [_rule(r) for r in rules.values()]}},
            "originalUriBaseIds": {"%SRCROOT%": {"description": {"text": "The directory clusterlint ran in (the repository root in CI)."}}},
            "invocations": [{"executionSuccessful": True}],
            "results": [_result(f, index) for f in findings] + [_result(s.finding, index, s) for s in report.suppressed],
            "properties": {"score": overall(report), "skipped": [s.as_json() for s in report.skipped]},
        }],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
