"""`nvidia-smi -q -x`: the XML log, read through defusedxml (no entities, no external references)."""

from __future__ import annotations

import re

from clusterlint.acceptance.base import Fact, Reader, Unreadable, bytes_mib, integer, lines_of, number
from clusterlint.acceptance.readers.nvidia_q import THROTTLES, gpu_entry

_TAG = re.compile(r"<([A-Za-z_][\w.-]*)[\s>]")
PENDING = {"remapped_rows/remapped_row_pending": "a row remap pending", "retired_pages/pending_blacklist": "a page retirement pending",
           "retired_pages/pending_retirement": "a page retirement pending"}
UNCORRECTABLE = ("dram_uncorrectable", "sram_uncorrectable", "sram_uncorrectable_secded", "sram_uncorrectable_parity", "uncorrectable")


def _tag_lines(lines: list[str]) -> dict:
    """Line numbers of each opening tag, in document order, found in one pass (linear lookups)."""
    found: dict = {}
    for n, line in enumerate(lines, 1):
        for match in _TAG.finditer(line):
            found.setdefault(match.group(1), []).append(n)
    return found


def parse(evidence, host: str, file: str, text: str) -> None:
    from defusedxml import ElementTree
    from defusedxml.common import DefusedXmlException

    lines = lines_of(text)
    try:
        root = ElementTree.fromstring(text)
    except DefusedXmlException as exc:
        raise Unreadable(f"refused ({type(exc).__name__})") from None
    except ElementTree.ParseError as exc:
        line, column = exc.position if getattr(exc, "position", None) else (len(lines), 1)
        raise Unreadable(f"XML breaks at line {line} (truncated?)", line, column + 1) from None
    if root.tag != "nvidia_smi_log":
        raise Unreadable(f"XML of another shape: <{root.tag}> at the top, not <nvidia_smi_log>")
    tags = _tag_lines(lines)
    node = evidence.node(host)

    def at(path: str, after: int = 0) -> int:
        """The line of a tag path (a/b/c) after line `after`: each part found after its parent's line."""
        for tag in path.split("/"):
            after = next((n for n in tags.get(tag, ()) if n > after), after)
        return after or 1

    def fact(value, line):
        return Fact(value, file, line, lines[line - 1] if line <= len(lines) else "")

    driver = (root.findtext("driver_version") or "").strip()
    if driver:
        node.set("driver", fact(driver, at("driver_version")))
    gpus = root.findall("gpu")
    attached = (root.findtext("attached_gpus") or "").strip()
    line = at("attached_gpus")
    count = integer(attached, line, "attached_gpus", 4096) if attached else len(gpus)
    node.set("gpu_count", fact(count, line))
    starts = tags.get("gpu", [])
    for index, gpu in enumerate(gpus):
        start = starts[index] if index < len(starts) else 1
        ident = gpu.get("id", "")
        item = gpu_entry(node, fact(ident, start))

        def read(key, tag, convert=None):
            value = (gpu.findtext(tag) or "").strip()
            if not value or value == "N/A":
                return None
            line = at(tag, start)
            value = convert(value, line) if convert else value
            item.setdefault(key, fact(value, line))
            return value

        read("model", "product_name")
        total = gpu.findtext("fb_memory_usage/total")
        if bytes_mib(total) is not None:
            item.setdefault("memory", fact(bytes_mib(total), at("fb_memory_usage/total", start)))
        width = lambda v, n: integer(v.rstrip("x"), n, "link width", 64)  # noqa: E731
        gen = lambda v, n: integer(v, n, "PCIe generation", 16)  # noqa: E731
        read("pcie_gen", "pci/pci_gpu_link_info/pcie_gen/current_link_gen", gen)
        read("pcie_gen_max", "pci/pci_gpu_link_info/pcie_gen/max_link_gen", gen)
        read("pcie_width", "pci/pci_gpu_link_info/link_widths/current_link_width", width)
        read("pcie_width_max", "pci/pci_gpu_link_info/link_widths/max_link_width", width)
        read("replays", "pci/replay_counter", lambda v, n: integer(v, n, "replay counter"))
        read("ecc_mode", "ecc_mode/current_ecc")
        watts = lambda v, n: number(v.removesuffix(" W"), n, "power limit", 0, 5000)  # noqa: E731
        read("power_limit", "gpu_power_readings/current_power_limit", watts) or read("power_limit", "power_readings/power_limit", watts)
        read("max_power_limit", "gpu_power_readings/max_power_limit", watts) or read("max_power_limit", "power_readings/max_power_limit", watts)
        read("temperature", "temperature/gpu_temp", lambda v, n: number(v.removesuffix(" C"), n, "temperature", -50, 200))
        for scope in ("volatile", "aggregate"):
            read(f"ecc_corrected_{scope}", f"ecc_errors/{scope}/dram_correctable", lambda v, n: integer(v, n, "ECC count"))
        for tag, label in PENDING.items():
            if (gpu.findtext(tag) or "").strip() == "Yes":
                item.setdefault("pending", fact(label, at(tag, start)))
        for tag in UNCORRECTABLE + ("double_bit/total",):
            value = (gpu.findtext(f"ecc_errors/volatile/{tag}") or "").strip()
            line = at(f"ecc_errors/volatile/{tag}", start)
            if value and value != "N/A" and integer(value, line, "ECC count") > 0:
                node.failures.append(fact(f"GPU {ident}: {value} uncorrectable ECC errors ({tag.rsplit('/', 1)[-1]})", line))
        for tag in ("remapped_rows/remapped_row_failure", "remapped_rows/remapping_failure_occurred"):
            if (gpu.findtext(tag) or "").strip() == "Yes":
                node.failures.append(fact(f"GPU {ident}: row remapping failed", at(tag, start)))
        for section in ("clocks_event_reasons", "clocks_throttle_reasons"):
            reasons = gpu.find(section)
            for child in (reasons if reasons is not None else []):
                short = child.tag.replace("clocks_event_reason_", "").replace("clocks_throttle_reason_", "")
                if short in THROTTLES and (child.text or "").strip() == "Active":
                    node.failures.append(fact(f"GPU {ident}: clocks slowed by {THROTTLES[short]}", at(f"{section}/{child.tag}", start)))


READER = Reader("nvidia-smi-xml", lambda head, text: "<nvidia_smi_log" in head, parse,
                ("accelerator count, model and memory", "driver", "PCIe link", "ECC", "row remaps", "power limit", "temperature", "throttle reasons"))
