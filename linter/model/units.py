"""Strict parsing of quantities written with units.

Every quantity in a spec is a string with a unit. Parsing never guesses: `GB` is not `GiB`,
`Gb` (bits) is not `GB` (bytes), and a bare number where a unit is required is an error
(`MissingUnit`, reported as SPEC005). Values are kept in base units: bytes, bits per second,
seconds, a fraction for percentages, a plain number for counts.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache

_NUMBER = r"[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?"

# unit -> multiplier into the base unit of each kind
SIZE_UNITS = {
    "B": 1,
    "KB": 10**3, "kB": 10**3, "MB": 10**6, "GB": 10**9, "TB": 10**12, "PB": 10**15, "EB": 10**18,
    "KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40, "PiB": 2**50, "EiB": 2**60,
}
# rates in bits per second; byte rates are 8x
_BIT_RATE = {"bps": 1, "Kbps": 10**3, "Mbps": 10**6, "Gbps": 10**9, "Tbps": 10**12}
RATE_UNITS: dict[str, float] = {}
for _u, _m in _BIT_RATE.items():
    RATE_UNITS[_u] = _m
    if _u != "bps":
        RATE_UNITS[_u[:-3] + "b/s"] = _m
for _u, _m in SIZE_UNITS.items():
    RATE_UNITS[_u + "/s"] = _m * 8
    if "i" not in _u and _u not in ("B", "kB"):
        RATE_UNITS[_u + "ps"] = _m * 8
BYTE_RATE_UNITS = frozenset(u for u in RATE_UNITS if "B" in u)

COUNT_SUFFIXES = {"": 1, "K": 10**3, "M": 10**6, "B": 10**9, "T": 10**12}

_DAY = 86400
DURATION_UNITS = {
    "s": 1, "sec": 1, "second": 1, "seconds": 1,
    "m": 60, "min": 60, "minute": 60, "minutes": 60,
    "h": 3600, "hr": 3600, "hour": 3600, "hours": 3600,
    "d": _DAY, "day": _DAY, "days": _DAY,
    "w": 7 * _DAY, "week": 7 * _DAY, "weeks": 7 * _DAY,
    # a month is a twelfth of a Julian year, so 12 months == 1 year exactly
    "month": 365.25 / 12 * _DAY, "months": 365.25 / 12 * _DAY,
    "y": 365.25 * _DAY, "year": 365.25 * _DAY, "years": 365.25 * _DAY,
}

# what a money amount may be priced per (`0.05 USD/GB`, `2.10 USD/hour`)
MONEY_PER = frozenset(SIZE_UNITS) | {"hour", "month", "year"}

KIND_HINTS = {
    "size": "a data size, e.g. 80GB or 1.5TiB",
    "rate": "a rate, e.g. 400Gbps (bits per second) or 50GB/s (bytes per second)",
    "count": "a count, e.g. 70B or 2T",
    "duration": "a duration, e.g. 2h, 45d or 36 months",
    "percent": "a percentage, e.g. 99.5%",
    "money": "an amount with a currency code, e.g. 2.10 USD or 0.05 USD/GB",
}


# the largest value read, in base units: far above any real figure (10^60 bytes, bits per second, seconds,
# dollars), and low enough that the products and sums the rules form (count x rate x hours) stay finite
MAX_VALUE = 1e60
BASE_UNITS = {"size": " bytes", "rate": " bits per second", "count": "", "duration": " seconds", "money": ""}


class UnitError(ValueError):
    """The text is not a valid quantity of the expected kind."""


class MissingUnit(UnitError):
    """A bare number was written where a unit is required (SPEC005)."""


@dataclass(frozen=True)
class Quantity:
    """A parsed quantity: its value in base units, its kind, and the text the user wrote."""

    value: float
    kind: str
    text: str
    unit: str = ""
    currency: str = ""  # money only
    per: str = ""  # money only: what the price is per

    def __str__(self) -> str:
        return self.text

    @property
    def in_bytes(self) -> bool:
        """True when a rate was written in bytes per second."""
        return self.unit in BYTE_RATE_UNITS


def _alternatives(units) -> str:
    return "|".join(re.escape(u) for u in sorted(units, key=lambda u: (-len(u), u)))  # longest first, stable


PATTERNS = {
    "size": rf"^({_NUMBER}) ?({_alternatives(SIZE_UNITS)})$",
    "rate": rf"^({_NUMBER}) ?({_alternatives(RATE_UNITS)})$",
    "count": rf"^({_NUMBER}) ?({_alternatives(k for k in COUNT_SUFFIXES if k)})?$",
    "duration": rf"^({_NUMBER}) ?({_alternatives(DURATION_UNITS)})$",
    "percent": rf"^({_NUMBER}) ?%$",
    "money": rf"^({_NUMBER}) ([A-Z]{{3}})(?:/({_alternatives(MONEY_PER)}))?$",
}
POSITIVE = ("size", "rate", "count", "duration")  # zero of these means nothing (a quote leaves out what it lacks)
_NON_ZERO = r"(?=[0-9]*(?:\.[0-9]*)?[1-9])"  # a digit other than 0 before the exponent
SCHEMA_PATTERNS = {kind: p.replace("^", "^" + _NON_ZERO, 1) if kind in POSITIVE else p for kind, p in PATTERNS.items()}
_COMPILED = {kind: re.compile(p) for kind, p in PATTERNS.items()}
_BARE = re.compile(rf"^{_NUMBER}$")


def _diagnose(text: str, kind: str) -> str:
    """Explain why `text` is not a `kind`, naming the likely mix-up."""
    m = re.match(rf"^({_NUMBER}) ?(.*)$", text)
    unit = m.group(2) if m else ""
    if kind == "size" and unit in RATE_UNITS and unit not in SIZE_UNITS:
        return f"{text!r} is a rate; a data size has no '/s'"
    if kind == "size" and re.fullmatch(r"[KMGTP]?b", unit):
        return f"{unit!r} is bits; a data size is written in bytes ({unit[:-1]}B or {unit[:-1]}iB)"
    if kind == "rate" and unit in SIZE_UNITS:
        return f"{text!r} is a size; a rate needs a time unit ({unit}/s, or bits as {unit[0]}bps)"
    if kind == "money" and text.startswith(("$", "€", "£")):
        return f"{text!r}: write the currency as a code after the amount, e.g. {text[1:]} USD"
    if kind == "duration" and unit in ("M", "mo"):
        return f"{unit!r} is ambiguous: write 'months' or 'min'"
    if m and unit:
        return f"unknown unit {unit!r} in {text!r}; expected {KIND_HINTS[kind]}"
    return f"{text!r} is not {KIND_HINTS[kind]}"


def parse(text: object, kind: str) -> Quantity:
    """Parse `text` as a quantity of `kind` or raise `UnitError` / `MissingUnit`."""
    if isinstance(text, bool) or not isinstance(text, (str, int, float)):
        raise UnitError(f"expected {KIND_HINTS[kind]}, found {type(text).__name__}")
    if not isinstance(text, str):
        if kind == "count" and (isinstance(text, int) or text.is_integer()):
            text = repr(int(text))  # 4.0 is 4 and -0.0 is 0, as JSON Schema's integer sees them
        elif kind == "count":
            raise UnitError(f"{text} is not a whole count; expected {KIND_HINTS[kind]}")
        else:
            raise MissingUnit(f"{text} has no unit; expected {KIND_HINTS[kind]}")
    raw = text  # no stripping: the schema's pattern and the parser accept exactly the same strings
    m = _COMPILED[kind].match(raw)
    if not m:
        if _BARE.match(raw) and kind != "count":
            raise MissingUnit(f"{raw!r} has no unit; expected {KIND_HINTS[kind]}")
        raise UnitError(_diagnose(raw, kind))
    number = float(m.group(1))
    if not math.isfinite(number):
        raise UnitError(f"{raw!r} is not a finite number")
    if number == 0 and kind in POSITIVE:
        raise UnitError(f"{raw!r} is zero: state the figure, or leave the key out when there is none")
    if kind == "money":
        quantity = Quantity(number, kind, raw, currency=m.group(2), per=m.group(3) or "")
    elif kind == "percent":
        quantity = Quantity(number / 100, kind, raw, "%")
    else:
        unit = m.group(2) or ""
        table = {"size": SIZE_UNITS, "rate": RATE_UNITS, "count": COUNT_SUFFIXES, "duration": DURATION_UNITS}[kind]
        quantity = Quantity(number * table[unit], kind, raw, unit)
    if quantity.value > MAX_VALUE:  # 1.7e308EiB is inf in bytes, and a product of two figures near the limit would be
        limit = f"{MAX_VALUE * 100:g}%" if kind == "percent" else f"{MAX_VALUE:g}{BASE_UNITS[kind] or (' ' + quantity.currency).rstrip()}"
        raise UnitError(f"{raw!r} is out of range: over {limit}, far beyond any real figure")
    return quantity


@lru_cache(maxsize=4096, typed=True)
def parsed(text: str | int | float, kind: str) -> Quantity:
    """`parse`, once for each text that repeats across files (80GB, 400Gbps): a Quantity is frozen."""
    return parse(text, kind)


def _trim(number: float) -> str:
    text = f"{number:.4g}" if number < 1e4 else f"{number:.6g}"
    return text.replace("e+", "e")


def human(value: float, kind: str) -> str:
    """Format a base-unit value for messages, in the unit people quote it in."""
    if value:  # 0.0 and -0.0 read differently but are one key of a cache
        return _cached_human(value, kind)
    return _human(value, kind)


def _human(value: float, kind: str) -> str:
    if kind == "size":
        for unit in ("PB", "TB", "GB", "MB", "KB"):
            if value >= SIZE_UNITS[unit]:
                return f"{_trim(value / SIZE_UNITS[unit])} {unit}"
        return f"{_trim(value)} B"
    if kind == "rate":
        for unit in ("Tbps", "Gbps", "Mbps"):
            if value >= RATE_UNITS[unit]:
                return f"{_trim(value / RATE_UNITS[unit])} {unit}"
        return f"{_trim(value)} bps"
    if kind == "byte_rate":
        for unit in ("TB/s", "GB/s", "MB/s"):
            if value >= RATE_UNITS[unit]:
                return f"{_trim(value / RATE_UNITS[unit])} {unit}"
        return f"{_trim(value / 8)} B/s"
    if kind == "count":
        for suffix in ("T", "B", "M", "K"):
            if value >= COUNT_SUFFIXES[suffix]:
                return f"{_trim(value / COUNT_SUFFIXES[suffix])}{suffix}"
        return _trim(value)
    if kind == "duration":
        for unit, secs in (("day", _DAY), ("hour", 3600), ("minute", 60), ("second", 1)):
            if value >= secs or unit == "second":
                number = _trim(value / secs)
                return f"{number} {unit}{'' if number == '1' else 's'}"
    if kind == "percent":
        return f"{_trim(value * 100)}%"
    raise ValueError(f"no human format for kind {kind!r}")


_cached_human = lru_cache(maxsize=4096)(_human)  # the figures a message quotes repeat from file to file
