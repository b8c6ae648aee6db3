"""`--format text`: ruff-like lines with a source excerpt, a summary and a scorecard."""

from __future__ import annotations

import re
from collections import defaultdict

from ..scoring import SCORED_AREAS
from . import listed, more_line
from .escape import terminal, terminal_line

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


EXCERPT_WIDTH = 100  # characters of a source line shown around the column; longer lines are clipped with "..."


def _clip(text: str, column: int, width: int) -> tuple[str, int, int]:
    """(shown text, caret column in it, caret width) for a source line clipped around `column` so
    output stays proportional to the number of findings whatever the line's length (as ruff and rustc do)."""
    if len(text) <= EXCERPT_WIDTH:
        return text, column, width
    width = min(width, EXCERPT_WIDTH // 2)
    start = max(0, min(column - 1 - EXCERPT_WIDTH // 3, len(text) - EXCERPT_WIDTH))
    head = "..." if start else ""
    tail = "..." if start + EXCERPT_WIDTH < len(text) else ""
    return head + text[start : start + EXCERPT_WIDTH] + tail, column - start + len(head), width


def _excerpt(lines, line: int, column: int, color: bool, length: int = 0) -> list[str]:
    if not 0 < line <= len(lines):
        return []
    text = lines[line - 1].rstrip()
    match = _TOKEN.match(text, column - 1, column - 1 + EXCERPT_WIDTH)
    width = max(1, min(length, len(text) - column + 1) if length else len(match.group(0)) if match else 1)
    text, column, width = _clip(terminal_line(text), column, width)
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
    shown, more = listed(report)
    for f in shown:
        sev = _style(f.severity, color, fg=COLORS[f.severity], bold=True)
        head = _style(f"{terminal(location(f))}:", color, bold=True)
        out.append(f"{head} {_style(f.rule, color, fg=COLORS[f.severity], bold=True)} [{sev}] {terminal(f.message)}")
        source = sources.get(f.file)
        lines = [] if source is None else source.pages[f.page - 1] if f.page and source.pages else source.lines
        out.extend(_excerpt(lines, f.line, f.column, color, f.length))
        out.extend(f"  = {terminal(note)}" for note in f.evidence)
        out.extend(f"  = with {terminal(r.message)} at {terminal(location(r))}" for r in f.related)
        out.append("")
    out.extend(more_line(terminal(file), rule, n) for (file, rule), n in sorted(more.items()))
    if more:
        out.append("")
    suppressed = report.suppressed
    if report.show_suppressed and suppressed:
        out.append(f"Suppressed ({len(suppressed)}, not counted):")
        for s in suppressed:
            how = f"ignored on line {s.line}" if s.kind == "inSource" else "baseline"
            out.append(f"  {terminal(location(s.finding))}: {s.finding.rule} [{s.finding.severity}] {terminal(s.finding.message)}")
            out.append(f"    {how}: {terminal(s.justification)}")
        out.append("")
    counts = [_plural(sum(1 for f in findings if f.severity == s), s) for s in ("error", "warning", "info")]
    files = _plural(len(report.results), "file")
    hidden = f" {len(suppressed)} suppressed{'' if report.show_suppressed else ' (--show-suppressed lists them)'}." if suppressed else ""
    if findings:
        out.append(f"Found {_plural(len(findings), 'finding')} ({', '.join(counts)}) in {files}.{hidden}")
    else:
        out.append(f"No findings in {files}.{hidden}")
    if report.not_specs:
        out.append(f"Not linted ({_plural(len(report.not_specs), 'file')} with no clusterlint document): "
                   + ", ".join(terminal(n) for n in report.not_specs))
    if report.show_skipped:
        out.extend(_skipped(report.results))
    out.extend(_scorecards(report, color))
    return "\n".join(out) + "\n"


def _skipped(results) -> list[str]:
    """Per file, the rules that did not run and why (--show-skipped)."""
    lines = []
    for result in results:
        if not result.skipped:
            continue
        by_reason = defaultdict(set)
        for s in result.skipped:
            by_reason[s.reason].add(s.rule)
        lines += ["", f"Skipped in {terminal(result.file)} ({_plural(len({s.rule for s in result.skipped}), 'rule')}, not run, so not passed):"]
        lines += [f"  {', '.join(sorted(ids))}: {terminal(reason)}" for reason, ids in sorted(by_reason.items())]
    return lines


def _scorecards(report, color: bool) -> list[str]:
    lines = ["", "Scorecard:"]
    cards = report.scorecards()
    for result in report.results:
        card = cards[result.file]
        skipped = len({s.rule for s in result.skipped})
        note = f"; {skipped} skipped" if skipped else ""
        if card["score"] is None:
            lines.append(f"  {terminal(result.file)}: {_style('not reviewed', color, bold=True, fg='red')}  ({terminal(card['not_reviewed'])})")
            continue
        grade = _style(card["grade"], color, bold=True, fg="green" if card["score"] >= 80 else "red" if card["score"] < 60 else "yellow")
        areas = " ".join(f"{a} {card['areas'][a]:g}" for a in SCORED_AREAS if card["areas"][a] < 100) or "all areas 100"
        lines.append(f"  {terminal(result.file)}: {card['score']:g}/100 {grade}  ({areas}{note})")
    if report.skipped and not report.show_skipped:
        lines.append("Skipped rules did not run, so they did not pass: --show-skipped lists them with the reason, per file.")
    return lines
