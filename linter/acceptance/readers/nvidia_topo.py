"""`nvidia-smi topo -m`: the GPUs on its rows (a count that must agree with nvidia-smi -q)."""

from __future__ import annotations

import re

from clusterlint.acceptance.base import Fact, Reader, Unreadable, lines_of

_ROW = re.compile(r"^GPU\d+\s")


def parse(evidence, host: str, file: str, text: str) -> None:
    rows = [(n, line) for n, line in enumerate(lines_of(text), 1) if _ROW.match(line)]
    if not rows:
        raise Unreadable("no GPU rows under the header")
    evidence.node(host).set("gpu_count", Fact(len(rows), file, rows[-1][0], rows[-1][1]))


READER = Reader("nvidia-smi-topo", lambda head, text: bool(re.search(r"^\s*GPU0\s", head, re.M)) and "Legend:" in text, parse, ("accelerator count",))
