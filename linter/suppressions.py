"""Inline suppressions: `# clusterlint: ignore[NET003] reason` and `ignore-file[CON006] reason`.

In YAML the comment sits at the end of the offending line, or on its own line above it (it then
covers the next line that is not a comment). In a text or Markdown contract it stands on its own
line (`# ...`, `// ...` or `<!-- ... -->`) before a clause and covers the whole clause.
`ignore-file` covers the file. The reason is the text after the brackets, up to a further `#`.

A suppression covers findings located in its own file, at its line: never a finding at the same
line number of another file. A comment in a shared workload or contract (--workload, --contract)
covers the findings located there and the quotes' findings that name its line as a related place
(a quote that misses the workload's deadline names the deadline's line).

The comments are findings themselves: SUP001 when a reason is missing, SUP002 when a comment
silences nothing (an unknown rule, a rule that cannot be silenced, or a rule that ran and found
nothing there), SUP003 when a `clusterlint:` comment is not a suppression at all. A suppression
of a rule that did not run on the file (not selected, or skipped) is not reported as unused:
nothing can be said about it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .config import ALWAYS_ON
from .engine import new_finding
from .registry import RULE_ID


def _unsuppressible(rule_id: str) -> bool:
    """Documents that were never reviewed, and the comments' own findings."""
    return rule_id in ALWAYS_ON or rule_id.startswith("SUP")

_YAML = re.compile(r"(?:^|(?<=\s))#\s*clusterlint\s*:\s*(?P<body>.*)$")
_PROSE = re.compile(r"^\s*(?:#|<!--|//)\s*clusterlint\s*:\s*(?P<body>.*)$")
_FORM = re.compile(r"^(?P<what>ignore-file|ignore)\[(?P<ids>[^\]]*)\](?P<reason>.*)$")


@dataclass
class Suppression:
    ids: tuple
    reason: str
    line: int
    column: int
    page: int
    file_wide: bool
    targets: frozenset  # (page, line) pairs it covers; empty for file-wide
    target: int | None  # the first line it covers, for messages
    text: str
    used: set = field(default_factory=set)
    file: str = ""  # the file it is written in

    def covers(self, finding) -> bool:
        """A finding located in this suppression's file at a line it covers, or naming such a line as a related place."""
        if finding.rule not in self.ids:
            return False
        places = [(finding.file, finding.page, finding.line)] + [(r.file, r.page, r.line) for r in finding.related]
        return any(file == self.file and (self.file_wide or (page, line) in self.targets) for file, page, line in places)


@dataclass(frozen=True)
class Suppressed:
    """A finding not counted: silenced in the file (inSource) or present in the baseline (external)."""

    finding: object
    kind: str  # SARIF's suppression kinds: inSource, external
    justification: str
    line: int = 0  # where the suppression is written (inSource)

    def as_json(self) -> dict:
        return {**self.finding.as_json(), "suppression": {"kind": self.kind, "justification": self.justification,
                                                          **({"line": self.line} if self.line else {})}}


def _comment_line(text: str, prose: bool) -> bool:
    stripped = text.strip()
    return not stripped or (bool(_PROSE.match(text)) if prose else stripped.startswith("#"))


def parse(pages: list[list[str]], prose: bool, clauses: dict, file: str = "") -> tuple[list[Suppression], list[Suppression]]:
    """Suppressions in `file`'s lines (page by page; one page unless a PDF), and the malformed
    comments (with no ids). `clauses` maps a clause's first (page, line) to all its lines."""
    found, malformed = [], []
    paged = len(pages) > 1
    for page_index, lines in enumerate(pages, 1):
        page = page_index if paged else 0
        for number, text in enumerate(lines, 1):
            match = (_PROSE if prose else _YAML).search(text)
            if not match:
                continue
            body = re.split(r"\s#", match.group("body").strip(), maxsplit=1)[0].strip()  # up to a further comment
            if body.endswith("-->"):
                body = body[:-3].rstrip()
            column = match.start() + 1 if prose else text.index("#", match.start()) + 1
            form = _FORM.match(body)
            if not form or not form.group("ids").strip():
                malformed.append(Suppression((), "", number, column, page, False, frozenset(), None, body, file=file))
                continue
            reason = form.group("reason").strip().lstrip(":-–— ").strip()
            ids = tuple(i.strip() for i in form.group("ids").split(",") if i.strip())
            file_wide = form.group("what") == "ignore-file"
            target = None
            if not file_wide:
                trailing = not prose and text[: match.start()].strip()
                target = number if trailing else next((n for n in range(number + 1, len(lines) + 1) if not _comment_line(lines[n - 1], prose)), None)
            targets = frozenset() if target is None else frozenset(clauses.get((page, target), {(page, target)}))
            found.append(Suppression(ids, reason, number, column, page, file_wide, targets, target, body, file=file))
    return found, malformed


def clause_lines(documents) -> dict:
    """For a prose contract: each clause's first (page, line) -> every (page, line) it spans."""
    out = {}
    for doc in documents:
        for path, segments in doc.spans.items():
            if path and path[-1] == "text":
                lines = {(s[3] or 0, s[1]) for s in segments}
                out[(segments[0][3] or 0, segments[0][1])] = lines
    return out


def silence(result, suppressions) -> None:
    """Move the findings the suppressions cover from `result.findings` to `result.suppressed`."""
    active = []
    for finding in result.findings:
        match = None if _unsuppressible(finding.rule) else next((s for s in suppressions if s.covers(finding)), None)
        if match is None:
            active.append(finding)
            continue
        match.used.add(finding.rule)
        result.suppressed.append(Suppressed(finding, "inSource", match.reason or "(no reason given)", match.line))
    result.findings = active


def apply(result, suppressions, malformed, rules: dict, known: dict) -> None:
    """Move the findings a suppression covers from `result.findings` to `result.suppressed` and add
    the SUP findings of the comments themselves (when selected). `rules` ran on the file; `known` is
    every rule there is."""
    silence(result, suppressions)
    active = result.findings
    skipped = {s.rule for s in result.skipped}
    comments = []
    for s in suppressions:
        place = "in this file" if s.file_wide else f"on line {s.target}" if s.target else "on the line after it (there is none)"
        for rule_id in s.ids:
            if not s.reason:
                comments.append(("SUP001", rule_id, s, f"suppression of {rule_id} gives no reason; write it after the brackets: "
                                              f"clusterlint: {'ignore-file' if s.file_wide else 'ignore'}[{rule_id}] why it is accepted"))
            if rule_id in s.used:
                continue
            if not RULE_ID.match(rule_id) or rule_id not in known:
                import difflib

                close = difflib.get_close_matches(rule_id, list(known), n=1)
                comments.append(("SUP002", rule_id, s, f"suppression names unknown rule {rule_id!r}" + (f" (did you mean {close[0]!r}?)" if close else "")))
            elif _unsuppressible(rule_id):
                comments.append(("SUP002", rule_id, s, f"{rule_id} cannot be suppressed: fix the file (or the comment) instead"))
            elif rule_id in rules and rule_id not in skipped:
                comments.append(("SUP002", rule_id, s, f"unused suppression: no {rule_id} finding {place}"))
    for s in malformed:
        comments.append(("SUP003", "", s, f"not a suppression: {s.text!r}; write clusterlint: ignore[ID, ...] reason, or ignore-file[ID, ...] reason"))
    for rule_id, subject, s, message in comments:
        if rule_id in rules:
            active.append(new_finding(rules[rule_id], result.file, s.line, s.column, (), message, page=s.page, identity=(f"comment {subject}", s.text)))
    result.findings = active
