"""Well-formed documents validated without pydantic: the checks the generated plain classes run.

`tools/generate_models.py` reads the pydantic models (the single source of the schemas) and
writes `clusterlint._generated.fast_<kind>` (named by `fast_models`): one plain class per model, with the same attributes,
defaults, parsed quantities and derived values (from `model.derived`), and per class a table of
its fields, each with the check below that its annotation calls for. `validate` builds a
document's objects from that table and vouches only for what it is sure pydantic accepts in the
same way: exact types (an int where an int is due, a str where a str is), constraints met, no
unknown key, every required key given, `problem` None. Anything else raises `Doubt`, and the
document goes to pydantic, which accepts it with its own coercions or words what is wrong; so the
output is the same either way, only the cost differs (a quote's pydantic models cost more than
the rest of its check).
"""

from __future__ import annotations

import datetime
import math

from clusterlint.model import units
from clusterlint.model.derived import Derived

REQUIRED = object()  # a field's default when the key must be given
_set = object.__setattr__


class Doubt(Exception):
    """The fast path cannot vouch for a value: pydantic decides about the document."""


class Plain(Derived):
    """A document object as the rules read it; read-only, as the pydantic models are frozen."""

    __slots__ = ("model_fields_set",)
    model_fields: dict = {}  # field name -> None, as the pydantic model's names (paths.py asks for it)
    FIELDS: tuple = ()  # (attribute, key, default, check): written by the generator
    KEYS: frozenset = frozenset()

    def __setattr__(self, name, value):
        raise AttributeError(f"{type(self).__name__} is read-only: cannot set {name!r}")

    def _values(self) -> tuple:
        return tuple(getattr(self, name) for name in self.model_fields)

    def __eq__(self, other):
        return type(self) is type(other) and self._values() == other._values()

    def __hash__(self):
        return hash((type(self), self._values()))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{name}={getattr(self, name)!r}' for name in self.model_fields)})"

    def model_dump(self) -> dict:
        """The fields as plain data, as pydantic's model_dump gives them (quantities as their text)."""
        return {name: _dump(getattr(self, name)) for name in self.model_fields}


def _dump(value):
    if isinstance(value, Plain):
        return value.model_dump()
    if isinstance(value, units.Quantity):
        return str(value)
    if isinstance(value, list):
        return [_dump(v) for v in value]
    if isinstance(value, dict):
        return {k: _dump(v) for k, v in value.items()}
    return value


def build(cls: type[Plain], data) -> Plain:
    """The object of `cls` for a mapping, or Doubt."""
    if type(data) is not dict:
        raise Doubt
    keys = cls.KEYS
    for key in data:
        if key not in keys:
            raise Doubt
    obj = object.__new__(cls)
    given = set()
    for name, key, default, check in cls.FIELDS:
        if key in data:
            given.add(name)
            _set(obj, name, check(data[key]))
        elif default is REQUIRED:
            raise Doubt
        else:
            _set(obj, name, default())
    _set(obj, "model_fields_set", given)
    if obj.problem() is not None:
        raise Doubt
    return obj


def validate(cls: type[Plain], data) -> Plain | None:
    """The object of `cls` for `data`, or None when pydantic must decide."""
    try:
        return build(cls, data)
    except Doubt:
        return None


# Checks: each takes the constraints the generator read from a field and returns a function of
# the value that gives what pydantic would store, or raises Doubt.

def _bounded(value, ge, gt, le, lt) -> bool:
    return ((ge is None or value >= ge) and (gt is None or value > gt) and (le is None or value <= le)
            and (lt is None or value < lt))


def integer(ge=None, gt=None, le=None, lt=None):
    def check(value):
        if type(value) is not int or not _bounded(value, ge, gt, le, lt):
            raise Doubt
        return value
    return check


def number(ge=None, gt=None, le=None, lt=None):
    def check(value):
        if type(value) not in (int, float):
            raise Doubt
        try:
            value = float(value)
        except OverflowError:
            raise Doubt from None
        if not math.isfinite(value) or not _bounded(value, ge, gt, le, lt):
            raise Doubt
        return value
    return check


def text(min_length=0, max_length=None):
    def check(value):
        if type(value) is not str or len(value) < min_length or (max_length is not None and len(value) > max_length):
            raise Doubt
        return value
    return check


def flag(value):
    if type(value) is not bool:
        raise Doubt
    return value


def anything(value):
    return value


def choice(*choices):
    allowed = {(type(c), c) for c in choices}
    types = {type(c) for c in choices}

    def check(value):
        if type(value) not in types or (type(value), value) not in allowed:
            raise Doubt
        return value
    return check


def quantity(kind: str):
    def check(value):
        if type(value) not in (str, int, float):
            raise Doubt
        try:
            return units.parsed(value, kind)
        except units.UnitError:
            raise Doubt from None
    return check


def iso_date(value):
    if type(value) is not str or len(value) != 10:
        raise Doubt
    try:
        return datetime.date.fromisoformat(value)
    except ValueError:
        raise Doubt from None


def after(inner, ref: str):
    """A field with an AfterValidator: what `inner` gives, passed through the function pydantic calls
    ("module:name", written by the generator, imported on first use); Doubt when it refuses."""
    function = None

    def check(value):
        nonlocal function
        value = inner(value)
        if function is None:
            from importlib import import_module

            module, _, name = ref.partition(":")
            function = getattr(import_module(module), name)
        try:
            return function(value)
        except ValueError:
            raise Doubt from None
    return check


def optional(inner):
    def check(value):
        return None if value is None else inner(value)
    return check


def either(*checks):
    """A union whose members take different JSON types (str or a mapping): the first that fits."""
    def check(value):
        for one in checks:
            try:
                return one(value)
            except Doubt:
                continue
        raise Doubt
    return check


def items(inner, min_length=0, max_length=None):
    def check(value):
        if type(value) is not list or len(value) < min_length or (max_length is not None and len(value) > max_length):
            raise Doubt
        return [inner(v) for v in value]
    return check


def mapping(key, inner):
    def check(value):
        if type(value) is not dict:
            raise Doubt
        return {key(k): inner(v) for k, v in value.items()}
    return check


def nested(cls: type[Plain]):
    def check(value):
        return build(cls, value)
    return check


def constant(value):
    return lambda: value
