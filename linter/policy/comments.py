"""Reading inline suppression comments: `# clusterlint: ignore[NET003] reason` and `ignore-file[CON006] reason`.

In YAML the comment sits at the end of the offending line, or on its own line above it (it then
covers the next line that is not a comment). In a text or Markdown contract it stands on its own
line (`# ...`, `// ...` or `<!-- ... -->`) before a clause and covers the whole clause.
`ignore-file` covers the file. The reason is the text after the brackets, up to a further `#`.

A suppression covers findings located in its own file, at its line: never a finding at the same
line number of another file. A comment in a shared workload or contract (--workload, --contract)
covers the findings located there and the quotes' findings that name its line as a related place
(a quote that misses the workload's deadline names the deadline's line).

`clusterlint.policy.suppressions` applies what is read here and reports the comments themselves.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

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
            ids = tuple(i.strip() for i in form.group("ids").split(",") if i.strip()) if form else ()
            if not ids:  # `ignore[ , ]` names no rule either
                malformed.append(Suppression((), "", number, column, page, False, frozenset(), None, body, file=file))
                continue
            reason = form.group("reason").strip().lstrip(":-–— ").strip()
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
