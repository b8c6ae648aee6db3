"""`rocm-smi --showproductname --showmeminfo vram --json`: one object per card."""

from __future__ import annotations

import re

from clusterlint.acceptance.base import Fact, Reader, integer, json_keys, lines_of, load_json, mapping
from clusterlint.acceptance.readers.nvidia_q import gpu_entry

_CARD = re.compile(r"card\d+")
_KEY = re.compile(r'"(card\d+)"\s*:')


def parse(evidence, host: str, file: str, text: str) -> None:
    data, offset = load_json(text)
    lines = lines_of(text)
    starts = {m.group(1): n for n, l in reversed(list(enumerate(lines, 1))) for m in [_KEY.search(l)] if m}  # one pass
    node = evidence.node(host)
    cards = sorted(k for k in data if _CARD.fullmatch(k))
    for card in cards:
        line = starts.get(card, offset + 1)
        info = mapping(data[card], line, card)
        item = gpu_entry(node, Fact(card, file, line, lines[line - 1]))
        name = info.get("Card Series") or info.get("Card series") or info.get("Device Name")
        if isinstance(name, str) and name:
            item.setdefault("model", Fact(name, file, line, lines[line - 1]))
        total = info.get("VRAM Total Memory (B)")
        if total is not None:
            item.setdefault("memory", Fact(float(integer(str(total), line, "VRAM Total Memory (B)")), file, line, lines[line - 1]))
    node.set("gpu_count", Fact(len(cards), file, offset + 1, lines[offset]))


READER = Reader("rocm-smi-json", lambda head, text: any(_CARD.fullmatch(k) for k in json_keys(head)), parse, ("accelerator count, model and memory",))
