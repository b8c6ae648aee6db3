"""Evidence from delivered nodes: recognise each file's kind from its content and read the figures
the DLV rules compare with the quote. Nothing found in a file is ever executed; XML goes through
defusedxml. Every figure keeps the file and line it came from."""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field

MIB = 1024 ** 2
KIB = 1024
MAX_BYTES = 20 * MIB  # larger files are not evidence a collector writes


@dataclass(frozen=True)
class Fact:
    """One measured value and where it was read."""

    value: object
    file: str
    line: int
    text: str = ""

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"

    def cite(self) -> str:
        return f"{self.where}: {self.text.strip()}" if self.text.strip() else self.where


@dataclass
class Node:
    host: str
    files: list = field(default_factory=list)  # (file, kind)
    gpus: dict = field(default_factory=dict)  # bus id -> dict of Facts: id, model, memory, pcie_gen, pcie_width
    gpu_count: Fact | None = None
    driver: Fact | None = None
    cores: Fact | None = None  # physical cores
    memory: Fact | None = None  # bytes of host RAM
    nics: list = field(default_factory=list)  # Fact(value={name, state, rate_gbps, link_layer})
    mounts: list = field(default_factory=list)  # Fact(value={target, fstype, size})
    failures: list = field(default_factory=list)  # Fact(value=short description) of failed health checks
    fio: list = field(default_factory=list)  # Fact(value={rw, bytes_per_s})


@dataclass
class Collective:
    """One nccl-tests run: its busbw at the largest sizes."""

    test: str
    rows: list  # Fact(value=(size_bytes, busbw_GBps))
    hosts: tuple


@dataclass
class Evidence:
    nodes: dict = field(default_factory=dict)  # host -> Node
    collectives: list = field(default_factory=list)
    unreadable: list = field(default_factory=list)  # Fact(value=reason)

    def node(self, host: str) -> Node:
        return self.nodes.setdefault(host, Node(host))


class Unreadable(Exception):
    """The file is of a known kind but cannot be read; the message says why, `line` where."""

    def __init__(self, message: str, line: int = 1):
        super().__init__(message)
        self.line = line


def _lines(text: str) -> list[str]:
    return text.splitlines()


def _line_of(lines: list[str], pattern: re.Pattern, start: int = 0) -> int:
    for i in range(start, len(lines)):
        if pattern.search(lines[i]):
            return i + 1
    return 0


# ---------------------------------------------------------------- recognising a file


def _json_start(text: str):
    """JSON that may follow warning lines (dcgmi -j): the text from the first line opening { or [."""
    for i, line in enumerate(_lines(text)):
        if line.lstrip().startswith(("{", "[")):
            return i, "\n".join(_lines(text)[i:])
    return None, None


def _json(text: str):
    """The JSON of a file (after any warning lines before it) and how many lines precede it."""
    offset, body = _json_start(text)
    if body is None:
        raise Unreadable("no JSON object or array")
    try:
        return json.loads(body), offset
    except json.JSONDecodeError as exc:
        raise Unreadable(f"JSON breaks at line {offset + exc.lineno} (truncated?)", offset + exc.lineno) from None


def kind_of(text: str) -> str | None:
    head = text[:4000]
    if "<nvidia_smi_log" in head:
        return "nvidia-smi-xml"
    if "NVSMI LOG" in head or re.search(r"^Attached GPUs\s*:", head, re.M):
        return "nvidia-smi-q"
    if re.search(r"^\s*GPU0\s", head, re.M) and "Legend:" in text:
        return "nvidia-smi-topo"
    if re.search(r"out-of-place", head) and "busbw" in head:
        return "nccl-tests"
    offset, body = _json_start(text)
    if body is not None and offset is not None:
        keys = re.findall(r'"([^"\n]{1,60})"\s*:', body[:4000])
        if "lscpu" in keys:
            return "lscpu-json"
        if "filesystems" in keys:
            return "findmnt-json"
        if "fio version" in keys or ("jobs" in keys and "jobname" in keys):
            return "fio-json"
        if any(k.startswith("DCGM") or k == "category" and "tests" in keys for k in keys) or "DCGM GPU Diagnostic" in body[:4000]:
            return "dcgmi-json"
        if any(re.fullmatch(r"card\d+", k) for k in keys):
            return "rocm-smi-json"
    if re.search(r"^CA '[^']+'", head, re.M):
        return "ibstat"
    if re.search(r"^Infiniband device '", head, re.M):
        return "ibstatus"
    if re.search(r"^hca_id:", head, re.M):
        return "ibv_devinfo"
    if re.search(r"^Architecture:", head, re.M) and re.search(r"^CPU\(s\):", head, re.M):
        return "lscpu"
    if re.search(r"^MemTotal:\s+\d+ kB", head, re.M):
        return "meminfo"
    if re.search(r"^\s+total\s+used\s+free", head) and re.search(r"^Mem:", head, re.M):
        return "free"
    if re.match(r"Filesystem\s+.*Mounted on", head):
        return "df"
    if re.search(r"Diagnostic\s*\|\s*Result", head) or re.search(r"^\|\s*Deployment\s*\|", head, re.M):
        return "dcgmi-diag"
    if re.search(r"^\[\s*\d+\.\d+\]", head, re.M) or re.search(r"^\w{3} [ \d]\d \d\d:\d\d:\d\d \S+ kernel: ", head, re.M) \
            or head.startswith(("-- Logs begin", "-- Journal begins", "-- No entries --")):
        return "kernel-log"
    return None


