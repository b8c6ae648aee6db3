"""CST: how long the training takes on this cluster, what it costs, and whether it fits the plan."""

from __future__ import annotations

from pydantic import Field

from clusterlint import units
from clusterlint.engine import Skip, check

from .common import Params, dense_tflops, fmt, total_accelerators


class Estimate(Params):
    default_mfu: float = Field(0.4, gt=0, le=1, description="Model FLOPS utilisation used when the workload states none.")


def _dtype(precision: str) -> str:
    """The catalog column whose dense TFLOPS a precision trains at (fp32 uses TF32 tensor cores)."""
    return {"fp32": "tf32", "int8": "bf16", "int4": "bf16"}.get(precision, precision)


def estimate(review, params) -> dict | None:
    """Time (s) to train and, when the contract prices it, cost; with every input and its source.
    None for an inference workload: there is no training to time."""
    spec = review.workload.spec
    if spec.task == "inference":
        return None
    if spec.tokens is None:
        raise Skip("the workload states no tokens to train on")
    pool = review.cluster.spec.node_pools[0]
    peak, source = dense_tflops(review, pool, _dtype(spec.precision))
    mfu = spec.assumed_mfu or params.default_mfu
    n = total_accelerators(review.cluster)
    n_params, tokens = spec.model.parameters.value, spec.tokens.value
    seconds = 6 * n_params * tokens / (n * peak * 1e12 * mfu)
    result = {
        "seconds": seconds, "n": n, "peak": peak, "mfu": mfu,
        "formula": f"6 x {units.human(n_params, 'count')} params x {units.human(tokens, 'count')} tokens / ({n} x {fmt(peak)} TFLOPS x {mfu:g} MFU)",
        "evidence": (f"dense {_dtype(spec.precision)} {fmt(peak)} TFLOPS: {source}", f"MFU {mfu:g}: {'workload' if spec.assumed_mfu else 'default'}"),
        "cost": None,
    }
    found = None
    if review.contract is not None:
        from .clauses import hourly_price  # the clause readers load only when a contract is reviewed

        found = hourly_price(review.contract)
    if found is not None:
        price, where = found
        hours = seconds / 3600
        result["cost"] = (n * hours * price.value, price.currency, f"{n} x {fmt(hours)} h x {price.text}")
        result["evidence"] += (f"price {price.text} per accelerator-hour: contract {where}",)
    return result


@check(Estimate)
def training_time_estimate(review, params):
    est = estimate(review, params)
    if est is None:
        return
    message = f"estimated training time {units.human(est['seconds'], 'duration')} = {est['formula']}"
    if est["cost"] is not None:
        amount, currency, how = est["cost"]
        message += f"; cost {fmt(round(amount))} {currency} = {how}"
    else:
        message += "; no price (needs a Contract with pricing.accelerator_hour or a clause stating a price per GPU-hour)"
    yield review.hit("Cluster", ("spec", "node_pools", 0, "count"), message, evidence=est["evidence"])


@check(Estimate)
def misses_deadline(review, params):
    deadline = review.workload.spec.deadline
    if deadline is None:
        raise Skip("the workload states no deadline")
    est = estimate(review, params)
    if est is not None and est["seconds"] > deadline.value:
        yield review.hit(
            "Workload", ("spec", "deadline"),
            f"estimated training time {units.human(est['seconds'], 'duration')} exceeds the deadline of {units.human(deadline.value, 'duration')} "
            f"({est['formula']})",
            evidence=est["evidence"],
        )


@check(Estimate)
def over_budget(review, params):
    budget = review.workload.spec.budget
    if budget is None:
        raise Skip("the workload states no budget")
    est = estimate(review, params)
    if est is None:
        return
    if est["cost"] is None:
        raise Skip("no price: needs a Contract with pricing.accelerator_hour or a clause stating a price per GPU-hour")
    amount, currency, how = est["cost"]
    if currency != budget.currency:
        raise Skip(f"the price is in {currency} and the budget in {budget.currency}; clusterlint does not convert currencies")
    if amount > budget.value:
        yield review.hit(
            "Workload", ("spec", "budget"),
            f"estimated cost {fmt(round(amount))} {currency} ({how}) exceeds the budget of {fmt(budget.value)} {budget.currency}",
            evidence=est["evidence"],
        )
