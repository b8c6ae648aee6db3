"""`nvidia-container-cli -V` (`version: 1.0.7`) and `nvidia-container-runtime --version`
(`NVIDIA Container Runtime version 1.11.0`): the NVIDIA Container Toolkit's version."""

from __future__ import annotations

import re

from clusterlint.acceptance.base import Fact, Reader, lines_of

_VERSION = re.compile(r"^(?:version: |NVIDIA Container Runtime version )([0-9]+\.[0-9]+\.[0-9]+)")


def parse(evidence, host: str, file: str, text: str) -> None:
    for number, line in enumerate(lines_of(text), 1):
        match = _VERSION.match(line)
        if match:
            evidence.node(host).software.setdefault("nvidia-container-toolkit", Fact(match.group(1), file, number, line))
            return


def _detect(head: str, text: str) -> bool:
    return bool(re.search(r"^NVIDIA Container Runtime version ", head, re.M) or
                (re.search(r"^version: [0-9]", head, re.M) and re.search(r"^build revision: ", head, re.M)))


READER = Reader("nvidia-container-toolkit", _detect, parse, ("NVIDIA Container Toolkit version",))
