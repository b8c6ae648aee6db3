"""`--format github`: workflow commands that GitHub shows as annotations on the pull request,
and the Markdown review as the job summary when $GITHUB_STEP_SUMMARY is set."""

from __future__ import annotations

import os

from . import markdown

COMMANDS = {"error": "error", "warning": "warning", "info": "notice"}


def _data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def render(report) -> str:
    lines = []
    for f in report.findings:
        where = f"file={_property(f.file)},line={f.line},col={f.column}"
        if f.length:
            where += f",endColumn={f.column + f.length}"
        title = _property(f"{f.rule} {f.name}" + (f" (page {f.page})" if f.page else ""))
        lines.append(f"::{COMMANDS[f.severity]} {where},title={title}::{_data(f.message)}")
    counts = {s: sum(1 for f in report.findings if f.severity == s) for s in COMMANDS}
    lines.append(f"clusterlint: {len(report.findings)} findings ({counts['error']} errors, {counts['warning']} warnings, {counts['info']} info)")
    summary = os.environ.get("GITHUB_STEP_SUMMARY")
    if summary:
        with open(summary, "a", encoding="utf-8") as handle:
            handle.write(markdown.render(report))
    return "\n".join(lines) + "\n"
