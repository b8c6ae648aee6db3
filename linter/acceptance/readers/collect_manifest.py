"""`collect-manifest.txt`: clusterlint collect's own record of every tool and file it tried on a node
(docs/acceptance.md, "The collect manifest"), so that accept can tell a tool not installed on the
node from one that was not collected. Format 1: a header line, `# host NAME`, a column line, then
one line per try: `STATUS NAME FILE COMMAND...` (FILE is `-` when no output was kept)."""

from __future__ import annotations

import re

from clusterlint.acceptance.base import Fact, Reader, Unreadable, lines_of

HEADER = re.compile(r"^# clusterlint collect manifest (\S+)\s*$")
STATUSES = ("found", "not-installed", "failed", "timed-out", "not-readable")
_HOST = re.compile(r"^# host (\S+)\s*$", re.M)


def parse(evidence, host: str, file: str, text: str) -> None:
    lines = lines_of(text)
    version = HEADER.match(lines[0]).group(1)
    if version != "1":
        raise Unreadable(f"manifest format {version[:20]!r} is not one this clusterlint reads (1)", 1, lines[0].find(version) + 1)
    tries: dict = {}
    for number, line in enumerate(lines[1:], 2):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split(" ", 3)
        if len(parts) < 4 or not parts[3].strip():
            raise Unreadable("a manifest line needs a status, a name, a file and a command", number, len(line) + 1)
        if parts[0] not in STATUSES:
            raise Unreadable(f"status {parts[0][:40]!r} is not one of {', '.join(STATUSES)}", number, 1)
        tries.setdefault(parts[1], []).append(Fact(parts[0], file, number, line))
    evidence.node(host).software.setdefault("collect manifest", Fact(tries, file, 1, lines[0]))


def _host(text: str):
    match = _HOST.search(text[:4000])
    return match.group(1) if match else None


READER = Reader("collect-manifest", lambda head, text: bool(HEADER.match(head.split("\n", 1)[0])), parse,
                ("tools found or not installed",), host_inside=_host)
