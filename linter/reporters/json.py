"""`--format json`: one stable object for machines."""

from __future__ import annotations

import json

from clusterlint import __version__
from clusterlint.engine.scoring import scorecard
from clusterlint.reporters import listed


def overall(report) -> dict:
    """The worst file's scorecard, with every file's card under `files`; a file that was not
    reviewed is worse than any score, so the run has no score either."""
    cards = report.scorecards()
    worst = min(cards.values(), key=lambda c: -1 if c["score"] is None else c["score"]) if cards else scorecard([])
    return {**worst, "files": cards}


def render(report) -> str:
    findings = report.findings
    shown, more = listed(report)
    counts = {s: sum(1 for f in findings if f.severity == s) for s in ("error", "warning", "info")}
    document = {
        "version": __version__,
        "files": [r.file for r in report.results],
        "not_specs": report.not_specs,
        "findings": [f.as_json() for f in shown],
        "not_listed": [{"file": file, "rule": rule, "count": n} for (file, rule), n in sorted(more.items())],
        "suppressed": [s.as_json() for s in report.suppressed],
        "skipped": [s.as_json() for s in report.skipped],
        "summary": {"findings": len(findings), "listed": len(shown), **counts, "suppressed": len(report.suppressed)},
        "score": overall(report),
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
