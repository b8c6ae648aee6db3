"""`--format text`: ruff-like lines with a source excerpt, a summary and a scorecard."""

from __future__ import annotations

import re
from collections import defaultdict

from clusterlint.model.findings import ORDER
from clusterlint.reporters import more_line, stream
from clusterlint.reporters.escape import terminal, terminal_line
from clusterlint.reporters.stream import Stream

COLORS = {"error": "red", "warning": "yellow", "info": "blue"}
_WORD = r"(?:[^\s#,}\]:]|:(?=\S))+"
_TOKEN = re.compile(rf"{_WORD}(?: {_WORD})*")  # a scalar as written: `80GB`, `2.10 USD`, a key up to its colon


def _style(text: str, color: bool, fg: str | None = None, bold: bool | None = None) -> str:
    if not color:
        return text
    import click

    return click.style(text, fg=fg, bold=bold)


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


class TextStream(Stream):
    """Each finding with its source excerpt as its file is reviewed; at the end the findings not
    listed, the suppressed ones (--show-suppressed), the summary, the skipped rules
    (--show-skipped) and a scorecard line per file, in the order the files were found."""

    def __init__(self, write, show_suppressed: bool = False, show_skipped: bool = False, color: bool = False):
        super().__init__(write, show_suppressed, show_skipped)
        self.color = color
        self.suppressed_lines: list = []  # (finding, its two lines) with --show-suppressed
        self.closing: dict = {}  # index -> (skipped lines, scorecard line)

    def part(self, result, index: int, shown: list, more: dict) -> list:
        color = self.color
        parts = []
        for f in shown:
            sev = _style(f.severity, color, fg=COLORS[f.severity], bold=True)
            head = _style(f"{terminal(location(f))}:", color, bold=True)
            out = [f"{head} {_style(f.rule, color, fg=COLORS[f.severity], bold=True)} [{sev}] {terminal(f.message)}"]
            lines = result.pages[f.page - 1] if f.page and result.pages else result.lines
            out.extend(_excerpt(lines, f.line, f.column, color, f.length))
            out.extend(f"  = {terminal(note)}" for note in f.evidence)
            out.extend(f"  = with {terminal(r.message)} at {terminal(location(r))}" for r in f.related)
            out.append("")
            parts.append(((f.file, ORDER(f)), _lines(out)))
        if self.show_suppressed:
            for s in result.suppressed:
                how = f"ignored on line {s.line}" if s.kind == "inSource" else "baseline"
                self.suppressed_lines.append((s.finding, _lines([
                    f"  {terminal(location(s.finding))}: {s.finding.rule} [{s.finding.severity}] {terminal(s.finding.message)}",
                    f"    {how}: {terminal(s.justification)}"])))
        self.closing[index] = (_skipped(result) if self.show_skipped else [], _scorecard(result, color))
        return parts

    def tail(self) -> str:
        out = [more_line(terminal(file), rule, n) for (file, rule), n in sorted(self.more.items())]
        if self.more:
            out.append("")
        suppressed = self.suppressed
        if self.show_suppressed and suppressed:
            out.append(f"Suppressed ({suppressed}, not counted):")
            self.suppressed_lines.sort(key=lambda item: item[0])
            out += [text[:-1] for _, text in self.suppressed_lines]
            out.append("")
        total = sum(self.counts.values())
        counts = [_plural(self.counts[s], s) for s in ("error", "warning", "info")]
        files = _plural(self.files, "file")
        hidden = f" {suppressed} suppressed{'' if self.show_suppressed else ' (--show-suppressed lists them)'}." if suppressed else ""
        if total:
            out.append(f"Found {_plural(total, 'finding')} ({', '.join(counts)}) in {files}.{hidden}")
        else:
            out.append(f"No findings in {files}.{hidden}")
        if self.not_specs:
            out.append(f"Not linted ({_plural(len(self.not_specs), 'file')} with no clusterlint document): "
                       + ", ".join(terminal(n) for n in self.not_specs))
        closing = [self.closing[i] for i in sorted(self.closing)]
        for skipped, _ in closing:
            out += skipped
        out += ["", "Scorecard:"] + [card for _, card in closing]
        if self.skipped and not self.show_skipped:
            out.append("Skipped rules did not run, so they did not pass: --show-skipped lists them with the reason, per file.")
        return _lines(out)


def _lines(lines: list) -> str:
    return "\n".join(lines) + "\n" if lines else ""


def render(report, color: bool = False) -> str:
    return stream.render(TextStream(None, report.show_suppressed, report.show_skipped, color), report)


def _skipped(result) -> list[str]:
    """The rules that did not run on a file and why (--show-skipped)."""
    if not result.skips:
        return []
    by_reason = defaultdict(set)
    for rule, reason in result.skips:
        by_reason[reason].add(rule)
    lines = ["", f"Skipped in {terminal(result.file)} ({_plural(len({rule for rule, _ in result.skips}), 'rule')}, not run, so not passed):"]
    return lines + [f"  {', '.join(sorted(ids))}: {terminal(reason)}" for reason, ids in sorted(by_reason.items())]


def _scorecard(result, color: bool) -> str:
    card = result.card()
    skipped = len({rule for rule, _ in result.skips})
    note = f"; {skipped} skipped" if skipped else ""
    if card["score"] is None:
        return f"  {terminal(result.file)}: {_style('not reviewed', color, bold=True, fg='red')}  ({terminal(card['not_reviewed'])})"
    grade = _style(card["grade"], color, bold=True, fg="green" if card["score"] >= 80 else "red" if card["score"] < 60 else "yellow")
    below = " ".join(f"{a} {sub:g}" for a, sub in card["areas"].items() if sub is not None and sub < 100)
    idle = ", ".join(a for a, sub in card["areas"].items() if sub is None)
    areas = (below or "every judged area 100") + (f"; not run: {idle}" if idle else "")
    return f"  {terminal(result.file)}: {card['score']:g}/100 {grade}  ({areas}{note})"
