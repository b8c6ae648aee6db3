"""`dcgmi -v`: DCGM's build info (`Version : 3.3.5`), the local one and, when a host engine runs,
the host engine's; the lower of the two is the installed DCGM's."""

from __future__ import annotations

import re

from clusterlint.acceptance.base import Fact, Reader, lines_of

_VERSION = re.compile(r"^Version : ([0-9]+\.[0-9]+\.[0-9]+)\s*$")


def _key(version: str) -> tuple:
    return tuple(int(p) for p in version.split("."))


def parse(evidence, host: str, file: str, text: str) -> None:
    found = [Fact(m.group(1), file, n, line) for n, line in enumerate(lines_of(text), 1) if (m := _VERSION.match(line))]
    if found:
        evidence.node(host).software.setdefault("dcgm", min(found, key=lambda f: _key(f.value)))


READER = Reader("dcgmi-version", lambda head, text: bool(re.search(r"^Version : [0-9]", head, re.M) and re.search(r"^Branch Name : ", head, re.M)),
                parse, ("DCGM version",))
