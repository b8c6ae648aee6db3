"""Output formats: each renders the same Report; imported only when asked for."""

from __future__ import annotations

import os
from importlib import import_module

from clusterlint.model.findings import ORDER

FORMATS = ("text", "json", "jsonl", "sarif", "github", "markdown", "junit", "html")
STREAMS = {"text": "TextStream", "github": "GithubStream", "jsonl": "JsonlStream"}  # formats written file by file


def resolve(fmt: str) -> str:
    """`auto`: GitHub annotations inside GitHub Actions, text elsewhere."""
    if fmt == "auto":
        return "github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text"
    return fmt


MAX_PER_RULE = 100  # findings of one rule listed per file by default (`max-findings-per-rule`)


def listed(report) -> tuple[list, dict]:
    """The findings a format lists, and how many more of each (file, rule) it leaves out (see `capped`)."""
    shown, more = [], {}
    for result in report.results:
        some, left = capped(result)
        shown += some
        for key, n in left.items():
            more[key] = more.get(key, 0) + n
    return sorted(shown), more


def capped(result) -> tuple[list, dict]:
    """The findings of one file a format lists, in order, and how many more of each (file, rule) it
    leaves out: at most the file's `max-findings-per-rule` per rule (0: no cap). Scores and exit
    codes count them all."""
    cap = result.settings.values.get("max-findings-per-rule", MAX_PER_RULE) if result.settings else MAX_PER_RULE
    shown, more, counts = [], {}, {}
    for f in sorted(result.findings, key=ORDER):
        counts[f.rule] = counts.get(f.rule, 0) + 1
        if cap and counts[f.rule] > cap:
            more[(f.file, f.rule)] = more.get((f.file, f.rule), 0) + 1
        else:
            shown.append(f)
    return shown, more


def more_line(file: str, rule: str, count: int) -> str:
    """The line that stands for the findings a format leaves out."""
    return f"and {count:,} more {rule} in {file}"


def render(fmt: str, report, color: bool = False) -> str:
    name = resolve(fmt)
    module = import_module(f"{__name__}.{name}")
    return module.render(report, color=color) if name == "text" else module.render(report)


def open_stream(fmt: str, write, show_suppressed: bool, show_skipped: bool, color: bool = False):
    """The stream of a format in STREAMS (after `resolve`), writing through `write`."""
    cls = getattr(import_module(f"{__name__}.{fmt}"), STREAMS[fmt])
    return cls(write, show_suppressed, show_skipped, color) if fmt == "text" else cls(write, show_suppressed, show_skipped)