HOST_IN = {"kernel-log": re.compile(r"^\w{3} [ \d]\d \d\d:\d\d:\d\d (\S+) kernel: ", re.M)}  # journalctl -k names its host


def host_inside(kind: str, text: str) -> str | None:
    match = HOST_IN[kind].search(text) if kind in HOST_IN else None
    return match.group(1) if match else None


# ---------------------------------------------------------------- loading


def load(paths) -> Evidence:
    """Read every evidence file under `paths`: a folder of node folders (each named by its host),
    one node's folder, or single files whose host is named inside them."""
    from clusterlint.readers.loader import display

    evidence = Evidence()
    for path in paths:
        if os.path.isdir(path):
            entries = sorted(os.listdir(path))
            subdirs = [e for e in entries if os.path.isdir(os.path.join(path, e)) and not e.startswith(".")]
            if subdirs:
                for sub in subdirs:
                    folder = os.path.join(path, sub)
                    for name in sorted(os.listdir(folder)):
                        if os.path.isfile(os.path.join(folder, name)) and not name.startswith("."):
                            _read(evidence, display(os.path.join(folder, name)), sub)
                for name in entries:
                    if os.path.isfile(os.path.join(path, name)) and not name.startswith("."):
                        _read(evidence, display(os.path.join(path, name)), None)
            else:
                host = os.path.basename(os.path.normpath(os.path.abspath(path)))
                for name in entries:
                    if not name.startswith("."):
                        _read(evidence, display(os.path.join(path, name)), host)
        elif os.path.exists(path):
            _read(evidence, display(path), None)
        else:
            from clusterlint.check import UsageError

            raise UsageError(f"{path}: no such file or folder (given with --evidence)")
    return evidence


def _read(evidence: Evidence, file: str, host: str | None) -> None:
    try:
        if os.path.getsize(file) > MAX_BYTES:
            evidence.unreadable.append(Fact(f"larger than {MAX_BYTES // MIB} MiB: not read", file, 1))
            return
        with open(file, "rb") as handle:
            raw = handle.read()
    except OSError as exc:
        evidence.unreadable.append(Fact(f"cannot read ({exc.strerror})", file, 1))
        return
    text = raw.decode("utf-8", errors="replace")
    if not text.strip():
        evidence.unreadable.append(Fact("empty file (the command printed nothing)", file, 1))
        return
    kind = kind_of(text)
    if kind is None:
        evidence.unreadable.append(Fact("not a recognised command output (see clusterlint collect for what is read)", file, 1))
        return
    if host is None and kind != "nccl-tests":  # a collective run spans nodes: it belongs to none of them
        host = host_inside(kind, text)
    if host is None and kind != "nccl-tests":
        evidence.unreadable.append(Fact(f"{kind} output names no host: put it in a folder named after its node", file, 1))
        return
    try:
        PARSERS[kind](evidence, host, file, text)
    except Unreadable as exc:
        evidence.unreadable.append(Fact(f"{kind} output cannot be read: {exc}", file, exc.line))
        return
    if host is not None:
        evidence.node(host).files.append((file, kind))


# ---------------------------------------------------------------- nvidia-smi


