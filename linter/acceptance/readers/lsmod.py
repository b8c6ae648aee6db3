"""`lsmod` (or the lines of it a grep kept): the kernel modules loaded (`gdrdrv  24576  0`), with
the modules that use each. Only the whole listing, under its `Module  Size  Used by` header, says
that a module is not loaded."""

from __future__ import annotations

import re

from clusterlint.acceptance.base import Fact, Reader, lines_of

_ROW = re.compile(r"^([A-Za-z0-9_]+)\s+([0-9]{1,12})\s+(-?[0-9]{1,6})(?:\s+(\S+))?\s*$")
_HEADER = re.compile(r"^Module\s+Size\s+Used by\s*$")


def parse(evidence, host: str, file: str, text: str) -> None:
    node = evidence.node(host)
    for number, line in enumerate(lines_of(text), 1):
        if _HEADER.match(line):
            node.software.setdefault("lsmod listing", Fact("complete", file, number, line))
            continue
        match = _ROW.match(line)
        if match:
            node.software.setdefault(f"module {match.group(1)}", Fact(match.group(4) or "", file, number, line))


def _detect(head: str, text: str) -> bool:
    lines = [line for line in head.splitlines()[:200] if line.strip() and not line.startswith("# ")]
    if lines and _HEADER.match(lines[0]):
        return True
    return bool(lines) and all(_ROW.match(line) for line in lines)


READER = Reader("lsmod", _detect, parse, ("kernel modules loaded (gdrdrv)",))
