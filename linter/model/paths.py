"""The path syntax of user rules: `spec.node_pools[*].cpu.vcpus`.

A path is a key, then any number of `.key`, `[N]` (a list index) or `[*]` (every item of a
list). Keys are letters, digits, `_` and `-`, starting with a letter or `_`. Nothing else is
accepted, and a path is only ever walked through data, never evaluated.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_TOKEN = re.compile(r"(?P<key>[A-Za-z_][\w-]*)|\[(?P<index>[0-9]+)\]|\[(?P<star>\*)\]")
ANY = "*"
MISSING = object()


class PathError(ValueError):
    """The text is not a path; `column` (1-based) is where reading it failed."""

    def __init__(self, message: str, column: int):
        super().__init__(message)
        self.column = column


@dataclass(frozen=True)
class DocPath:
    text: str
    parts: tuple  # keys (str), indexes (int) and ANY

    @property
    def wildcards(self) -> int:
        return sum(1 for p in self.parts if p is ANY)

    def __str__(self) -> str:
        return self.text


def parse(text: str) -> DocPath:
    if not isinstance(text, str) or not text:
        raise PathError("expected a path such as spec.node_pools[*].cpu", 1)
    parts: list = []
    pos = 0
    while pos < len(text):
        if parts and text[pos] == ".":
            pos += 1
            match = _TOKEN.match(text, pos)
            if not match or not match.group("key"):
                raise PathError(f"expected a key after '.' at column {pos + 1} of {text!r}", pos + 1)
        else:
            match = _TOKEN.match(text, pos)
            if not match or (not parts and not match.group("key")):
                raise PathError(f"unexpected {text[pos]!r} at column {pos + 1} of {text!r}; "
                                "a path is keys joined by '.', with [N] or [*] after a list", pos + 1)
        if match.group("key"):
            parts.append(match.group("key"))
        elif match.group("index"):
            parts.append(int(match.group("index")))
        else:
            parts.append(ANY)
        pos = match.end()
    return DocPath(text, tuple(parts))


def render(parts, bindings: tuple = ()) -> str:
    """Path text from parts, the first wildcards replaced by `bindings`: spec.node_pools[1].cpu."""
    out, bound = "", list(bindings)
    for part in parts:
        if part is ANY:
            out += f"[{bound.pop(0)}]" if bound else "[*]"
        elif isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else part
    return out


def _child(value, part):
    if isinstance(part, str):
        if isinstance(value, dict):
            return value.get(part, MISSING)
        found = getattr(value, part, MISSING) if hasattr(type(value), "model_fields") else MISSING
        return MISSING if found is None else found
    if isinstance(value, (list, tuple)) and part < len(value):
        return value[part]
    return MISSING


def walk(data, path: DocPath, bindings: tuple = ()):
    """Yield (concrete path, value, bindings) for every place the path reaches in `data` (a dict or
    a model); value is MISSING where the path stops early, at the first part that is absent.

    `bindings` fixes the first wildcards to those indexes, so related paths pair item by item.
    """

    def go(value, i, concrete, bound):
        if i == len(path.parts):
            yield concrete, value, bound
            return
        part = path.parts[i]
        if part is ANY:
            if not isinstance(value, (list, tuple)):
                yield concrete, MISSING, bound
                return
            fixed = len(bound) < len(bindings)
            for index in [bindings[len(bound)]] if fixed else range(len(value)):
                child = _child(value, index)
                if child is MISSING:
                    yield concrete + (index,), MISSING, bound + (index,)
                else:
                    yield from go(child, i + 1, concrete + (index,), bound + (index,))
            return
        child = _child(value, part)
        if child is MISSING:
            yield concrete + (part,), MISSING, bound
            return
        yield from go(child, i + 1, concrete + (part,), bound)

    yield from go(data, 0, (), ())