THROTTLES = {  # reasons that mean the GPU is slowed by a fault, not by being idle or capped by the user
    "hw_slowdown": "HW Slowdown", "hw_thermal_slowdown": "HW Thermal Slowdown", "hw_power_brake_slowdown": "HW Power Brake Slowdown",
    "sw_thermal_slowdown": "SW Thermal Slowdown",
}


def _gpu(node: Node, ident: Fact) -> dict:
    """The facts of one GPU by its bus id: several files about the same GPU add to one entry, the first file read wins."""
    return node.gpus.setdefault(str(ident.value).lower(), {"id": ident})


def _bytes_mib(text: str) -> float | None:
    match = re.match(r"\s*(\d+(?:\.\d+)?)\s*MiB", text or "")
    return float(match.group(1)) * MIB if match else None


def _nvidia_xml(evidence: Evidence, host: str, file: str, text: str) -> None:
    from defusedxml import ElementTree
    from defusedxml.common import DefusedXmlException

    lines = _lines(text)
    try:
        root = ElementTree.fromstring(text)
    except DefusedXmlException as exc:
        raise Unreadable(f"refused ({type(exc).__name__})") from None
    except ElementTree.ParseError as exc:
        line = exc.position[0] if getattr(exc, "position", None) else len(lines)
        raise Unreadable(f"XML breaks at line {line} (truncated?)", line) from None
    node = evidence.node(host)

    def at(tag, value, start=0):
        pattern = re.compile(rf"<{tag}>\s*{re.escape(str(value))}\s*</{tag}>" if value is not None else rf"<{tag}>")
        line = _line_of(lines, pattern, start) or 1
        return line

    driver = root.findtext("driver_version")
    if driver:
        line = at("driver_version", driver)
        node.driver = Fact(driver.strip(), file, line, lines[line - 1])
    gpus = root.findall("gpu")
    attached = root.findtext("attached_gpus")
    count = int(attached) if attached and attached.strip().isdigit() else len(gpus)
    line = at("attached_gpus", attached) if attached else 1
    node.gpu_count = Fact(count, file, line, lines[line - 1])
    start = 0
    for gpu in gpus:
        gpu_line = _line_of(lines, re.compile(rf'<gpu id="{re.escape(gpu.get("id", ""))}"'), start) or 1
        start = gpu_line
        name = (gpu.findtext("product_name") or "").strip()
        item = _gpu(node, Fact(gpu.get("id", ""), file, gpu_line, lines[gpu_line - 1]))
        if name:
            line = at("product_name", name, start)
            item.setdefault("model", Fact(name, file, line, lines[line - 1]))
        total = gpu.findtext("fb_memory_usage/total")
        if _bytes_mib(total) is not None:
            line = at("total", total.strip(), start)
            item.setdefault("memory", Fact(_bytes_mib(total), file, line, lines[line - 1]))
        for key, tag in (("pcie_gen", "pci/pci_gpu_link_info/pcie_gen/current_link_gen"), ("pcie_width", "pci/pci_gpu_link_info/link_widths/current_link_width")):
            value = (gpu.findtext(tag) or "").strip().rstrip("x")
            if value.isdigit():
                line = at(tag.rsplit("/", 1)[1], gpu.findtext(tag).strip(), start)
                item.setdefault(key, Fact(int(value), file, line, lines[line - 1]))
        for tag in ("ecc_errors/volatile/dram_uncorrectable", "ecc_errors/volatile/sram_uncorrectable",
                    "ecc_errors/volatile/sram_uncorrectable_secded", "ecc_errors/volatile/sram_uncorrectable_parity",
                    "ecc_errors/volatile/total/uncorrectable", "ecc_errors/volatile/double_bit/total"):
            value = (gpu.findtext(tag) or "").strip()
            if value.isdigit() and int(value) > 0:
                line = at(tag.rsplit("/", 1)[1], value, start)
                node.failures.append(Fact(f"GPU {gpu.get('id')}: {value} uncorrectable ECC errors ({tag.rsplit('/', 1)[1]})", file, line, lines[line - 1]))
        for tag in ("remapped_rows/remapped_row_failure", "remapped_rows/remapping_failure_occurred"):
            value = (gpu.findtext(tag) or "").strip()
            if value == "Yes":
                line = at(tag.rsplit("/", 1)[1], value, start)
                node.failures.append(Fact(f"GPU {gpu.get('id')}: row remapping failed", file, line, lines[line - 1]))
        for section in ("clocks_event_reasons", "clocks_throttle_reasons"):
            reasons = gpu.find(section)
            for child in (reasons if reasons is not None else []):
                short = child.tag.replace("clocks_event_reason_", "").replace("clocks_throttle_reason_", "")
                if short in THROTTLES and (child.text or "").strip() == "Active":
                    line = at(child.tag, "Active", start)
                    node.failures.append(Fact(f"GPU {gpu.get('id')}: clocks slowed by {THROTTLES[short]}", file, line, lines[line - 1]))


