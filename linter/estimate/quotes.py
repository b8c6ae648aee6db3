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
    "fit": "quotes that meet both the workload's deadline and budget with no error findings first, then those that meet both "
           "with error findings, then those not known to miss either (without, then with error findings), then those that "
           "miss one; within each group the cheapest (cost owed), then the fastest, then the best score",
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
    if est.loader is not None:
        read = est.loader
        out.lines["dataloader"] = Line("dataloader stall", read.share, f"{read.share:.2%}", f"max(0, {read.formula})",
                                       ("throughput: time to train", "read bandwidth: spec, the dataset stores", "bytes per token: workload dataset.size / tokens"))
    if est.availability is not None:
        a = est.availability
        out.lines["availability"] = Line("availability", a.value, f"{a.value:.2%}", "the contract's service level as written", (a.evidence,))
    effective = est.effective_seconds
    out.lines["effective_time"] = Line("effective time", effective, units.human(effective, "duration"), est.effective_formula,
                                       ("time to train", *(["network overhead"] if est.comms else []), *(["checkpoint overhead"] if est.stall else []), *(["dataloader stall"] if est.loader_share > 0 else []),
                                        "availability" if est.availability else "availability not stated: 100% assumed",
                                        *(n for n in est.notes if n.startswith(("network time not counted", "checkpoint overhead not counted", "dataloader stalls not counted")))))
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
    """A quote in a comparison, with its contract's findings counted in its own."""

    file: str
    name: str
    estimate: QuoteEstimate
    card: dict  # the scorecard of the quote's findings and its contract's
    counts: dict
    figures: dict  # key -> Line: inter-node bandwidth per accelerator, storage headroom (each with its formula)
    lockin: list
    contract_flags: list
    contract: str | None  # the contract file paired with the quote (None: none, or written inside the quote)
    not_run: list  # scored areas no rule judged on this quote (no grade, not 100)
    errors: list  # the rules of its error findings
    best: set = field(default_factory=set)
    rank: int = 0

    @property
    def per_accelerator(self) -> float | None:
        return _value(self.figures.get("per_accelerator"))

    @property
    def headroom(self) -> float | None:
        return _value(self.figures.get("headroom"))


def _value(line):
    return None if line is None else line.value


def _figures(review, est: QuoteEstimate) -> dict:
    """Inter-node bandwidth per accelerator and storage headroom of one quote, each with its formula and sources."""
    from clusterlint.estimate.storage import storage_fit
    from clusterlint.estimate.traffic import inter_node_per_accelerator

    out = {}
    pool = review.cluster.spec.node_pools[est.model.training.throughput.allocation.pool_index if est.model else 0]
    figure = inter_node_per_accelerator(review, pool)
    if figure is not None:
        out["per_accelerator"] = Line("inter-node bandwidth per accelerator", figure[0], units.human(figure[0], "rate"), figure[1],
                                      ("spec network.inter_node nics_per_node and nic_speed", f"spec node pool {pool.name!r} accelerator.count"))
    if review.workload is not None:
        try:
            fit = storage_fit(review)  # the stores STO002 judges, capped by their quotas
        except Skip:
            return out
        if fit.headroom is not None:
            held = " + ".join(f"{units.human(u[0], 'size')} {s.name} {u[1]}" for _, s, u in fit.stores)
            out["headroom"] = Line("storage headroom", fit.headroom, f"{fit.headroom:.2f}x",
                                   f"({held}) / ({fit.how})", ("spec storage: the shared stores that may hold " + " and ".join(fit.wanted),
                                                              "workload dataset.size and checkpoints"))
    return out


def _areas_not_run(rules: dict, result, findings: list) -> list:
    """Scored areas no rule judged: every selected rule of the area was skipped on the quote (or needs
    evidence, which a pre-purchase comparison never has), and none found anything."""
    from clusterlint.engine.scoring import SCORED_AREAS, area_of

    skipped = {rule for rule, _ in result.skips}
    judged = {f.rule for f in findings} | {i for i, r in rules.items() if i not in skipped and "Evidence" not in r.needs}
    return [a for a in SCORED_AREAS if not any(area_of(i) == a for i in judged)]


