"""`free -b`: the total of the Mem: row in bytes."""

from __future__ import annotations

import re

from clusterlint.acceptance.base import Fact, Reader, Unreadable, integer, is_int, line_of, lines_of


def parse(evidence, host: str, file: str, text: str) -> None:
    lines = lines_of(text)
    line = line_of(lines, re.compile(r"^Mem:"))
    fields = lines[line - 1].split()
    if len(fields) < 2 or not is_int(fields[1]):
        raise Unreadable("the Mem: row holds no byte count (run free -b, not free -h)", line)
    evidence.node(host).set("memory", Fact(integer(fields[1], line, "Mem: total"), file, line, lines[line - 1]))


READER = Reader("free", lambda head, text: bool(re.search(r"^\s+total\s+used\s+free", head, re.M) and re.search(r"^Mem:", head, re.M)),
                parse, ("host memory",))