def _nvidia_q(evidence: Evidence, host: str, file: str, text: str) -> None:
    """Plain `nvidia-smi -q`: an indented outline of `Name : value` rows, one block per GPU."""
    lines = _lines(text)
    node = evidence.node(host)
    gpu = None
    stack: list[tuple[int, str]] = []  # (indent, section) of the headings above the current row
    for number, line in enumerate(lines, 1):
        if re.match(r"^GPU [0-9A-Fa-f:.]+\s*$", line):
            gpu = _gpu(node, Fact(line.split()[1], file, number, line))
            stack = []
            continue
        if not line.strip():
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
        fact = lambda v: Fact(v, file, number, line)  # noqa: E731
        if gpu is None:
            if name == "Driver Version":
                node.driver = fact(value)
            elif name == "Attached GPUs" and value.isdigit():
                node.gpu_count = fact(int(value))
            continue
        section = sections[-1] if sections else ""
        if name == "Product Name":
            gpu.setdefault("model", fact(value))
        elif name == "Total" and section == "FB Memory Usage" and _bytes_mib(value) is not None:
            gpu.setdefault("memory", fact(_bytes_mib(value)))
        elif name in ("Current", "Device Current") and section == "PCIe Generation" and value.isdigit() and "pcie_gen" not in gpu:
            gpu.setdefault("pcie_gen", fact(int(value)))
        elif name == "Current" and section == "Link Width" and value.rstrip("x").isdigit():
            gpu.setdefault("pcie_width", fact(int(value.rstrip("x"))))
        elif "Volatile" in sections and ("Uncorrectable" in name or name == "Double Bit ECC" or section == "Double Bit") and value.isdigit() and int(value) > 0:
            node.failures.append(fact(f"GPU {gpu['id'].value}: {value} uncorrectable ECC errors ({name})"))
        elif name in ("Remapping Failure Occurred", "Remapping Failure") and value == "Yes":
            node.failures.append(fact(f"GPU {gpu['id'].value}: row remapping failed"))
        elif section in ("Clocks Event Reasons", "Clocks Throttle Reasons", "HW Slowdown") and value == "Active" \
                and name.lower().replace(" ", "_") in THROTTLES:
            node.failures.append(fact(f"GPU {gpu['id'].value}: clocks slowed by {name}"))
    if node.gpu_count is None and not node.gpus:
        raise Unreadable("no 'Attached GPUs' row and no GPU block")
    if node.gpu_count is None:
        first = next(iter(node.gpus.values()))["id"]
        node.gpu_count = Fact(len(node.gpus), file, first.line, first.text)


def _topo(evidence: Evidence, host: str, file: str, text: str) -> None:
    """`nvidia-smi topo -m`: the GPUs on its rows (a count that must agree with nvidia-smi -q)."""
    lines = _lines(text)
    rows = [(n, line) for n, line in enumerate(lines, 1) if re.match(r"^GPU\d+\s", line)]
    if not rows:
        raise Unreadable("no GPU rows under the header")
    node = evidence.node(host)
    if node.gpu_count is None:
        node.gpu_count = Fact(len(rows), file, rows[-1][0], rows[-1][1])


# ---------------------------------------------------------------- CPU and memory


def _lscpu_pairs_json(data) -> list[tuple[str, str]]:
    out = []
    for entry in data:
        out.append((str(entry.get("field", "")).rstrip(":").strip(), str(entry.get("data", ""))))
        out.extend(_lscpu_pairs_json(entry.get("children") or []))
    return out


