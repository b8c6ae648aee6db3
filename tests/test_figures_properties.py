"""Properties of the figures read from contract prose and of the time and cost models (hypothesis)."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from clusterlint.contracts import figures
from clusterlint.model.contract import Contract

LEVELS = st.sampled_from([99.0, 99.5, 99.9, 99.95, 99.99, 98.0, 95.0])
OTHER = st.integers(min_value=1, max_value=100)


def _contract(*texts: str) -> Contract:
    return Contract.model_validate({"apiVersion": "clusterlint/v1", "kind": "Contract", "metadata": {"name": "c"},
                                    "spec": {"clauses": [{"ref": f"{i}.1", "text": t} for i, t in enumerate(texts, 1)]}})


SLA = [
    "The Provider targets a Monthly Uptime Percentage of at least {level}%.",
    "Uptime: {level}% each calendar month.",
    "The Provider aims for {level}% availability per month.",
    "Each GPU instance will be available at least {level}% of the time in each month.",
]
NOISE = [
    "If monthly uptime drops below {x}%, the Customer is credited {credit}% of that month's charges.",
    "A setup fee of {credit}% of the first invoice applies.",
    "Customers prepaying a year receive a {credit}% discount.",
    "If availability falls below {x}% the Customer receives a service credit of {credit}%.",
]


def _table(tiers: list, credits: list) -> str:
    rows = ["| Monthly Uptime Percentage | Service credit |", "|---|---|"]
    for i, (high, credit) in enumerate(zip(tiers, credits)):
        low = tiers[i + 1] if i + 1 < len(tiers) else None
        rows.append(f"| below {high}% but at least {low}% | {credit}% |" if low else f"| below {high}% | {credit}% |")
    return " ".join(rows)


@settings(max_examples=200, deadline=None)
@given(level=LEVELS, sla=st.sampled_from(SLA), noise=st.lists(st.sampled_from(NOISE), max_size=3),
       x=st.sampled_from([90, 95, 97, 98.5]), credit=OTHER)
def test_availability_is_the_service_level_never_a_credit_threshold_fee_or_discount(level, sla, noise, x, credit):
    texts = [sla.format(level=level)] + [n.format(x=x, credit=credit) for n in noise]
    found = figures.availability(_contract(*texts))
    assert isinstance(found, figures.Figure) and found.value == level / 100


@settings(max_examples=200, deadline=None)
@given(tiers=st.lists(st.sampled_from([99.99, 99.9, 99.5, 99.0, 97.0, 95.0, 90.0]), min_size=1, max_size=4, unique=True),
       credits=st.lists(OTHER, min_size=4, max_size=4), noise=st.lists(st.sampled_from(NOISE), max_size=2), x=st.sampled_from([90, 95]))
def test_a_credit_table_gives_its_top_tier_only(tiers, credits, noise, x):
    tiers = sorted(tiers, reverse=True)
    texts = [_table(tiers, credits)] + [n.format(x=x, credit=c) for n, c in zip(noise, credits)]
    found = figures.availability(_contract(*texts))
    assert isinstance(found, figures.Figure) and found.value == tiers[0] / 100


@settings(max_examples=100, deadline=None)
@given(noise=st.lists(st.sampled_from(NOISE), min_size=1, max_size=4), x=st.sampled_from([90, 95, 99, 99.5]), credit=OTHER)
def test_credits_fees_and_discounts_alone_state_no_availability(noise, x, credit):
    assert figures.availability(_contract(*[n.format(x=x, credit=credit) for n in noise])) is None


def test_two_levels_that_disagree_are_not_stated_with_both_quoted():
    found = figures.availability(_contract("Uptime: 99.5% each calendar month.", "The Provider aims for 99% availability per month."))
    assert isinstance(found, figures.Unplaced)
    assert "99.5%" in found.text and "99% availability" in found.text


def test_price_bases_and_term_shapes():
    cases = [("The Customer pays 2.35 USD per GPU-hour.", 2.35, "accelerator-hour"),
             ("Each node costs $19.20 per node-hour.", 19.2, "node-hour"),
             ("The fee is 1,500 USD per GPU per month.", 1500, "accelerator-month"),
             ("The reservation fee is 48,000 USD per month.", 48000, "month")]
    for text, value, basis in cases:
        found = figures.price(_contract(text))
        assert (found.value.value, found.basis) == (value, basis), text
    month = 365.25 / 12 * 86400
    for text, months in [("The initial term is twelve (12) months.", 12), ("This is a 36-month term.", 36),
                         ("The reservation runs 3 months from the Delivery Date.", 3)]:
        assert abs(figures.term(_contract(text)).value - months * month) < 1, text
    assert figures.term(_contract("Either party may give 3 months' notice of termination.")) is None


# ---- time with the network, cost owed

import json  # noqa: E402

from conftest import run_cli  # noqa: E402

QUOTE = """apiVersion: clusterlint/v1
kind: Cluster
metadata: {{name: q}}
spec:
  node_pools:
    - {{name: p, count: 16, accelerator: {{model: H100-SXM, count: 8}}}}
  network:
    inter_node: {{fabric: infiniband, nics_per_node: 8, nic_speed: {speed}Gbps, rdma: true, oversubscription: {ratio}, dedicated: {dedicated}}}
