"""The sizing model case by case, read through `clusterlint estimate` and `compare`: allocation,
the TFLOPS column per precision, MFU, checkpoint stalls, availability, cost, deadline and budget,
each boundary with the exact value, text and sources (oracles computed by hand in the comments)."""

from __future__ import annotations

import json

import pytest

from clusterlint.estimate.sizing import ceil, fmt
from cases import WORKLOAD_HEAD, cluster
from conftest import run_cli

NETWORK = "    inter_node: {fabric: infiniband, nics_per_node: 8, nic_speed: 400Gbps, rdma: true, oversubscription: 1}\n"
ACCEL = "{model: H100-SXM, count: 8, dense_tflops: {bf16: 1000, fp32: 500}}"
STORE = "    - {name: shared, type: lustre, capacity: 1PB, write_bandwidth: 100GB/s}\n"
WORKLOAD = WORKLOAD_HEAD + """  task: {task}
  model: {{parameters: 8B}}
  precision: {precision}
  tokens: 900B
  parallelism: {parallelism}
{extra}"""
MFU = "  assumed_mfu: 0.75\n"
# 6 x 8B x 900B = 4.32e22 FLOPs; 16 x 1,000 TFLOPS x 0.75 = 1.2e16 FLOP/s: 3,600,000 s = 1,000 h = 41.67 days
CONTRACT = """apiVersion: clusterlint/v1
kind: Contract
metadata: {{name: c}}
spec:
{spec}"""
PRICED = "  pricing: {accelerator_hour: 2.50 USD}\n  sla: {availability: 50%}\n"
WHOLE_POOL = "the whole pool, 2 nodes x 8: no placement or data parallelism stated; pool: the only node pool"
FORMULA = "6 x 8B params x 900B tokens / (16 x 1,000 TFLOPS x 0.75 MFU)"
THROUGHPUT = [f"accelerators 16 x H100-SXM: {WHOLE_POOL}", "dense bf16 1,000 TFLOPS: spec", "MFU 0.75: workload assumed_mfu"]
NO_NETWORK = "network time not counted: the workload states no global_batch_size and sequence_length"
NO_CHECKPOINTS = "checkpoint overhead not counted: the workload states no checkpoints"
NO_LOADER = "dataloader stalls not counted: the workload states no dataset size and tokens to derive the bytes read per token"
NO_EXTRAS = [NO_CHECKPOINTS, NO_NETWORK, NO_LOADER, "availability not counted: no contract states one (assumed 100%)", "cost unknown: no contract states a price"]


def _files(tmp_path, extra=MFU, contract=None, task="training", precision="bf16", parallelism="{tensor: 8, pipeline: 1}",
           accel=ACCEL, pool2="", storage=STORE, without="") -> list[str]:
    """Write the quote, the workload (less the line `without`) and the contract; the arguments that name them."""
    quote, work = tmp_path / "q.yaml", tmp_path / "w.yaml"
    quote.write_text(cluster(NETWORK, "  storage:\n" + storage, accel=accel, pool2=pool2), encoding="utf-8")
    text = WORKLOAD.format(task=task, precision=precision, parallelism=parallelism, extra=extra)
    work.write_text(text.replace(without, "") if without else text, encoding="utf-8")
    args = [str(quote), "--workload", str(work)]
    if contract is not None:
        (tmp_path / "c.yaml").write_text(CONTRACT.format(spec=contract), encoding="utf-8")
        args += ["--contract", str(tmp_path / "c.yaml")]
    return args


def _estimate(tmp_path, extra=MFU, contract=None, **parts):
    code, out, err = run_cli("estimate", *_files(tmp_path, extra, contract, **parts), "--format", "json")
    assert code == 0, err
    [quote_estimate] = json.loads(out)
    return quote_estimate


def _cst001(tmp_path, extra, contract=None) -> dict:
    code, out, err = run_cli("check", *_files(tmp_path, extra, contract), "--format", "json", "--select", "CST001")
    [finding] = [f for f in json.loads(out)["findings"] if f["rule"] == "CST001"]
    return finding


def _line(est, key):
    line = est["lines"][key]
    return line["value"], line["text"], line["how"], line["sources"]


