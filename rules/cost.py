"""CST: how long the training takes on this cluster, what it costs, and whether it fits the plan.

All three read the sizing model of record (`clusterlint.estimate.sizing`): the same allocation, effective time
and cost that `estimate` and `compare` print."""

from __future__ import annotations

from clusterlint.estimate import sizing
from clusterlint.model import units
from clusterlint.engine.review import Skip, check

from clusterlint.rules.common import NO_PARAMS, fmt


def _time(est) -> str:
    """The effective time and how it was reached: training time on the allocation, then stalls and availability."""
    run = est.training
    out = f"training time {units.human(run.seconds, 'duration')} = {run.formula} on {run.throughput.allocation.text}"
    if est.adjusted:
        out += f"; effective time {units.human(est.effective_seconds, 'duration')} = {est.effective_formula}"
    return out


def _owed(bill) -> str:
    """'90,000 USD = 16 x 2,250 h x 2.50 USD/h': what is owed and its formula (the usage on demand, else the
    commitment and any hours beyond the term; then the extras)."""
    return f"{fmt(round(bill.owed))} {bill.currency} = {bill.get('owed').formula}"


@check("clusterlint.rules.params:Estimate")
def training_time_estimate(review, params):
    est = sizing.estimate(review)
    if est is None:
        return
    message = f"estimated {_time(est)}"
    if est.cost is not None:
        message += f"; cost owed {_owed(est.cost)}"
    else:
        message += "; no price (needs a Contract with a pricing field or a clause stating a price per GPU-hour, node-hour, GPU-month or month)"
    unplaced = [n for n in est.notes if " not stated: " in n]
    if unplaced:
        message += "; " + "; ".join(unplaced)
    yield review.hit("Cluster", est.training.throughput.allocation.path, message, evidence=est.evidence)


@check(NO_PARAMS)
def misses_deadline(review, params):
    if review.workload.spec.deadline is None:
        raise Skip("the workload states no deadline")
    est = sizing.estimate(review)
    if est is not None and not est.deadline.ok:
        yield review.hit(
            "Workload", ("spec", "deadline"),
            f"estimated time {units.human(est.effective_seconds, 'duration')} exceeds the deadline of "
            f"{units.human(est.deadline.limit, 'duration')} ({_time(est)})",
            evidence=est.evidence,
        )


@check(NO_PARAMS)
def over_budget(review, params):
    budget = review.workload.spec.budget
    if budget is None:
        raise Skip("the workload states no budget")
    est = sizing.estimate(review)
    if est is None:
        return
    if est.cost is None:
        raise Skip("no price: needs a Contract with a pricing field or a clause stating a price per GPU-hour, node-hour, GPU-month or month")
    if est.budget is None:
        raise Skip(f"the price is in {est.cost.currency} and the budget in {budget.currency}; clusterlint does not convert currencies")
    if not est.budget.ok:
        yield review.hit(
            "Workload", ("spec", "budget"),
            f"estimated cost owed {_owed(est.cost)} exceeds the budget of {fmt(budget.value)} {budget.currency}",
            evidence=est.evidence,
        )
