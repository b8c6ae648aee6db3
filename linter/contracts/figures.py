"""The figures a buyer decides on, read from a contract by what its sentences say, or not at all.

Each reader returns a `Figure` (the value, the clause it was read from and the words), an
`Unplaced` (the contract states candidates that disagree or that no reading can place: the
estimate reports the figure as not stated and quotes them), or None (nothing stated).

- availability: a structured `sla.availability`; else a sentence whose subject is the service level
  (availability, uptime, Monthly Uptime Percentage, "will be available") with the percentage
  introduced as the level ("at least", "of", "targets", "aims for", "Uptime: 99.5%", "99% availability");
  else the top tier of a credit table (a Markdown table with a credit column: credits start below the
  committed level). Never a credit amount, a lower tier's threshold, a fee or a discount: a percentage
  after "below", "less than", "drops", "falls" or next to credit, fee, discount, charge words is no level.
- price: `pricing.accelerator_hour`, `node_hour`, `accelerator_month` or `month` (the whole
  reservation), else a sentence stating one of those bases ("2.10 USD per GPU-hour", "$19 per
  node-hour", "1,500 USD per GPU per month", "48,000 USD per month"); the estimate converts with the
  pool's accelerator count.
- term: `spec.term`, else a sentence about the term, commitment or reservation stating months or years
  ("twelve (12) months", "36-month term", "3 months from the Delivery Date"); not a notice period, a
  payment period or a renewal.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from clusterlint.contracts.folded import Folded
from clusterlint.model import units


class Figure(NamedTuple):
    value: object  # a fraction, a units.Quantity or seconds
    source: str  # "contract clause 2.1", "contract sla.availability"
    words: str  # the words it was read from ("" for a structured field)
    basis: str = ""  # price only: accelerator-hour, node-hour, accelerator-month, month

    @property
    def evidence(self) -> str:
        return f"{self.source}: {self.words!r}" if self.words else self.source


class Unplaced(NamedTuple):
    what: str
    candidates: tuple  # "clause 2.1: '...'" each

    @property
    def text(self) -> str:
        return f"{self.what} not stated: the contract's candidates disagree or cannot be placed ({'; '.join(self.candidates)})"


def _texts(contract):
    from clusterlint.contracts.texts import texts

    return [t for t in texts(contract) if t.kind == "operative"]


def _sentences(text: str):
    from clusterlint.contracts.sentences import spans

    for start, end in spans(text):
        yield text[start:end]


def _quote(sentence: str, match: re.Match | None = None) -> str:
    words = " ".join(sentence.split())
    return words if len(words) <= 160 else words[:157] + "..."


def _decide(what: str, readings: list) -> Figure | Unplaced | None:
    """One reading, or several that agree: the first; several that disagree: Unplaced."""
    if not readings:
        return None
    values = {round(r.value, 9) if isinstance(r.value, float) else (r.value.value, r.value.currency, r.basis) if hasattr(r.value, "currency") else r.value
              for r in readings}
    if len(values) == 1:
        return readings[0]
    return Unplaced(what, tuple(f"{r.source.removeprefix('contract ')}: {r.words!r}" for r in readings))


# ---- availability

_PERCENT = Folded(r"(?<![\w.])(\d{1,3}(?:\.\d+)?)\s?(?:%|percent\b|per\s?cent\b)")
_SUBJECT = Folded(r"\b(?:availab\w*|uptime|service\s+level|up\s+time)\b")
_LEVEL_BEFORE = Folded(
    r"(?:\bat\s+least|\bno\s+less\s+than|\bnot\s+less\s+than|\bequal\s+to\s+or\s+(?:greater|more)\s+than|\bminimum\s+of|\bof|>=|≥"
    r"|\btargets?|\baims?\s+for|\bcommits?\s+to|\bguarantees?|\bwill\s+be|\bis|\bat|:|=)[\s*]*$",
)
_LEVEL_AFTER = Folded(r"^\s*(?:monthly\s+|annual\s+)?(?:availability|uptime)\b")
_NOT_LEVEL_BEFORE = Folded(r"\b(?:below|less\s+than|lower\s+than|under|drops?|falls?|fewer|credit\w*|discount\w*|fees?|refund\w*|rebate\w*|charges?)\b|<")
_NOT_LEVEL_AFTER = Folded(r"^\W{0,3}(?:\w+\W+){0,4}?(?:credit\w*|discount\w*|fees?|charges?|invoice\w*|refund\w*|rebate\w*|off|price|bill\w*|surcharge)\b")


def _level(sentence: str, match: re.Match) -> bool:
    """Whether the percentage `match` states the service level of a sentence about it."""
    value = float(match.group(1))
    if not 50 <= value <= 100:
        return False
    before = sentence[max(0, match.start() - 40) : match.start()]
    after = sentence[match.end() : match.end() + 40]
    if _NOT_LEVEL_AFTER.search(after) or _NOT_LEVEL_BEFORE.search(before):
        return False
    return bool(_LEVEL_AFTER.match(after) or (_SUBJECT.search(sentence, 0, match.start()) and _LEVEL_BEFORE.search(before)))


_ROWS = re.compile(r"\|\s+\|")
_CREDIT_HEADER = Folded(r"credit|refund|compensation|discount")


def credit_table_top(text: str) -> float | None:
    """The highest threshold of a Markdown credit table (a fraction): the level below which credits
    start. None when `text` holds no table with a credit column and a threshold column."""
    if text.count("|") < 6:
        return None
    rows = [[c.strip() for c in row.strip().strip("|").split("|")] for row in _ROWS.split(text[text.index("|"):])]
    if len(rows) < 2:
        return None
    header = rows[0]
    credit = [i for i, cell in enumerate(header) if _CREDIT_HEADER.search(cell)]
    if not credit or len(header) < 2:
        return None
    thresholds = [float(m.group(1)) for row in rows[1:] for i, cell in enumerate(row) if i not in credit and i < len(header)
                  for m in _PERCENT.finditer(cell)]
    thresholds = [t for t in thresholds if t <= 100]
    return max(thresholds) / 100 if thresholds else None


def availability(contract) -> Figure | Unplaced | None:
    """The committed availability (a fraction)."""
    if contract.spec.sla.availability is not None:
        return Figure(contract.spec.sla.availability.value, "contract sla.availability", "")
    stated, tables, previous = [], [], "the start"
    for item in _texts(contract):
        top = credit_table_top(item.text)
        if top is not None:
            tables.append(Figure(top, f"contract credit table after {previous}", f"top tier of the credit table: {top:.2%}"))
            continue
        previous = item.label
        if not _PERCENT.search(item.text) or not (_SUBJECT.search(item.text) or _LEVEL_AFTER.search(item.text)):
            continue
        for sentence in _sentences(item.text):
            for match in _PERCENT.finditer(sentence):
                if _level(sentence, match):
                    stated.append(Figure(float(match.group(1)) / 100, f"contract {item.label}", _quote(sentence)))
    return _decide("availability", stated + tables)


# ---- price

_AMOUNT = r"(?:(?P<symbol>[$€£])\s?(?P<n1>\d[\d,]*(?:\.\d+)?)|(?<![\d.,])(?P<n2>\d[\d,]*(?:\.\d+)?)\s?(?P<code>USD|EUR|GBP))"
_GPU = r"(?:GPU|accelerator)s?"
_PRICE = Folded(
    _AMOUNT + r"\s*(?:(?:per|/|an?|each)\s*(?:"
    rf"(?P<gh>{_GPU}[\s-]?(?:hour|hr|h)\b)|(?P<nh>(?:node|server|instance)[\s-]?(?:hour|hr|h)\b)"
    rf"|(?P<gm>{_GPU}[\s-]?month\b|{_GPU}\s+(?:per|/|a|each)\s*month\b)|(?P<m>(?:calendar\s+)?month\b))"
    rf"|(?:per|/)\s*(?:{_GPU}|reserved\s+{_GPU})\s+(?:per|/|a|each)\s*(?P<gm2>month|hour)\b)",
)
_SYMBOLS = {"$": "USD", "€": "EUR", "£": "GBP"}
_FIELDS = (("accelerator_hour", "accelerator-hour"), ("node_hour", "node-hour"), ("accelerator_month", "accelerator-month"), ("month", "month"))


def _basis(match: re.Match) -> str:
    if match.group("gh") or match.group("gm2") and match.group("gm2").lower() == "hour":
        return "accelerator-hour"
    if match.group("nh"):
        return "node-hour"
    if match.group("gm") or match.group("gm2"):
        return "accelerator-month"
    return "month"


def price(contract) -> Figure | Unplaced | None:
    """The price and its basis: a structured pricing field, else the operative sentences stating one."""
    pricing = contract.spec.pricing
    for name, basis in _FIELDS:
        value = getattr(pricing, name, None)
        if value is not None:
            return Figure(value, f"contract pricing.{name}", "", basis)
    found = []
    for item in _texts(contract):
        for sentence in _sentences(item.text):
            for match in _PRICE.finditer(sentence):
                before = sentence[max(0, match.start() - 40) : match.start()]
                if re.search(r"\b(?:credit\w*|discount\w*|penalt\w*|refund\w*|late)\b", before, re.IGNORECASE):
                    continue  # an extra, a remedy or a discount is no price of the accelerators
                currency = _SYMBOLS.get(match.group("symbol") or "", (match.group("code") or "").upper())
                number = (match.group("n1") or match.group("n2")).replace(",", "")
                found.append(Figure(units.parse(f"{number} {currency}", "money"), f"contract {item.label}", _quote(sentence), _basis(match)))
    return _decide("price", found)


# ---- term

_NUMBERS = {w: n for n, w in enumerate("one two three four five six seven eight nine ten eleven twelve".split(), 1)}
_NUMBERS.update({"eighteen": 18, "twenty-four": 24, "thirty-six": 36, "forty-eight": 48, "sixty": 60})
_TERM_SUBJECT = Folded(r"\b(?:term|commitment|committed|reservation|reserved|minimum\s+period)\b")
_SPAN = Folded(
    r"(?:(?P<word>[a-z-]+)\s+\((?P<n1>\d+)\)|(?<![\d.])(?P<n2>\d+))[\s-]+(?P<unit>months?|years?)\b")
_NOT_TERM = Folded(r"\b(?:notice|renew\w*|invoice\w*|payment|pay|paid|terminat\w*|extend\w*|after\s+the\s+end|within)\b")


def term(contract) -> Figure | Unplaced | None:
    """The contract's term (seconds) and where it was read."""
    if contract.spec.term is not None:
        return Figure(contract.spec.term.value, "contract term", "")
    found = []
    for item in _texts(contract):
        for sentence in _sentences(item.text):
            if not _TERM_SUBJECT.search(sentence) or _NOT_TERM.search(sentence):
                continue
            for match in _SPAN.finditer(sentence):
                n = int(match.group("n1") or match.group("n2"))
                if match.group("word") and _NUMBERS.get(match.group("word").lower(), n) != n:
                    continue  # "twelve (6) months": the words disagree
                unit = match.group("unit").lower().rstrip("s")
                found.append(Figure(units.parse(f"{n} {unit}s" if n != 1 else f"1 {unit}", "duration").value, f"contract {item.label}", _quote(sentence)))
    return _decide("term", found)


def reserved(contract) -> bool | None:
    """Whether the term's capacity is owed in full: `pricing.commitment`, else True when a term is stated."""
    commitment = getattr(contract.spec.pricing, "commitment", None)
    if commitment is not None:
        return commitment == "reserved"
    return None
