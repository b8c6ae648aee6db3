"""`findmnt -J`: the mounts (target, fstype, size when -o SIZE was given), children nested."""

from __future__ import annotations

from clusterlint.acceptance.base import Fact, Reader, Unreadable, json_keys, json_lines, lines_of, listing, load_json, mapping, number, size, take_line

MAX_DEPTH = 64
MAX_SIZE = 1e21  # bytes: a zettabyte, far beyond any filesystem a node mounts


def parse(evidence, host: str, file: str, text: str) -> None:
    data, offset = load_json(text)
    lines = lines_of(text)
    targets = json_lines(lines, "target")  # one pass: 40,000 mounts stay linear
    node = evidence.node(host)
    pending = [(entry, 0) for entry in reversed(listing(data.get("filesystems"), offset + 1, "filesystems"))]
    while pending:  # depth first, in document order, without recursion
        entry, depth = pending.pop()
        entry = mapping(entry, offset + 1, "a findmnt entry")
        target = entry.get("target")
        line = take_line(targets, target)
        if not isinstance(target, str):
            raise Unreadable(f"a findmnt entry's target is a {type(target).__name__}, not a path", line)
        raw = entry.get("size")
        measured = size(raw) if isinstance(raw, str) else raw
        if raw is not None and (measured is None or isinstance(measured, bool) or not isinstance(measured, (int, float))):
            raise Unreadable(f"size {str(raw)[:40]!r} of {target} is not a size", line)
        if measured is not None:  # bytes: 0 (a pseudo filesystem) up to a zettabyte, finite
            measured = number(measured, line, f"size of {target}", 0, MAX_SIZE)
        fstype = entry.get("fstype")
        node.mounts.append(Fact({"target": target, "fstype": fstype if isinstance(fstype, str) else None, "size": measured}, file, line,
                                lines[line - 1] if line <= len(lines) else ""))
        if depth >= MAX_DEPTH:
            raise Unreadable(f"mounts nested deeper than {MAX_DEPTH} levels", line)
        pending.extend((child, depth + 1) for child in reversed(listing(entry.get("children"), line, "children")))


READER = Reader("findmnt-json", lambda head, text: "filesystems" in json_keys(head), parse, ("mounts: target, type, size",))
