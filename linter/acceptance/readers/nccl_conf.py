"""`/etc/nccl.conf` (or `env | grep NCCL_`): the NCCL settings a node forces on every job, one
`NAME=value` per line as NCCL reads them."""

from __future__ import annotations

import re

from clusterlint.acceptance.base import Fact, Reader, lines_of

_SETTING = re.compile(r"^\s*(NCCL_[A-Z0-9_]+)\s*=(.*)$")  # the value is stripped after: one way to match
_ANY = re.compile(r"^\s*(?:#.*|[A-Za-z_][A-Za-z0-9_]*\s*=.*)?$")


def parse(evidence, host: str, file: str, text: str) -> None:
    node = evidence.node(host)
    for number, line in enumerate(lines_of(text), 1):
        match = _SETTING.match(line)
        if match:
            node.software.setdefault(f"nccl {match.group(1)}", Fact(match.group(2).strip(), file, number, line))


def _detect(head: str, text: str) -> bool:
    lines = head.splitlines()[:200]
    return any(_SETTING.match(line) for line in lines) and all(_ANY.match(line) for line in lines)


READER = Reader("nccl-conf", _detect, parse, ("NCCL settings forced on every job",))