def _lscpu(evidence: Evidence, host: str, file: str, text: str, pairs=None) -> None:
    lines = _lines(text)
    if pairs is None:
        pairs = [(m.group(1).strip(), m.group(2).strip()) for m in (re.match(r"^\s*([^:]+):\s*(.*)$", l) for l in lines) if m]
    values: dict[str, str] = {}
    for key, value in pairs:
        values.setdefault(key, value)
    try:
        sockets = int(values["Socket(s)"])
        per = int(values["Core(s) per socket"] if "Core(s) per socket" in values else values["Core(s) per cluster"])
    except (KeyError, ValueError):
        raise Unreadable("no Socket(s) and Core(s) per socket rows", len(lines)) from None
    line = _line_of(lines, re.compile(r"Core\(s\) per socket")) or 1
    evidence.node(host).cores = Fact(sockets * per, file, line, f"{sockets} socket(s) x {per} core(s) per socket")


def _lscpu_json(evidence: Evidence, host: str, file: str, text: str) -> None:
    data, _ = _json(text)
    _lscpu(evidence, host, file, text, _lscpu_pairs_json(data.get("lscpu") or []))


def _meminfo(evidence: Evidence, host: str, file: str, text: str) -> None:
    lines = _lines(text)
    line = _line_of(lines, re.compile(r"^MemTotal:\s+\d+ kB"))
    value = int(re.search(r"\d+", lines[line - 1]).group()) * KIB
    evidence.node(host).memory = Fact(value, file, line, lines[line - 1])


def _free(evidence: Evidence, host: str, file: str, text: str) -> None:
    lines = _lines(text)
    line = _line_of(lines, re.compile(r"^Mem:"))
    fields = lines[line - 1].split()
    if len(fields) < 2 or not fields[1].isdigit():
        raise Unreadable("the Mem: row holds no byte count (run free -b, not free -h)", line)
    evidence.node(host).memory = Fact(int(fields[1]), file, line, lines[line - 1])


# ---------------------------------------------------------------- network adapters


def _nic(evidence, host, file, number, line, name, state, rate, layer):
    evidence.node(host).nics.append(Fact({"name": name, "state": state, "rate_gbps": rate, "link_layer": layer}, file, number, line))


def _ibstat(evidence: Evidence, host: str, file: str, text: str) -> None:
    """`ibstat`: CA 'name' blocks, each with Port N: State, Rate (Gb/s), Link layer."""
    lines = _lines(text)
    ca, port = None, None
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        match = re.match(r"^CA '([^']+)'", line)
        if match:
            ca, port = match.group(1), None
            continue
        match = re.match(r"^Port (\d+):$", stripped)
        if match and ca:
            port = {"name": f"{ca}/{match.group(1)}", "line": number, "text": line}
            continue
        if port is None:
            continue
        key, _, value = stripped.partition(":")
        port[key] = value.strip()
        if key == "Link layer":
            rate = float(port["Rate"]) if re.fullmatch(r"\d+(\.\d+)?", port.get("Rate", "")) else None
            _nic(evidence, host, file, port["line"], port["text"], port["name"], port.get("State", "?"), rate, port["Link layer"])
            port = None
    if not evidence.node(host).nics:
        raise Unreadable("no CA block with a complete port (State, Rate, Link layer)", len(lines))


def _ibstatus(evidence: Evidence, host: str, file: str, text: str) -> None:
    """`ibstatus`: Infiniband device 'name' port N status: blocks with state, rate, link_layer."""
    lines = _lines(text)
    port = None
    for number, line in enumerate(lines, 1):
        match = re.match(r"^Infiniband device '([^']+)' port (\d+) status:", line)
        if match:
            port = {"name": f"{match.group(1)}/{match.group(2)}", "line": number, "text": line}
            continue
        if port is None:
            continue
        key, _, value = line.strip().partition(":")
        port[key.strip()] = value.strip()
        if key.strip() == "link_layer":
            rate = re.match(r"(\d+(?:\.\d+)?) Gb/sec", port.get("rate", ""))
            state = re.sub(r"^\d+:\s*", "", port.get("state", "?"))
            _nic(evidence, host, file, port["line"], port["text"], port["name"], state.title(), float(rate.group(1)) if rate else None, port["link_layer"])
            port = None
    if not evidence.node(host).nics:
        raise Unreadable("no device block with state, rate and link_layer", len(lines))


