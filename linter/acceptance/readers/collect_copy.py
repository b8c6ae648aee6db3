"""A configuration file `clusterlint collect` copied behind its own header line
(`# clusterlint collect: copy of PATH (WHAT)`): Slurm's HealthCheckProgram script and NHC's
configuration, read for whether they run DCGM (`dcgmi`, `dcgm`, `nv-hostengine`), as cmax greps them; a
comment line (`#`) naming DCGM runs nothing, so it does not count."""

from __future__ import annotations

import re

from clusterlint.acceptance.base import Fact, Reader, lines_of

HEADER = re.compile(r"^# clusterlint collect: copy of (/\S*) \((HealthCheckProgram[^)]*)\)\s*$")
_DCGM = re.compile(r"dcgm|nv-hostengine", re.I)


def parse(evidence, host: str, file: str, text: str) -> None:
    lines = lines_of(text)
    path = HEADER.match(lines[0]).group(1)
    number = next((n for n, line in enumerate(lines[1:], 2) if _DCGM.search(line) and not line.lstrip().startswith("#")), 0)
    fact = Fact({"path": path, "dcgm": bool(number)}, file, number or 1, lines[number - 1] if number else lines[0])
    evidence.node(host).software.setdefault(f"healthcheck copy {path}", fact)


READER = Reader("collect-copy", lambda head, text: bool(HEADER.match(head.split("\n", 1)[0])), parse, ("HealthCheckProgram script",))
