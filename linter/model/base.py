"""Pydantic models of the document kinds: the single source of `schemas/*.schema.json`.

This module holds what the kinds share: quantities (strings with units, see `units.py`; the
schemas carry the same regular expression the parser uses, so an editor and `check-jsonschema`
accept exactly what clusterlint accepts), numbers, the base classes. Each kind's classes live in a
module of their own (`model.cluster`, `model.contract`, `model.workload`), so that checking a quote
creates only the quote's classes. `model(kind)` gives a kind's model; any of their classes can
also be imported from here (`from clusterlint.model.base import Contract`), which loads the module
that defines it.

No `from __future__ import annotations` in these modules: pydantic would then evaluate every
field's annotation from its text when it creates a class (about 15 M instructions of each check's
start-up); written as code, the interpreter evaluates them from the cached bytecode.
"""

import copy
from importlib import import_module
from typing import Annotated, Literal, Optional

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, model_validator
from pydantic_core import PydanticCustomError, core_schema

from clusterlint.model import units
from clusterlint.model.derived import Derived

API_VERSION = "clusterlint/v1"
SCHEMA_BASE = "https://clusterlint.dev/schemas/v1/"
KIND_MODULES = {"Cluster": "cluster", "Contract": "contract", "Workload": "workload"}


# Default factories are Python functions, not the builtins `list` and `dict`: pydantic reads a
# factory's signature when it builds a schema, and a builtin's signature is parsed from its text by
# `tokenize` (whose large regular expression is compiled on first use), about 15 M instructions of
# every check's start-up.
def _no_items() -> list:
    return []


def _no_entries() -> dict:
    return {}


class _Quantity:
    """A quantity of one kind as a field's type: parsed from its text before validation, written
    back as text, and shown in the JSON Schema as a string with the parser's pattern.

    The core schema is built once per kind and copied for each field: pydantic's BeforeValidator,
    PlainSerializer and WithJsonSchema, around the dataclass schema of Quantity, were worked through
    again for every one of the dozens of quantity fields whenever a model's schema was built (about
    20 M instructions of a quote's check). The inner schema carries a `ref`, as that dataclass
    schema did, so a quantity field gets no title of its own in the JSON Schema, which is unchanged.
    """

    def __init__(self, kind: str, description: str):
        self.kind = kind
        schema = {"type": "string", "pattern": units.SCHEMA_PATTERNS[kind], "description": description, "x-unit": kind}
        if kind == "count":
            schema = {"anyOf": [{"type": "integer", "minimum": 1}, schema], "description": description, "x-unit": kind}
        self.json = schema
        self.core = None

    def parse(self, value):
        if isinstance(value, units.Quantity):
            return value
        try:
            return units.parsed(value, self.kind) if isinstance(value, (str, int, float)) else units.parse(value, self.kind)
        except units.MissingUnit as exc:
            raise PydanticCustomError("missing_unit", str(exc)) from None
        except units.UnitError as exc:
            raise PydanticCustomError("unit", str(exc)) from None

    def __get_pydantic_core_schema__(self, source, handler):
        if self.core is None:
            self.core = core_schema.no_info_before_validator_function(
                self.parse, core_schema.is_instance_schema(units.Quantity, ref="clusterlint.units.Quantity"),
                serialization=core_schema.plain_serializer_function_ser_schema(str, info_arg=False, return_schema=core_schema.str_schema()))
        return copy.deepcopy(self.core)

    def __get_pydantic_json_schema__(self, schema, handler):
        return dict(self.json)


def _quantity(kind: str, description: str):
    return Annotated[units.Quantity, _Quantity(kind, description)]


Size = _quantity("size", "A data size: decimal (GB, TB) or binary (GiB, TiB) bytes, e.g. 80GB.")
Rate = _quantity("rate", "A rate: bits (Gbps, Gb/s) or bytes (GB/s, GBps) per second, e.g. 400Gbps.")
Count = _quantity("count", "A count, optionally with a suffix K, M, B (billion) or T (trillion), e.g. 70B.")
Duration = _quantity("duration", "A duration: s, min, h, d, w, months or years, e.g. 2h.")
Percent = _quantity("percent", "A percentage, e.g. 99.5%.")
Money = _quantity("money", "An amount and an ISO 4217 currency code, optionally per a unit, e.g. 2.10 USD or 0.05 USD/GB.")


def _not_bool(value):
    """YAML `true` and the string "4" are not numbers (JSON Schema agrees); 4.0 is still the integer 4."""
    if isinstance(value, (bool, str)):
        raise PydanticCustomError("number_type", f"expected a number, found {type(value).__name__} {value!r}")
    return value


MAX_INT = 2**63 - 1  # the largest integer pydantic reads (a float such as 9.2e18 is past it): the schema says so too
Positive = Annotated[int, Field(ge=1, le=MAX_INT), BeforeValidator(_not_bool)]
NonNegative = Annotated[int, Field(ge=0, le=MAX_INT), BeforeValidator(_not_bool)]
Flag = Annotated[bool, Field(strict=True)]


class Strict(BaseModel, Derived):
    """Unknown keys are errors: a typo like `nic_sped` must never be ignored. What a model works
    out from its fields, and the combinations it rejects, live in a base from `model.derived`."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    @model_validator(mode="after")
    def _problem(self):
        found = self.problem()
        if found is not None:
            kind, text = found
            raise ValueError(text) if kind == "value_error" else PydanticCustomError(kind, text)
        return self


class Envelope(Strict):
    apiVersion: Literal["clusterlint/v1"] = Field(description="Always clusterlint/v1.")


class Metadata(Strict):
    name: str = Field(min_length=1)
    vendor: Optional[str] = None
    source: Optional[str] = Field(None, description="Where the document comes from.")


def model(kind: str) -> type[Strict]:
    """The model of a document kind (Cluster, Contract, Workload), its module loaded on first use."""
    return getattr(import_module(f"{__package__}.{KIND_MODULES[kind]}"), kind)


def __getattr__(name: str):
    """`KINDS` (every kind's model) and the kinds' classes, each loading the module defining it."""
    if name.startswith("__"):
        raise AttributeError(name)  # the import system or a tool asking what kind of module this is
    if name == "KINDS":
        return {kind: model(kind) for kind in KIND_MODULES}
    for module in KIND_MODULES.values():
        found = getattr(import_module(f"{__package__}.{module}"), name, None)
        if found is not None:
            return found
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