def test_time_alone_with_every_unknown_named(tmp_path):
    est = _estimate(tmp_path)
    assert list(est["lines"]) == ["accelerators", "time", "effective_time"]
    assert _line(est, "accelerators") == (16, "16 x H100-SXM on pool 'gpu'", WHOLE_POOL, ["spec"])
    assert _line(est, "time") == (3600000.0, "41.67 days", FORMULA, THROUGHPUT)
    # no stall, no SLA, no batch to time the network by: the effective time is the training time over 100%; the terms
    # not counted are named, never shown as 0%
    assert _line(est, "effective_time") == (3600000.0, "41.67 days", "41.67 days / 100.00% availability",
                                            ["time to train", "availability not stated: 100% assumed", NO_CHECKPOINTS, NO_NETWORK, NO_LOADER])
    assert est["notes"] == NO_EXTRAS


# a 1 TB checkpoint at 100 GB/s is 10 s, every 80 s: 12.5%; at 50% availability the effective time is
# 3,600,000 x 1.125 / 0.5 = 8,100,000 s = 93.75 days = 2,250 h, and 16 x 2,250 h x 2.50 USD = 90,000 USD
CHECKPOINTS = "  checkpoints: {interval: 80s, size: 1TB}\n"


@pytest.mark.parametrize("deadline, budget, meets, within", [
    ("8100000s", "90000 USD", (True, "yes (93.75 days)"), (True, "yes (90,000 USD)")),  # both exactly on the limit
    ("8099999s", "89999 USD", (False, "no (93.75 days)"), (False, "no (89,999 USD)")),
])
def test_stall_availability_cost_deadline_and_budget(tmp_path, deadline, budget, meets, within):
    extra = MFU + CHECKPOINTS + f"  deadline: {deadline}\n  budget: {budget}\n"
    est = _estimate(tmp_path, extra, PRICED)
    assert list(est["lines"]) == ["accelerators", "time", "checkpoints", "availability", "effective_time", "price", "usage", "compute", "cost",
                                  "deadline", "budget"]
    assert _line(est, "time") == (3600000.0, "41.67 days", FORMULA, THROUGHPUT)
    assert _line(est, "checkpoints") == (0.125, "12.50%", "1 TB / 100 GB/s every 1.333 minutes", ["checkpoint size: workload", "write bandwidth: spec"])
    assert _line(est, "availability") == (0.5, "50.00%", "the contract's service level as written", ["contract sla.availability"])
    assert _line(est, "effective_time") == (8100000.0, "93.75 days", "41.67 days x (1 + 12.50% checkpoints) / 50.00% availability",
                                            ["time to train", "checkpoint overhead", "availability", NO_NETWORK, NO_LOADER])
    assert _line(est, "price") == (2.5, "2.50 USD per accelerator-hour", "2.50 USD per accelerator-hour", ["contract pricing.accelerator_hour"])
    # no term: on demand, the usage is what is owed
    assert _line(est, "usage") == (90000.0, "90,000 USD", "16 x 2,250 h x 2.50 USD/h",
                                   ["rate: 2.50 USD per accelerator-hour, contract pricing.accelerator_hour", "hours: the effective time"])
    assert _line(est, "compute") == (90000.0, "90,000 USD", "usage (on demand: only what is used is owed)", ["no term stated"])
    assert _line(est, "cost") == (90000.0, "90,000 USD", "16 x 2,250 h x 2.50 USD/h", ["compute owed", "what the contract bills; the budget is judged on it"])
    assert _line(est, "deadline") == (*meets, "effective time <= workload deadline", ["effective time", "workload spec.deadline"])
    assert _line(est, "budget") == (*within, "cost owed <= workload budget", ["cost owed", "workload spec.budget"])
    assert est["notes"] == [NO_NETWORK, NO_LOADER]


