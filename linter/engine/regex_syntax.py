"""Python regular expressions (`re` syntax, str patterns) read into a small tree, without the
interpreter's private parser.

`parse(pattern)` returns `Parsed` (the items of the pattern and whether the whole of it ignores
case) or `Unsupported` (why it was not read: a conditional group, flags for the whole pattern set
after its start, or a pattern `re` would refuse). It never raises. The tree has the shape
`re` gives a pattern, so that an analysis of it (`clusterlint.engine.backtracking`) reads the same
items `re` will run:

- an alternation whose alternatives all start with the same single-character item or anchor has
  that item moved in front of it, and one whose alternatives are each one character becomes a
  character class (`a|ab` is `a(?:|b)`, `a|[bc]` is `[abc]`);
- a non-capturing group without flags is spliced into the sequence around it, or becomes the body
  of the repeat that follows it;
- a class of one character, not negated, is that character.

Each item is a `Node(kind, value, fold)`; `fold` is True for a character or class inside a
`(?i:...)` group. The kinds and their values:

    char    a code point                       set     (negate, members): members are ("lit", code),
    any     None (.)                                    ("range", low, high) or ("cat", letter of \\d \\s \\w ...)
    at      "^", "$", or the letter of \\A \\Z \\b \\B
    ref     the number of the group referred to  (\\1, (?P=name))
    group   (number or None, flags as "i" or "x-s", items)     atomic  items of (?>...)
    branch  tuple of alternatives, each a list of items
    repeat  (low, high or None for no bound, items, "greedy" | "lazy" | "possessive")
    look    (behind, negate, items)             (?=  (?!  (?<=  (?<!
"""

from __future__ import annotations

from typing import NamedTuple

_DIGITS = "0123456789"
_OCTAL = "01234567"
_HEX = "0123456789abcdefABCDEF"
_WHITESPACE = " \t\n\r\v\f"
_FLAGS = "imsxatu"  # L (locale) is refused for a str pattern, as `re` does
_SIMPLE = {"a": 7, "b": 8, "f": 12, "n": 10, "r": 13, "t": 9, "v": 11, "\\": 92}  # \b here only inside a class
_UNITS = frozenset({"char", "set", "any", "at", "ref"})  # items compared by value when alternatives share a start


class Node(NamedTuple):
    kind: str
    value: object
    fold: bool = False


class Parsed(NamedTuple):
    items: list
    ignore_case: bool


class Unsupported(NamedTuple):
    reason: str


class _Refused(Exception):
    pass


def parse(pattern: str | bytes, ignore_case: bool = False) -> Parsed | Unsupported:
    """The tree of `pattern`, or why it was not read. A bytes pattern is read as its Latin-1 text:
    each byte the code point of the same number, as `re` numbers them."""
    if isinstance(pattern, bytes):
        pattern = pattern.decode("latin-1")
    reader = _Reader(pattern, ignore_case)
    try:
        items = reader.alternation(verbose=False, fold=False, top=True)
        if reader.pos < len(pattern):
            reader.fail("unbalanced parenthesis")
    except _Refused as exc:
        return Unsupported(str(exc))
    except RecursionError:
        return Unsupported("its groups are nested too deeply to read")
    return Parsed(items, reader.ignore_case)


def _unique(members) -> tuple:
    return tuple(dict.fromkeys(members))


