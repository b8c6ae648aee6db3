"""What reading a spec gives: documents with a source map (spec path -> 1-based line and column),
the problems found, and how a path is shown and located."""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from typing import NamedTuple

Path = tuple  # a spec path: keys and list indexes, e.g. ("spec", "node_pools", 0, "count")


def display(path: str) -> str:
    """A file name as the user sees it: relative to the working directory, unless it lies outside."""
    import os

    if os.sep == "/" and path and not path.startswith("//") and os.path.normpath(path) == path:
        # written plainly already (most names): what relpath would say, without its splitting and joining
        if not path.startswith("/"):
            if not path.startswith(".."):
                return path
        else:
            cwd = os.getcwd()
            if cwd == "/":
                relative = path[1:] or "."
            elif path == cwd:
                relative = "."
            elif path.startswith(cwd + "/"):
                relative = path[len(cwd) + 1 :]
            else:
                return path  # outside the working directory
            return path if relative.startswith("..") else relative
    relative = os.path.relpath(path)
    return path if relative.startswith("..") else relative


def nearest(written, path: Path) -> Path:
    """`path`, or its nearest ancestor that is a key of `written` (or () when none is)."""
    path = tuple(path)
    while path and path not in written:
        path = path[:-1]
    return path


class Problem(NamedTuple):
    """A document-level finding from loading: the rule id, a message and a 1-based position."""

    rule: str
    message: str
    line: int
    column: int
    path: Path = ()


@dataclass(eq=False)  # compared by identity, as run.Options
class Document:
    """One YAML document of a file, with where each of its nodes is written."""

    file: str
    index: int
    data: object
    positions: dict = field(default_factory=dict)  # path -> (line, col) of the value
    key_positions: dict = field(default_factory=dict)  # path -> (line, col) of the key
    lines: list = field(default_factory=list, repr=False)  # the file's lines, to place words inside a text value
    spans: dict = field(default_factory=dict, repr=False)  # prose files: path -> [(offset, line, col, page)] per source line
    figures: dict | None = field(default=None, repr=False)  # path -> evidence line, for figures an `instance:` filled (instances.py)

    @property
    def kind(self) -> str | None:
        kind = self.data.get("kind") if isinstance(self.data, dict) else None
        return kind if isinstance(kind, str) else None

    @property
    def name(self) -> str:
        meta = self.data.get("metadata") if isinstance(self.data, dict) else None
        name = meta.get("name") if isinstance(meta, dict) else None
        return str(name) if name is not None else f"{self.kind or 'document'} #{self.index + 1}"

    def locate(self, path: Path, key: bool = False, offset: int | None = None) -> tuple[int, int]:
        """Position of `path`, or of its nearest written ancestor when it is absent; with `offset`,
        of that character inside the path's text value (the words a finding is about)."""
        path = tuple(path)
        if offset is not None:
            if path in self.spans:
                start, line, col, _ = self._segment(path, offset)
                return line, col + offset - start
            found = self._align(path, offset)
            if found:
                return found
        if key and path in self.key_positions:
            return self.key_positions[path]
        if path in self.positions:
            return self.positions[path]
        path = nearest(self.positions, path)
        return self.key_positions.get(path) or self.positions.get(path, (1, 1))

    def page(self, path: Path, offset: int | None) -> int:
        """The PDF page a character of a text was read from (or its nearest ancestor's); 0 when not paged."""
        if not self.spans:
            return 0
        path = nearest(self.spans, path)
        return self._segment(path, offset or 0)[3] or 0 if path in self.spans else 0

    def _segment(self, path: Path, offset: int) -> tuple:
        segments = self.spans[path]
        return segments[max(0, bisect_right([s[0] for s in segments], offset) - 1)]

    def _align(self, path: Path, offset: int) -> tuple[int, int] | None:
        """Find character `offset` of a YAML string in the source by walking the scalar as written.

        Plain, quoted, literal and folded scalars differ from their value only in whitespace
        (folding, indentation), quotes and escapes, so the walk matches non-space characters in
        order and lets any run of whitespace in the value match any run in the source. None when
        the walk loses its way (an escape it cannot follow): the caller falls back to the start.
        """
        value = self.value(path)
        if not isinstance(value, str) or path not in self.positions or not self.lines or offset >= len(value):
            return None
        line, col = self.positions[path]
        row, i = line - 1, col - 1
        if self.lines[row][i : i + 1] in ("|", ">"):  # block scalar: the text starts on the next line
            row, i = row + 1, 0
        elif self.lines[row][i : i + 1] in ("'", '"'):
            i += 1
        for n, char in enumerate(value[: offset + 1]):
            if char.isspace():
                continue
            skipped = 0
            while True:
                if row >= len(self.lines):
                    return None
                if i >= len(self.lines[row]):
                    row, i = row + 1, 0
                    continue
                if self.lines[row][i] == char:
                    break
                if not (self.lines[row][i].isspace() or self.lines[row][i] in "'\\\"") or skipped > 200:
                    return None
                i += 1
                skipped += 1
            if n == offset:
                return row + 1, i + 1
            i += 1
        return None

    def value(self, path: Path):
        """The data at a spec path, or None when it is absent."""
        value = self.data
        for part in path:
            try:
                value = value[part]
            except (KeyError, IndexError, TypeError):
                return None
        return value


@dataclass(eq=False)
class LoadedFile:
    """A file's text, its documents and the problems found while loading it."""

    file: str
    lines: list[str]
    documents: list[Document]
    problems: list[Problem]
    pages: list | None = None  # a PDF's lines, page by page (finding lines count from each page's top)