def test_cst001_shows_the_same_effective_time_and_cost(tmp_path):
    finding = _cst001(tmp_path, MFU + CHECKPOINTS, PRICED)
    assert finding["message"] == (f"estimated training time 41.67 days = {FORMULA} on 16 x H100-SXM on pool 'gpu' ({WHOLE_POOL.split('; pool')[0]}); "
                                  "effective time 93.75 days = 41.67 days x (1 + 12.50% checkpoints) / 50.00% availability; "
                                  "cost owed 90,000 USD = 16 x 2,250 h x 2.50 USD/h")
    assert finding["evidence"] == [*THROUGHPUT, "checkpoint stall 12.50%: 1 TB (workload) / 100 GB/s (spec) every 1.333 minutes",
                                   "availability 50.00%: contract sla.availability",
                                   "usage 90,000 USD = 16 x 2,250 h x 2.50 USD/h (rate: 2.50 USD per accelerator-hour, contract pricing.accelerator_hour; "
                                   "hours: the effective time)",
                                   "compute owed 90,000 USD = usage (on demand: only what is used is owed) (no term stated)",
                                   "owed 90,000 USD = 16 x 2,250 h x 2.50 USD/h (compute owed; what the contract bills; the budget is judged on it)"]


NO_PRICE = "no price (needs a Contract with a pricing field or a clause stating a price per GPU-hour, node-hour, GPU-month or month)"


@pytest.mark.parametrize("extra, contract, middle", [
    (MFU, None, ""),  # neither a stall nor an SLA: the training time is the effective time, not repeated
    (MFU, "  sla: {availability: 50%}\n", "effective time 83.33 days = 41.67 days / 50.00% availability; "),
    (MFU + CHECKPOINTS, None, "effective time 46.88 days = 41.67 days x (1 + 12.50% checkpoints) / 100.00% availability; "),
])
def test_cst001_names_the_effective_time_only_when_it_differs(tmp_path, extra, contract, middle):
    # 3,600,000 s x 1.125 = 4,050,000 s = 46.875 days
    finding = _cst001(tmp_path, extra, contract)
    assert finding["message"] == (f"estimated training time 41.67 days = {FORMULA} on 16 x H100-SXM on pool 'gpu' "
                                  f"({WHOLE_POOL.split('; pool')[0]}); {middle}{NO_PRICE}")


def test_a_price_alone_and_a_budget_in_another_currency(tmp_path):
    # no SLA: 100%; no stall: 1,000 h; 16 x 1,000 h x 2.50 = 40,000 USD; the EUR budget is not compared
    est = _estimate(tmp_path, MFU + "  budget: 50000 EUR\n", "  pricing: {accelerator_hour: 2.50 USD}\n")
    assert "budget" not in est["lines"] and "availability" not in est["lines"]
    assert _line(est, "cost")[:3] == (40000.0, "40,000 USD", "16 x 1,000 h x 2.50 USD/h")
    assert _line(est, "effective_time")[:2] == (3600000.0, "41.67 days")
    assert est["notes"] == [NO_CHECKPOINTS, NO_NETWORK, NO_LOADER, "availability not counted: no contract states one (assumed 100%)",
                            "budget not compared: price in USD, budget in EUR; clusterlint does not convert currencies"]


def test_an_sla_alone_leaves_the_cost_unknown(tmp_path):
    # 3,600,000 s / 0.5 = 7,200,000 s = 83.33 days
    est = _estimate(tmp_path, MFU + "  budget: 50000 USD\n", "  sla: {availability: 50%}\n")
    assert "cost" not in est["lines"] and "budget" not in est["lines"]
    assert _line(est, "effective_time")[:3] == (7200000.0, "83.33 days", "41.67 days / 50.00% availability")
    assert est["notes"] == [NO_CHECKPOINTS, NO_NETWORK, NO_LOADER, "cost unknown: the contract states no price per accelerator-hour, node-hour, accelerator-month or month"]


@pytest.mark.parametrize("precision, seconds, text, column", [
    ("bf16", 3600000.0, "41.67 days", "dense bf16 1,000 TFLOPS: spec"),
    ("int8", 3600000.0, "41.67 days", "dense bf16 1,000 TFLOPS: spec"),  # a serving precision trains in bf16
    ("int4", 3600000.0, "41.67 days", "dense bf16 1,000 TFLOPS: spec"),
    ("fp32", 7200000.0, "83.33 days", "dense fp32 500 TFLOPS: spec"),  # 16 x 500 x 0.75 = 6e15 FLOP/s
])
def test_the_tflops_column_of_each_precision(tmp_path, precision, seconds, text, column):
    value, shown, _, sources = _line(_estimate(tmp_path, precision=precision), "time")
    assert (value, shown, sources[1]) == (seconds, text, column)


