"""`--format text`: ruff-like lines with a source excerpt, a summary and a scorecard."""

from __future__ import annotations

import re
from collections import defaultdict

from ..scoring import SCORED_AREAS

COLORS = {"error": "red", "warning": "yellow", "info": "blue"}
_WORD = r"(?:[^\s#,}\]:]|:(?=\S))+"
_TOKEN = re.compile(rf"{_WORD}(?: {_WORD})*")  # a scalar as written: `80GB`, `2.10 USD`, a key up to its colon


def _style(text: str, color: bool, **kw) -> str:
    if not color:
        return text
    import click

    return click.style(text, **kw)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 or word == 'info' else 's'}"


def _excerpt(lines, line: int, column: int, color: bool, length: int = 0) -> list[str]:
    if not 0 < line <= len(lines):
        return []
    text = lines[line - 1].rstrip()
    match = _TOKEN.match(text, column - 1)
    width = max(1, min(length, len(text) - column + 1) if length else len(match.group(0)) if match else 1)
    gutter = " " * len(str(line))
    caret = _style("^" * width, color, fg="red", bold=True)
    return [f"{gutter} |", f"{line} | {text}", f"{gutter} | {' ' * (column - 1)}{caret}"]


def location(f) -> str:
    """file:line:col, with the page of a PDF: msa.pdf:page 3:12:5."""
    return f"{f.file}:page {f.page}:{f.line}:{f.column}" if f.page else f"{f.file}:{f.line}:{f.column}"


def render(report, color: bool = False) -> str:
    out: list[str] = []
    sources = {r.file: r for r in report.results}
    findings = report.findings
    for f in findings:
        sev = _style(f.severity, color, fg=COLORS[f.severity], bold=True)
        head = _style(f"{location(f)}:", color, bold=True)
        out.append(f"{head} {_style(f.rule, color, fg=COLORS[f.severity], bold=True)} [{sev}] {f.message}")
        source = sources.get(f.file)
        lines = [] if source is None else source.pages[f.page - 1] if f.page and source.pages else source.lines
        out.extend(_excerpt(lines, f.line, f.column, color, f.length))
        out.extend(f"  = {note}" for note in f.evidence)
        out.append("")
    suppressed = report.suppressed
    if report.show_suppressed and suppressed:
        out.append(f"Suppressed ({len(suppressed)}, not counted):")
        for s in suppressed:
            how = f"ignored on line {s.line}" if s.kind == "inSource" else "baseline"
            out.append(f"  {location(s.finding)}: {s.finding.rule} [{s.finding.severity}] {s.finding.message}")
            out.append(f"    {how}: {s.justification}")
        out.append("")
    counts = [_plural(sum(1 for f in findings if f.severity == s), s) for s in ("error", "warning", "info")]
    files = _plural(len(report.results), "file")
    hidden = f" {len(suppressed)} suppressed{'' if report.show_suppressed else ' (--show-suppressed lists them)'}." if suppressed else ""
    if findings:
        out.append(f"Found {_plural(len(findings), 'finding')} ({', '.join(counts)}) in {files}.{hidden}")
    else:
        out.append(f"No findings in {files}.{hidden}")
    if report.not_specs:
        out.append(f"Not linted ({_plural(len(report.not_specs), 'file')} with no clusterlint document): {', '.join(report.not_specs)}")
    out.extend(_skipped(report.skipped))
    out.extend(_scorecards(report, color))
    return "\n".join(out) + "\n"


def _skipped(skipped) -> list[str]:
    if not skipped:
        return []
    by_reason = defaultdict(set)
    for s in skipped:
        by_reason[s.reason].add(s.rule)
    rules = {s.rule for s in skipped}
    lines = [f"Skipped {_plural(len(rules), 'rule')} (not run, so not passed):"]
    for reason, ids in sorted(by_reason.items()):
        lines.append(f"  {', '.join(sorted(ids))}: {reason}")
    return lines


def _scorecards(report, color: bool) -> list[str]:
    lines = ["", "Scorecard:"]
    for file, card in report.scorecards().items():
        grade = _style(card["grade"], color, bold=True, fg="green" if card["score"] >= 80 else "red" if card["score"] < 60 else "yellow")
        areas = " ".join(f"{a} {card['areas'][a]:g}" for a in SCORED_AREAS if card["areas"][a] < 100) or "all areas 100"
        lines.append(f"  {file}: {card['score']:g}/100 {grade}  ({areas})")
    return lines
