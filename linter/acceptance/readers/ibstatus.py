"""`ibstatus`: Infiniband device 'name' port N status: blocks with state, rate, link_layer."""

from __future__ import annotations

import re

from clusterlint.acceptance.base import Reader, Unreadable, lines_of, number
from clusterlint.acceptance.readers.ibstat import nic

_DEVICE = re.compile(r"^Infiniband device '([^']+)' port (\d+) status:")
_RATE = re.compile(r"(?<!\S)(\S+) Gb/sec")


def parse(evidence, host: str, file: str, text: str) -> None:
    lines = lines_of(text)
    port, found = None, 0
    for number_, line in enumerate(lines, 1):
        match = _DEVICE.match(line)
        if match:
            port = {"name": f"{match.group(1)}/{match.group(2)}", "line": number_, "text": line}
            continue
        if port is None:
            continue
        key, _, value = line.strip().partition(":")
        port[key.strip()] = value.strip()
        if key.strip() == "rate":
            rate = _RATE.match(value.strip())
            port["rate_gbps"] = number(rate.group(1), number_, "rate", 0, 100000) if rate else None
        if key.strip() == "link_layer":
            state = re.sub(r"^\d+:\s*", "", port.get("state", "?"))
            nic(evidence, host, file, port["line"], port["text"], port["name"], state.title(), port.get("rate_gbps"), port["link_layer"])
            port, found = None, found + 1
    if not found:
        raise Unreadable("no device block with state, rate and link_layer", len(lines))


READER = Reader("ibstatus", lambda head, text: bool(re.search(r"^Infiniband device '", head, re.M)), parse, ("adapter ports: state, rate, link layer",))
