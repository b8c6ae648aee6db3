"""`/proc/meminfo`: MemTotal in kB (KiB)."""

from __future__ import annotations

import re

from clusterlint.acceptance.base import KIB, Fact, Reader, integer, line_of, lines_of

_TOTAL = re.compile(r"^MemTotal:\s+(\S+) kB")


def parse(evidence, host: str, file: str, text: str) -> None:
    lines = lines_of(text)
    line = line_of(lines, _TOTAL)
    value = integer(_TOTAL.match(lines[line - 1]).group(1), line, "MemTotal")
    evidence.node(host).set("memory", Fact(value * KIB, file, line, lines[line - 1]))


READER = Reader("meminfo", lambda head, text: bool(re.search(r"^MemTotal:\s+\S+ kB", head, re.M)), parse, ("host memory",))