def test_a_precision_with_no_tflops_is_a_note(tmp_path):
    est = _estimate(tmp_path, precision="fp32", accel="{model: Mystery-9000, count: 8, memory: 80GB, dense_tflops: {bf16: 1000}}")
    assert list(est["lines"]) == ["accelerators"]
    assert est["notes"] == ["time: neither the catalog nor the spec gives dense fp32 TFLOPS for Mystery-9000"]


def test_a_precision_a_part_does_not_publish_trains_at_the_nearest_one(tmp_path):
    # fp8 on a part that publishes only bf16: bf16's 1,000 TFLOPS, the same figure NET003 uses, and said so
    est = _estimate(tmp_path, precision="fp8", accel="{model: Mystery-9000, count: 8, memory: 80GB, dense_tflops: {bf16: 1000}}")
    assert _line(est, "time")[:2] == (3600000.0, "41.67 days")
    assert _line(est, "time")[3][1:3] == ["dense bf16 1,000 TFLOPS: spec",
                                          "Mystery-9000 publishes no dense fp8 TFLOPS: its bf16 figure is assumed, the nearest published precision"]


def test_the_default_mfu(tmp_path):
    # CST001's default_mfu 0.4: 16 x 1,000 x 0.4 = 6.4e15 FLOP/s; 4.32e22 / 6.4e15 = 6,750,000 s = 78.125 days
    value, text, how, sources = _line(_estimate(tmp_path, extra=""), "time")
    assert (value, text, how) == (6750000.0, "78.12 days", "6 x 8B params x 900B tokens / (16 x 1,000 TFLOPS x 0.4 MFU)")
    assert sources[2] == "MFU 0.4: default (CST001 params default_mfu)"


TWO = "    - {name: second, count: 4, spares: 0, accelerator: {model: H100-SXM, count: 4, dense_tflops: {bf16: 500}}}\n"


@pytest.mark.parametrize("extra, parallelism, pool2, accelerators, text, how, source", [
    ("  placement: {nodes: 1}\n", "{tensor: 8, pipeline: 1, data: 4}", "", 8, "8 x H100-SXM on pool 'gpu'",
     "placement.nodes 1 x 8 accelerators per node; pool: the only node pool", "workload"),  # placement wins over parallelism
    ("  placement: {accelerators: 12}\n", "{tensor: 4, pipeline: 1}", "", 12, "12 x H100-SXM on pool 'gpu'",
     "placement.accelerators; pool: the only node pool", "workload"),
    ("", "{tensor: 4, pipeline: 2, data: 3}", "", 24, "24 x H100-SXM on pool 'gpu'", "tensor 4 x pipeline 2 x data 3; pool: the only node pool", "workload"),
    ("", "{tensor: 4, pipeline: 2}", TWO, 16, "16 x H100-SXM on pool 'gpu'",
     "the whole pool, 2 nodes x 8: no placement or data parallelism stated; pool: the first node pool (the workload names no placement.pool)", "spec"),
    ("  placement: {pool: second}\n", "{tensor: 4, pipeline: 1}", TWO, 16, "16 x H100-SXM on pool 'second'",
     "the whole pool, 4 nodes x 4: no placement or data parallelism stated; pool: placement.pool", "spec"),
    ("  placement: {pool: second, nodes: 3}\n", "{tensor: 4, pipeline: 1}", TWO, 12, "12 x H100-SXM on pool 'second'",
     "placement.nodes 3 x 4 accelerators per node; pool: placement.pool", "workload"),
])
def test_allocation_table(tmp_path, extra, parallelism, pool2, accelerators, text, how, source):
    est = _estimate(tmp_path, MFU + extra, parallelism=parallelism, pool2=pool2)
    assert _line(est, "accelerators") == (accelerators, text, how, [source])


def test_the_second_pools_own_tflops_time_the_job(tmp_path):
    # 16 x 500 TFLOPS x 0.75 = 6e15 FLOP/s: 4.32e22 / 6e15 = 7,200,000 s
    est = _estimate(tmp_path, MFU + "  placement: {pool: second}\n", pool2=TWO)
    assert _line(est, "time")[:3] == (7200000.0, "83.33 days", "6 x 8B params x 900B tokens / (16 x 500 TFLOPS x 0.75 MFU)")


