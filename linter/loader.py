"""YAML text -> documents with a source map (spec path -> 1-based line and column).

Only plain YAML data is accepted: mappings, sequences, strings, numbers, booleans, nulls and
dates. Any other tag (`!!python/object`, `!!binary`, custom `!tags`) is rejected. Hostile input
is bounded: file size, nesting depth and alias expansion each have a limit that produces a
SPEC001 finding instead of a hang or an exhausted memory.
"""

from __future__ import annotations

import datetime
import errno
import itertools
import re
from bisect import bisect_right
from dataclasses import dataclass, field

import yaml

Path = tuple  # a spec path: keys and list indexes, e.g. ("spec", "node_pools", 0, "count")


def display(path: str) -> str:
    """A file name as the user sees it: relative to the working directory, unless it lies outside."""
    import os

    relative = os.path.relpath(path)
    return path if relative.startswith("..") else relative


def nearest(written, path: Path) -> Path:
    """`path`, or its nearest ancestor that is a key of `written` (or () when none is)."""
    path = tuple(path)
    while path and path not in written:
        path = path[:-1]
    return path

MAX_BYTES = 4 * 2**20  # a quote is a few KB; 4 MiB leaves two orders of magnitude of room
MAX_DEPTH = 64  # the deepest spec path is 6 levels
MAX_NODES = 100_000  # per file, aliases expanded: a quote has a few hundred; a billion-laughs file stops in milliseconds



_BASE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _TooDeep(Exception):
    def __init__(self, mark):
        super().__init__(f"document is nested more than {MAX_DEPTH} levels deep")
        self.position = (mark.line + 1, mark.column + 1)


class _Loader(yaml.composer.Composer, _BASE_LOADER):
    """Plain scalars resolved as YAML 1.2's core schema does, as JSON Schema and editors read them.

    YAML 1.1 (PyYAML's default) reads `010` as 8, `1:30` as 90, `1_000` as 1000 and `0o10` as a
    string; YAML 1.2 reads 10, a string, a string and 8. Where the two disagree on a number the
    value is ambiguous across tools, so `_Converter` reports it (SPEC001 at its position) instead
    of picking one. Dates keep their YAML 1.1 resolution: date fields want them, checked.

    Nodes are composed by PyYAML's Python composer from the (C) parser's events, in the one pass
    over the text, so that a collection nested deeper than MAX_DEPTH is refused at its first event:
    the C composer recurses without a guard.
    """

    yaml_implicit_resolvers: dict = {}

    def __init__(self, stream):
        _BASE_LOADER.__init__(self, stream)
        yaml.composer.Composer.__init__(self)
        self.depth = 0

    def descend_resolver(self, current_node, current_index):
        pass  # no path resolvers are registered: nothing to track per node

    def ascend_resolver(self):
        pass

    def compose_node(self, parent, index):
        event = self.peek_event()
        if not isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            return super().compose_node(parent, index)
        if self.depth >= MAX_DEPTH:
            raise _TooDeep(event.start_mark)
        self.depth += 1
        try:
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1


