"""YAML text -> documents with a source map (spec path -> 1-based line and column).

Only plain YAML data is accepted: mappings, sequences, strings, numbers, booleans, nulls and
dates. Any other tag (`!!python/object`, `!!binary`, custom `!tags`) is rejected. Hostile input
is bounded: file size, nesting depth and alias expansion each have a limit that produces a
SPEC001 finding instead of a hang or an exhausted memory.
"""

from __future__ import annotations

import datetime
import errno
import functools
import itertools
import re
from bisect import bisect_right
from dataclasses import dataclass, field
from typing import NamedTuple

import yaml

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

MAX_BYTES = 4 * 2**20  # a quote is a few KB; 4 MiB leaves two orders of magnitude of room
MAX_DEPTH = 64  # the deepest spec path is 6 levels
MAX_NODES = 100_000  # per file, aliases expanded: a quote has a few hundred; a billion-laughs file stops in milliseconds



_BASE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _TooDeep(Exception):
    def __init__(self, mark):
        super().__init__(f"document is nested more than {MAX_DEPTH} levels deep")
        self.position = (mark.line + 1, mark.column + 1)


class _Loader(_BASE_LOADER):
    """Plain scalars resolved as YAML 1.2's core schema does, as JSON Schema and editors read them.

    YAML 1.1 (PyYAML's default) reads `010` as 8, `1:30` as 90, `1_000` as 1000 and `0o10` as a
    string; YAML 1.2 reads 10, a string, a string and 8. Where the two disagree on a number the
    value is ambiguous across tools, so `_Reader` reports it (SPEC001 at its position) instead
    of picking one. Dates keep their YAML 1.1 resolution: date fields want them, checked.
    Only its (C) parser and its resolver are used: `_Reader` builds the data from the events.
    """

    yaml_implicit_resolvers: dict = {}