def _ibv_devinfo(evidence: Evidence, host: str, file: str, text: str) -> None:
    """`ibv_devinfo` (-v for speed and width): hca_id blocks with port: N, state, link_layer."""
    lines = _lines(text)
    hca, port = None, None

    def flush():
        if port:
            speed = re.match(r"(\d+(?:\.\d+)?) Gbps", port.get("active_speed", ""))
            width = re.match(r"(\d+)X", port.get("active_width", ""))
            rate = float(speed.group(1)) * int(width.group(1)) if speed and width else None
            state = re.sub(r"^PORT_|\s*\(\d+\)$", "", port.get("state", "?")).title()
            _nic(evidence, host, file, port["line"], port["text"], port["name"], state, rate, port.get("link_layer", "?"))

    for number, line in enumerate(lines, 1):
        match = re.match(r"^hca_id:\s*(\S+)", line)
        if match:
            flush()
            hca, port = match.group(1), None
            continue
        match = re.match(r"^\s+port:\s*(\d+)", line)
        if match and hca:
            flush()
            port = {"name": f"{hca}/{match.group(1)}", "line": number, "text": line}
            continue
        if port is not None:
            key, _, value = line.strip().partition(":")
            port.setdefault(key.strip(), value.strip())
    flush()
    if not evidence.node(host).nics:
        raise Unreadable("no hca_id block with a port", len(lines))


# ---------------------------------------------------------------- filesystems


def _findmnt(evidence: Evidence, host: str, file: str, text: str) -> None:
    data, _ = _json(text)
    lines = _lines(text)

    def walk(entries):
        for entry in entries:
            target = entry.get("target")
            line = _line_of(lines, re.compile(rf'"target"\s*:\s*{re.escape(json.dumps(target))}')) or 1
            size = entry.get("size")
            size = _size(size) if isinstance(size, str) else size
            evidence.node(host).mounts.append(Fact({"target": target, "fstype": entry.get("fstype"), "size": size}, file, line, lines[line - 1]))
            walk(entry.get("children") or [])

    walk(data.get("filesystems") or [])


_DF_SIZE = re.compile(r"^(\d+(?:\.\d+)?)([KMGTPE]?)$")


def _size(text: str | None) -> float | None:
    """df -h / findmnt sizes: powers of 1024 (K, M, G, T, P, E)."""
    match = _DF_SIZE.match(text or "")
    if not match:
        return None
    return float(match.group(1)) * 1024 ** "_KMGTPE".index(match.group(2) or "_")


def _df(evidence: Evidence, host: str, file: str, text: str) -> None:
    """`df` in its usual forms: -h (human sizes), -T (a Type column), -B1 or 1K-blocks."""
    lines = _lines(text)
    header = lines[0].split()
    typed = len(header) > 1 and header[1] == "Type"
    unit = {"1B-blocks": 1, "1K-blocks": 1024, "1024-blocks": 1024}.get(header[2 if typed else 1])  # None: -h
    for number, line in enumerate(lines[1:], 2):
        fields = line.split()
        if len(fields) < (7 if typed else 6):
            continue  # a wrapped long device name, or a truncated last line
        size_text = fields[2 if typed else 1]
        size = int(size_text) * unit if unit and size_text.isdigit() else (_size(size_text) if unit is None else None)
        target = " ".join(fields[(6 if typed else 5):])
        evidence.node(host).mounts.append(Fact({"target": target, "fstype": fields[1] if typed else None, "size": size}, file, number, line))


# ---------------------------------------------------------------- benchmarks and health


_NCCL_ROW = re.compile(r"^\s*(\d+)\s+(\d+)\s+\w+\s+\w+\s+(-?\d+\s+)?(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s*$")


def _nccl(evidence: Evidence, host: str | None, file: str, text: str) -> None:
    """nccl-tests stdout: old (size count type redop time ...) and new (... redop root time ...)
    layouts; the busbw columns of each size row, out-of-place and in-place."""
    lines = _lines(text)
    test = re.search(r"Collective test starting: (\w+)", text)
    header = _line_of(lines, re.compile(r"#\s+size\s+count\s+type"))
    if not header:
        raise Unreadable("no size/count/type header row", len(lines))
    columns = lines[header - 1].lstrip("#").split()
    busbw = [i for i, c in enumerate(columns) if c == "busbw"]
    rows = []
    for number, line in enumerate(lines[header:], header + 1):
        fields = re.sub(r"\[\d+\]", " ", line).split()
        if not fields or line.lstrip().startswith("#") or not fields[0].isdigit() or len(fields) < len(columns):
            continue
        try:
            values = [float(fields[i]) for i in busbw]
        except ValueError:
            continue
        rows.append(Fact((int(fields[0]), max(values)), file, number, line))
    if not rows:
        raise Unreadable("no complete size row under the header (truncated?)", len(lines))
    hosts = tuple(dict.fromkeys(re.findall(r"^#\s+Rank\s+\d+.*? on\s+(\S+)\s+device", text, re.M)))
    evidence.collectives.append(Collective(test.group(1) if test else "nccl-tests", rows, hosts))


