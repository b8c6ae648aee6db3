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

from clusterlint.model import catalog, units
from clusterlint.engine.review import Skip
from clusterlint.engine.registry import builtin_rules

RANKING = {
    "fit": "quotes that meet both the workload's deadline and budget first, then those not known to miss either, "
           "then those that miss one; within each group the cheapest, then the fastest, then the best score",
    "time": "the shortest effective time first, then the cheapest, then the best score",
    "cost": "the cheapest first (unknown costs last), then the fastest, then the best score",
    "score": "the best score first, then the cheapest, then the fastest",
}


def sizing(workload, only: str | None = None, rules: dict | None = None) -> tuple[list[dict], tuple[str, str]]:
    """Accelerators needed to train and to serve the workload's model, per catalog accelerator, and
    the two formulas with the constants they used (ACC001's and ACC002's params in `rules`, else built in)."""
    from clusterlint.estimate.sizing import PRECISION_BYTES, ceil

    rules = {**builtin_rules(), **(rules or {})}
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


@dataclass(frozen=True)
class Line:
    """One figure of an estimate as printed: what it is, its value (None when unknown), how, and from what."""

    label: str
    value: float | None
    text: str
    how: str = ""
    sources: tuple = ()

    def as_json(self) -> dict:
        return {"label": self.label, "value": self.value, "text": self.text, "how": self.how, "sources": list(self.sources)}


@dataclass
class QuoteEstimate:
    """The printed lines of one quote's `sizing.Estimate` (`model`: None when the time is unknown)."""

    file: str
    name: str
    lines: dict = field(default_factory=dict)  # key -> Line
    notes: list = field(default_factory=list)  # why a figure is unknown
    model: object = None

    def value(self, key: str):
        line = self.lines.get(key)
        return None if line is None else line.value


def quote(review, file: str) -> QuoteEstimate:
    """Time, checkpoint overhead, availability, cost, deadline and budget of one quote, as lines."""
    from clusterlint.estimate import sizing as model
    from clusterlint.estimate.cost import price_text
    from clusterlint.estimate.sizing import fmt

    out = QuoteEstimate(file, review.cluster.metadata.name)
    try:
        alloc = model.allocate(review)
        out.lines["accelerators"] = Line("accelerators", alloc.accelerators, alloc.label, alloc.how, (alloc.source,))
        est = model.estimate(review)
    except Skip as exc:
        out.notes.append(f"time: {exc}")
        return out
    if est is None:
        out.notes.append("time: an inference workload has no training time")
        return out
    out.model = est
    run = est.training
    out.lines["time"] = Line("time to train", run.seconds, units.human(run.seconds, "duration"), run.formula, run.throughput.evidence)
    if est.comms is not None:
        c = est.comms
        out.lines["network"] = Line("network overhead", c.share, f"{c.share:.2%}", c.formula, c.evidence)
    if est.stall is not None:
        stall = est.stall
        out.lines["checkpoints"] = Line(
            "checkpoint overhead", stall.share, f"{stall.share:.2%}",
            f"{units.human(stall.size.value, 'size')} / {units.human(stall.bandwidth * 8, 'byte_rate')} every {units.human(stall.interval, 'duration')}",
            (f"checkpoint size: {stall.size.source}", "write bandwidth: spec"),
        )
    if est.availability is not None:
        a = est.availability
        out.lines["availability"] = Line("availability", a.value, f"{a.value:.2%}", "the contract's service level as written", (a.evidence,))
    effective = est.effective_seconds
    out.lines["effective_time"] = Line("effective time", effective, units.human(effective, "duration"), est.effective_formula,
                                       ("time to train", *(["network overhead"] if est.comms else []), *(["checkpoint overhead"] if est.stall else []),
                                        "availability" if est.availability else "availability not stated: 100% assumed",
                                        *(n for n in est.notes if n.startswith(("network time not counted", "checkpoint overhead not counted")))))
    if est.cost is not None:
        bill = est.cost
        out.lines["price"] = Line("price", bill.rate, f"{price_text(bill.rate)} {bill.currency} per accelerator-hour", bill.rate_how, (bill.rate_source,))
        for item in bill.items:
            key = "cost" if item.key == "owed" else item.key
            label = "cost owed" if item.key == "owed" else item.label
            out.lines[key] = Line(label, item.value, f"{fmt(round(item.value))} {bill.currency}", item.formula, item.sources)
    if est.deadline is not None:
        out.lines["deadline"] = Line("meets deadline", est.deadline.ok, est.deadline.text, "effective time <= workload deadline", ("effective time", "workload spec.deadline"))
    if est.budget is not None:
        out.lines["budget"] = Line("within budget", est.budget.ok, est.budget.text, "cost owed <= workload budget", ("cost owed", "workload spec.budget"))
    out.notes.extend(est.notes)
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


def compare(report, results, rank_by: str = "fit") -> list[Row]:
    """One row per result in `results` (quotes of a check report reviewed with the workload), best values marked, ranked."""
    from clusterlint.estimate.sizing import inter_node_per_accelerator, storage_fit

    rows = []
    cards = report.scorecards()
    for result in results:
        review = result.reviews[0]
        est = quote(review, result.file)
        pool = review.cluster.spec.node_pools[est.model.training.throughput.allocation.pool_index if est.model else 0]
        figure = inter_node_per_accelerator(review, pool)
        headroom = None
        if review.workload is not None:
            try:
                headroom = storage_fit(review).headroom  # the stores STO002 judges, capped by their quotas
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