for _tag, _regexp, _first in (
    ("null", r"^(?:~|null|Null|NULL|)$", "~nN"),
    ("bool", r"^(?:true|True|TRUE|false|False|FALSE)$", "tTfF"),
    ("int", r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", "-+0123456789"),
    ("float", r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$", "-+.0123456789"),
):
    _Loader.add_implicit_resolver(f"tag:yaml.org,2002:{_tag}", re.compile(_regexp), list(_first) + ([""] if _tag == "null" else []))
# PyYAML's YAML 1.1 table, copied: a library may append to the shared one (yamllint's quoted-strings
# rule adds an int resolver on import), and what it adds must not change which values are reported.
# PyYAML registers one resolver per tag and first character, before any other can, so the first is its own.
_YAML11_RESOLVERS = {_first: [r for i, r in enumerate(_resolvers) if r[0] not in {tag for tag, _ in _resolvers[:i]}]
                     for _first, _resolvers in yaml.resolver.Resolver.yaml_implicit_resolvers.items()}
for _first, _resolvers in _YAML11_RESOLVERS.items():
    for _tag, _regexp in _resolvers:
        if _tag in ("tag:yaml.org,2002:timestamp", "tag:yaml.org,2002:merge"):
            _Loader.add_implicit_resolver(_tag, _regexp, [_first])
_NUMBER_TAGS = ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float")
_SCALAR_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:timestamp",
}
_EXPECTED = {"tag:yaml.org,2002:bool": "expected true or false",
             "tag:yaml.org,2002:timestamp": "expected a date or a time, such as 2025-01-31 or 2025-01-31T09:30:00Z"}
_END = object()
_NUMERIC_START = tuple("0123456789+-.")  # every YAML 1.1 or 1.2 number starts with one of these
_SAME_IN_BOTH = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?")  # 8, -3, 0.8: the same number in YAML 1.1 and 1.2
_SCALAR_INT = "tag:yaml.org,2002:int"
_SCALAR_STR = "tag:yaml.org,2002:str"
_NULL = "tag:yaml.org,2002:null"
_SEQ = "tag:yaml.org,2002:seq"
_MAP = "tag:yaml.org,2002:map"
_MERGE = "tag:yaml.org,2002:merge"
_RESOLVERS = _Loader.yaml_implicit_resolvers  # a plain scalar's first character -> [(tag, pattern)]
ScalarEvent, AliasEvent = yaml.ScalarEvent, yaml.AliasEvent
SequenceStartEvent, SequenceEndEvent, MappingEndEvent = yaml.SequenceStartEvent, yaml.SequenceEndEvent, yaml.MappingEndEvent


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


class _Reader:
    """Python data from the YAML parser's events, in one pass, with where each value is written.

    A scalar is placed at its value, a mapping or list at its key's line (where a reader looks).
    An alias replays the events recorded for its anchor, so every node it expands to counts against
    the file's budget (a billion-laughs file stops at MAX_NODES) and keeps the position of the text
    it came from. Nesting deeper than MAX_DEPTH is refused at its first event: the parser keeps its
    own stack, and nothing here recurses further than that.
    """

    def __init__(self, parser):
        self.parser = parser
        self.problems: list[Problem] = []  # the current document's
        self.doc: Document | None = None
        self.nodes = 0  # one budget for the whole file, however many documents it holds
        self.anchors: dict = {}  # anchor -> (its first event, the parser's events of its node)
        self.open: set = set()  # anchors whose node is being read
        self.recorders: list[list] = []  # the events of each anchored node being read
        self.replays: list = []  # iterators over the recorded events of aliases being expanded
        self.next_event = parser.get_event  # the parser's own method while no alias replays and no anchor records

    def _follow(self) -> None:
        """Read events from the parser directly (most of a file), or through `_replayed` while an alias
        is being expanded or an anchored node recorded."""
        self.next_event = self._replayed if self.replays or self.recorders else self.parser.get_event

    def _replayed(self):
        while self.replays:
            event = next(self.replays[-1], None)
            if event is not None:
                return event
            self.replays.pop()
            self._follow()
        event = self.parser.get_event()
        for events in self.recorders:
            events.append(event)
        return event

    def document(self, path: Path = ()):
        """The next document's data (_END for an empty one); the parser stands at its start."""
        self.anchors, self.open, self.recorders, self.replays = {}, set(), [], []
        self._follow()
        self.parser.get_event()  # document start
        first = self.next_event()
        if type(first) is ScalarEvent and first.value == "" and _tag(first.tag, first.implicit[0], "") == _NULL:
            value = _END  # an empty document (a trailing ---): skipped, as YAML tools do
        else:
            value = self.read(first, path, 0)
        self.parser.get_event()  # document end
        return value

    def skip_document(self) -> None:
        """After a refused node: pass over the rest of the document's events."""
        self.replays, self.recorders = [], []
        self._follow()
        while not isinstance(self.parser.get_event(), yaml.DocumentEndEvent):
            pass

    def _anchored(self, event, path: Path, depth: int):
        """The value of an alias (its anchor's events replayed), or of a node that sets an anchor."""
        if type(event) is AliasEvent:
            if event.anchor in self.open:
                raise _Abort(f"alias *{event.anchor} is inside the node it names: a structure that never ends", event)
            if event.anchor not in self.anchors:
                raise yaml.composer.ComposerError(None, None, f"found undefined alias {event.anchor!r}", event.start_mark)
            self.replays.append(iter(self.anchors[event.anchor][1]))
            self._follow()
            return self.read(self.next_event(), path, depth)
        if self.replays:  # a replayed node's anchors are known already
            return self.read(event, path, depth, True)
        anchor = event.anchor
        if anchor in self.anchors or anchor in self.open:
            first = self.anchors[anchor][0].start_mark if anchor in self.anchors else None
            raise yaml.composer.ComposerError(f"found duplicate anchor {anchor!r}; first occurrence", first,
                                              "second occurrence", event.start_mark)
        events = [event]
        self.open.add(anchor)
        self.recorders.append(events)
        self._follow()
        try:
            value = self.read(event, path, depth, True)
        finally:
            self.recorders.pop()
            self._follow()
            self.open.discard(anchor)
        self.anchors[anchor] = (event, events)
        return value

    def read(self, event, path: Path, depth: int, anchored: bool = False):
        """The value of the node that begins with `event` (`anchored`: its anchor is dealt with)."""
        if event.anchor is not None and not anchored:
            return self._anchored(event, path, depth)
        self.nodes += 1
        if self.nodes > MAX_NODES:
            self._spent(event)
        kind = type(event)
        if kind is ScalarEvent:
            positions = self.doc.positions
            if path not in positions:
                mark = event.start_mark
                positions[path] = (mark.line + 1, mark.column + 1)
            value, refused, ambiguous = _scalar(event.tag, event.implicit[0], not event.style, event.value)
            if refused:
                raise _Abort(refused, event)
            if ambiguous:
                self.problems.append(Problem("SPEC001", ambiguous, *_pos(event)))
            return value
        if depth >= MAX_DEPTH:  # the 65th collection, counting the outermost
            raise _TooDeep(event.start_mark)
        positions = self.doc.positions
        if path not in positions:
            positions[path] = self.doc.key_positions.get(path) or _pos(event)
        tag = event.tag
        if kind is SequenceStartEvent:
            if tag is not None and tag != "!" and tag != _SEQ:
                raise _Abort(f"tag {tag!r} is not allowed: clusterlint reads plain YAML data only", event)
            return self._sequence(path, depth + 1)
        if tag is not None and tag != "!" and tag != _MAP:
            raise _Abort(f"tag {tag!r} is not allowed: clusterlint reads plain YAML data only", event)
        return self._mapping(path, depth + 1)

    def _spent(self, event) -> None:
        """The file's node budget (MAX_NODES) ran out at `event`."""
        raise _Abort(f"file expands to more than {MAX_NODES} nodes (YAML alias bomb?)", event)

    def _unusual(self, event, value, refused: str, ambiguous: str):
        """A plain scalar that is refused (raised) or ambiguous (a SPEC001 problem): its value."""
        if refused:
            raise _Abort(refused, event)
        self.problems.append(Problem("SPEC001", ambiguous, *_pos(event)))
        return value

    # The two loops below read a plain or quoted scalar with no anchor and no tag (most of a file)
    # inline: its value is its text, or for a plain one `_plain_scalar`'s reading of it, placed
    # where it is written unless its path is placed already. Anything else goes through `read`.

    def _sequence(self, path: Path, depth: int) -> list:
        """The items of a sequence whose start event was read; `depth` is theirs."""
        items: list = []
        positions = self.doc.positions
        while (kind := type(item := self.next_event())) is not SequenceEndEvent:
            at = path + (len(items),)
            if kind is not ScalarEvent or item.anchor is not None or item.tag is not None:
                items.append(self.read(item, at, depth))
                continue
            items.append(self._placed_scalar(item, at, positions))
        return items

    def _placed_scalar(self, event, at: Path, positions: dict):
        """The value of a plain untagged scalar `event` at `at`, placed where it is written unless
        `at` is placed already."""
        self.nodes += 1
        if self.nodes > MAX_NODES:
            self._spent(event)
        mark = event.start_mark
        positions.setdefault(at, (mark.line + 1, mark.column + 1))
        if event.style:
            return event.value
        value, refused, ambiguous = _plain_scalar(event.value)
        return self._unusual(event, value, refused, ambiguous) if refused or ambiguous else value

    def _mapping(self, path: Path, depth: int) -> dict:
        """The entries of a mapping whose start event was read; `depth` is its keys' and values'."""
        result: dict = {}
        positions, key_positions = self.doc.positions, self.doc.key_positions
        while (kind := type(key_event := self.next_event())) is not MappingEndEvent:
            if kind is ScalarEvent and key_event.value == "<<" and _tag(key_event.tag, key_event.implicit[0], "<<") == _MERGE:
                value_event = self.next_event()
                merged = self.read(value_event, path, depth)
                for source in merged if isinstance(merged, list) else [merged]:
                    if not isinstance(source, dict):
                        raise _Abort("a merge key (<<) must name a mapping", value_event)
                    for k, v in source.items():
                        result.setdefault(k, v)
                continue
            if kind is ScalarEvent and key_event.anchor is None and key_event.tag is None:
                # `_placed_scalar` without the placing, written out: a call per key costs 1.5% of a folder of quotes
                self.nodes += 1
                if self.nodes > MAX_NODES:
                    self._spent(key_event)
                if key_event.style:
                    key = key_event.value
                else:
                    key, refused, ambiguous = _plain_scalar(key_event.value)
                    if refused or ambiguous:
                        key = self._unusual(key_event, key, refused, ambiguous)
            else:
                key = self.read(key_event, path + ("<key>",), depth)
                if not isinstance(key, (str, int, float, bool)) and key is not None:
                    raise _Abort("a mapping key must be a plain scalar", key_event)
            at = path + (key,)
            mark = key_event.start_mark
            if key in result:
                first = key_positions.get(at, (0, 0))
                self.problems.append(Problem(
                    "SPEC003", f"key {key!r} repeats the key on line {first[0]}; YAML keeps only one of them", mark.line + 1, mark.column + 1, at))
                self._pass_over(self.next_event())
                continue
            key_positions[at] = mark.line + 1, mark.column + 1
            value_event = self.next_event()
            if type(value_event) is not ScalarEvent or value_event.anchor is not None or value_event.tag is not None:
                result[key] = self.read(value_event, at, depth)
                continue
            result[key] = self._placed_scalar(value_event, at, positions)
        return result

    def _pass_over(self, event) -> None:
        """Consume the events of the node that begins with `event`, reading nothing of it."""
        level = 0
        while True:
            if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
                level += 1
            elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
                level -= 1
            if level == 0:
                return
            event = self.next_event()


def _tag(tag: str | None, implicit: bool, text: str) -> str:
    """A scalar's tag: its own, or the one its plain text resolves to in YAML 1.2 (`_Loader`'s resolvers)."""
    if tag is not None and tag != "!":
        return tag
    if not implicit or text[:1] not in _RESOLVERS:  # quoted, or a first letter no resolver claims: most keys
        return _SCALAR_STR
    return _resolve(_RESOLVERS, text)


@functools.lru_cache(maxsize=4096)
def _scalar(tag: str | None, implicit: bool, plain: bool, text: str) -> tuple:
    """(value, why the scalar is refused or "", why it is ambiguous or "") of a scalar as written (its
    event's tag, whether its plain text is resolved, whether it is plain). A pure function of what is
    written, so that the keys and values that repeat across files are worked out once."""
    tag = _tag(tag, implicit, text)
    plain_number = plain and text[:1] in _NUMERIC_START
    if tag == _SCALAR_STR and not plain_number:
        return text, "", ""
    if tag not in _SCALAR_TAGS:
        return None, f"tag {tag!r} is not allowed: clusterlint reads plain YAML data only", ""
    if tag == _NULL and text not in ("", "~", "null", "Null", "NULL"):  # PyYAML reads any text as null
        return None, f"{text!r} cannot be read as null: expected null, ~ or nothing", ""
    constructor = yaml.constructor.SafeConstructor()
    try:
        value = _int(text) if tag == _SCALAR_INT else text if tag == _SCALAR_STR \
            else constructor.yaml_constructors[tag](constructor, yaml.ScalarNode(tag, text))
    except (yaml.constructor.ConstructorError, ValueError, OverflowError) as exc:  # 2024-02-30, !!int "0xZZ"
        return None, f"{text!r} cannot be read as {tag.rsplit(':', 1)[-1]}: {getattr(exc, 'problem', None) or exc}", ""
    except (KeyError, AttributeError):  # !!bool maybe, !!timestamp x: PyYAML looks them up without checking
        return None, f"{text!r} cannot be read as {tag.rsplit(':', 1)[-1]}: {_EXPECTED.get(tag, 'not a valid value')}", ""
    ambiguous = _yaml_11_reading(tag, text, value) if plain_number and not _SAME_IN_BOTH.fullmatch(text) else ""
    if isinstance(value, (datetime.date, datetime.datetime)):
        value = value.isoformat()  # as JSON Schema sees it: a string with format date
    return value, "", ambiguous


@functools.lru_cache(maxsize=4096)
def _plain_scalar(text: str) -> tuple:
    """`_scalar` of a plain scalar with no tag, cached on its text alone (a cheaper key)."""
    return _scalar.__wrapped__(None, True, True, text)


def _yaml_11_reading(tag: str, text: str, value) -> str:
    """Why a plain scalar is ambiguous ("" when it is not): YAML 1.1 reads it as a different number (or a number as text)."""
    old_tag = _resolve(_YAML11_RESOLVERS, text)
    if tag not in _NUMBER_TAGS and old_tag not in _NUMBER_TAGS:
        return ""
    try:
        old = yaml.constructor.SafeConstructor().construct_object(yaml.ScalarNode(old_tag, text), deep=True)
    except (yaml.constructor.ConstructorError, ValueError, OverflowError):
        old = text
    if type(old) is type(value) and (old == value or old != old and value != value):
        return ""
    number = value if isinstance(value, (int, float)) else old
    return (f"{text!r} is {_reading(value)} in YAML 1.2 (JSON Schema, editors) but {_reading(old)} in YAML 1.1: "
            f"write the number as {number!r}, or quote the text")


def _resolve(resolvers: dict, text: str) -> str:
    """The tag of a plain scalar's text under `resolvers` (first character -> [(tag, pattern)]), as
    PyYAML's Resolver.resolve gives it."""
    for tag, regexp in resolvers.get(text[:1], ()):
        if regexp.match(text):
            return tag
    return _SCALAR_STR


_DECIMAL = re.compile(r"[-+]?[0-9]+")
_OCTAL = re.compile(r"[0-7]+")
_HEXADECIMAL = re.compile(r"[0-9a-fA-F]+")


def _int(text: str) -> int:
    """A YAML 1.2 core integer: decimal, 0o octal or 0x hexadecimal (no 1.1 forms: 010, 1_000, 1:30, 0b1)."""
    if _DECIMAL.fullmatch(text):
        return int(text, 10)
    for prefix, base, digits in (("0o", 8, _OCTAL), ("0x", 16, _HEXADECIMAL)):
        if text.startswith(prefix) and digits.fullmatch(text[2:]):
            return int(text[2:], base)
    raise ValueError("not a YAML 1.2 integer (such as 42, -7, 0o17 or 0x1F)")


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
    parser = _Loader(text)
    reader = _Reader(parser)
    try:
        parser.get_event()  # stream start
        for index in itertools.count():
            if parser.check_event(yaml.StreamEndEvent):
                break
            doc = reader.doc = Document(file, index, None, lines=lines)
            reader.problems = pending = []  # a document's problems count once it has been read to its end
            try:
                doc.data = reader.document()
            except _TooDeep as exc:
                problems.append(Problem("SPEC001", str(exc), *exc.position))  # the rest of the file is not read
                break
            except _Abort as exc:
                reader.skip_document()  # a syntax error further on is then what the document reports
                problems.extend([*pending, Problem("SPEC001", str(exc), *exc.position)])
                if reader.nodes > MAX_NODES:
                    break  # the budget is spent: later documents are not read
                continue
            problems.extend(pending)
            if doc.data is not _END:
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
        status = os.fstat(fd)
        mode = status.st_mode
        if not stat.S_ISREG(mode):
            kind = ("a directory" if stat.S_ISDIR(mode) else "a named pipe (FIFO)" if stat.S_ISFIFO(mode)
                    else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "a socket" if stat.S_ISSOCK(mode) else "special")
            raise OSError(errno.EINVAL, f"not a regular file: it is {kind}")
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        chunks, left = [], limit + 1
        want = min(left, status.st_size + 1)  # the whole file in one read, unless it grows meanwhile
        while left > 0:
            chunk = os.read(fd, want)
            chunks.append(chunk)
            left -= len(chunk)
            if len(chunk) < want:  # a regular file reads short only at its end
                break
            want = min(left, 1 << 20)
        return chunks[0] if len(chunks) == 1 else b"".join(chunks)
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
