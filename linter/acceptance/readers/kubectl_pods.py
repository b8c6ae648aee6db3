"""`kubectl get pods` (-n NAMESPACE or --all-namespaces) and the pod part of `kubectl get all` (names written
`pod/NAME`): each pod's name, namespace (None when the listing is of one namespace) and status."""

from __future__ import annotations

import re

from clusterlint.acceptance.base import Fact, Reader, lines_of

_HEADER = re.compile(r"^(NAMESPACE\s+)?NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE")


def parse(evidence, host: str, file: str, text: str) -> None:
    lines = lines_of(text)
    start = next(i for i, line in enumerate(lines) if _HEADER.match(line))
    spaced = lines[start].startswith("NAMESPACE")
    pods = []
    for number, line in enumerate(lines[start + 1:], start + 2):
        fields = line.split()
        if len(fields) < (6 if spaced else 5):
            continue
        name, ready, status = fields[1:4] if spaced else fields[0:3]
        name = name.removeprefix("pod/")
        pods.append(Fact({"name": name, "ready": ready, "status": status, "namespace": fields[0] if spaced else None}, file, number, line))
    evidence.node(host).software.setdefault("kubernetes pods", Fact(pods, file, start + 1, lines[start]))


READER = Reader("kubectl-pods", lambda head, text: bool(re.search(r"^(NAMESPACE\s+)?NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE", head, re.M)), parse,
                ("GPU operator, network operator and DCGM exporter pods",))
