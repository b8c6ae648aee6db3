"""`nvcc --version`: the CUDA Toolkit release (`Cuda compilation tools, release 11.1, V11.1.105`)."""

from __future__ import annotations

import re

from clusterlint.acceptance.base import Fact, Reader, lines_of

_RELEASE = re.compile(r"^Cuda compilation tools, release ([0-9]+\.[0-9]+), V([0-9.]+)")


def parse(evidence, host: str, file: str, text: str) -> None:
    for number, line in enumerate(lines_of(text), 1):
        match = _RELEASE.match(line)
        if match:
            evidence.node(host).software.setdefault("cuda", Fact(match.group(2), file, number, line))
            return


READER = Reader("nvcc", lambda head, text: bool(re.search(r"^Cuda compilation tools, release", head, re.M)), parse,
                ("CUDA Toolkit version",))
