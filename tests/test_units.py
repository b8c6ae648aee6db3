"""Strict unit parsing: exact values, the mix-ups it refuses, and properties."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, strategies as st

from clusterlint.model import units


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
    """Exactly the same strings, but for one thing a pattern cannot say: a figure over MAX_VALUE base
    units ('1E100' as a count) is well-formed by the schema and refused by the parser as out of range."""
    matches = re.search(units.SCHEMA_PATTERNS[kind], text) is not None
    try:
        units.parse(text, kind)
        parsed = True
    except units.UnitError as exc:
        parsed = False
        if "is out of range" in str(exc):
            assert matches, text  # the range is the only thing the parser refuses that the pattern accepts
            return
    assert parsed == matches


def test_the_range_limit_is_the_parsers_own():
    assert re.search(units.SCHEMA_PATTERNS["count"], "1E100")
    with pytest.raises(units.UnitError, match="out of range"):
        units.parse("1E100", "count")


# Every unit each kind accepts, with its multiplier written from its definition: SI prefixes are
# powers of 1000, binary ones powers of 1024, a byte is 8 bits, a day 86,400 s, a week 7 days,
# a year 365.25 days (Julian) and a month a twelfth of it.
K, Ki, DAY, YEAR = 1000, 1024, 24 * 60 * 60, 365.25 * 24 * 60 * 60
SIZES = {"B": 1, "KB": K, "kB": K, "MB": K**2, "GB": K**3, "TB": K**4, "PB": K**5, "EB": K**6,
         "KiB": Ki, "MiB": Ki**2, "GiB": Ki**3, "TiB": Ki**4, "PiB": Ki**5, "EiB": Ki**6}
BIT_RATES = {"bps": 1, "Kbps": K, "Mbps": K**2, "Gbps": K**3, "Tbps": K**4,
             "Kb/s": K, "Mb/s": K**2, "Gb/s": K**3, "Tb/s": K**4}
BYTE_RATES = {**{f"{u}/s": 8 * m for u, m in SIZES.items()},
              **{f"{u}ps": 8 * m for u, m in SIZES.items() if u in ("KB", "MB", "GB", "TB", "PB", "EB")}}
COUNTS = {"": 1, "K": K, "M": K**2, "B": K**3, "T": K**4}
DURATIONS = {**dict.fromkeys(["s", "sec", "second", "seconds"], 1), **dict.fromkeys(["m", "min", "minute", "minutes"], 60),
             **dict.fromkeys(["h", "hr", "hour", "hours"], 3600), **dict.fromkeys(["d", "day", "days"], DAY),
             **dict.fromkeys(["w", "week", "weeks"], 7 * DAY), **dict.fromkeys(["month", "months"], YEAR / 12),
             **dict.fromkeys(["y", "year", "years"], YEAR)}
EVERY_UNIT = ([("size", u, m) for u, m in SIZES.items()] + [("rate", u, m) for u, m in {**BIT_RATES, **BYTE_RATES}.items()]
              + [("count", u, m) for u, m in COUNTS.items()] + [("duration", u, m) for u, m in DURATIONS.items()])


@pytest.mark.parametrize("kind, unit, multiplier", EVERY_UNIT)
def test_every_unit_has_its_defined_value(kind, unit, multiplier):
    assert units.parse(f"3{unit}", kind).value == pytest.approx(3 * multiplier, rel=1e-12)
    assert units.parse(f"2.5 {unit}" if unit else "2.5", kind) == units.Quantity(
        pytest.approx(2.5 * multiplier, rel=1e-12), kind, f"2.5 {unit}" if unit else "2.5", unit)


def test_the_tables_hold_exactly_these_units():
    assert (set(units.SIZE_UNITS), set(units.RATE_UNITS), set(units.COUNT_SUFFIXES), set(units.DURATION_UNITS)) == (
        set(SIZES), set(BIT_RATES) | set(BYTE_RATES), set(COUNTS), set(DURATIONS))
    assert units.MONEY_PER == set(SIZES) | {"hour", "month", "year"}


@pytest.mark.parametrize("text, in_bytes", [
    ("50GB/s", True), ("50GBps", True), ("8B/s", True), ("1KiB/s", True), ("400Gbps", False), ("400Gb/s", False), ("9bps", False)])
def test_a_rate_remembers_whether_it_was_written_in_bytes(text, in_bytes):
    assert units.parse(text, "rate").in_bytes is in_bytes


@pytest.mark.parametrize("text, kind, value, extra", [
    ("2.10 USD", "money", 2.10, ("USD", "")),
    ("2.10 EUR/hour", "money", 2.10, ("EUR", "hour")),
    ("0.05 USD/GiB", "money", 0.05, ("USD", "GiB")),
    ("0 USD", "money", 0, ("USD", "")),       # a price may be zero
    ("0%", "percent", 0, ("", "")),           # so may a percentage
    ("100 %", "percent", 1, ("", "")),
    ("12.5%", "percent", 0.125, ("", "")),
])
def test_money_and_percentages(text, kind, value, extra):
    q = units.parse(text, kind)
    assert (q.value, q.kind, q.text, (q.currency, q.per)) == (pytest.approx(value), kind, text, extra)
    assert q.unit == ("%" if kind == "percent" else "")


@pytest.mark.parametrize("value, kind, message", [
    (True, "count", "expected a count, e.g. 70B or 2T, found bool"),
    (None, "size", "expected a data size, e.g. 80GB or 1.5TiB, found NoneType"),
    ([1], "rate", "expected a rate, e.g. 400Gbps (bits per second) or 50GB/s (bytes per second), found list"),
    (4.5, "count", "4.5 is not a whole count; expected a count, e.g. 70B or 2T"),
    (400, "rate", "400 has no unit; expected a rate, e.g. 400Gbps (bits per second) or 50GB/s (bytes per second)"),
    (2.5, "duration", "2.5 has no unit; expected a duration, e.g. 2h, 45d or 36 months"),
    ("80", "size", "'80' has no unit; expected a data size, e.g. 80GB or 1.5TiB"),
    (0, "count", "'0' is zero: state the figure, or leave the key out when there is none"),
    (-0.0, "count", "'0' is zero: state the figure, or leave the key out when there is none"),
    ("0GB", "size", "'0GB' is zero: state the figure, or leave the key out when there is none"),
    ("0.0e3 Gbps", "rate", "'0.0e3 Gbps' is zero: state the figure, or leave the key out when there is none"),
    ("0s", "duration", "'0s' is zero: state the figure, or leave the key out when there is none"),
    ("1e999GB", "size", "'1e999GB' is not a finite number"),
    ("-1GB", "size", "'-1GB' is not a data size, e.g. 80GB or 1.5TiB"),
    ("5 ", "size", "'5 ' is not a data size, e.g. 80GB or 1.5TiB"),
    ("", "money", "'' is not an amount with a currency code, e.g. 2.10 USD or 0.05 USD/GB"),
    ("€5", "size", "'€5' is not a data size, e.g. 80GB or 1.5TiB"),
    ("€5", "money", "'€5': write the currency as a code after the amount, e.g. 5 USD"),
    ("£5", "money", "'£5': write the currency as a code after the amount, e.g. 5 USD"),
    ("5 usd", "money", "unknown unit 'usd' in '5 usd'; expected an amount with a currency code, e.g. 2.10 USD or 0.05 USD/GB"),
    ("5 USD/day", "money", "unknown unit 'USD/day' in '5 USD/day'; expected an amount with a currency code, e.g. 2.10 USD or 0.05 USD/GB"),
    ("8b", "size", "'b' is bits; a data size is written in bytes (B or iB)"),
    ("8Tb", "size", "'Tb' is bits; a data size is written in bytes (TB or TiB)"),
    ("8Kb/s", "size", "'8Kb/s' is a rate; a data size has no '/s'"),
    ("8Gbps", "duration", "unknown unit 'Gbps' in '8Gbps'; expected a duration, e.g. 2h, 45d or 36 months"),
    ("8Gb", "rate", "unknown unit 'Gb' in '8Gb'; expected a rate, e.g. 400Gbps (bits per second) or 50GB/s (bytes per second)"),
    ("8 TiB", "rate", "'8 TiB' is a size; a rate needs a time unit (TiB/s, or bits as Tbps)"),
    ("8GB", "count", "unknown unit 'GB' in '8GB'; expected a count, e.g. 70B or 2T"),
    ("8GB", "duration", "unknown unit 'GB' in '8GB'; expected a duration, e.g. 2h, 45d or 36 months"),
    ("3mo", "duration", "'mo' is ambiguous: write 'months' or 'min'"),
    ("3mo", "count", "unknown unit 'mo' in '3mo'; expected a count, e.g. 70B or 2T"),
    ("3M", "size", "unknown unit 'M' in '3M'; expected a data size, e.g. 80GB or 1.5TiB"),
    ("8KiBps", "rate", "unknown unit 'KiBps' in '8KiBps'; expected a rate, e.g. 400Gbps (bits per second) or 50GB/s (bytes per second)"),
    ("8kBps", "rate", "unknown unit 'kBps' in '8kBps'; expected a rate, e.g. 400Gbps (bits per second) or 50GB/s (bytes per second)"),
    ("8Bps", "rate", "unknown unit 'Bps' in '8Bps'; expected a rate, e.g. 400Gbps (bits per second) or 50GB/s (bytes per second)"),
    ("8b/s", "rate", "unknown unit 'b/s' in '8b/s'; expected a rate, e.g. 400Gbps (bits per second) or 50GB/s (bytes per second)"),
    ("99.5 percent", "percent", "unknown unit 'percent' in '99.5 percent'; expected a percentage, e.g. 99.5%"),
    ("400", "rate", "'400' has no unit; expected a rate, e.g. 400Gbps (bits per second) or 50GB/s (bytes per second)"),
    ("80Gb", "size", "'Gb' is bits; a data size is written in bytes (GB or GiB)"),
    ("80GB", "rate", "'80GB' is a size; a rate needs a time unit (GB/s, or bits as Gbps)"),
    ("80GB/s", "size", "'80GB/s' is a rate; a data size has no '/s'"),
    ("$2.10", "money", "'$2.10': write the currency as a code after the amount, e.g. 2.10 USD"),
    ("3M", "duration", "'M' is ambiguous: write 'months' or 'min'"),
    ("400GBs", "rate", "unknown unit 'GBs' in '400GBs'; expected a rate, e.g. 400Gbps (bits per second) or 50GB/s (bytes per second)"),
])
def test_refusals_say_why(value, kind, message):
    with pytest.raises(units.UnitError) as info:
        units.parse(value, kind)
    assert str(info.value) == message
    assert isinstance(info.value, units.MissingUnit) == ("has no unit" in message)


@pytest.mark.parametrize("value, whole", [(8, "8"), (4.0, "4"), ("70 B", "70 B")])
def test_counts_may_be_plain_whole_numbers(value, whole):
    q = units.parse(value, "count")
    assert (q.text, q.value) == (whole, {"8": 8, "4": 4, "70 B": 70 * K**3}[whole])


@pytest.mark.parametrize("kind, accepted, refused", [
    ("size", ["1GB", "0.5GB", "1e0GB", "10 GiB", "0.01B"], ["0GB", "0.0GB", "00 GB", "0e5GB", "1 GB ", "1gb"]),
    ("rate", ["1Gbps", "0.1 GB/s"], ["0Gbps", "0.00 Gb/s"]),
    ("count", ["1", "10", "0.5K", "7e9"], ["0", "0.0", "0K"]),
    ("duration", ["1s", "0.5 h"], ["0s", "0.0d"]),
    ("percent", ["0%", "0.0 %", "99.5%"], ["%", "5"]),
    ("money", ["0 USD", "0.00 EUR/hour", "2 USD/TiB"], ["0USD", "2 USD/s"]),
])
def test_schema_patterns_refuse_zero_only_where_zero_means_nothing(kind, accepted, refused):
    pattern = re.compile(units.SCHEMA_PATTERNS[kind])
    assert [t for t in accepted if not pattern.search(t)] == []
    assert [t for t in refused if pattern.search(t)] == []


def test_a_quantity_is_immutable():
    q = units.parse("80GB", "size")
    with pytest.raises(AttributeError):
        q.value = 1
    assert {q, units.parse("80GB", "size")} == {q}
    assert str(q) == "80GB"


@pytest.mark.parametrize("value, kind, text", [
    (0.5, "size", "0.5 B"), (999, "size", "999 B"), (K, "size", "1 KB"), (1500, "size", "1.5 KB"), (K**2, "size", "1 MB"),
    (K**3, "size", "1 GB"), (K**4, "size", "1 TB"), (K**5, "size", "1 PB"), (1234567, "size", "1.235 MB"),
    (9999 * K**5, "size", "9999 PB"), (10_000 * K**5, "size", "10000 PB"), (12_345_678 * K**5 / 1000, "size", "12345.7 PB"),
    (K**8, "size", "1e09 PB"), (Ki**3, "size", "1.074 GB"),
    (1, "rate", "1 bps"), (999_999, "rate", "999999 bps"), (K**2, "rate", "1 Mbps"), (400 * K**3, "rate", "400 Gbps"),
    (K**4, "rate", "1 Tbps"), (3.2 * K**4, "rate", "3.2 Tbps"),
    (8000, "byte_rate", "1000 B/s"), (8 * K**2, "byte_rate", "1 MB/s"), (16 * K**3, "byte_rate", "2 GB/s"),
    (8 * K**4, "byte_rate", "1 TB/s"), (4, "byte_rate", "0.5 B/s"),
    (999, "count", "999"), (K, "count", "1K"), (K**2, "count", "1M"), (70 * K**3, "count", "70B"), (K**4, "count", "1T"),
    (0.5, "duration", "0.5 seconds"), (1, "duration", "1 second"), (59, "duration", "59 seconds"), (60, "duration", "1 minute"),
    (90, "duration", "1.5 minutes"), (3600, "duration", "1 hour"), (5400, "duration", "1.5 hours"), (DAY, "duration", "1 day"),
    (2 * DAY, "duration", "2 days"), (YEAR, "duration", "365.2 days"),
    (0.995, "percent", "99.5%"), (1, "percent", "100%"), (0.00001, "percent", "0.001%"),
])
def test_human_formats_in_the_unit_people_quote(value, kind, text):
    assert units.human(value, kind) == text


def test_human_refuses_a_kind_it_cannot_format():
    with pytest.raises(ValueError) as info:
        units.human(2.10, "money")
    assert str(info.value) == "no human format for kind 'money'"


def test_a_figure_read_before_does_not_stand_for_another_type():
    """Quantities are parsed once per written value for the whole run: `true` (equal to 1 in Python)
    is still refused after 1 was read, and 4.0 still reads as the count 4."""
    from pydantic import TypeAdapter, ValidationError

    from clusterlint.model import base as models

    count = TypeAdapter(models.Count)
    assert count.validate_python(1).value == 1.0 and count.validate_python(4.0).text == "4"
    with pytest.raises(ValidationError) as refused:
        count.validate_python(True)
    assert refused.value.errors()[0]["msg"] == "expected a count, e.g. 70B or 2T, found bool"
