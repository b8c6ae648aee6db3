"""The cost of one quote for one workload, as a finance reviewer reads it.

- rate: the contract's price per accelerator-hour; a node-hour price / accelerators per node, a
  per-accelerator-month price / 730.5 h, a monthly price for the whole reservation / (reserved
  accelerators x 730.5 h). A month is a twelfth of a Julian year (`units`).
- usage: allocated accelerators x effective hours x rate.
- commitment (reserved paper only): reserved accelerators x term hours x rate. Paper with a term is a
  reservation unless `pricing.commitment: on-demand` says otherwise; the reserved accelerators are
  `pricing.reserved`, else the quote's pool.
- owed for compute: a reservation is owed in full, plus the hours the run outlasts the term at the
  same rate; on demand, the usage. Never below the commitment.
- extras (`pricing.extras`): a price per GB of storage per GB-month over the months billed (the term,
  or the effective time on demand) of the workload's data (dataset + kept checkpoints); a price per GB
  of anything else (egress) once per GB of that data; a price per month over the months billed; a
  price per hour over the hours billed; a bare amount once.
- owed: compute owed + extras, what the budget is judged on; total contract value: the same.
"""

from __future__ import annotations

from typing import NamedTuple

from clusterlint.engine.review import Skip
from clusterlint.model import units

MONTH_HOURS = units.DURATION_UNITS["month"] / 3600  # 730.5


class Item(NamedTuple):
    key: str
    label: str
    value: float
    formula: str
    sources: tuple


class Cost(NamedTuple):
    currency: str
    rate: float  # per accelerator-hour
    rate_how: str  # how the stated price was converted to a rate per accelerator-hour
    rate_source: str  # the clause or field and its words
    items: tuple  # Item: usage, commitment, compute owed, extras..., owed

    def get(self, key: str) -> Item | None:
        return next((i for i in self.items if i.key == key), None)

    @property
    def owed(self) -> float:
        return self.get("owed").value

    @property
    def evidence(self) -> tuple:
        return tuple(f"{i.label} {_money(i.value, self.currency)} = {i.formula} ({'; '.join(i.sources)})" for i in self.items)


def _money(value: float, currency: str) -> str:
    from clusterlint.estimate.sizing import fmt

    return f"{fmt(round(value))} {currency}"


def price_text(value: float) -> str:
    """A price as a price list writes it: 2.10, 98.32, 1,500.00; a rate with more decimals to 4 significant figures."""
    from clusterlint.estimate.sizing import fmt

    cents = value * 100
    return f"{value:,.2f}" if abs(cents - round(cents)) < 1e-6 else fmt(value)


def hourly(found, alloc, reserved: int) -> tuple[float, str]:
    """The price per accelerator-hour of a price `found` (a figures.Figure) and how it was converted."""
    from clusterlint.estimate.sizing import fmt

    price = found.value
    if found.basis == "node-hour":
        return price.value / alloc.per_node, f"{price.text} per node-hour / {alloc.per_node} accelerators per node"
    if found.basis == "accelerator-month":
        return price.value / MONTH_HOURS, f"{price.text} per accelerator-month / {fmt(MONTH_HOURS)} h"
    if found.basis == "month":
        return price.value / (reserved * MONTH_HOURS), f"{price.text} per month / ({reserved} reserved accelerators x {fmt(MONTH_HOURS)} h)"
    return price.value, f"{price.text} per accelerator-hour"


