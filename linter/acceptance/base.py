"""What every evidence reader shares: the measured facts with their file and line, the nodes they
describe, the record each reader registers (detect, parse, facts), and bounded number reading.

A number in evidence is read only when it is finite, written in ASCII digits of a sane length and
within the range the reader gives; anything else makes the file unreadable at that line, so that a
NaN, an Infinity or a string can never make a comparison pass."""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from typing import Callable

MIB = 1024 ** 2
KIB = 1024
MAX_DIGITS = 30  # longer numbers are not a count or a size a tool prints


@dataclass(frozen=True)
class Fact:
    """One measured value and where it was read."""

    value: object
    file: str
    line: int
    text: str = ""
    column: int = 0  # where a reader stopped in the line (unreadable evidence)

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}:{self.column}" if self.column else f"{self.file}:{self.line}"

    def cite(self) -> str:
        return f"{self.where}: {self.text.strip()}" if self.text.strip() else self.where


SINGLE = ("gpu_count", "driver", "cores", "memory", "kernel_module")  # one value per node: two files that differ contradict


@dataclass
class Node:
    host: str
    files: list = field(default_factory=list)  # (file, kind)
    gpus: dict = field(default_factory=dict)  # bus id -> dict of Facts: id, model, memory, pcie_gen, pcie_width, health figures
    gpu_count: Fact | None = None
    driver: Fact | None = None
    cores: Fact | None = None  # physical cores
    memory: Fact | None = None  # bytes of host RAM
    kernel_module: Fact | None = None  # "open" or "proprietary" NVIDIA kernel module
    nics: list = field(default_factory=list)  # Fact(value={name, state, rate_gbps, link_layer})
    mounts: list = field(default_factory=list)  # Fact(value={target, fstype, size})
    failures: list = field(default_factory=list)  # Fact(value=short description) of failed health checks
    fio: list = field(default_factory=list)  # Fact(value={rw, bytes_per_s})
    conflicts: list = field(default_factory=list)  # (what, Fact, Fact): two files that disagree
    firmware: list = field(default_factory=list)  # Fact(value={device, version}) of each network adapter
    software: dict = field(default_factory=dict)  # component (container-toolkit, slurm-healthcheck, ...) -> Fact
    bridges: list = field(default_factory=list)  # Fact(value={device, acs_enabled: [bits]}) from lspci -vvv

    def set(self, key: str, fact: Fact) -> None:
        """Record a single-valued figure; a different value from another file is a conflict, the first read stays."""
        old = getattr(self, key)
        if old is None:
            setattr(self, key, fact)
        elif old.value != fact.value and old.file != fact.file:
            self.conflicts.append((key, old, fact))


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
    folders: list = field(default_factory=list)  # node folders found (host names), read or not
    read: set = field(default_factory=set)  # real paths of the files opened: no output may overwrite them

    def node(self, host: str) -> Node:
        return self.nodes.setdefault(host, Node(host))

    def merge(self, other: "Evidence") -> None:
        """Add what one file gave (read into `other` first, so that a file that fails half-way adds nothing)."""
        self.collectives += other.collectives
        for host, new in other.nodes.items():
            node = self.node(host)
            for key in SINGLE:
                if getattr(new, key) is not None:
                    node.set(key, getattr(new, key))
            for bus, gpu in new.gpus.items():
                mine = node.gpus.setdefault(bus, {})
                for key, fact in gpu.items():
                    mine.setdefault(key, fact)
            for key in ("nics", "mounts", "failures", "fio", "firmware", "bridges"):
                getattr(node, key).extend(getattr(new, key))
            for key, fact in new.software.items():
                node.software.setdefault(key, fact)


class Unreadable(Exception):
    """The file is of a known kind but cannot be read; the message says why, `line` (and `column`) where."""

    def __init__(self, message: str, line: int = 1, column: int = 1):
        super().__init__(message)
        self.line, self.column = line, column


@dataclass(frozen=True)
class Reader:
    """One evidence reader: `detect(head, text)` says whether a file is its kind (from content only),
    `parse(evidence, host, file, text)` adds what it reads, `facts` names what it can show."""

    kind: str
    detect: Callable
    parse: Callable
    facts: tuple
    host_inside: Callable | None = None  # text -> host named inside the file, for files outside a node folder
    spans_nodes: bool = False  # a multi-node run (nccl-tests): it belongs to no node


def lines_of(text: str) -> list[str]:
    return text.splitlines()


def line_of(lines: list[str], pattern: re.Pattern, start: int = 0) -> int:
    for i in range(start, len(lines)):
        if pattern.search(lines[i]):
            return i + 1
    return 0


_INT = re.compile(r"[0-9]{1,%d}" % MAX_DIGITS, re.ASCII)
_FLOAT = re.compile(r"-?[0-9]{1,%d}(?:\.[0-9]{1,%d})?(?:[eE][-+]?[0-9]{1,3})?" % (MAX_DIGITS, MAX_DIGITS), re.ASCII)


