"""`lspci -vvv`: each PCI bridge's Access Control Services control bits (ACSCtl). An enabled
redirect bit sends peer-to-peer traffic (GPU to NIC) up to the root complex: no GPUDirect RDMA."""

from __future__ import annotations

import re

from clusterlint.acceptance.base import Fact, Reader, lines_of

_DEVICE = re.compile(r"^([0-9a-fA-F]{4}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7] (.*)$")
_ACSCTL = re.compile(r"^\s+ACSCtl:\s+(.*)$")
REDIRECT = ("ReqRedir", "CmpltRedir", "SrcValid", "UpstreamFwd", "EgressCtrl")  # a `+` on these breaks peer-to-peer


def parse(evidence, host: str, file: str, text: str) -> None:
    node = evidence.node(host)
    device = "a device above the excerpt"
    for number, line in enumerate(lines_of(text), 1):
        match = _DEVICE.match(line)
        if match:
            device = line.split(" ", 1)[0]
            continue
        match = _ACSCTL.match(line)
        if match:
            bits = [b[:-1] for b in match.group(1).split() if b.endswith("+") and b[:-1] in REDIRECT]
            node.bridges.append(Fact({"device": device, "acs_enabled": bits}, file, number, line))


READER = Reader("lspci", lambda head, text: bool(re.search(r"^\s+ACSC(ap|tl):", text[:200000], re.M)) and bool(re.search(r"^\s+(Control|ACSCap|Capabilities):", head, re.M)),
                parse, ("PCIe ACS on bridges (GPUDirect RDMA path)",))
