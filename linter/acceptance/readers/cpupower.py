"""`cpupower frequency-info` (or `-c all`): per CPU, the cpufreq driver (`driver: intel_pstate`) and
the governor of its policy (`The governor "powersave" may decide which speed to use`)."""

from __future__ import annotations

import re

from clusterlint.acceptance.base import Fact, Reader, lines_of

_CPU = re.compile(r"^analyzing CPU ([0-9]+):")
_DRIVER = re.compile(r"^\s*driver: (\S+)\s*$")
_GOVERNOR = re.compile(r'The governor "([^"]+)" may decide which speed to use')


def parse(evidence, host: str, file: str, text: str) -> None:
    node, driver, cpu = evidence.node(host), None, None
    for number, line in enumerate(lines_of(text), 1):
        match = _CPU.match(line)
        if match:
            cpu, driver = match.group(1), None
            continue
        match = _DRIVER.match(line)
        if match:
            driver = match.group(1)
            continue
        match = _GOVERNOR.search(line)
        if match:
            governors = node.software.setdefault("cpufreq governors", Fact([], file, number, line))
            governors.value.append(Fact({"cpu": cpu, "driver": driver, "governor": match.group(1)}, file, number, line))


READER = Reader("cpupower", lambda head, text: bool(re.search(r"^analyzing CPU [0-9]+:", head, re.M)), parse,
                ("CPU frequency governor",))