for _tag, _regexp, _first in (
    ("null", r"^(?:~|null|Null|NULL|)$", "~nN"),
    ("bool", r"^(?:true|True|TRUE|false|False|FALSE)$", "tTfF"),
    ("int", r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", "-+0123456789"),
    ("float", r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$", "-+.0123456789"),
):
    _Loader.add_implicit_resolver(f"tag:yaml.org,2002:{_tag}", re.compile(_regexp), list(_first) + ([""] if _tag == "null" else []))
for _first, _resolvers in yaml.resolver.Resolver.yaml_implicit_resolvers.items():
    for _tag, _regexp in _resolvers:
        if _tag in ("tag:yaml.org,2002:timestamp", "tag:yaml.org,2002:merge"):
            _Loader.add_implicit_resolver(_tag, _regexp, [_first])
_YAML11 = yaml.resolver.Resolver()
_NUMBER_TAGS = ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float")
_SCALAR_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:timestamp",
}
_END = object()
_NUMERIC_START = tuple("0123456789+-.")  # every YAML 1.1 or 1.2 number starts with one of these
_SCALAR_INT = "tag:yaml.org,2002:int"
_SCALAR_STR = "tag:yaml.org,2002:str"
_SEQ = "tag:yaml.org,2002:seq"
_MAP = "tag:yaml.org,2002:map"
_MERGE = "tag:yaml.org,2002:merge"


@dataclass(frozen=True)
class Problem:
    """A document-level finding from loading: the rule id, a message and a 1-based position."""

    rule: str
    message: str
    line: int
    column: int
    path: Path = ()


@dataclass
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


@dataclass
class LoadedFile:
    """A file's text, its documents and the problems found while loading it."""

    file: str
    lines: list[str]
    documents: list[Document]
    problems: list[Problem]
    pages: list | None = None  # a PDF's lines, page by page (finding lines count from each page's top)


class _Converter:
    """Turns composed YAML nodes into Python data, recording positions and problems."""

    def __init__(self, problems: list[Problem]):
        self.doc: Document | None = None
        self.problems = problems
        self.nodes = 0  # one budget for the whole file, however many documents it holds
        self.constructor = yaml.constructor.SafeConstructor()

    def convert(self, node, path: Path, depth: int):
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise _Abort(f"file expands to more than {MAX_NODES} nodes (YAML alias bomb?)", node)
        if depth > MAX_DEPTH:
            raise _Abort(f"document is nested more than {MAX_DEPTH} levels deep", node)
        # a scalar is placed at its value; a mapping or list at its key's line, where a reader looks
        at = _pos(node) if isinstance(node, yaml.ScalarNode) else self.doc.key_positions.get(path, _pos(node))
        self.doc.positions.setdefault(path, at)
        if isinstance(node, yaml.ScalarNode):
            if node.tag not in _SCALAR_TAGS:
                raise _Abort(f"tag {node.tag!r} is not allowed: clusterlint reads plain YAML data only", node)
            try:
                value = self._int(node) if node.tag == _SCALAR_INT else node.value if node.tag == _SCALAR_STR \
                    else self.constructor.yaml_constructors[node.tag](self.constructor, node)
            except (yaml.constructor.ConstructorError, ValueError, OverflowError) as exc:  # 2024-02-30, !!int "0xZZ"
                raise _Abort(f"{node.value!r} cannot be read as {node.tag.rsplit(':', 1)[-1]}: {getattr(exc, 'problem', None) or exc}", node) from None
            if not node.style and node.value[:1] in _NUMERIC_START:  # plain (the C parser says '', the Python one None)
                self._same_in_yaml_11(node, value)
            if isinstance(value, float) and value != value:  # .nan
                return value
            if isinstance(value, (datetime.date, datetime.datetime)):
                return value.isoformat()  # as JSON Schema sees it: a string with format date
            return value
        if isinstance(node, yaml.SequenceNode):
            if node.tag != _SEQ:
                raise _Abort(f"tag {node.tag!r} is not allowed: clusterlint reads plain YAML data only", node)
            return [self.convert(item, path + (i,), depth + 1) for i, item in enumerate(node.value)]
        if node.tag != _MAP:
            raise _Abort(f"tag {node.tag!r} is not allowed: clusterlint reads plain YAML data only", node)
        result: dict = {}
        for key_node, value_node in node.value:
            if key_node.tag == _MERGE:
                merged = self.convert(value_node, path, depth + 1)
                for source in merged if isinstance(merged, list) else [merged]:
                    if not isinstance(source, dict):
                        raise _Abort("a merge key (<<) must name a mapping", value_node)
                    for k, v in source.items():
                        result.setdefault(k, v)
                continue
            key = self.convert(key_node, path + ("<key>",), depth + 1)
            if not isinstance(key, (str, int, float, bool)) and key is not None:
                raise _Abort("a mapping key must be a plain scalar", key_node)
            if key in result:
                first = self.doc.key_positions.get(path + (key,), (0, 0))
                line, col = _pos(key_node)
                self.problems.append(
                    Problem("SPEC003", f"key {key!r} repeats the key on line {first[0]}; YAML keeps only one of them", line, col, path + (key,))
                )
                continue
            self.doc.key_positions[path + (key,)] = _pos(key_node)
            result[key] = self.convert(value_node, path + (key,), depth + 1)
        return result


    @staticmethod
    def _int(node) -> int:
        """A YAML 1.2 core integer: decimal, 0o octal or 0x hexadecimal (no 1.1 forms: 010, 1_000, 1:30, 0b1)."""
        text = node.value
        if re.fullmatch(r"[-+]?[0-9]+", text):
            return int(text, 10)
        for prefix, base, digits in (("0o", 8, "[0-7]+"), ("0x", 16, "[0-9a-fA-F]+")):
            if text.startswith(prefix) and re.fullmatch(digits, text[2:]):
                return int(text[2:], base)
        raise ValueError("not a YAML 1.2 integer (such as 42, -7, 0o17 or 0x1F)")

    def _same_in_yaml_11(self, node, value) -> None:
        """SPEC001 where YAML 1.1 reads a plain scalar as a different number (or a number as text)."""
        old_tag = _YAML11.resolve(yaml.ScalarNode, node.value, (True, False))
        if node.tag not in _NUMBER_TAGS and old_tag not in _NUMBER_TAGS:
            return
        try:
            old = self.constructor.construct_object(yaml.ScalarNode(old_tag, node.value, node.start_mark, node.end_mark), deep=True)
        except (yaml.constructor.ConstructorError, ValueError, OverflowError):
            old = node.value
        if type(old) is type(value) and (old == value or old != old and value != value):
            return
        line, col = _pos(node)
        number = value if isinstance(value, (int, float)) else old
        self.problems.append(Problem(
            "SPEC001", f"{node.value!r} is {_reading(value)} in YAML 1.2 (JSON Schema, editors) but {_reading(old)} in YAML 1.1: "
            f"write the number as {number!r}, or quote the text", line, col))


def _reading(value) -> str:
    return "text" if isinstance(value, str) else f"the number {value!r}"


class _Abort(Exception):
    def __init__(self, message: str, node):
        super().__init__(message)
        self.position = _pos(node)


def _pos(node) -> tuple[int, int]:
    return node.start_mark.line + 1, node.start_mark.column + 1


def decode(data: bytes, what: str = "YAML text") -> tuple[str | None, Problem | None]:
    """UTF-8 text (a BOM is dropped), or a SPEC001 problem at the first byte that is not."""
    if b"\0" in data[:8192]:
        return None, Problem("SPEC001", f"binary file: not {what}", 1, 1)
    try:
        return data.decode("utf-8-sig"), None
    except UnicodeDecodeError as exc:
        before = data[: exc.start]
        line = before.count(b"\n") + 1
        col = len(before) - (before.rfind(b"\n") + 1) + 1
        return None, Problem("SPEC001", f"not valid UTF-8: byte 0x{data[exc.start]:02x} cannot be decoded ({exc.reason}); save the file as UTF-8", line, col)


def load_text(text: str, file: str) -> LoadedFile:
    """Load YAML text: documents, source maps, and SPEC001/SPEC003 problems."""
    lines = text.splitlines()
    problems: list[Problem] = []
    documents: list[Document] = []
    nodes = yaml.compose_all(text, Loader=_Loader)
    converter = _Converter(problems)
    try:
        for index in itertools.count():
            try:
                node = next(nodes, _END)
            except _TooDeep as exc:
                problems.append(Problem("SPEC001", str(exc), *exc.position))
                break
            if node is _END:
                break
            if node is None or (isinstance(node, yaml.ScalarNode) and node.tag == "tag:yaml.org,2002:null" and node.value == ""):
                continue  # an empty document (a trailing ---): skipped, as YAML tools do
            doc = converter.doc = Document(file, index, None, lines=lines)
            try:
                doc.data = converter.convert(node, (), 0)
            except _Abort as exc:
                problems.append(Problem("SPEC001", str(exc), *exc.position))
                if converter.nodes > MAX_NODES:
                    break  # the budget is spent: later documents are not read
                continue
            documents.append(doc)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        if line > max(1, len(lines)):  # libyaml counts a line break (NEL, LS) that ends the text as a line
            line, col = max(1, len(lines)), len(lines[-1]) + 1 if lines else 1
        what = ": ".join(p for p in (exc.context, exc.problem) if p)
        problems.append(Problem("SPEC001", f"invalid YAML: {what}", line, col))
    except yaml.reader.ReaderError as exc:  # a control character: position is a character offset
        before = text[: exc.position]
        line, col = before.count("\n") + 1, len(before) - (before.rfind("\n") + 1) + 1
        problems.append(Problem("SPEC001", f"invalid YAML: character {exc.character!r} is not allowed ({exc.reason})", line, col))
    return LoadedFile(file, lines, documents, problems)


def read_file(path: str, limit: int = MAX_BYTES) -> bytes:
    """The bytes of a regular file, at most `limit` + 1 of them (enough for `too_big` to say so).

    Anything else is refused with OSError (its strerror says why) before a byte is read: a named
    pipe would block forever, a device such as /dev/zero (also through a symlink) never ends, and a
    directory has no text. The file is opened without blocking and checked on the open descriptor.
    """
    import os
    import stat

    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = ("a directory" if stat.S_ISDIR(mode) else "a named pipe (FIFO)" if stat.S_ISFIFO(mode)
                    else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "a socket" if stat.S_ISSOCK(mode) else "special")
            raise OSError(errno.EINVAL, f"not a regular file: it is {kind}")
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        chunks, left = [], limit + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_stream(stream, limit: int = MAX_BYTES) -> bytes:
    """At most `limit` + 1 bytes of a stream (standard input)."""
    return stream.read(limit + 1)


def too_big(data: bytes) -> Problem | None:
    if len(data) > MAX_BYTES:
        return Problem("SPEC001", f"file is {len(data) / 2**20:.1f} MiB, over the {MAX_BYTES // 2**20} MiB limit", 1, 1)
    return None


def load_bytes(data: bytes, file: str) -> LoadedFile:
    """Load a file's bytes, enforcing the size limit and UTF-8 before parsing."""
    problem = too_big(data)
    if problem is None:
        text, problem = decode(data)
    if problem:
        return LoadedFile(file, [], [], [problem])
    return load_text(text, file)
