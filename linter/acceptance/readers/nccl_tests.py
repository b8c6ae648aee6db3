"""nccl-tests stdout: old (size count type redop time ...) and new (... redop root time ...)
layouts; the busbw columns of each size row, out-of-place and in-place."""

from __future__ import annotations

import re

from clusterlint.acceptance.base import Fact, Reader, Unreadable, integer, line_of, lines_of, number
from clusterlint.acceptance.base import Collective

_HEADER = re.compile(r"#\s+size\s+count\s+type")
_RANK = re.compile(r"^#\s+Rank\s+\d+\b", re.M)
_ON_HOST = re.compile(r" on\s+(\S+)\s+device")  # searched in a rank line only: linear in it
MAX_GBPS = 1e5  # busbw above 100 TB/s per rank is no measurement


def parse(evidence, host: str | None, file: str, text: str) -> None:
    lines = lines_of(text)
    test = re.search(r"Collective test starting: (\w+)", text)
    header = line_of(lines, _HEADER)
    if not header:
        raise Unreadable("no size/count/type header row", len(lines))
    columns = lines[header - 1].lstrip("#").split()
    busbw = [i for i, c in enumerate(columns) if c == "busbw"]
    if not busbw:
        raise Unreadable("the header row has no busbw column", header)
    rows = []
    for number_, line in enumerate(lines[header:], header + 1):
        cleaned = re.sub(r"\[\d+\]", lambda m: " " * len(m.group()), line)  # same length: columns stay
        spans = [(m.group(), m.start() + 1) for m in re.finditer(r"\S+", cleaned)]
        fields = [f for f, _ in spans]
        if not fields or line.lstrip().startswith("#") or not re.fullmatch(r"[0-9]+", fields[0]) or len(fields) < len(columns):
            continue
        values = [number(fields[i], number_, "busbw", 0, MAX_GBPS, spans[i][1]) for i in busbw]
        rows.append(Fact((integer(fields[0], number_, "size", 1e18), max(values)), file, number_, line))
    if not rows:
        raise Unreadable("no complete size row under the header (truncated?)", len(lines))
    evidence.collectives.append(Collective(test.group(1) if test else "nccl-tests", rows, _hosts(text)))


READER = Reader("nccl-tests", lambda head, text: "out-of-place" in head and "busbw" in head, parse, ("collective bus bandwidth",), spans_nodes=True)


def _hosts(text: str) -> tuple:
    """The hosts the rank lines name ("#  Rank  0 Group  0 Pid 1 on node-a device  0 ..."), in order."""
    hosts: dict = {}
    for rank in _RANK.finditer(text):
        end = text.find("\n", rank.end())
        found = _ON_HOST.search(text, rank.end(), len(text) if end < 0 else end)
        if found:
            hosts.setdefault(found.group(1))
    return tuple(hosts)
