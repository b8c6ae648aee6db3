"""`ibstat`: CA 'name' blocks (with Firmware version), each with Port N: State, Rate (Gb/s), Link layer."""

from __future__ import annotations

import re

from clusterlint.acceptance.base import Fact, Reader, Unreadable, lines_of, number

_CA = re.compile(r"^CA '([^']+)'")
_PORT = re.compile(r"^Port (\d+):$")


def nic(evidence, host, file, number_, line, name, state, rate, layer):
    evidence.node(host).nics.append(Fact({"name": name, "state": state, "rate_gbps": rate, "link_layer": layer}, file, number_, line))


def parse(evidence, host: str, file: str, text: str) -> None:
    lines = lines_of(text)
    ca, port, found = None, None, 0
    for number_, line in enumerate(lines, 1):
        stripped = line.strip()
        match = _CA.match(line)
        if match:
            ca, port = match.group(1), None
            continue
        if ca and port is None and stripped.startswith("Firmware version:"):
            evidence.node(host).firmware.append(Fact({"device": ca, "version": stripped.partition(":")[2].strip()}, file, number_, line))
            continue
        match = _PORT.match(stripped)
        if match and ca:
            port = {"name": f"{ca}/{match.group(1)}", "line": number_, "text": line}
            continue
        if port is None:
            continue
        key, _, value = stripped.partition(":")
        port[key] = value.strip()
        if key == "Rate" and value.strip() != "...":
            port["rate"] = number(value.strip(), number_, "Rate", 0, 100000)
        if key == "Link layer":
            nic(evidence, host, file, port["line"], port["text"], port["name"], port.get("State", "?"), port.get("rate"), port["Link layer"])
            port, found = None, found + 1
    if not found:
        raise Unreadable("no CA block with a complete port (State, Rate, Link layer)", len(lines))


READER = Reader("ibstat", lambda head, text: bool(re.search(r"^CA '[^']+'", head, re.M)), parse,
                ("adapter ports: state, rate, link layer", "adapter firmware"))
