"""`--format json`: one stable object for machines."""

from __future__ import annotations

import json

from .. import __version__
from ..scoring import scorecard


def overall(report) -> dict:
    """The worst file's scorecard, with every file's card under `files`."""
    cards = report.scorecards()
    worst = min(cards.values(), key=lambda c: c["score"]) if cards else scorecard([])
    return {**worst, "files": cards}


def render(report) -> str:
    findings = report.findings
    counts = {s: sum(1 for f in findings if f.severity == s) for s in ("error", "warning", "info")}
    document = {
        "version": __version__,
        "files": [r.file for r in report.results],
        "not_specs": report.not_specs,
        "findings": [f.as_json() for f in findings],
        "suppressed": [s.as_json() for s in report.suppressed],
        "skipped": [s.as_json() for s in report.skipped],
        "summary": {"findings": len(findings), **counts, "suppressed": len(report.suppressed)},
        "score": overall(report),
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
