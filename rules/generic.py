"""Generic checks for organisation rules written in YAML, with no Python.

A user rule names one with `check: threshold` (or required, one-of, none-of, pattern, ratio)
and gives its `params`; paths use the syntax of `clusterlint.model.paths`. `document` says which
document the paths are in; it defaults to the rule's `needs` when that names one kind.
Every check skips (with the reason) when its path reaches no value, so a policy never passes
a document it could not read. `message` replaces the default message; `{path}`, `{value}`,
`{limit}`, `{match}` and `{values}` in it are filled in, and nothing else is evaluated.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal, Optional, Union

from pydantic import BeforeValidator, Field, field_validator, model_validator

from clusterlint.model import units
from clusterlint.engine.review import ParamError, Skip, check
from clusterlint.model.findings import dotted
from clusterlint.model.paths import MISSING, DocPath, parse, render, walk

from clusterlint.rules.params import Params

PathParam = Annotated[DocPath, BeforeValidator(lambda v: v if isinstance(v, DocPath) else parse(v))]
Limit = Optional[Union[int, float, str]]
Scalar = Union[bool, int, float, str]


class Generic(Params):
    document: Literal["Cluster", "Contract", "Workload"]
    message: Optional[str] = Field(None, min_length=1)


class OnePath(Generic):
    path: PathParam


class Bounds(Generic):
    min: Limit = None
    max: Limit = None

    @model_validator(mode="after")
    def _one_bound(self):
        if self.min is None and self.max is None:
            raise ValueError("give min, max or both")
        return self


class Threshold(Bounds):
    path: PathParam


class Values(OnePath):
    values: list[Scalar] = Field(min_length=1)


class Pattern(OnePath):
    regex: str = Field(min_length=1)
    ignore_case: bool = False
    mode: Literal["forbid", "require"] = "forbid"

    @field_validator("regex")
    @classmethod
    def _compiles(cls, value):
        from clusterlint.engine.backtracking import problem

        try:
            re.compile(value)
        except re.error as exc:
            raise ValueError(f"not a valid regular expression: {exc}") from None
        reason = problem(value)
        if reason:
            raise ValueError(f"{value!r} can take exponential or polynomial time on long text ({reason}); rewrite it")
        return value


def _paths(value):
    return [value] if isinstance(value, (str, DocPath)) else value


Paths = Annotated[list[PathParam], BeforeValidator(_paths), Field(min_length=1)]


class Ratio(Bounds):
    numerator: Paths
    denominator: Optional[Paths] = None


def _say(params, default: str, **fields) -> str:
    template = params.message or default
    return re.sub(r"\{(\w+)\}", lambda m: str(fields.get(m.group(1), m.group(0))), template)


def _raw(review, params):
    return review.docs[params.document].data


def _typed(review, params):
    return getattr(review, params.document.lower())


def _found(review, params, path: DocPath, typed: bool = False):
    """(concrete path, value) for every value the path reaches; skips the rule when there is none."""
    data = _typed(review, params) if typed else _raw(review, params)
    found = [(where, value) for where, value, _ in walk(data, path) if value is not MISSING]
    if not found:
        raise Skip(f"{path} is not in the {params.document}")
    return found


def _shown(value) -> str:
    return value.text if isinstance(value, units.Quantity) else repr(value) if isinstance(value, str) else str(value)


def _limit(text, kind: str | None, field: str):
    """A bound in the value's units: a Quantity of `kind`, or a plain number."""
    if text is None:
        return None
    if kind is None:
        if isinstance(text, str):
            try:
                return units.parse(text, "count").value
            except units.UnitError:
                raise ParamError(field, f"{text!r} has a unit, but the value it is compared with has none") from None
        return float(text)
    if not isinstance(text, str):
        raise ParamError(field, f"{text} needs a unit: the value it is compared with is {units.KIND_HINTS[kind]}")
    try:
        return units.parse(text, kind).value
    except units.UnitError as exc:
        raise ParamError(field, f"{exc} (the value it is compared with is {units.KIND_HINTS[kind]})") from None


def _number(value) -> tuple[float, str | None]:
    if isinstance(value, units.Quantity):
        return value.value, (None if value.kind == "count" else value.kind)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise Skip(f"{value!r} is not a number")
    return float(value), None


def _human(value: float, kind: str | None) -> str:
    return units.human(value, kind) if kind else f"{value:.4g}"


def _bounds(review, params, where, number: float, kind, shown: str, subject: str):
    """A hit at `where` when `number` is outside min/max; `subject` names what was measured."""
    low, high = _limit(params.min, kind, "min"), _limit(params.max, kind, "max")
    if low is not None and number < low:
        word, text = "below the minimum", params.min
    elif high is not None and number > high:
        word, text = "above the maximum", params.max
    else:
        return None
    return review.hit(params.document, where, _say(params, f"{{path}} is {{value}}, {word} {{limit}}", path=subject, value=shown, limit=text))


