"""`/proc/driver/nvidia/version`: which NVIDIA kernel module is loaded (the open one, needed for
GPUDirect RDMA through dma_buf, or the proprietary one) and its driver version."""

from __future__ import annotations

import re

from clusterlint.acceptance.base import Fact, Reader, lines_of

_NVRM = re.compile(r"^NVRM version: NVIDIA UNIX (Open Kernel Module for \S+|\S+ Kernel Module|Kernel Module)\s+([0-9]+(?:\.[0-9]+)+)?")


def parse(evidence, host: str, file: str, text: str) -> None:
    node = evidence.node(host)
    for number, line in enumerate(lines_of(text), 1):
        match = _NVRM.match(line)
        if match:
            node.set("kernel_module", Fact("open" if match.group(1).startswith("Open") else "proprietary", file, number, line))
            if match.group(2):
                node.set("driver", Fact(match.group(2), file, number, line))
            return


READER = Reader("nvidia-driver-version", lambda head, text: bool(re.search(r"^NVRM version: NVIDIA UNIX", head, re.M)), parse,
                ("NVIDIA kernel module flavour", "driver"))