def cost(review, est) -> tuple[Cost | None, list]:
    """The cost of `est` (a sizing.Estimate) under the review's contract, and notes on what is unknown."""
    from clusterlint.contracts import figures
    from clusterlint.estimate.sizing import fmt
    from clusterlint.estimate.storage import required_storage

    contract = review.contract
    if contract is None:
        return None, ["cost unknown: no contract states a price"]
    notes = []
    found = figures.price(contract)
    if not isinstance(found, figures.Figure):
        return None, [found.text if found is not None else "cost unknown: the contract states no price per accelerator-hour, node-hour, accelerator-month or month"]
    term = figures.term(contract)
    if isinstance(term, figures.Unplaced):
        notes.append(term.text)
        term = None
    alloc = est.training.throughput.allocation
    stated = contract.spec.pricing.reserved
    reserved = stated or alloc.available
    reserved_source = "contract pricing.reserved" if stated else f"the quote's pool {alloc.pool_name!r}"
    commitment = figures.reserved(contract)
    reservation = term is not None and commitment is not False
    if commitment is True and term is None:
        notes.append("commitment not counted: pricing.commitment is reserved but no term is stated")
    rate, how = hourly(found, alloc, reserved)
    currency = found.value.currency
    price_src = found.evidence
    hours = est.hours
    items = [Item("usage", "usage", alloc.accelerators * hours * rate, f"{alloc.accelerators} x {fmt(hours)} h x {price_text(rate)} {currency}/h",
                  (f"rate: {how}, {price_src}", "hours: the effective time"))]
    if reservation:
        term_h = term.value / 3600
        value = reserved * term_h * rate
        items.append(Item("commitment", "commitment", value, f"{reserved} reserved x {fmt(term_h)} h term x {price_text(rate)} {currency}/h",
                          (f"reserved: {reserved_source}", f"term: {term.evidence}", f"rate: {price_src}")))
        over = max(0.0, hours - term_h)
        beyond = f"{alloc.accelerators} x {fmt(over)} h beyond the term x {price_text(rate)} {currency}/h"
        items.append(Item("compute", "compute owed", value + alloc.accelerators * over * rate,
                          f"commitment + {beyond}" if over else "commitment (the run ends within the term)",
                          ("a reservation is owed in full", "hours: the effective time")))
        billed_h, billed = term_h, "the term"
    else:
        items.append(Item("compute", "compute owed", items[0].value, "usage (on demand: only what is used is owed)",
                          ("no term stated" if term is None else "contract pricing.commitment on-demand",)))
        billed_h, billed = hours, "the effective time"
    total = items[-1].value
    try:
        data, data_how = required_storage(review.workload)
    except Skip:
        data, data_how = None, ""
    for name, extra in sorted(contract.spec.pricing.extras.items()):
        if extra.currency != currency:
            notes.append(f"extra {name} not counted: priced in {extra.currency}, the rate in {currency}")
            continue
        per = extra.per
        src = (f"contract pricing.extras.{name}",)
        if per in units.SIZE_UNITS:
            if data is None:
                notes.append(f"extra {name} not counted: the workload states no dataset size and no checkpoints")
                continue
            gb = data / units.SIZE_UNITS[per]
            if "storag" in name:
                months = billed_h / MONTH_HOURS
                value, formula = gb * extra.value * months, f"{fmt(gb)} {per} x {extra.text} x {fmt(months)} months ({billed})"
            else:
                value, formula = gb * extra.value, f"{fmt(gb)} {per} x {extra.text}"
            src += (f"data: {data_how} (workload)",)
        elif per == "month":
            months = billed_h / MONTH_HOURS
            value, formula = extra.value * months, f"{extra.text} x {fmt(months)} months ({billed})"
        elif per == "hour":
            value, formula = extra.value * billed_h, f"{extra.text} x {fmt(billed_h)} h ({billed})"
        elif per == "year":
            value, formula = extra.value * billed_h / (12 * MONTH_HOURS), f"{extra.text} x {fmt(billed_h / (12 * MONTH_HOURS))} years ({billed})"
        else:
            value, formula = extra.value, f"{extra.text} once"
        items.append(Item(f"extra:{name}", f"{name}", value, formula, src))
        total += value
    extras = [i.label for i in items if i.key.startswith("extra:")]
    terms = [items[1].formula] + ([beyond] if over else []) if reservation else [items[0].formula]
    terms += [i.formula for i in items if i.key.startswith("extra:")]
    items.append(Item("owed", "owed", total, " + ".join(terms),
                      ("compute owed" + "".join(f" + {name}" for name in extras), "what the contract bills; the budget is judged on it")))
    return Cost(currency, rate, how, price_src, tuple(items)), notes
