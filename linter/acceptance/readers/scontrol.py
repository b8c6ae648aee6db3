"""`scontrol show config`: Slurm's HealthCheckProgram (how a bad node is drained before it takes a job),
TopologyPlugin and AccountingStorageType (whether sacct has job accounting)."""

from __future__ import annotations

import re

from clusterlint.acceptance.base import Fact, Reader, lines_of

_ROW = re.compile(r"^(HealthCheckProgram|HealthCheckInterval|TopologyPlugin|AccountingStorageType)\s*=(.*)$")  # the value is stripped after


def parse(evidence, host: str, file: str, text: str) -> None:
    node = evidence.node(host)
    for number, line in enumerate(lines_of(text), 1):
        match = _ROW.match(line)
        if match:
            node.software.setdefault(f"slurm {match.group(1)}", Fact(match.group(2).strip(), file, number, line))


_KIND = re.compile(r"^(HealthCheck\w+|SlurmctldHost|ClusterName|AccountingStorageType)\s+=|^Configuration data as of ", re.M)

READER = Reader("scontrol-config", lambda head, text: bool(_KIND.search(head)), parse,
                ("Slurm HealthCheckProgram", "TopologyPlugin", "AccountingStorageType"))