def is_int(text: str) -> bool:
    """ASCII digits of a sane length (str.isdigit also accepts superscripts, which int() refuses)."""
    return bool(_INT.fullmatch(text.strip()))


def integer(text: str, line: int, what: str, high: float = 1e15, column: int = 1) -> int:
    """A count or size written in ASCII digits, 0 to `high`; else the file is unreadable at `line`."""
    text = text.strip()
    if not _INT.fullmatch(text) or int(text) > high:
        raise Unreadable(f"{what} {_short(text)!r} is not a whole number from 0 to {high:g}", line, column)
    return int(text)


def number(value, line: int, what: str, low: float = 0, high: float = 1e15, column: int = 1) -> float:
    """A finite number from `low` to `high` (JSON number or decimal text); else unreadable at `line`."""
    read = float(value) if isinstance(value, str) and _FLOAT.fullmatch(value.strip()) else value
    if isinstance(read, bool) or not isinstance(read, (int, float)) or not math.isfinite(read) or not low <= read <= high:
        shown = value if isinstance(value, str) else repr(value)
        raise Unreadable(f"{what} {_short(shown)!r} is not a number from {low:g} to {high:g}", line, column)
    return float(read)


def _short(text) -> str:
    text = str(text)
    return text if len(text) <= 40 else text[:37] + "..."


def _reject_constant(name: str):
    raise ValueError(f"{name} is not a number evidence can hold")


def _bounded_int(text: str):
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ValueError(f"a {len(text)}-digit number")
    return int(text)


def _finite_float(text: str):
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text} is out of range")
    return value


def json_start(text: str):
    """JSON that may follow warning lines (dcgmi -j): the line index and text from the first line opening { or [."""
    lines = lines_of(text)
    for i, line in enumerate(lines):
        if line.lstrip().startswith(("{", "[")):
            return i, "\n".join(lines[i:])
    return None, None


def load_json(text: str, shape: type = dict):
    """The JSON of a file (after any warning lines before it) and how many lines precede it. NaN,
    Infinity, numbers out of float range or longer than MAX_DIGITS, and another top-level shape
    than `shape` make it unreadable, with the line."""
    offset, body = json_start(text)
    if body is None:
        raise Unreadable("no JSON object or array")
    try:
        data = json.loads(body, parse_constant=_reject_constant, parse_int=_bounded_int, parse_float=_finite_float)
    except json.JSONDecodeError as exc:
        raise Unreadable(f"JSON breaks at line {offset + exc.lineno} (truncated?)", offset + exc.lineno, exc.colno) from None
    except (ValueError, RecursionError) as exc:
        raise Unreadable(f"JSON holds a value evidence cannot hold ({_short(exc)})", offset + 1) from None
    if not isinstance(data, shape):
        expected = "an object" if shape is dict else "a list" if shape is list else "an object or a list"
        raise Unreadable(f"JSON of another shape: a {type(data).__name__} at the top, not {expected}", offset + 1)
    return data, offset


def json_lines(lines: list[str], key: str) -> dict:
    """Line numbers of `"key": value` in document order, by the value's JSON text, in one pass: a
    lookup per item stays linear however many items a file holds."""
    pattern = re.compile(rf'"{re.escape(key)}"\s*:\s*("(?:[^"\\]|\\.)*"|[^,}}\s]+)')
    found: dict = {}
    for number_, line in enumerate(lines, 1):
        for match in pattern.finditer(line):
            found.setdefault(match.group(1), []).append(number_)
    return found


def take_line(found: dict, value) -> int:
    """The next line `json_lines` found for `value` (1 when none)."""
    queue = found.get(json.dumps(value))
    return queue.pop(0) if queue else 1


def mapping(item, line: int, what: str) -> dict:
    if not isinstance(item, dict):
        raise Unreadable(f"{what} is a {type(item).__name__}, not an object", line)
    return item


def listing(item, line: int, what: str) -> list:
    if item is None:
        return []
    if not isinstance(item, list):
        raise Unreadable(f"{what} is a {type(item).__name__}, not a list", line)
    return item


_SIZE = re.compile(r"^([0-9]{1,15}(?:[.,][0-9]{1,6})?)([KMGTPE]?)i?B?$", re.ASCII)


def size(text: str | None) -> float | None:
    """df -h / findmnt sizes: powers of 1024 (K, M, G, T, P, E); a decimal comma as some locales write it."""
    match = _SIZE.match((text or "").strip())
    if not match:
        return None
    return float(match.group(1).replace(",", ".")) * 1024 ** "_KMGTPE".index(match.group(2) or "_")


def bytes_mib(text: str) -> float | None:
    match = re.match(r"\s*([0-9]{1,12}(?:\.[0-9]{1,6})?)\s*MiB", text or "", re.ASCII)
    return float(match.group(1)) * MIB if match else None


def json_keys(head: str) -> list[str]:
    """The object keys in the first 4,000 characters of a JSON file (after any warning lines): how a JSON kind is told."""
    offset, body = json_start(head)
    return re.findall(r'"([^"\n]{1,60})"\s*:', body[:4000]) if body is not None else []
