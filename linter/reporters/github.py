"""`--format github`: workflow commands that GitHub shows as annotations on the pull request,
and the Markdown review as the job summary when $GITHUB_STEP_SUMMARY is set.

GitHub shows at most 10 annotations of each kind (error, warning, notice) per step, so errors come
first, then warnings, then notices, and the job summary says how many of each were not shown.
"""

from __future__ import annotations

import os

from . import listed, markdown, more_line
from .escape import github_data, github_property

COMMANDS = {"error": "error", "warning": "warning", "info": "notice"}
SHOWN_PER_KIND = 10  # per step and kind: https://github.com/actions/toolkit/blob/main/docs/problem-matchers.md (Limitations)


def _command(f) -> str:
    where = f"file={github_property(f.file)},line={f.line},col={f.column}"
    if f.length:
        where += f",endColumn={f.column + f.length}"
    title = github_property(f"{f.rule} {f.name}" + (f" (page {f.page})" if f.page else ""))
    return f"::{COMMANDS[f.severity]} {where},title={title}::{github_data(f.message)}"


def not_shown(findings) -> dict:
    """Findings of each severity past what GitHub shows as annotations."""
    return {s: max(0, sum(1 for f in findings if f.severity == s) - SHOWN_PER_KIND) for s in COMMANDS}


def render(report) -> str:
    shown, more = listed(report)
    ordered = [f for severity in COMMANDS for f in shown if f.severity == severity]
    lines = [_command(f) for f in ordered]
    lines += [github_data(more_line(file, rule, n)) for (file, rule), n in sorted(more.items())]
    findings = report.findings
    counts = {s: sum(1 for f in findings if f.severity == s) for s in COMMANDS}
    lines.append(f"clusterlint: {len(findings)} findings ({counts['error']} errors, {counts['warning']} warnings, {counts['info']} info)")
    hidden = not_shown(ordered)
    note = ""
    if any(hidden.values()):
        note = (f"GitHub shows {SHOWN_PER_KIND} annotations of each kind per step: "
                + ", ".join(f"{n} {COMMANDS[s]}{'s' if n != 1 else ''}" for s, n in hidden.items() if n)
                + " were not shown as annotations")
        lines.append(f"clusterlint: {note}; the log above and the job summary list every finding.")
    summary = os.environ.get("GITHUB_STEP_SUMMARY")
    if summary:
        with open(summary, "a", encoding="utf-8") as handle:
            handle.write(markdown.render(report) + (f"\n> {note}; every finding is listed above.\n" if note else ""))
    return "\n".join(lines) + "\n"