def compare(entries, rank_by: str = "fit") -> list[Row]:
    """One row per (report, result, contract result or None) in `entries`: each quote's result of its own check
    report, and the result holding its contract's findings about the contract alone (CON, LCK, REL on the paper),
    counted in the quote's row and score. Best values marked, ranked."""
    from clusterlint.engine.scoring import scorecard

    rows = []
    for report, result, paper in entries:
        review = result.reviews[0]
        est = quote(review, result.file)
        findings = list(result.findings) + (list(paper.findings) if paper is not None else [])
        rows.append(Row(
            file=result.file, name=review.cluster.metadata.name, estimate=est, card=scorecard(findings, result.not_reviewed(), result.judged | (paper.judged if paper is not None else set())),
            counts={s: sum(1 for f in findings if f.severity == s) for s in ("error", "warning", "info")},
            figures=_figures(review, est),
            lockin=sorted({f.rule for f in findings if f.rule.startswith("LCK")}),
            contract_flags=sorted({f.rule for f in findings if f.rule.startswith("CON")}) or (["no contract"] if review.contract is None else []),
            contract=paper.file if paper is not None else None,
            not_run=_areas_not_run(report.rules, result, findings),
            errors=sorted({f.rule for f in findings if f.severity == "error"}),
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


def _fits(row: Row) -> bool | None:
    """True: meets both the deadline and the budget; False: misses one; None: not known."""
    verdicts = [row.estimate.value("deadline"), row.estimate.value("budget")]
    if any(v is False for v in verdicts):
        return False
    return True if all(v is True for v in verdicts) else None


def _tier(row: Row) -> int:
    """0 fits with no error findings, 1 fits with errors, 2 not known to miss with none, 3 with errors, 4 misses one."""
    fits = _fits(row)
    return 4 if fits is False else (0 if fits else 2) + (1 if row.counts["error"] else 0)


def _rank_key(row: Row, rank_by: str):
    inf = float("inf")
    time = row.estimate.value("effective_time")
    cost = row.estimate.value("cost")
    time, cost = (inf if time is None else time), (inf if cost is None else cost)
    score = 0 if row.card["score"] is None else -row.card["score"]
    key = {"fit": (_tier(row), cost, time, score), "time": (time, cost, score), "cost": (cost, time, score), "score": (score, cost, time)}
    return (row.card["score"] is None, *key[rank_by], row.file)  # a quote that was not reviewed ranks last


def _standing(row: Row) -> str:
    fits = _fits(row)
    est = row.estimate
    if fits:
        plan = f"meets the deadline ({est.lines['effective_time'].text}) and the budget ({est.lines['cost'].text} owed)"
    elif fits is None:
        plan = "is not known to miss the deadline or the budget (" + ", ".join(
            what for key, what in (("deadline", "deadline"), ("budget", "budget")) if est.value(key) is None) + " not judged)"
    else:
        plan = "misses the " + " and the ".join(what for key, what in (("deadline", "deadline"), ("budget", "budget")) if est.value(key) is False)
    return plan + (f" with {row.counts['error']} error finding{'s' if row.counts['error'] != 1 else ''} ({', '.join(row.errors)})"
                   if row.counts["error"] else " with no error findings")


def _needs(first: Row, second: Row, rank_by: str) -> str:
    """What the runner-up would need to rank first: what lifts it to the winner's group, then what beats the winner in it."""
    est = second.estimate
    wants = []
    if rank_by == "fit" and _tier(second) != _tier(first):
        limit = lambda key: est.lines[key].text.split("(", 1)[1].rstrip(")")  # noqa: E731  "no (60 days)" -> "60 days"
        if est.value("deadline") is False:
            wants.append(f"an effective time within {limit('deadline')} (it has {est.lines['effective_time'].text})")
        if est.value("budget") is False:
            wants.append(f"a cost owed within {limit('budget')} (it has {est.lines['cost'].text})")
        for key, what in (("deadline", "a stated deadline and a time to judge it by"), ("budget", "a stated price and budget")):
            if est.value(key) is None and _fits(first):
                wants.append(what)
        if second.counts["error"] and not first.counts["error"]:
            wants.append(f"its error findings fixed ({', '.join(second.errors)})")
    keys = {"fit": ("cost", "effective_time"), "cost": ("cost", "effective_time"), "time": ("effective_time", "cost")}.get(rank_by, ())
    for key in keys[:1]:
        mine, theirs = first.estimate.lines.get(key), est.lines.get(key)
        if mine is not None and (theirs is None or theirs.value > mine.value):
            wants.append(f"a {'cost owed' if key == 'cost' else 'effective time'} below {mine.text} (it has {theirs.text if theirs else 'none stated'})")
    if rank_by == "score" and second.card["score"] is not None:
        wants.append(f"a score above {first.card['score']:g} (it has {second.card['score']:g})")
    return " and ".join(wants) or "a better standing on the deadline, the budget or the error findings"


def recommendation(rows: list[Row], rank_by: str) -> str:
    """One sentence: why the first quote won and what the runner-up would need; a warning when the first has
    error findings and a quote without any ranks below it."""
    if not rows:
        return ""
    first = rows[0]
    out = f"Recommended: {first.name} ({first.file}): it {_standing(first)}"
    if len(rows) > 1:
        out += f"; {rows[1].name} would need {_needs(first, rows[1], rank_by)}"
    clean = [r for r in rows[1:] if not r.counts["error"] and r.card["score"] is not None]
    if first.counts["error"] and clean:
        out += f". Warning: {first.name} has error findings; " + "; ".join(
            f"{r.name} has none but " + (_standing(r).removesuffix(" with no error findings") if rank_by == "fit" else f"ranks below by {rank_by}")
            for r in clean)
    return out + "."
