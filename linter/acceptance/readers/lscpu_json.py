"""`lscpu -J`: a flat list of field/data rows (util-linux before 2.38) or rows nested under `children`."""

from __future__ import annotations

from clusterlint.acceptance.base import Reader, json_keys, lines_of, listing, load_json, mapping
from clusterlint.acceptance.readers.lscpu import cores


def _pairs(entries, line: int, depth: int = 0) -> list[tuple[str, str]]:
    out = []
    for entry in listing(entries, line, "an lscpu row list"):
        entry = mapping(entry, line, "an lscpu row")
        out.append((str(entry.get("field", "")).rstrip(":").strip(), str(entry.get("data", ""))))
        if depth < 8:
            out.extend(_pairs(entry.get("children"), line, depth + 1))
    return out


def parse(evidence, host: str, file: str, text: str) -> None:
    data, offset = load_json(text)
    cores(evidence, host, file, lines_of(text), _pairs(data.get("lscpu"), offset + 1))


READER = Reader("lscpu-json", lambda head, text: "lscpu" in json_keys(head), parse, ("physical cores",))
