"""Strict unit parsing: exact values, the mix-ups it refuses, and properties."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, strategies as st

from clusterlint import units


@pytest.mark.parametrize(
    "text, kind, value",
    [
        ("80GB", "size", 80e9),
        ("80GiB", "size", 80 * 2**30),
        ("1.5 TB", "size", 1.5e12),
        ("400Gbps", "rate", 400e9),
        ("400Gb/s", "rate", 400e9),
        ("50GB/s", "rate", 400e9),
        ("50GBps", "rate", 400e9),
        ("70B", "count", 70e9),
        ("2T", "count", 2e12),
        ("7e9", "count", 7e9),
        ("2h", "duration", 7200),
        ("10min", "duration", 600),
        ("36 months", "duration", 3 * 365.25 * 86400),
        ("99.5%", "percent", 0.995),
    ],
)
def test_parses_exact_values(text, kind, value):
    assert units.parse(text, kind).value == pytest.approx(value)


def test_money_keeps_currency_and_per_unit():
    q = units.parse("0.05 USD/GB", "money")
    assert (q.value, q.currency, q.per) == (0.05, "USD", "GB")


@pytest.mark.parametrize(
    "text, kind, message",
    [
        ("400", "rate", "'400' has no unit; expected a rate, e.g. 400Gbps (bits per second) or 50GB/s (bytes per second)"),
        ("80Gb", "size", "'Gb' is bits; a data size is written in bytes (GB or GiB)"),
        ("80GB", "rate", "'80GB' is a size; a rate needs a time unit (GB/s, or bits as Gbps)"),
        ("80GB/s", "size", "'80GB/s' is a rate; a data size has no '/s'"),
        ("$2.10", "money", "'$2.10': write the currency as a code after the amount, e.g. 2.10 USD"),
        ("3M", "duration", "'M' is ambiguous: write 'months' or 'min'"),
        ("400GBs", "rate", "unknown unit 'GBs' in '400GBs'; expected a rate, e.g. 400Gbps (bits per second) or 50GB/s (bytes per second)"),
    ],
)
def test_refuses_to_guess(text, kind, message):
    with pytest.raises(units.UnitError) as info:
        units.parse(text, kind)
    assert str(info.value) == message


def test_bare_number_is_missing_unit_but_counts_need_none():
    with pytest.raises(units.MissingUnit):
        units.parse(400, "rate")
    assert units.parse(8, "count").value == 8


def test_booleans_are_not_numbers():
    with pytest.raises(units.UnitError):
        units.parse(True, "count")


numbers = st.decimals(min_value="0.001", max_value="100000", places=3).map(lambda d: format(d.normalize(), "f"))


@given(numbers, st.sampled_from(sorted(units.SIZE_UNITS)))
def test_size_round_trip(number, unit):
    q = units.parse(f"{number}{unit}", "size")
    assert q.value == pytest.approx(float(number) * units.SIZE_UNITS[unit])
    assert units.parse(q.text, "size") == q


@given(numbers, st.sampled_from(["K", "M", "G", "T"]))
def test_bytes_per_second_is_eight_bits_per_second(number, prefix):
    byte_rate = units.parse(f"{number}{prefix}B/s", "rate").value
    bit_rate = units.parse(f"{number}{prefix}bps", "rate").value
    assert byte_rate == pytest.approx(8 * bit_rate)


@given(numbers, st.sampled_from(["size", "rate", "duration"]))
def test_human_format_parses_back_close(number, kind):
    unit = {"size": "GB", "rate": "Gbps", "duration": "h"}[kind]
    value = units.parse(f"{number}{unit}", kind).value
    text = units.human(value, kind).replace(" ", "").replace("days", "d").replace("day", "d").replace("hours", "h").replace("hour", "h").replace("minutes", "min").replace("minute", "min").replace("seconds", "s").replace("second", "s")
    assert units.parse(text, kind).value == pytest.approx(value, rel=1e-3)


@given(st.text(alphabet="0123456789.eE+-KMGTPBbiKps/% USDmonthsyear", max_size=12), st.sampled_from(sorted(units.SCHEMA_PATTERNS)))
def test_schema_pattern_accepts_exactly_what_the_parser_accepts(text, kind):
    matches = re.search(units.SCHEMA_PATTERNS[kind], text) is not None
    try:
        units.parse(text, kind)
        parsed = True
    except units.UnitError:
        parsed = False
    assert parsed == matches
