"""`docker version`: the server's Engine version (not the client's), and the runc the daemon
reports in the same Server section."""

from __future__ import annotations

import re

from clusterlint.acceptance.base import Fact, Reader, lines_of

_VERSION = re.compile(r"^\s+Version:\s+(\S+)")


def parse(evidence, host: str, file: str, text: str) -> None:
    node, section = evidence.node(host), None
    for number, line in enumerate(lines_of(text), 1):
        if re.match(r"^\S", line):
            section = "server" if line.startswith("Server") else None
        elif section and re.match(r"^ \S", line):
            section = {"Engine:": "docker", "runc:": "runc"}.get(line.strip(), "server")
        match = _VERSION.match(line)
        if match and section in ("docker", "runc"):
            node.software.setdefault(section, Fact(match.group(1), file, number, line))


READER = Reader("docker-version", lambda head, text: bool(re.search(r"^Server:.*\n Engine:\s*$", head, re.M)), parse,
                ("Docker Engine version", "runc version"))
