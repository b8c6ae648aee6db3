"""`--format github`: workflow commands that GitHub shows as annotations on the pull request,
and the Markdown review as the job summary when $GITHUB_STEP_SUMMARY is set.

GitHub shows at most 10 annotations of each kind (error, warning, notice) per step: the first of
each kind in the log. The commands come file by file, as each is reviewed, each file's errors first,
then its warnings, then its notices (so the annotations shown are those errors-first over the whole
run would show), and the job summary says how many of each were not shown.
"""

from __future__ import annotations

import os
from dataclasses import replace

from clusterlint.model.findings import RANK
from clusterlint.reporters import markdown, more_line, stream
from clusterlint.reporters.escape import github_data, github_property, terminal
from clusterlint.reporters.stream import Stream

COMMANDS = {"error": "error", "warning": "warning", "info": "notice"}
SHOWN_PER_KIND = 10  # per step and kind: https://github.com/actions/toolkit/blob/main/docs/problem-matchers.md (Limitations)


def _command(f) -> str:
    where = f"file={github_property(f.file)},line={f.line},col={f.column}"
    if f.length:
        where += f",endColumn={f.column + f.length}"
    title = github_property(f"{f.rule} {f.name}" + (f" (page {f.page})" if f.page else ""))
    return f"::{COMMANDS[f.severity]} {where},title={title}::{github_data(f.message)}"


class GithubStream(Stream):
    """The annotations of each file as it is reviewed; at the end the findings not listed, the
    counts, and the job summary (from each file's result less its text, kept for it)."""

    def __init__(self, write, show_suppressed: bool = False, show_skipped: bool = False):
        super().__init__(write, show_suppressed, show_skipped)
        self.summary = os.environ.get("GITHUB_STEP_SUMMARY")
        self.results: dict = {}  # index -> the file's result less its text, for the job summary

    def part(self, result, index: int, shown: list, more: dict) -> list:
        if self.summary:
            self.results[index] = replace(result, lines=[], pages=None, reviews=[])
        ordered = sorted(shown, key=lambda f: RANK[f.severity], reverse=True)
        return [((result.file, self.files, i), _command(f) + "\n") for i, f in enumerate(ordered)]

    def tail(self) -> str:
        lines = [github_data(more_line(file, rule, n)) for (file, rule), n in sorted(self.more.items())]
        counts = self.counts
        lines.append(f"clusterlint: {sum(counts.values())} findings ({counts['error']} errors, {counts['warning']} warnings, {counts['info']} info)")
        hidden = {s: max(0, n - SHOWN_PER_KIND) for s, n in self.listed.items()}
        note = ""
        if any(hidden.values()):
            note = (f"GitHub shows {SHOWN_PER_KIND} annotations of each kind per step: "
                    + ", ".join(f"{n} {COMMANDS[s]}{'s' if n != 1 else ''}" for s, n in hidden.items() if n)
                    + " were not shown as annotations")
            lines.append(f"clusterlint: {note}; the log above and the job summary list every finding.")
        if self.summary:
            from clusterlint.check import Report

            report = Report(results=[self.results[i] for i in sorted(self.results)], not_specs=self.not_specs,
                            show_skipped=self.show_skipped, show_suppressed=self.show_suppressed)
            _append_summary(self.summary, markdown.render(report) + (f"\n> {note}; every finding is listed above.\n" if note else ""))
        return "\n".join(lines) + "\n"


def _append_summary(path: str, text: str) -> None:
    """Add the review to the job summary; a summary that cannot be written (a folder, a missing
    folder, no permission) is a warning on standard error: the annotations and the exit code stand."""
    import sys

    try:  # O_NONBLOCK: a FIFO nobody reads is an error (ENXIO), not a hang
        with open(os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK, 0o666), "a", encoding="utf-8",
                  errors="backslashreplace") as handle:
            handle.write(text)
    except OSError as exc:
        sys.stderr.write(f"clusterlint: warning: {terminal(path)}: cannot write the job summary ($GITHUB_STEP_SUMMARY): "
                         f"{exc.strerror or exc}\n")


def render(report) -> str:
    return stream.render(GithubStream(None, report.show_suppressed, report.show_skipped), report)
