"""`sysctl kernel.perf_event_paranoid kernel.kptr_restrict`: the kernel settings that decide whether
users can profile (`kernel.perf_event_paranoid = 2`)."""

from __future__ import annotations

import re

from clusterlint.acceptance.base import Fact, Reader, integer, lines_of

_ROW = re.compile(r"^(kernel\.(?:perf_event_paranoid|kptr_restrict)) = (-?)(\S+)\s*$")


def parse(evidence, host: str, file: str, text: str) -> None:
    node = evidence.node(host)
    for number, line in enumerate(lines_of(text), 1):
        match = _ROW.match(line)
        if match:
            value = integer(match.group(3), number, match.group(1), 10, column=len(line) - len(match.group(3)) + 1)
            node.software.setdefault(f"sysctl {match.group(1)}", Fact(-value if match.group(2) else value, file, number, line))


READER = Reader("sysctl", lambda head, text: bool(re.search(r"^kernel\.(perf_event_paranoid|kptr_restrict) = ", head, re.M)), parse,
                ("kernel.perf_event_paranoid", "kernel.kptr_restrict"))
