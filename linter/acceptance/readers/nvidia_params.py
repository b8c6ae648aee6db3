"""`/proc/driver/nvidia/params`: the NVIDIA driver's module parameters as loaded, among them
`RmProfilingAdminOnly: 1` (GPU performance counters for administrators only)."""

from __future__ import annotations

import re

from clusterlint.acceptance.base import Fact, Reader, integer, lines_of

_ROW = re.compile(r"^RmProfilingAdminOnly: (\S+)\s*$")


def parse(evidence, host: str, file: str, text: str) -> None:
    for number, line in enumerate(lines_of(text), 1):
        match = _ROW.match(line)
        if match:
            value = integer(match.group(1), number, "RmProfilingAdminOnly", 1, column=len("RmProfilingAdminOnly: ") + 1)
            evidence.node(host).software.setdefault("nvidia RmProfilingAdminOnly", Fact(value, file, number, line))
            return


READER = Reader("nvidia-params", lambda head, text: bool(re.search(r"^(ResmanDebugLevel|RmProfilingAdminOnly): ", head, re.M)), parse,
                ("NVIDIA profiling restricted to administrators",))
