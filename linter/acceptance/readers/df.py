"""`df` in its usual forms: -h (human sizes), -T (a Type column), -B1 or 1K-blocks."""

from __future__ import annotations

import re

from clusterlint.acceptance.base import Fact, Reader, Unreadable, integer, lines_of, size

UNITS = {"1B-blocks": 1, "1K-blocks": 1024, "1024-blocks": 1024, "Size": None}


def parse(evidence, host: str, file: str, text: str) -> None:
    lines = lines_of(text)
    start = next(i for i, line in enumerate(lines) if line.startswith("Filesystem"))
    header = lines[start].split()
    typed = len(header) > 1 and header[1] == "Type"
    column = header[2 if typed else 1] if len(header) > (2 if typed else 1) else ""
    if column not in UNITS:
        raise Unreadable(f"a size column {column!r} this reader does not know (df -h, -T, -B1 or 1K-blocks)", start + 1)
    unit = UNITS[column]
    for number_, line in enumerate(lines[start + 1:], start + 2):
        fields = line.split()
        if len(fields) < (7 if typed else 6):
            continue  # a wrapped long device name, or a truncated last line
        text_size = fields[2 if typed else 1]
        measured = integer(text_size, number_, column, 1e21) * unit if unit else size(text_size)
        if measured is None:
            raise Unreadable(f"size {text_size[:40]!r} is not a df -h size", number_, line.find(text_size) + 1)
        target = " ".join(fields[(6 if typed else 5):])
        evidence.node(host).mounts.append(Fact({"target": target, "fstype": fields[1] if typed else None, "size": measured}, file, number_, line))


READER = Reader("df", lambda head, text: bool(re.search(r"^Filesystem\s+.*Mounted on", head, re.M)), parse, ("mounts: target, size (type with -T)",))
