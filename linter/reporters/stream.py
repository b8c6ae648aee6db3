"""The formats that write each file's part as soon as the file is reviewed: text, github, jsonl.

`clusterlint check` hands a stream one file's result at a time (`add`); the stream writes that
file's part, keeps only what its closing part needs (counts, scorecard lines, whether a file
failed) and lets the result go, so memory does not grow with the number of files. `finish`
writes the closing part.

Parts come out in the order of the files' names (the order text output has always listed findings
in): `check` reviews the files in that order and says when a name is done (`last`: a file named
twice on the command line is one name, whose findings text interleaves), and then the waiting
parts are written. Only the parts of files that sort after a shared --workload / --contract
document wait longer, for its findings, known at the end. A whole report rendered at once
(`render`) holds every part until the end and sorts them: the same bytes.
"""

from __future__ import annotations

from clusterlint.reporters import capped

COUNTED = ("error", "warning", "info")


class Stream:
    """Writes each file's part through `write`, ordered by file name; subclasses say what a part
    is (`part`) and what closes the output (`tail`)."""

    def __init__(self, write, show_suppressed: bool = False, show_skipped: bool = False):
        self.write = write
        self.show_suppressed, self.show_skipped = show_suppressed, show_skipped
        self.not_specs: list = []
        self.late = None  # the least name of a shared document whose result comes last
        self.pending: list = []  # (key, text): parts not yet written; key[0] is the file's name
        self.files = 0
        self.counts = dict.fromkeys(COUNTED, 0)  # every finding, listed or not
        self.listed = dict.fromkeys(COUNTED, 0)
        self.more: dict = {}  # (file, rule) -> findings not listed
        self.suppressed = 0
        self.skipped = False
        self.failed = False  # some file has a finding at or above its fail-on, or scores below its min-score

    def start(self, report, late=()) -> None:
        """Before the first result: the run's report (its not_specs) and the names of the shared
        documents whose results come after every other."""
        self.not_specs = report.not_specs
        self.late = min(late) if late else None

    def add(self, result, index: int, last: bool = False) -> None:
        """One file's result; `index` is its place in the report's found order. `last` says that no
        later result has its name (nor a smaller one): its part, and any waiting, can be written."""
        shown, more = capped(result)
        self.files += 1
        for f in result.findings:
            self.counts[f.severity] += 1
        for f in shown:
            self.listed[f.severity] += 1
        for key, n in more.items():
            self.more[key] = self.more.get(key, 0) + n
        self.suppressed += len(result.suppressed)
        self.skipped = self.skipped or bool(result.skips)
        if not self.failed:
            from clusterlint.check import failed

            self.failed = failed(result)
        self.pending += self.part(result, index, shown, more)
        if last and (self.late is None or result.file < self.late):
            self._flush()

    def _flush(self) -> None:
        """Write the waiting parts in order."""
        self.pending.sort(key=lambda item: item[0])
        self.write("".join(text for _, text in self.pending))
        self.pending = []

    def finish(self) -> None:
        self._flush()
        self.write(self.tail())

    def part(self, result, index: int, shown: list, more: dict) -> list:
        """(key, text) items of one file's part; key[0] is its name, and keys order the items."""
        raise NotImplementedError

    def tail(self) -> str:
        raise NotImplementedError


def render(stream: Stream, report) -> str:
    """A whole report through a stream: its parts are held and sorted, so the output is the same
    as the stream writes when `check` hands it the same results one at a time."""
    out: list[str] = []
    stream.write = out.append
    stream.start(report)
    for index, result in enumerate(report.results):
        stream.add(result, index)  # never `last`: a part of a file found later may sort before
    stream.finish()
    return "".join(out)