@check(Threshold)
def threshold(review, params):
    """Each value the path reaches is at least `min` and at most `max`, in its own units."""
    for where, value in _found(review, params, params.path, typed=True):
        number, kind = _number(value)
        hit = _bounds(review, params, where, number, kind, _shown(value), dotted(where))
        if hit:
            yield hit


@check(OnePath)
def required(review, params):
    """The path is written; with [*], in every item of the list."""
    for where, value, _ in walk(_raw(review, params), params.path):
        if value is MISSING:
            wanted = render(where + params.path.parts[len(where):])
            yield review.hit(params.document, where[:-1] if where else where, _say(params, "{path} is missing", path=wanted), key=True)


def _same(a, b) -> bool:
    return a.casefold() == b.casefold() if isinstance(a, str) and isinstance(b, str) else a == b and type(a) is type(b)


def _values(review, params, banned: bool):
    listed = ", ".join(_shown(v) for v in params.values)
    for where, value in _found(review, params, params.path):
        for item in value if isinstance(value, list) else [value]:
            if any(_same(item, v) for v in params.values) == banned:
                default = "{path} is {value}, which is banned ({values})" if banned else "{path} is {value}, not one of {values}"
                yield review.hit(params.document, where, _say(params, default, path=dotted(where), value=_shown(item), values=listed))


@check(Values)
def one_of(review, params):
    """Each value (or each item of a list) is one of `values`; strings compare without case."""
    yield from _values(review, params, banned=False)


@check(Values)
def none_of(review, params):
    """No value (nor item of a list) is one of `values`; strings compare without case."""
    yield from _values(review, params, banned=True)


@check(Pattern)
def pattern(review, params):
    """forbid: every match of `regex` in the text is a finding, at the matched words;
    require: a text with no match is a finding."""
    regex = re.compile(params.regex, re.IGNORECASE if params.ignore_case else 0)
    for where, value in _found(review, params, params.path):
        if not isinstance(value, str):
            continue
        if params.mode == "require":
            if not regex.search(value):
                yield review.hit(params.document, where, _say(params, "{path} does not match {limit}", path=dotted(where), limit=params.regex))
            continue
        for match in regex.finditer(value):
            if match.end() > match.start():
                message = _say(params, "{path} contains {match}", path=dotted(where), match=repr(match.group(0)))
                yield review.hit_words(params.document, where, match, message)


class _Absent(Exception):
    """A path of a ratio reaches no value for this item."""


def _product(review, params, paths, bindings) -> tuple[float, str | None]:
    """The product of the paths' values (wildcards bound item by item), with its kind."""
    total, kind = 1.0, None
    data = _typed(review, params)
    for path in paths:
        values = [v for _, v, _ in walk(data, path, bindings)]
        if len(values) != 1 or values[0] is MISSING:
            raise _Absent(render(path.parts, bindings))
        number, this = _number(values[0])
        if this and kind and this != kind:
            raise ParamError("numerator", f"multiplies {kind} by {this}: at most one path may have a unit")
        total, kind = total * number, kind or this
    return total, kind


@check(Ratio)
def ratio(review, params):
    """The product of `numerator` paths over the product of `denominator` paths is within bounds.

    Wildcards pair item by item: the n-th [*] of every path takes the same index, so
    `spec.node_pools[*].cpu.vcpus` over `spec.node_pools[*].accelerator.count` is per pool. A unit
    survives when only one side has it (bandwidth per accelerator); the same unit on both sides
    cancels (a plain number). Items where a path is absent are passed over; the rule is skipped
    when no item has them all.
    """
    paths = params.numerator + (params.denominator or [])
    widest = max(paths, key=lambda p: p.wildcards)
    bindings = [b for _, value, b in walk(_typed(review, params), widest) if value is not MISSING]
    absent = []
    for binding in bindings or [()]:
        try:
            n, n_kind = _product(review, params, params.numerator, binding)
            d, d_kind = _product(review, params, params.denominator or [], binding)
        except _Absent as exc:
            absent.append(str(exc))
            continue
        if d == 0:
            continue
        if d_kind and d_kind != n_kind:
            raise ParamError("denominator", f"divides {n_kind or 'a number'} by {d_kind}: put the unit on the numerator or on both sides")
        kind = None if d_kind else n_kind
        subject = " x ".join(render(p.parts, binding) for p in params.numerator)
        if params.denominator:
            subject += " / " + " x ".join(render(p.parts, binding) for p in params.denominator)
        where = next(w for w, _, _ in walk(_typed(review, params), params.numerator[0], binding))
        hit = _bounds(review, params, where, n / d, kind, _human(n / d, kind), subject)
        if hit:
            yield hit
    if absent and len(absent) == len(bindings or [()]):
        raise Skip(f"{absent[0]} is not in the {params.document}")
