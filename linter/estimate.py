"""Pre-purchase figures from the same specs and rules the linter uses.

- `sizing`: the seed's "ML instant math": the fewest accelerators that hold the model for training
  (params x 18 bytes x 1.25 / memory) and for serving (params x bytes per parameter x 1.25 / memory),
  with the constants of rules ACC001 and ACC002.
- `quote`: time to train (CST001's formula), checkpoint stalls (STO003's), the contract's
  availability, the resulting cost and whether the workload's deadline and budget hold.
- `compare`: the same for several quotes, ranked.

Every figure carries the inputs it was computed from and where each came from.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import catalog, units
from .engine import Skip
from .registry import builtin_rules

RANKING = {
    "fit": "quotes that meet both the workload's deadline and budget first, then those not known to miss either, "
           "then those that miss one; within each group the cheapest, then the fastest, then the best score",
    "time": "the shortest effective time first, then the cheapest, then the best score",
    "cost": "the cheapest first (unknown costs last), then the fastest, then the best score",
    "score": "the best score first, then the cheapest, then the fastest",
}


def sizing(workload, only: str | None = None) -> tuple[list[dict], tuple[str, str]]:
    """Accelerators needed to train and to serve the workload's model, per catalog accelerator, and
    the two formulas with the constants they used (ACC001's and ACC002's params)."""
    from clusterlint.rules.common import PRECISION_BYTES, ceil

    rules = builtin_rules()
    train, serve = rules["ACC001"].settings, rules["ACC002"].settings
    params = workload.spec.model.parameters.value
    per_param = PRECISION_BYTES[workload.spec.precision]
    rows = []
    for facts in catalog.load().values():
        if only and facts.id.lower() != only.lower():
            continue
        memory = facts.memory.value
        rows.append({
            "accelerator": facts.id,
            "memory": memory,
            "train": ceil(params * train.bytes_per_parameter * train.overhead / memory),
            "serve": ceil(params * per_param * serve.overhead / memory),
            "source": facts.cite("memory"),
        })
    if only and not rows:
        raise ValueError(f"accelerator {only!r} is not in the catalog ({catalog.suggest(only)})")
    count = units.human(params, "count")
    formulas = (
        f"train: {count} x {train.bytes_per_parameter:g} bytes x {train.overhead:g} / memory (ACC001 params)",
        f"serve: {count} x {per_param:g} bytes ({workload.spec.precision}) x {serve.overhead:g} / memory (ACC002 params)",
    )
    return rows, formulas


@dataclass
class Line:
    """One figure of an estimate: what it is, its value (None when unknown), how, and from what."""

    label: str
    value: float | None
    text: str
    how: str = ""
    sources: tuple = ()

    def as_json(self) -> dict:
        return {"label": self.label, "value": self.value, "text": self.text, "how": self.how, "sources": list(self.sources)}


@dataclass
class QuoteEstimate:
    file: str
    name: str
    lines: dict = field(default_factory=dict)  # key -> Line
    notes: list = field(default_factory=list)  # why a figure is unknown

    def value(self, key: str):
        line = self.lines.get(key)
        return None if line is None else line.value


def quote(review, file: str) -> QuoteEstimate:
    """Time, checkpoint overhead, availability, cost, deadline and budget of one quote."""
    from clusterlint.rules import cost, storage
    from clusterlint.rules.clauses import availability as committed_availability, hourly_price
    from clusterlint.rules.common import fmt, total_accelerators

    if review.cluster is None or review.workload is None:
        raise ValueError(f"{file}: an estimate needs a Cluster and a Workload (give --workload)")
    out = QuoteEstimate(file, review.cluster.metadata.name)
    rules = builtin_rules()
    n = total_accelerators(review.cluster)
    model = review.cluster.spec.node_pools[0].accelerator.model
    out.lines["accelerators"] = Line("accelerators", n, f"{n} x {model}", "node pools' count x accelerators per node", ("spec",))
    try:
        est = cost.estimate(review, rules["CST001"].settings)
    except Skip as exc:
        out.notes.append(f"time: {exc}")
        return out
    if est is None:
        out.notes.append("time: an inference workload has no training time")
        return out
    seconds = est["seconds"]
    out.lines["time"] = Line("time to train", seconds, units.human(seconds, "duration"), est["formula"], est["evidence"][:2])
    share = 0.0
    try:
        stall = storage.checkpoint_stall(review)
        share = stall["share"]
        out.lines["checkpoints"] = Line(
            "checkpoint overhead", share, f"{share:.2%}",
            f"{units.human(stall['size'], 'size')} / {units.human(stall['bandwidth'] * 8, 'byte_rate')} every {units.human(stall['interval'], 'duration')}",
            (f"checkpoint size: {stall['source']}", "write bandwidth: spec"),
        )
    except Skip as exc:
        out.notes.append(f"checkpoint overhead not counted: {exc}")
    found = committed_availability(review.contract) if review.contract is not None else None
    availability = found[0] if found else None
    if found:
        out.lines["availability"] = Line("availability", availability, f"{availability:.2%}", "the contract's SLA", (f"contract {found[1]}",))
    else:
        out.notes.append("availability not counted: the contract states none (assumed 100%)")
    effective = seconds * (1 + share) / (availability or 1)
    out.lines["effective_time"] = Line(
        "effective time", effective, units.human(effective, "duration"),
        f"{units.human(seconds, 'duration')} x (1 + {share:.2%} checkpoints) / {availability or 1:.2%} availability",
    )
    found = hourly_price(review.contract) if review.contract is not None else None
    price = found[0] if found else None
    if found is not None:
        where = found[1]
        hours = effective / 3600
        amount = n * hours * price.value
        out.lines["cost"] = Line("cost", amount, f"{fmt(round(amount))} {price.currency}", f"{n} x {fmt(hours)} h x {price.text}",
                                 (f"price {price.text} per accelerator-hour: contract {where}",))
        out.lines["price"] = Line("price", price.value, f"{price.text} per accelerator-hour", where)
    else:
        out.notes.append("cost unknown: no contract states a price per accelerator-hour")
    spec = review.workload.spec
    if spec.deadline is not None:
        ok = effective <= spec.deadline.value
        out.lines["deadline"] = Line("meets deadline", ok, f"{'yes' if ok else 'no'} ({units.human(spec.deadline.value, 'duration')})",
                                     "effective time <= workload deadline", ("workload spec.deadline",))
    if spec.budget is not None and price is not None:
        if price.currency == spec.budget.currency:
            ok = out.lines["cost"].value <= spec.budget.value
            out.lines["budget"] = Line("within budget", ok, f"{'yes' if ok else 'no'} ({fmt(spec.budget.value)} {spec.budget.currency})",
                                       "cost <= workload budget", ("workload spec.budget",))
        else:
            out.notes.append(f"budget not compared: price in {price.currency}, budget in {spec.budget.currency}")
    return out


@dataclass
class Row:
    """A quote in a comparison."""

    file: str
    name: str
    estimate: QuoteEstimate
    card: dict
    counts: dict
    per_accelerator: float | None
    headroom: float | None
    lockin: list
    contract_flags: list
    best: set = field(default_factory=set)
    rank: int = 0


def compare(report, rank_by: str = "fit") -> list[Row]:
    """One row per reviewed quote of a check report, best values marked, ranked."""
    from clusterlint.rules import storage
    from clusterlint.rules.common import inter_node_per_accelerator

    rows = []
    cards = report.scorecards()
    for result in report.results:
        if not result.reviews or result.reviews[0].cluster is None:
            continue
        review = result.reviews[0]
        est = quote(review, result.file)
        figure = inter_node_per_accelerator(review, review.cluster.spec.node_pools[0])
        headroom = None
        stores = storage.shared_storage(review.cluster)
        if stores and review.workload is not None:
            try:
                need, _ = storage.required_storage(review.workload)
                headroom = sum(s.capacity.value for _, s in stores) / need
            except Skip:
                pass
        findings = result.findings
        rows.append(Row(
            file=result.file, name=review.cluster.metadata.name, estimate=est, card=cards[result.file],
            counts={s: sum(1 for f in findings if f.severity == s) for s in ("error", "warning", "info")},
            per_accelerator=figure[0] if figure else None, headroom=headroom,
            lockin=sorted({f.rule for f in findings if f.rule.startswith("LCK")}),
            contract_flags=sorted({f.rule for f in findings if f.rule.startswith("CON")}) or (["no contract"] if review.contract is None else []),
        ))
    _mark_best(rows)
    for i, row in enumerate(sorted(rows, key=lambda r: _rank_key(r, rank_by)), 1):
        row.rank = i
    return sorted(rows, key=lambda r: r.rank)


def _mark_best(rows: list[Row]) -> None:
    columns = {
        "score": (lambda r: r.card["score"], max),
        "per_accelerator": (lambda r: r.per_accelerator, max),
        "headroom": (lambda r: r.headroom, max),
        "time": (lambda r: r.estimate.value("effective_time"), min),
        "cost": (lambda r: r.estimate.value("cost"), min),
        "errors": (lambda r: r.counts["error"], min),
    }
    for name, (get, pick) in columns.items():
        values = [get(r) for r in rows if get(r) is not None]
        if len(values) < 2:
            continue
        best = pick(values)
        for r in rows:
            if get(r) == best:
                r.best.add(name)


def _tier(row: Row) -> int:
    verdicts = [row.estimate.value("deadline"), row.estimate.value("budget")]
    if all(v is True for v in verdicts):
        return 0
    if any(v is False for v in verdicts):
        return 2
    return 1


def _rank_key(row: Row, rank_by: str):
    inf = float("inf")
    time = row.estimate.value("effective_time")
    cost = row.estimate.value("cost")
    time, cost = (inf if time is None else time), (inf if cost is None else cost)
    score = 0 if row.card["score"] is None else -row.card["score"]
    key = {"fit": (_tier(row), cost, time, score), "time": (time, cost, score), "cost": (cost, time, score), "score": (score, cost, time)}
    return (row.card["score"] is None, *key[rank_by], row.file)  # a quote that was not reviewed ranks last