def _fio(evidence: Evidence, host: str, file: str, text: str) -> None:
    data, offset = _json(text)
    lines = _lines(text)
    for job in data.get("jobs") or []:
        line = _line_of(lines, re.compile(rf'"jobname"\s*:\s*{re.escape(json.dumps(job.get("jobname")))}')) or 1
        for rw in ("read", "write"):
            bw = (job.get(rw) or {}).get("bw_bytes")
            if bw is None and (job.get(rw) or {}).get("bw") is not None:
                bw = job[rw]["bw"] * KIB  # older fio: KiB/s only
            if bw:
                evidence.node(host).fio.append(Fact({"rw": rw, "bytes_per_s": float(bw), "job": job.get("jobname")}, file, line, lines[line - 1]))


_XID = re.compile(r"NVRM: Xid \(([^)]*)\): (\d+),")


def _kernel_log(evidence: Evidence, host: str, file: str, text: str) -> None:
    for number, line in enumerate(_lines(text), 1):
        match = _XID.search(line)
        if match:
            evidence.node(host).failures.append(Fact(f"Xid {match.group(2)} on {match.group(1)}", file, number, line))


def _dcgmi_text(evidence: Evidence, host: str, file: str, text: str) -> None:
    for number, line in enumerate(_lines(text), 1):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 2 and re.match(r"^(Fail|Error)", cells[1]):
            evidence.node(host).failures.append(Fact(f"DCGM diagnostic {cells[0]}: {cells[1]}", file, number, line))


def _dcgmi_json(evidence: Evidence, host: str, file: str, text: str) -> None:
    data, offset = _json(text)
    lines = _lines(text)

    def walk(item, name=""):
        if isinstance(item, dict):
            label = item.get("test_name") or item.get("name") or name
            status = item.get("status") or item.get("result")
            if isinstance(status, str) and status.lower() in ("fail", "error"):
                line = _line_of(lines, re.compile(rf'"{re.escape(str(label))}"')) or offset + 1
                evidence.node(host).failures.append(Fact(f"DCGM diagnostic {label}: {status}", file, line, lines[line - 1]))
            for value in item.values():
                walk(value, label)
        elif isinstance(item, list):
            for value in item:
                walk(value, name)

    walk(data)


def _rocm_smi(evidence: Evidence, host: str, file: str, text: str) -> None:
    data, _ = _json(text)
    lines = _lines(text)
    node = evidence.node(host)
    cards = sorted(k for k in data if re.fullmatch(r"card\d+", k))
    for card in cards:
        line = _line_of(lines, re.compile(rf'"{card}"')) or 1
        info = data[card]
        item = _gpu(node, Fact(card, file, line, lines[line - 1]))
        name = info.get("Card Series") or info.get("Card series") or info.get("Device Name")
        if name:
            item.setdefault("model", Fact(name, file, line, lines[line - 1]))
        total = info.get("VRAM Total Memory (B)")
        if total and str(total).isdigit():
            item.setdefault("memory", Fact(float(total), file, line, lines[line - 1]))
    node.gpu_count = Fact(len(cards), file, 1, lines[0])


PARSERS = {
    "nvidia-smi-xml": _nvidia_xml, "nvidia-smi-q": _nvidia_q, "nvidia-smi-topo": _topo, "lscpu": _lscpu, "lscpu-json": _lscpu_json,
    "meminfo": _meminfo, "free": _free, "ibstat": _ibstat, "ibstatus": _ibstatus, "ibv_devinfo": _ibv_devinfo,
    "findmnt-json": _findmnt, "df": _df, "nccl-tests": _nccl, "fio-json": _fio, "kernel-log": _kernel_log,
    "dcgmi-diag": _dcgmi_text, "dcgmi-json": _dcgmi_json, "rocm-smi-json": _rocm_smi,
}
