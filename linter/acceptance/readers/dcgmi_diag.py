"""`dcgmi diag` as a table: rows `| Test | Result |`; a Fail or Error result is a failed health check."""

from __future__ import annotations

import re

from clusterlint.acceptance.base import Fact, Reader, lines_of


def parse(evidence, host: str, file: str, text: str) -> None:
    for number, line in enumerate(lines_of(text), 1):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 2 and re.match(r"^(Fail|Error)", cells[1]):
            evidence.node(host).failures.append(Fact(f"DCGM diagnostic {cells[0]}: {cells[1]}", file, number, line))


READER = Reader("dcgmi-diag", lambda head, text: bool(re.search(r"Diagnostic\s*\|\s*Result", head) or re.search(r"^\|\s*Deployment\s*\|", head, re.M)),
                parse, ("DCGM diagnostic results",))
