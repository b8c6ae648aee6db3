"""`--format sarif`: SARIF 2.1.0 for GitHub code scanning and other SARIF viewers.

One run; the driver lists every rule that can fire, each result points at a repo-relative file
with its real line and column, and `partialFingerprints` carry the finding's fingerprint so code
scanning tracks a finding across commits that move it.
"""

from __future__ import annotations

import json
import re

from clusterlint import HOMEPAGE, __version__
from clusterlint.engine.registry import builtin_rules
from clusterlint.reporters import listed, more_line
from clusterlint.reporters.escape import uri
from clusterlint.reporters.json import overall

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


def _location(file: str, line: int, column: int, length: int = 0) -> dict:
    region = {"startLine": line, "startColumn": column}
    if length:
        region["endColumn"] = column + length  # clipped by viewers at the line's end
    where = uri(file)
    base = {} if where.startswith("file:") else {"uriBaseId": "%SRCROOT%"}
    return {"physicalLocation": {"artifactLocation": {"uri": where, **base}, "region": region}}


def _result(f, index: dict, fingerprint: str, suppression=None) -> dict:
    result = {
        "ruleId": f.rule,
        "ruleIndex": index[f.rule],
        "level": LEVELS[f.severity],
        "message": {"text": f.message},
        "locations": [_location(f.file, f.line, f.column, f.length)],
        "partialFingerprints": {"clusterlint/v1": fingerprint},
        "properties": {"score": f.score, "path": f.path, **({"page": f.page} if f.page else {}), **({"evidence": list(f.evidence)} if f.evidence else {})},
    }
    related = [(r.file, r.line, r.column, r.message) for r in f.related]
    # clusterlint accept: the evidence file and line each shortfall was measured in
    related += [(m.group(1), int(m.group(2)), 1, m.group(3) or "evidence") for m in map(_EVIDENCE.match, f.evidence if f.rule.startswith("DLV") else ()) if m]
    if related:
        result["relatedLocations"] = [{"id": i, **_location(file, line, column), "message": {"text": message}}
                                      for i, (file, line, column, message) in enumerate(related, 1)]
    if suppression is not None:  # viewers show it as dismissed, with the reason
        result["suppressions"] = [{"kind": suppression.kind, "justification": suppression.justification}]
    return result


def render(report, rules: dict | None = None) -> str:
    rules = rules or {**builtin_rules(), **report.rules}
    index = {rule_id: i for i, rule_id in enumerate(rules)}
    findings, more = listed(report)
    seen: dict = {}

    def result(f, suppression=None) -> dict:
        """A result; a second finding with the same rule, place and fingerprint gets the fingerprint
        with its occurrence (`:2`), as code scanning numbers them, so no two results are identical."""
        key = (f.rule, f.file, f.line, f.column, f.fingerprint)
        seen[key] = seen.get(key, 0) + 1
        return _result(f, index, f.fingerprint + (f":{seen[key]}" if seen[key] > 1 else ""), suppression)

    document = {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "clusterlint", "version": __version__, "informationUri": HOMEPAGE,
                                "rules": [_rule(r) for r in rules.values()]}},
            "originalUriBaseIds": {"%SRCROOT%": {"description": {"text": "The directory clusterlint ran in (the repository root in CI)."}}},
            "invocations": [{"executionSuccessful": True}],
            "results": [result(f) for f in findings] + [result(s.finding, s) for s in report.suppressed],
            "properties": {"score": overall(report), "skipped": [s.as_json() for s in report.skipped],
                           "notListed": [{"file": file, "rule": rule, "count": n, "text": more_line(file, rule, n)}
                                         for (file, rule), n in sorted(more.items())]},
        }],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
