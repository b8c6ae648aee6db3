"""Plain `nvidia-smi -q`: an indented outline of `Name : value` rows, one block per GPU."""

from __future__ import annotations

import re

from clusterlint.acceptance.base import Fact, Reader, Unreadable, bytes_mib, integer, is_int, lines_of, number

THROTTLES = {  # reasons that mean the GPU is slowed by a fault, not by being idle or capped by the user
    "hw_slowdown": "HW Slowdown", "hw_thermal_slowdown": "HW Thermal Slowdown", "hw_power_brake_slowdown": "HW Power Brake Slowdown",
    "sw_thermal_slowdown": "SW Thermal Slowdown",
}
_GPU = re.compile(r"^GPU [0-9A-Fa-f:.]+\s*$")
PENDING = {("Remapped Rows", "Pending"): "a row remap pending", ("Retired Pages", "Pending Page Blacklist"): "a page retirement pending",
           ("Retired Pages", "Pending Page Retirement"): "a page retirement pending"}


def gpu_entry(node, ident: Fact) -> dict:
    """The facts of one GPU by its bus id: several files about the same GPU add to one entry, the first file read wins."""
    return node.gpus.setdefault(str(ident.value).lower(), {"id": ident})


def parse(evidence, host: str, file: str, text: str) -> None:
    lines = lines_of(text)
    node = evidence.node(host)
    gpu = None
    stack: list[tuple[int, str]] = []  # (indent, section) of the headings above the current row
    gpus = 0
    for number_, line in enumerate(lines, 1):
        if _GPU.match(line):
            gpu = gpu_entry(node, Fact(line.split()[1], file, number_, line))
            gpus += 1
            stack = []
            continue
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        head, colon, value = line.partition(":")  # string operations: linear however long the line
        if not colon or not head.strip():
            indent = len(line) - len(line.lstrip())
            while stack and stack[-1][0] >= indent:
                stack.pop()
            stack.append((indent, line.strip()))
            continue
        indent, name, value = len(head) - len(head.lstrip()), head.strip(), value.strip()
        while stack and stack[-1][0] >= indent:
            stack.pop()
        sections = [s for _, s in stack]
        fact = lambda v: Fact(v, file, number_, line)  # noqa: E731
        if gpu is None:
            if name == "Driver Version" and value:
                node.set("driver", fact(value))
            elif name == "Attached GPUs":
                node.set("gpu_count", fact(integer(value, number_, "Attached GPUs", 4096)))
            continue
        _row(node, gpu, sections, name, value, fact, number_)
    if node.gpu_count is None and not gpus:
        raise Unreadable("no 'Attached GPUs' row and no GPU block")
    if node.gpu_count is None:
        first = next(iter(node.gpus.values()))["id"]
        node.set("gpu_count", Fact(len(node.gpus), file, first.line, first.text))


def _row(node, gpu: dict, sections: list, name: str, value: str, fact, line: int) -> None:
    section = sections[-1] if sections else ""
    given = value not in ("", "N/A", "[N/A]")
    if name == "Product Name":
        gpu.setdefault("model", fact(value))
    elif name == "Total" and section == "FB Memory Usage" and bytes_mib(value) is not None:
        gpu.setdefault("memory", fact(bytes_mib(value)))
    elif section == "PCIe Generation" and name in ("Current", "Device Current", "Max") and given:
        gpu.setdefault("pcie_gen_max" if name == "Max" else "pcie_gen", fact(integer(value, line, "PCIe generation", 16)))
    elif section == "Link Width" and name in ("Current", "Max") and given:
        gpu.setdefault("pcie_width" if name == "Current" else "pcie_width_max", fact(integer(value.rstrip("x"), line, "link width", 64)))
    elif name == "Replays Since Reset" and given:
        gpu.setdefault("replays", fact(integer(value, line, "replay counter")))
    elif section == "ECC Mode" and name == "Current" and given:
        gpu.setdefault("ecc_mode", fact(value))
    elif section in ("Volatile", "Aggregate") and "ECC Errors" in sections and name in ("DRAM Correctable", "Device Memory") and given:
        gpu.setdefault(f"ecc_corrected_{section.lower()}", fact(integer(value, line, "ECC count")))
    elif (section, name) in PENDING and value == "Yes":
        gpu.setdefault("pending", fact(PENDING[section, name]))
    elif name in ("Current Power Limit", "Power Limit", "Enforced Power Limit") and section in ("GPU Power Readings", "Power Readings") and given:
        gpu.setdefault("power_limit", fact(number(value.removesuffix(" W"), line, "power limit", 0, 5000)))
    elif name == "Max Power Limit" and section in ("GPU Power Readings", "Power Readings") and given:
        gpu.setdefault("max_power_limit", fact(number(value.removesuffix(" W"), line, "power limit", 0, 5000)))
    elif name == "GPU Current Temp" and given:
        gpu.setdefault("temperature", fact(number(value.removesuffix(" C"), line, "temperature", -50, 200)))
    elif "Volatile" in sections and ("Uncorrectable" in name or name == "Double Bit ECC" or section == "Double Bit") and is_int(value) and int(value) > 0:
        node.failures.append(fact(f"GPU {gpu['id'].value}: {value} uncorrectable ECC errors ({name})"))
    elif name in ("Remapping Failure Occurred", "Remapping Failure") and value == "Yes":
        node.failures.append(fact(f"GPU {gpu['id'].value}: row remapping failed"))
    elif section in ("Clocks Event Reasons", "Clocks Throttle Reasons", "HW Slowdown") and value == "Active" \
            and name.lower().replace(" ", "_") in THROTTLES:
        node.failures.append(fact(f"GPU {gpu['id'].value}: clocks slowed by {name}"))


READER = Reader("nvidia-smi-q", lambda head, text: "NVSMI LOG" in head or bool(re.search(r"^Attached GPUs\s*:", head, re.M)), parse,
                ("accelerator count, model and memory", "driver", "PCIe link and replays", "ECC mode and counts", "row remaps and retired pages",
                 "power limit", "temperature", "throttle reasons"))