@pytest.mark.parametrize("task, extra, note", [
    ("inference", MFU, "time: an inference workload has no training time"),
    ("training", MFU + "  placement: {pool: other}\n", "time: placement.pool 'other' is not a node pool of this cluster (gpu)"),
])
def test_what_has_no_training_time(tmp_path, task, extra, note):
    est = _estimate(tmp_path, extra, task=task)
    assert est["notes"] == [note]
    assert list(est["lines"]) == ([] if "placement" in extra else ["accelerators"])


def test_a_workload_without_tokens_has_no_time(tmp_path):
    est = _estimate(tmp_path, without="  tokens: 900B\n")
    assert est["notes"] == ["time: the workload states no tokens to train on"]


@pytest.mark.parametrize("storage, checkpoints, note", [
    ("    - {name: shared, type: lustre, capacity: 1PB}\n", CHECKPOINTS, "checkpoint overhead not counted: no checkpoint storage states a write_bandwidth"),
    ("    - {name: data, type: lustre, write_bandwidth: 100GB/s, purpose: [datasets]}\n", CHECKPOINTS,
     "checkpoint overhead not counted: no checkpoint storage states a write_bandwidth"),
    (STORE, "", "checkpoint overhead not counted: the workload states no checkpoints"),
])
def test_checkpoint_overhead_not_counted(tmp_path, storage, checkpoints, note):
    est = _estimate(tmp_path, MFU + checkpoints, storage=storage)
    assert "checkpoints" not in est["lines"] and est["notes"][0] == note
    assert _line(est, "effective_time")[0] == 3600000.0


# ---------------------------------------------------------------- compare: storage headroom and bandwidth per accelerator

def test_compare_reads_headroom_and_bandwidth_from_the_model(tmp_path):
    # need: 1 TB dataset + 2 x 1 TB checkpoints = 3 TB; 6 TB of capacity (the quota caps the 1 PB) = headroom 2;
    # the home store does not count; 8 x 400 Gbps / 8 = 400 Gbps per accelerator
    storage = ("    - {name: shared, type: lustre, capacity: 1PB, quota_per_project: 4TB, write_bandwidth: 100GB/s}\n"
               "    - {name: ckpt, type: vast, capacity: 2TB, purpose: [checkpoints]}\n"
               "    - {name: home, type: nfs, capacity: 1PB, purpose: [home]}\n")
    data = MFU + "  dataset: {size: 1TB}\n  checkpoints: {interval: 1h, keep: 2, size: 1TB}\n"
    code, out, err = run_cli("compare", *_files(tmp_path, data, storage=storage), "--format", "json")
    [row] = json.loads(out)["quotes"]
    assert (code, row["storage_headroom"], row["inter_node_per_accelerator_bps"]) == (0, 2.0, 400e9)
    code, out, err = run_cli("compare", *_files(tmp_path, data, storage=storage + "    - {name: unsized, type: lustre}\n"), "--format", "json")
    [row] = json.loads(out)["quotes"]
    assert row["storage_headroom"] is None  # a store that may hold the data states no size: unknown, not 2


# ---------------------------------------------------------------- the sizing table and the number format

# 64B parameters on 80 GB: train 64B x 18 x 1.25 / 80 GB = 18 exactly; serve 64B x bytes x 1.25 / 80 GB = the bytes per parameter
@pytest.mark.parametrize("precision, serve", [("fp32", 4), ("bf16", 2), ("fp16", 2), ("fp8", 1), ("int8", 1), ("int4", 1)])
def test_accelerators_needed_per_precision(tmp_path, precision, serve):
    work = tmp_path / "w.yaml"
    work.write_text(WORKLOAD.format(task="training", precision=precision, parallelism="{tensor: 8}", extra="").replace("8B", "64B"))
    code, out, _ = run_cli("estimate", "--workload", str(work), "--accelerator", "H100-SXM", "--format", "json")
    [row] = json.loads(out)["accelerators"]
    assert (code, row["memory"], row["train"], row["serve"]) == (0, 80e9, 18, serve)


def test_int4_takes_half_a_byte_per_parameter(tmp_path):
    # 128B x 0.5 bytes x 1.25 / 80 GB = 1 exactly; 129B: 1.008 -> 2
    for params, serve in (("128B", 1), ("129B", 2)):
        work = tmp_path / "w.yaml"
        work.write_text(WORKLOAD.format(task="inference", precision="int4", parallelism="{tensor: 1}", extra="").replace("8B", params))
        [row] = json.loads(run_cli("estimate", "--workload", str(work), "--accelerator", "H100-SXM", "--format", "json")[1])["accelerators"]
        assert row["serve"] == serve, params


