"""`kubectl get storageclass` (`kubectl get sc`): each class's name, provisioner and whether it is the default.

Both layouts are read: NAME PROVISIONER AGE (before Kubernetes 1.17) and the one with RECLAIMPOLICY,
VOLUMEBINDINGMODE and ALLOWVOLUMEEXPANSION. kubectl marks the default class by writing `(default)`
after its name."""

from __future__ import annotations

import re

from clusterlint.acceptance.base import Fact, Reader, lines_of

_HEADER = re.compile(r"^NAME\s+PROVISIONER\s+(RECLAIMPOLICY\s+VOLUMEBINDINGMODE\s+ALLOWVOLUMEEXPANSION\s+)?AGE\s*$")


def parse(evidence, host: str, file: str, text: str) -> None:
    lines = lines_of(text)
    start = next(i for i, line in enumerate(lines) if _HEADER.match(line))
    classes = []
    for number, line in enumerate(lines[start + 1:], start + 2):
        fields = line.split()
        default = len(fields) > 2 and fields[1] == "(default)"
        if len(fields) < (4 if default else 3):
            continue
        classes.append(Fact({"name": fields[0], "provisioner": fields[2 if default else 1], "default": default}, file, number, line))
    evidence.node(host).software.setdefault("kubernetes storage classes", Fact(classes, file, start + 1, lines[start]))


READER = Reader("kubectl-storageclass", lambda head, text: bool(re.search(_HEADER.pattern, head, re.M)), parse,
                ("storage classes",))
