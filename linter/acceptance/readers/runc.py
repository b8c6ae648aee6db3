"""`runc --version` (`runc version 1.1.4`, then commit, spec, go, libseccomp): the host's runc."""

from __future__ import annotations

import re

from clusterlint.acceptance.base import Fact, Reader, lines_of

_VERSION = re.compile(r"^runc version ([0-9]+\.[0-9]+\.[0-9]\S*)")


def parse(evidence, host: str, file: str, text: str) -> None:
    for number, line in enumerate(lines_of(text), 1):
        match = _VERSION.match(line)
        if match:
            evidence.node(host).software.setdefault("runc", Fact(match.group(1), file, number, line))
            return


READER = Reader("runc", lambda head, text: bool(re.search(r"^runc version [0-9]", head, re.M)), parse, ("runc version",))
