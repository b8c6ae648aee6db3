"""Kernel logs: `dmesg` (uptime in brackets), `dmesg -T` (a date in brackets), `dmesg -t` (none) and
`journalctl -k` (syslog form, naming its host): the NVRM Xid lines, which NVIDIA module loaded, and
the IOMMU's default domain type (`iommu: Default domain type: Translated`)."""

from __future__ import annotations

import re

from clusterlint.acceptance.base import Fact, Reader, lines_of

XID = re.compile(r"NVRM: Xid \(([^)]*)\): (\d+),")
IOMMU = re.compile(r"iommu: Default domain type: (\w+)")
MODULE = re.compile(r"NVRM: loading NVIDIA UNIX (Open Kernel Module|x86_64 Kernel Module|Kernel Module)")
_JOURNAL = re.compile(r"^\w{3} [ \d]\d \d\d:\d\d:\d\d (\S+) kernel: ", re.M)
_FORMS = (re.compile(r"^\[\s*\d+\.\d+\]", re.M),  # dmesg: [ 5012.731842]
          re.compile(r"^\[\w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d \d{4}\]", re.M),  # dmesg -T: [Mon Jun  2 13:13:04 2025]
          _JOURNAL, re.compile(r"^(?:NVRM: |iommu: Default domain type: )", re.M))


def parse(evidence, host: str, file: str, text: str) -> None:
    node = evidence.node(host)
    for number, line in enumerate(lines_of(text), 1):
        match = XID.search(line)
        if match:
            node.failures.append(Fact(f"Xid {match.group(2)} on {match.group(1)}", file, number, line))
            continue
        match = IOMMU.search(line)
        if match:
            node.software.setdefault("iommu default domain", Fact(match.group(1), file, number, line))
            continue
        match = MODULE.search(line)
        if match:
            node.set("kernel_module", Fact("open" if match.group(1).startswith("Open") else "proprietary", file, number, line))


def _detect(head: str, text: str) -> bool:
    return any(form.search(head) for form in _FORMS) or head.startswith(("-- Logs begin", "-- Journal begins", "-- No entries --"))


def _host(text: str) -> str | None:
    match = _JOURNAL.search(text)
    return match.group(1) if match else None


READER = Reader("kernel-log", _detect, parse, ("Xid errors", "NVIDIA kernel module flavour", "IOMMU default domain"), host_inside=_host)