class _Reader:
    def __init__(self, text: str, ignore_case: bool):
        self.text, self.pos, self.ignore_case = text, 0, ignore_case
        self.verbose = False  # (?x) at the start
        self.groups, self.names = 0, {}

    def fail(self, message: str):
        raise _Refused(f"it is not a valid regular expression: {message} at position {self.pos}")

    def peek(self) -> str | None:
        """The next token: one character, or a backslash and the character after it."""
        if self.pos >= len(self.text):
            return None
        if self.text[self.pos] == "\\":
            if self.pos + 1 >= len(self.text):
                self.fail("bad escape (end of pattern)")
            return self.text[self.pos : self.pos + 2]
        return self.text[self.pos]

    def get(self) -> str | None:
        token = self.peek()
        if token is not None:
            self.pos += len(token)
        return token

    def match(self, token: str) -> bool:
        if self.peek() == token:
            self.pos += len(token)
            return True
        return False

    def run(self, allowed: str, most: int) -> str:
        """Up to `most` characters from `allowed`."""
        start = self.pos
        while self.pos < len(self.text) and self.pos - start < most and self.text[self.pos] in allowed:
            self.pos += 1
        return self.text[start : self.pos]

    def until(self, end: str, what: str) -> str:
        stop = self.text.find(end, self.pos)
        if stop <= self.pos:
            self.fail(f"missing {what}")
        found, self.pos = self.text[self.pos : stop], stop + 1
        return found

    def alternation(self, verbose: bool, fold: bool, top: bool = False) -> list:
        alternatives = []
        while True:
            alternatives.append(self.sequence(verbose, fold, first=top and not alternatives))
            if not self.match("|"):
                break
            if top:
                verbose = self.verbose
        if len(alternatives) == 1:
            return alternatives[0]
        return _alternatives(alternatives)

    def sequence(self, verbose: bool, fold: bool, first: bool) -> list:
        items: list = []
        while True:
            token = self.peek()
            if token is None or token in ("|", ")"):
                break
            self.get()
            if verbose and token in _WHITESPACE:
                continue
            if verbose and token == "#":
                while self.get() not in (None, "\n"):
                    pass
                continue
            if token[0] == "\\":
                items.append(_node(self.escape(token, in_class=False), fold))
            elif token == "[":
                items.append(self.character_class(fold))
            elif token in "*+?{":
                self.repeat(token, items, fold)
            elif token == ".":
                items.append(Node("any", None))
            elif token in "^$":
                items.append(Node("at", token))
            elif token == "(":
                group = self.group(items, verbose, fold, first)
                if group == "flags":
                    verbose = self.verbose
                elif group is not None:
                    items.append(group)
            else:
                items.append(Node("char", ord(token), fold))
        spliced: list = []
        for item in items:  # a plain (?:...) is only a bracket
            spliced.extend(item.value[2] if item.kind == "group" and item.value[:2] == (None, "") else [item])
        return spliced

    def repeat(self, token: str, items: list, fold: bool):
        low, high = {"*": (0, None), "+": (1, None), "?": (0, 1)}.get(token, (0, None))
        if token == "{":
            here = self.pos
            least = self.run(_DIGITS, len(self.text))
            most = self.run(_DIGITS, len(self.text)) if self.match(",") else least
            if self.peek() == "}" and self.pos == here or not self.match("}"):
                self.pos = here  # not a repeat: a literal brace
                items.append(Node("char", ord("{"), fold))
                return
            low, high = int(least) if least else 0, int(most) if most else None
            if high is not None and high < low:
                self.fail("min repeat greater than max repeat")
        if not items or items[-1].kind == "at":
            self.fail("nothing to repeat")
        if items[-1].kind == "repeat":
            self.fail("multiple repeat")
        item = items[-1]
        body = list(item.value[2]) if item.kind == "group" and item.value[:2] == (None, "") else [item]
        mode = "lazy" if self.match("?") else "possessive" if self.match("+") else "greedy"
        items[-1] = Node("repeat", (low, high, body, mode))

    def group(self, items: list, verbose: bool, fold: bool, first: bool):
        """The group opened by "(", or None for a comment, or "flags" for flags for the whole pattern."""
        capture, flags, kind = True, "", "group"
        if self.match("?"):
            char = self.get()
            if char == "P" and self.match("="):
                name = self.until(")", "group name")
                if name not in self.names:
                    self.fail(f"unknown group name {name!r}")
                return Node("ref", self.names[name])
            if char == "P" and self.match("<"):
                name = self.until(">", "group name")
                if not name.isidentifier():
                    self.fail(f"bad character in group name {name!r}")
                self.names[name] = self.groups + 1
            elif char in (":", ">"):
                capture, kind = False, "group" if char == ":" else "atomic"
            elif char == "#":
                while (token := self.get()) != ")":
                    if token is None:
                        self.fail("missing ), unterminated comment")
                return None
            elif char in ("=", "!") or char == "<" and self.peek() in ("=", "!"):
                behind = char == "<"
                negate = (self.get() if behind else char) == "!"
                body = self.alternation(verbose, fold)
                self.close()
                return Node("look", (behind, negate, body))
            elif char == "(":
                raise _Refused("it holds a conditional group (?(...)...), which the analysis does not read")
            elif char is not None and (char in _FLAGS or char == "-"):
                flags = self.flags(char)
                if flags is None:
                    if not first or items:
                        raise _Refused("it sets flags for the whole pattern after its start, which the analysis does not read")
                    return "flags"
                capture = False
            else:
                self.fail(f"unknown extension ?{char or ''}")
        number = None
        if capture:
            self.groups += 1
            number = self.groups
        on, _, off = flags.partition("-")
        body = self.alternation((verbose or "x" in on) and "x" not in off, fold or "i" in on)  # (?-i:...) keeps folding: conservative
        self.close()
        return Node("atomic", body) if kind == "atomic" else Node("group", (number, flags, body))

    def close(self):
        if not self.match(")"):
            self.fail("missing ), unterminated subpattern")

    def flags(self, char: str) -> str | None:
        """Scoped flags as "on-off" (the ":" read), or None for flags for the whole pattern (the ")" read)."""
        on = ""
        while char != "-":
            if char is None or char not in _FLAGS:
                self.fail("unknown flag or missing -, : or )")
            on += char
            char = self.get()
            if char == ")":
                self.ignore_case = self.ignore_case or "i" in on
                self.verbose = self.verbose or "x" in on
                return None
            if char == ":":
                return on
        off = ""
        while (char := self.get()) != ":":
            if char is None or char not in "imsx":
                self.fail("unknown flag or missing :")
            off += char
        if not off or set(on) & set(off):
            self.fail("bad inline flags")
        return f"{on}-{off}"

    def character_class(self, fold: bool) -> Node:
        negate = self.match("^")
        members: list = []
        while True:
            token = self.get()
            if token is None:
                self.fail("unterminated character set")
            if token == "]" and members:
                break
            start = self.escape(token, in_class=True) if token[0] == "\\" else ("lit", ord(token))
            if not self.match("-"):
                members.append(start)
                continue
            end_token = self.get()
            if end_token is None:
                self.fail("unterminated character set")
            if end_token == "]":
                members += [start, ("lit", ord("-"))]
                break
            end = self.escape(end_token, in_class=True) if end_token[0] == "\\" else ("lit", ord(end_token))
            if start[0] != "lit" or end[0] != "lit" or end[1] < start[1]:
                self.fail("bad character range")
            members.append(("range", start[1], end[1]))
        members = _unique(members)
        if len(members) == 1 and members[0][0] == "lit" and not negate:
            return Node("char", members[0][1], fold)
        return Node("set", (negate, members), fold)

    def escape(self, token: str, in_class: bool) -> tuple:
        """("lit", code), ("cat", letter), ("at", letter) or ("ref", number)."""
        char = token[1]
        if char in "AZbB" and not in_class:
            return ("at", char)
        if char in "dDsSwW":
            return ("cat", char)
        if char in _SIMPLE:
            return ("lit", _SIMPLE[char])
        if char in "xuU":
            size = {"x": 2, "u": 4, "U": 8}[char]
            digits = self.run(_HEX, size)
            if len(digits) != size or int(digits, 16) > 0x10FFFF:
                self.fail(f"incomplete escape \\{char}{digits}")
            return ("lit", int(digits, 16))
        if char == "N":
            return ("lit", self.named())
        if char in _DIGITS:
            return self.number(char, in_class)
        if char.isascii() and char.isalpha():
            self.fail(f"bad escape \\{char}")
        return ("lit", ord(char))

    def named(self) -> int:
        import unicodedata

        if not self.match("{"):
            self.fail("missing {")
        name = self.until("}", "character name")
        try:
            return ord(unicodedata.lookup(name))
        except KeyError:
            self.fail(f"undefined character name {name!r}")

    def number(self, char: str, in_class: bool) -> tuple:
        """An octal escape, or outside a class a back reference (\\1 to \\99; three octal digits are a character)."""
        if in_class or char == "0":
            if char not in _OCTAL:
                self.fail(f"bad escape \\{char}")
            digits = char + self.run(_OCTAL, 2)
        else:
            digits = char + self.run(_DIGITS, 1)
            if len(digits) == 2 and digits[1] in _OCTAL and char in _OCTAL and self.peek() in tuple(_OCTAL):
                digits += self.run(_OCTAL, 1)
            else:
                return ("ref", int(digits))
        if int(digits, 8) > 0o377:
            self.fail(f"octal escape value \\{digits} outside of range 0-0o377")
        return ("lit", int(digits, 8))


def _node(escape: tuple, fold: bool) -> Node:
    kind, value = escape
    if kind == "lit":
        return Node("char", value, fold)
    if kind == "cat":
        return Node("set", (False, (escape,)), fold)
    return Node(kind, value)


def _alternatives(alternatives: list) -> list:
    """One item for the alternatives, after the items they all start with."""
    prefix = []
    while all(alternatives) and alternatives[0][0].kind in _UNITS and all(a[0] == alternatives[0][0] for a in alternatives):
        prefix.append(alternatives[0][0])
        alternatives = [a[1:] for a in alternatives]
    members: list = []
    for alternative in alternatives:
        if len(alternative) != 1 or not (alternative[0].kind == "char" or alternative[0].kind == "set" and not alternative[0].value[0]):
            return [*prefix, Node("branch", tuple(alternatives))]
        members += [("lit", alternative[0].value)] if alternative[0].kind == "char" else alternative[0].value[1]
    return [*prefix, Node("set", (False, _unique(members)), alternatives[0][0].fold)]
