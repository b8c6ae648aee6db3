"""Plain scalars read as YAML 1.2's core schema reads them (as JSON Schema and editors do), with the
values YAML 1.1 would read differently reported, and only plain data tags allowed."""

from __future__ import annotations

import datetime
import functools
import re

import yaml

_BASE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class Loader(_BASE_LOADER):
    """Plain scalars resolved as YAML 1.2's core schema does, as JSON Schema and editors read them.

    YAML 1.1 (PyYAML's default) reads `010` as 8, `1:30` as 90, `1_000` as 1000 and `0o10` as a
    string; YAML 1.2 reads 10, a string, a string and 8. Where the two disagree on a number the
    value is ambiguous across tools, so `_Reader` reports it (SPEC001 at its position) instead
    of picking one. Dates keep their YAML 1.1 resolution: date fields want them, checked.
    Only its (C) parser and its resolver are used: `_Reader` builds the data from the events.
    """

    yaml_implicit_resolvers: dict = {}


for _name, _regexp, _first in (
    ("null", r"^(?:~|null|Null|NULL|)$", "~nN"),
    ("bool", r"^(?:true|True|TRUE|false|False|FALSE)$", "tTfF"),
    ("int", r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", "-+0123456789"),
    ("float", r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$", "-+.0123456789"),
):
    Loader.add_implicit_resolver(f"tag:yaml.org,2002:{_name}", re.compile(_regexp), list(_first) + ([""] if _name == "null" else []))
# PyYAML's YAML 1.1 table, copied: a library may append to the shared one (yamllint's quoted-strings
# rule adds an int resolver on import), and what it adds must not change which values are reported.
# PyYAML registers one resolver per tag and first character, before any other can, so the first is its own.
_YAML11_RESOLVERS = {_first: [r for i, r in enumerate(_resolvers) if r[0] not in {tag for tag, _ in _resolvers[:i]}]
                     for _first, _resolvers in yaml.resolver.Resolver.yaml_implicit_resolvers.items()}
for _first, _resolvers in _YAML11_RESOLVERS.items():
    for _name, _regexp in _resolvers:
        if _name in ("tag:yaml.org,2002:timestamp", "tag:yaml.org,2002:merge"):
            Loader.add_implicit_resolver(_name, _regexp, [_first])
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
END = object()
_NUMERIC_START = tuple("0123456789+-.")  # every YAML 1.1 or 1.2 number starts with one of these
_SAME_IN_BOTH = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?")  # 8, -3, 0.8: the same number in YAML 1.1 and 1.2
_SCALAR_INT = "tag:yaml.org,2002:int"
_SCALAR_STR = "tag:yaml.org,2002:str"
NULL = "tag:yaml.org,2002:null"
SEQ = "tag:yaml.org,2002:seq"
MAP = "tag:yaml.org,2002:map"
MERGE = "tag:yaml.org,2002:merge"
_RESOLVERS = Loader.yaml_implicit_resolvers  # a plain scalar's first character -> [(tag, pattern)]


def tag_of(tag: str | None, implicit: bool, text: str) -> str:
    """A scalar's tag: its own, or the one its plain text resolves to in YAML 1.2 (`Loader`'s resolvers)."""
    if tag is not None and tag != "!":
        return tag
    if not implicit or text[:1] not in _RESOLVERS:  # quoted, or a first letter no resolver claims: most keys
        return _SCALAR_STR
    return _resolve(_RESOLVERS, text)


@functools.lru_cache(maxsize=4096)
def scalar(tag: str | None, implicit: bool, plain: bool, text: str) -> tuple:
    """(value, why the scalar is refused or "", why it is ambiguous or "") of a scalar as written (its
    event's tag, whether its plain text is resolved, whether it is plain). A pure function of what is
    written, so that the keys and values that repeat across files are worked out once."""
    tag = tag_of(tag, implicit, text)
    plain_number = plain and text[:1] in _NUMERIC_START
    if tag == _SCALAR_STR and not plain_number:
        return text, "", ""
    if tag not in _SCALAR_TAGS:
        return None, f"tag {tag!r} is not allowed: clusterlint reads plain YAML data only", ""
    if tag == NULL and text not in ("", "~", "null", "Null", "NULL"):  # PyYAML reads any text as null
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
def plain_scalar(text: str) -> tuple:
    """`scalar` of a plain scalar with no tag, cached on its text alone (a cheaper key)."""
    return scalar.__wrapped__(None, True, True, text)


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
