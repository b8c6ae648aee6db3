"""`srun --mpi=list`: the MPI plugin types this Slurm build offers (`pmix` for Open MPI and most
MPI libraries launched by srun)."""

from __future__ import annotations

import re

from clusterlint.acceptance.base import Fact, Reader, lines_of


def parse(evidence, host: str, file: str, text: str) -> None:
    lines = lines_of(text)
    start = next(i for i, line in enumerate(lines) if line.startswith("MPI plugin types are"))
    plugins = []
    for line in lines[start + 1:]:
        if not re.match(r"^\s+\S+\s*$", line):
            break
        plugins.append(line.strip())
    evidence.node(host).software.setdefault("srun mpi plugins", Fact(tuple(plugins), file, start + 1, lines[start]))


READER = Reader("srun-mpi-list", lambda head, text: bool(re.search(r"^MPI plugin types are", head, re.M)), parse, ("Slurm MPI plugins",))
