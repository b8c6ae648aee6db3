"""YAML text -> documents with a source map (spec path -> 1-based line and column).

Only plain YAML data is accepted: mappings, sequences, strings, numbers, booleans, nulls and
dates. Any other tag (`!!python/object`, `!!binary`, custom `!tags`) is rejected. Hostile input
is bounded: file size, nesting depth and alias expansion each have a limit that produces a
SPEC001 finding instead of a hang or an exhausted memory.
"""

from __future__ import annotations

import itertools

import yaml
from clusterlint.readers.documents import (  # noqa: F401  (the readers' names)
    Document,
    LoadedFile,
    Path,
    Problem,
    display,
    nearest,
)
from clusterlint.readers.files import MAX_BYTES, decode, read_file, read_stream, too_big  # noqa: F401  (likewise)
from clusterlint.readers.scalars import (
    END,
    MAP,
    MERGE,
    NULL,
    SEQ,
    Loader,
    plain_scalar,
    scalar,
    tag_of,
)

MAX_DEPTH = 64  # the deepest spec path is 6 levels
MAX_NODES = 100_000  # per file, aliases expanded: a quote has a few hundred; a billion-laughs file stops in milliseconds



class _TooDeep(Exception):
    def __init__(self, mark):
        super().__init__(f"document is nested more than {MAX_DEPTH} levels deep")
        self.position = (mark.line + 1, mark.column + 1)


ScalarEvent, AliasEvent = yaml.ScalarEvent, yaml.AliasEvent
SequenceStartEvent, SequenceEndEvent, MappingEndEvent = yaml.SequenceStartEvent, yaml.SequenceEndEvent, yaml.MappingEndEvent


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
        """The next document's data (END for an empty one); the parser stands at its start."""
        self.anchors, self.open, self.recorders, self.replays = {}, set(), [], []
        self._follow()
        self.parser.get_event()  # document start
        first = self.next_event()
        if type(first) is ScalarEvent and first.value == "" and tag_of(first.tag, first.implicit[0], "") == NULL:
            value = END  # an empty document (a trailing ---): skipped, as YAML tools do
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
            value, refused, ambiguous = scalar(event.tag, event.implicit[0], not event.style, event.value)
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
            if tag is not None and tag != "!" and tag != SEQ:
                raise _Abort(f"tag {tag!r} is not allowed: clusterlint reads plain YAML data only", event)
            return self._sequence(path, depth + 1)
        if tag is not None and tag != "!" and tag != MAP:
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
    # inline: its value is its text, or for a plain one `plain_scalar`'s reading of it, placed
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
        value, refused, ambiguous = plain_scalar(event.value)
        return self._unusual(event, value, refused, ambiguous) if refused or ambiguous else value

    def _mapping(self, path: Path, depth: int) -> dict:
        """The entries of a mapping whose start event was read; `depth` is its keys' and values'."""
        result: dict = {}
        positions, key_positions = self.doc.positions, self.doc.key_positions
        while (kind := type(key_event := self.next_event())) is not MappingEndEvent:
            if kind is ScalarEvent and key_event.value == "<<" and tag_of(key_event.tag, key_event.implicit[0], "<<") == MERGE:
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
                    key, refused, ambiguous = plain_scalar(key_event.value)
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


class _Abort(Exception):
    def __init__(self, message: str, node):
        super().__init__(message)
        self.position = _pos(node)


def _pos(node) -> tuple[int, int]:
    return node.start_mark.line + 1, node.start_mark.column + 1


def load_text(text: str, file: str) -> LoadedFile:
    """Load YAML text: documents, source maps, and SPEC001/SPEC003 problems."""
    lines = text.splitlines()
    problems: list[Problem] = []
    documents: list[Document] = []
    parser = Loader(text)
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
            if doc.data is not END:
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


def load_bytes(data: bytes, file: str) -> LoadedFile:
    """Load a file's bytes, enforcing the size limit and UTF-8 before parsing."""
    problem = too_big(data)
    if problem is None:
        text, problem = decode(data)
    if problem:
        return LoadedFile(file, [], [], [problem])
    return load_text(text, file)