@pytest.mark.parametrize("x, up", [(3.0, 3), (3.0000000001, 3), (3.01, 4), (0.5, 1), (18.0, 18)])
def test_ceil_forgives_float_noise_only(x, up):
    assert ceil(x) == up


@pytest.mark.parametrize("value, text", [
    (16, "16"), (2250.0, "2,250"), (989.4, "989.4"), (999.94, "999.9"), (1000.5, "1,000.5"), (1978.84, "1,978.8"),
    (0.123456, "0.1235"), (-1500.25, "-1,500.2"), (1e15, "1,000,000,000,000,000.0"), (999999999999999.0, "999,999,999,999,999"),
])
def test_number_format(value, text):
    assert fmt(value) == text


def test_shared_documents_with_findings_of_their_own_are_still_sized(tmp_path):
    """The workload's ACC004 (MFU 0.75) and the contract's CON002 (no delivery date) are findings about
    them, not loading problems: estimate and compare size the quote and exit 0. A contract that does not
    load is named with its position and the exit is 2."""
    est = _estimate(tmp_path, MFU, PRICED)  # asserts exit 0
    assert _line(est, "cost")[1] == "80,000 USD" and "ACC004"  # 16 x 2,000 h (50% availability) x 2.50 not in json.dumps(est)
    shared = ("--workload", str(tmp_path / "w.yaml"), "--contract", str(tmp_path / "c.yaml"))
    code, out, err = run_cli("compare", str(tmp_path / "q.yaml"), *shared, "--format", "json")
    assert (code, err, [q["name"] for q in json.loads(out)["quotes"]]) == (0, "", ["q"])
    (tmp_path / "c.yaml").write_text(CONTRACT.format(spec="  pricing: {accelerator_hour: 2.50}\n"), encoding="utf-8")
    for command in ("estimate", "compare"):
        code, _, err = run_cli(command, str(tmp_path / "q.yaml"), *shared)
        assert (code, err) == (2, f"clusterlint: not reviewed: {tmp_path / 'c.yaml'}:5:31: SPEC005 spec.pricing.accelerator_hour: 2.5 has no unit; "
                                  "expected an amount with a currency code, e.g. 2.10 USD or 0.05 USD/GB\n"), command


# 16 x 1,000 TFLOPS x 0.75 / (6 x 8B) = 250,000 tokens/s x 1.8 PB / 900B tokens = 2,000 bytes/token: 500 MB/s needed (STO005's
# figures); at 250 MB/s the accelerators wait as long again: 500 / 250 - 1 = 100%, 3,600,000 s x 2 = 83.33 days; at 500 MB/s none
@pytest.mark.parametrize("read, share, effective, formula", [
    ("250MB/s", 1.0, 7200000.0, "41.67 days x (1 + 100.00% dataloader) / 100.00% availability"),
    ("500MB/s", 0.0, 3600000.0, "41.67 days / 100.00% availability"),  # exactly keeps up: no stall, no term
])
def test_a_dataloader_shortfall_lengthens_the_time(tmp_path, read, share, effective, formula):
    storage = f"    - {{name: shared, type: lustre, capacity: 2PB, read_bandwidth: {read}}}\n"
    est = _estimate(tmp_path, MFU + "  dataset: {size: 1.8PB}\n", storage=storage)
    value, text, how, sources = _line(est, "dataloader")
    assert (value, text) == (share, f"{share:.2%}")
    assert how == f"max(0, 500 MB/s needed / {read[:-4]} MB/s read - 1 (250,000 tokens/s x 2,000 bytes/token))"
    assert _line(est, "effective_time")[:3] == (effective, units_days(effective), formula)
    code, out, _ = run_cli("check", *_files(tmp_path, MFU + "  dataset: {size: 1.8PB}\n", storage=storage), "--format", "json", "--select", "STO005")
    assert len([f for f in json.loads(out)["findings"] if f["rule"] == "STO005"]) == (share > 0)


def units_days(seconds: float) -> str:
    return f"{seconds / 86400:.2f} days"