---
apiVersion: clusterlint/v1
kind: Contract
metadata: {{name: c}}
spec:
  pricing: {{accelerator_hour: {price} USD}}
{term}"""
WORK = """apiVersion: clusterlint/v1
kind: Workload
metadata: {name: w}
spec:
  task: training
  model: {parameters: 8B}
  precision: bf16
  tokens: 300B
  sequence_length: 4096
  global_batch_size: 256
  parallelism: {tensor: 8, pipeline: 1, data: 16}
"""


def _estimate(tmp_path, name="q", **values) -> dict:
    quote, work = tmp_path / f"{name}.yaml", tmp_path / "w.yaml"
    quote.write_text(QUOTE.format(**{"speed": 400, "ratio": 1, "dedicated": "true", "price": 2.5, "term": "", **values}))
    work.write_text(WORK)
    code, out, err = run_cli("estimate", str(quote), "--workload", str(work), "--format", "json")
    assert code == 0, err
    return json.loads(out)[0]["lines"]


@settings(max_examples=15, deadline=None)
@given(speed=st.sampled_from([100, 200, 400, 800]), ratio=st.sampled_from([1, 2, 4]), dedicated=st.booleans(),
       change=st.sampled_from(["speed", "ratio", "dedicated"]))
def test_a_worse_fabric_alone_gives_a_strictly_longer_time(tmp_path_factory, speed, ratio, dedicated, change):
    tmp = tmp_path_factory.mktemp("fabric")
    better = {"speed": speed * 2, "ratio": ratio, "dedicated": str(dedicated).lower()}
    worse = {"speed": speed, "ratio": ratio, "dedicated": str(dedicated).lower()}
    if change == "ratio":
        better["speed"], worse["ratio"] = speed, ratio * 2
    elif change == "dedicated":
        better["speed"], better["dedicated"], worse["dedicated"] = speed, "true", "false"
    fast, slow = _estimate(tmp, "a", **better), _estimate(tmp, "b", **worse)
    assert fast["time"]["value"] == slow["time"]["value"]
    assert fast["effective_time"]["value"] < slow["effective_time"]["value"]
    assert fast["network"]["value"] < slow["network"]["value"]


@settings(max_examples=15, deadline=None)
@given(months=st.integers(min_value=1, max_value=36), price=st.sampled_from([1.5, 2.1, 3.99]))
def test_cost_owed_is_never_below_the_commitment(tmp_path_factory, months, price):
    lines = _estimate(tmp_path_factory.mktemp("cost"), price=price, term=f"  term: {months} months\n")
    owed, usage = lines["cost"]["value"], lines["usage"]["value"]
    assert owed >= usage - 1e-6
    if "commitment" in lines:
        assert owed >= lines["commitment"]["value"]
        assert abs(lines["commitment"]["value"] - 128 * months * 730.5 * price) < 1e-3 * lines["commitment"]["value"]
