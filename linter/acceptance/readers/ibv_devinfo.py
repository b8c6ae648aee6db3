"""`ibv_devinfo` (-v for speed and width): hca_id blocks with fw_ver and port: N, state, link_layer."""

from __future__ import annotations

import re

from clusterlint.acceptance.base import Fact, Reader, Unreadable, lines_of, number
from clusterlint.acceptance.readers.ibstat import nic

_HCA = re.compile(r"^hca_id:\s*(\S+)")
_PORT = re.compile(r"^\s+port:\s*(\d+)")


def parse(evidence, host: str, file: str, text: str) -> None:
    lines = lines_of(text)
    hca, port, found = None, None, []

    def flush():
        if port:
            speed = re.match(r"(\S+) Gbps", port.get("active_speed", ""))
            width = re.match(r"([0-9]{1,2})X", port.get("active_width", ""))
            rate = number(speed.group(1), port["line"], "active_speed", 0, 10000) * int(width.group(1)) if speed and width else None
            state = re.sub(r"^PORT_|\s*\(\d+\)$", "", port.get("state", "?")).title()
            nic(evidence, host, file, port["line"], port["text"], port["name"], state, rate, port.get("link_layer", "?"))
            found.append(port)

    for number_, line in enumerate(lines, 1):
        match = _HCA.match(line)
        if match:
            flush()
            hca, port = match.group(1), None
            continue
        match = _PORT.match(line)
        if match and hca:
            flush()
            port = {"name": f"{hca}/{match.group(1)}", "line": number_, "text": line}
            continue
        key, _, value = line.strip().partition(":")
        if hca and port is None and key.strip() == "fw_ver":
            evidence.node(host).firmware.append(Fact({"device": hca, "version": value.strip()}, file, number_, line))
        elif port is not None:
            port.setdefault(key.strip(), value.strip())
    flush()
    if not found:
        raise Unreadable("no hca_id block with a port", len(lines))


READER = Reader("ibv_devinfo", lambda head, text: bool(re.search(r"^hca_id:", head, re.M)), parse,
                ("adapter ports: state, rate, link layer", "adapter firmware"))
