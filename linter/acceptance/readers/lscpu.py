"""`lscpu` (text) and `lscpu -J`: physical cores as sockets x cores per socket (or per cluster on Arm)."""

from __future__ import annotations

import re

from clusterlint.acceptance.base import Fact, Reader, Unreadable, integer, line_of, lines_of

_PAIR = re.compile(r"^\s*([^:]+):\s*(.*)$")


def cores(evidence, host: str, file: str, lines: list[str], pairs) -> None:
    values: dict[str, str] = {}
    for key, value in pairs:
        values.setdefault(key, value)
    per = values.get("Core(s) per socket", values.get("Core(s) per cluster"))
    if "Socket(s)" not in values or per is None:
        raise Unreadable("no Socket(s) and Core(s) per socket rows", len(lines))
    line = line_of(lines, re.compile(r"Core\(s\) per (socket|cluster)")) or 1
    sockets, per = integer(values["Socket(s)"], line, "Socket(s)", 4096), integer(per, line, "Core(s) per socket", 100000)
    evidence.node(host).set("cores", Fact(sockets * per, file, line, f"{sockets} socket(s) x {per} core(s) per socket"))


def parse(evidence, host: str, file: str, text: str) -> None:
    lines = lines_of(text)
    pairs = [(m.group(1).strip(), m.group(2).strip()) for m in (_PAIR.match(line) for line in lines) if m]
    cores(evidence, host, file, lines, pairs)


READER = Reader("lscpu", lambda head, text: bool(re.search(r"^Architecture:", head, re.M) and re.search(r"^CPU\(s\):", head, re.M)), parse,
                ("physical cores",))
