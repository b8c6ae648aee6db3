"""`dcgmi diag -j`: nested test results; a status or result of fail or error is a failed health check."""

from __future__ import annotations

import re

from clusterlint.acceptance.base import Fact, Reader, json_keys, line_of, lines_of, load_json

MAX_DEPTH = 32


def parse(evidence, host: str, file: str, text: str) -> None:
    data, offset = load_json(text, (dict, list))
    lines = lines_of(text)
    pending = [(data, "", 0)]
    while pending:
        item, name, depth = pending.pop()
        if depth > MAX_DEPTH:
            continue
        if isinstance(item, dict):
            label = item.get("test_name") or item.get("name") or name
            status = item.get("status") or item.get("result")
            if isinstance(status, str) and status.lower() in ("fail", "error"):
                line = line_of(lines, re.compile(rf'"{re.escape(str(label))}"')) or offset + 1
                evidence.node(host).failures.append(Fact(f"DCGM diagnostic {label}: {status}", file, line, lines[line - 1]))
            pending.extend((value, str(label), depth + 1) for value in reversed(list(item.values())))
        elif isinstance(item, list):
            pending.extend((value, name, depth + 1) for value in reversed(item))


def _detect(head: str, text: str) -> bool:
    keys = json_keys(head)
    return any(k.startswith("DCGM") or k == "category" and "tests" in keys for k in keys) or ("DCGM GPU Diagnostic" in head and bool(keys))


READER = Reader("dcgmi-json", _detect, parse, ("DCGM diagnostic results",))
