"""The sizing model of record: allocation, configured params, and one answer from check, estimate and compare."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

from hypothesis import given, settings, strategies as st

from conftest import FIXTURES, ROOT, check_json, run_cli

SPECS = ROOT / "specs"
QUOTES = ["aws-p5-48xlarge.yaml", "azure-nd-mi300x-v5.yaml", "budget-pcie-nfs.yaml", "dgx-h100-superpod.yaml",
          "forge-h100-quote.yaml", "gcp-a3-highgpu-8g.yaml", "tpu-v5p-slice.yaml", "hetero-a100-l40s.yaml"]
TWO_POOLS = (FIXTURES / "ACC005" / "good.yaml").read_text(encoding="utf-8")


def _two_pool(tmp_path: Path, placement: str, parallelism: str) -> str:
    text = TWO_POOLS.replace("  placement: {pool: training}\n", placement).replace("parallelism: {tensor: 8, pipeline: 1, data: 4}", parallelism)
    path = tmp_path / "two-pools.yaml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def _findings(report, rule):
    return [(f["line"], f["column"], f["message"], f["evidence"]) for f in report["findings"] if f["rule"] == rule]


def test_the_second_pool_is_timed_at_its_own_accelerator(tmp_path):
    # 6 x 7B x 100B / (8 x 362.05 TFLOPS (L40S bf16) x 0.45) = 3,222,391 s = 37.3 days; an A100 pool would give 312 TFLOPS.
    # data 2 across the pool's 4-accelerator nodes: each step all-reduces 2 x 1/2 x 7B x 2 bytes / tensor 4 = 3.5 GB at
    # 8 x 200 Gbps / 4 x 0.8 = 320 Gbps (0.0875 s, half hidden) against 6 x 7B x 512 x 4096 / (8 x 362.05 T x 0.45) = 67.6 s
    # (0.065%); the 98 GB checkpoint takes 0.49 s every 2 h (0.007%): 37.3 days x 1.00072 = 37.32 days
    path = _two_pool(tmp_path, "  placement: {pool: inference}\n", "parallelism: {tensor: 4, pipeline: 1, data: 2}")
    report = check_json(path)
    assert _findings(report, "CST001") == [(15, 14,
        "estimated training time 37.3 days = 6 x 7B params x 100B tokens / (8 x 362.1 TFLOPS x 0.45 MFU) on 8 x L40S on pool 'inference' "
        "(tensor 4 x pipeline 1 x data 2); effective time 37.32 days = 37.3 days x (1 + 0.06% network + 0.01% checkpoints) / 100.00% availability; "
        "no price (needs a Contract with a pricing field or a clause stating a price per GPU-hour, node-hour, GPU-month or month)",
        ["accelerators 8 x L40S: tensor 4 x pipeline 1 x data 2; pool: placement.pool",
         "dense bf16 362.1 TFLOPS: catalog L40S, https://www.nvidia.com/en-us/data-center/l40s/",
         "MFU 0.45: workload assumed_mfu",
         "network 0.06% of compute = 3.5 GB all-reduce per step / 320 Gbps = 0.0875 s, x (1 - 0.5 overlap) / 67.6 s compute per step",
         "gradient all-reduce per accelerator per step: 2 x (2 - 1) / 2 domains x 3.5 GB gradient shard / 1 replica per domain = 3.5 GB",
         "scale-up domain 4: the node's accelerator count",
         "effective inter-node bandwidth 320 Gbps per accelerator = 400 Gbps (8 x 200 Gbps / 4 accelerators) x 0.8 efficiency / 1 oversubscription",
         "oversubscription 1: spec, the fabric",
         "overlap 0.5, efficiency 0.8: default (NET007 params)",
         "checkpoint stall 0.01%: 98 GB (7B x 14 bytes (weights + fp32 master + Adam moments)) / 200 GB/s (spec) every 2 hours",
         # 8 x 362.05 T x 0.45 / (6 x 7B) = 31,033 tokens/s x 1 TB / 100B tokens = 10 bytes/token: 310 kB/s of 400 GB/s, no stall
         "dataloader stall 0.00% = max(0, 310329 B/s needed / 400 GB/s read - 1 (31,032.9 tokens/s x 10 bytes/token)) (STO005's figures)"])]
    assert [f[:2] for f in _findings(report, "CST002")] == [(58, 13)]  # 37.3 days > the 30-day deadline
    assert _findings(report, "NET001") == [] and _findings(report, "ACC005") == []  # tensor 4 fits the L40S node


def test_without_placement_tensor_pipeline_data_on_the_first_pool(tmp_path):
    # 6 x 7B x 100B / (32 x 312 TFLOPS (A100 bf16) x 0.45) = 10.82 days
    path = _two_pool(tmp_path, "", "parallelism: {tensor: 8, pipeline: 2, data: 2}")
    [(line, col, message, evidence)] = _findings(check_json(path), "CST001")
    assert (line, col) == (7, 14)
    assert message.startswith("estimated training time 10.82 days = 6 x 7B params x 100B tokens / (32 x 312 TFLOPS x 0.45 MFU) "
                              "on 32 x A100-SXM-80GB on pool 'training' (tensor 8 x pipeline 2 x data 2);")
    assert evidence[0] == "accelerators 32 x A100-SXM-80GB: tensor 8 x pipeline 2 x data 2; pool: the first node pool (the workload names no placement.pool)"


def test_allocation_table():
    cases = [  # placement, parallelism, ACC005 message (None: silent)
        ("  placement: {pool: training, nodes: 4}\n", "parallelism: {tensor: 8, pipeline: 1, data: 4}", None),  # 4 x 8 = 32 = the pool
        ("  placement: {pool: training, nodes: 5}\n", "parallelism: {tensor: 8, pipeline: 1, data: 4}",
         (53, 38, "the workload asks for 40 accelerators (placement.nodes 5 x 8 accelerators per node); pool 'training' has 32 (4 nodes x 8 A100-SXM-80GB): the job cannot start as planned")),
        ("", "parallelism: {tensor: 8, pipeline: 1, data: 5}",
         (52, 47, "the workload asks for 40 accelerators (tensor 8 x pipeline 1 x data 5); pool 'training' has 32 (4 nodes x 8 A100-SXM-80GB): the job cannot start as planned")),
        ("  placement: {pool: gpu}\n", "parallelism: {tensor: 8, pipeline: 1, data: 4}",
         (53, 21, "placement.pool 'gpu' is not a node pool of cluster 'fixture-two-pools' (pools: training, inference)")),
    ]
    with tempfile.TemporaryDirectory() as tmp:
        for placement, parallelism, expected in cases:
            report = check_json(_two_pool(Path(tmp), placement, parallelism))
            assert [f[:3] for f in _findings(report, "ACC005")] == ([] if expected is None else [expected]), placement


def _tree(default_mfu: float) -> Path:
    tmp = Path(tempfile.mkdtemp())
    for name in [*QUOTES, "llama70b-pretrain.yaml", "forge-compute-msa.txt"]:
        shutil.copy(SPECS / name, tmp / name)
    workload = tmp / "llama70b-pretrain.yaml"
    workload.write_text("\n".join(l for l in workload.read_text().splitlines() if "assumed_mfu" not in l) + "\n")
    (tmp / ".clusterlint.yaml").write_text(f"params:\n  CST001: {{default_mfu: {default_mfu!r}}}\n")
    return tmp


def test_configured_default_mfu_moves_check_estimate_and_compare(monkeypatch):
    # 6 x 70B x 2T / (512 x 989.4 TFLOPS x 0.2) = 95.96 days; a step is 6 x 70B x 1024 x 4096 / (512 x 989.4 TFLOPS x 0.2)
    # = 17.39 s and exposes 0.5 x 8.203 GB / 320 Gbps = 0.1025 s of all-reduce (0.59%); the checkpoint 4.9 s every 2 h
    # (0.07%): 95.96 x 1.0066 / 99.5% = 97.08 days = 2,329.9 h; usage 512 x 2,329.9 h x 2.10 = 2,505,062 USD; the run
    # ends within the 6-month reservation, so the owed cost does not move with the MFU: 4,713,247 USD
    tmp = _tree(0.2)
    monkeypatch.chdir(tmp)
    report = check_json("forge-h100-quote.yaml", "--workload", "llama70b-pretrain.yaml")
    [(_, _, message, evidence)] = _findings(report, "CST001")
    assert "training time 95.96 days" in message and "effective time 97.08 days" in message
    assert message.endswith("cost owed 4,713,247 USD = 512 reserved x 4,383 h term x 2.10 USD/h + 12,900 GB x 0.05 USD/GB")
    assert "MFU 0.2: default (CST001 params default_mfu)" in evidence
    _, out, _ = run_cli("estimate", "forge-h100-quote.yaml", "--workload", "llama70b-pretrain.yaml", "--format", "json")
    [est] = json.loads(out)
    assert est["lines"]["usage"]["text"] == "2,505,062 USD" and est["lines"]["effective_time"]["text"] == "97.08 days"
    _, out, _ = run_cli("compare", "forge-h100-quote.yaml", "--workload", "llama70b-pretrain.yaml", "--format", "json")
    assert json.loads(out)["quotes"][0]["estimate"]["usage"]["text"] == "2,505,062 USD"
    shutil.rmtree(tmp)


@settings(max_examples=6, deadline=None)
@given(st.floats(min_value=0.05, max_value=1.0, allow_nan=False).map(lambda x: round(x, 3)))
def test_check_estimate_and_compare_agree_on_every_spec(default_mfu):
    """Same effective time, cost and deadline verdict from all three commands, under the configured MFU."""
    tmp = _tree(default_mfu)
    quotes = [str(tmp / q) for q in QUOTES]
    shared = ("--workload", str(tmp / "llama70b-pretrain.yaml"), "--contract", str(tmp / "forge-compute-msa.txt"))
    report = check_json(*quotes, *shared)
    _, out, _ = run_cli("estimate", *quotes, *shared, "--format", "json")
    estimates = {e["file"]: e["lines"] for e in json.loads(out)}
    _, out, _ = run_cli("compare", *quotes, *shared, "--format", "json")
    compared = {q["file"]: q["estimate"] for q in json.loads(out)["quotes"]}
    fired = 0
    for quote in quotes:
        lines = estimates[quote]
        assert compared[quote] == lines
        mine = [f for f in report["findings"] if f["file"] == quote]
        cst001 = [f["message"] for f in mine if f["rule"] == "CST001"]
        assert bool(cst001) == ("effective_time" in lines)
        if not cst001:
            continue
        assert f"{lines['effective_time']['text']} = {lines['effective_time']['how']}" in cst001[0]
        assert cst001[0].endswith(f"cost owed {lines['cost']['text']} = {lines['cost']['how']}")
        late = [f for f in report["findings"] if f["rule"] == "CST002" and f["message"].startswith(f"estimated time {lines['effective_time']['text']} ")]
        assert bool(late) == (lines["deadline"]["value"] is False)
        fired += 1
    assert fired >= 5  # the property compared real estimates, not a vacuous set
    shutil.rmtree(tmp)


def test_a_quote_that_fails_to_load_is_named_and_exits_2(tmp_path):
    broken = tmp_path / "broken.yaml"
    broken.write_text((SPECS / "forge-h100-quote.yaml").read_text().replace("node_pools:", "node_pool:", 1))
    workload = str(SPECS / "llama70b-pretrain.yaml")
    for command in ("compare", "estimate"):
        code, out, err = run_cli(command, str(SPECS / "forge-h100-quote.yaml"), str(broken), "--workload", workload)
        assert code == 2 and "forge-h100-64-nodes" in out, command  # the good quote is still shown
        assert err == f"clusterlint: not reviewed: {broken}:8:1: SPEC002 spec.node_pools: required field is missing\n", command


def test_an_invalid_workload_is_a_positioned_error(tmp_path):
    workload = tmp_path / "w.yaml"
    workload.write_text((SPECS / "llama70b-pretrain.yaml").read_text().replace("tokens:", "tokenz:", 1))
    expected = f"{workload}:12:3: SPEC002 spec: unknown key 'tokenz' (did you mean 'tokens'?)\n"
    for args in (("compare", str(SPECS / "forge-h100-quote.yaml")), ("estimate", str(SPECS / "forge-h100-quote.yaml"))):
        code, out, err = run_cli(*args, "--workload", str(workload))
        assert (code, out) == (2, "") and err == "clusterlint: error: the workload is not valid, so no quote can be sized: " + expected
        assert "give --workload" not in err
    code, _, err = run_cli("estimate", "--workload", str(workload))
    assert code == 2 and err == "clusterlint: error: the workload is not valid: " + expected


CPU001_BAD = (FIXTURES / "CPU001" / "bad.yaml").read_text(encoding="utf-8")
POOL_END = "        - {type: nvme, capacity: 30TB}\n  network:\n"


def _with_pools(extra: list[str]) -> str:
    return CPU001_BAD.replace(POOL_END, "        - {type: nvme, capacity: 30TB}\n" + "".join(extra) + "  network:\n", 1)


@settings(max_examples=8, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["H100-SXM", "A100-SXM-80GB", "Mystery-9000"]), st.booleans(), st.booleans()), min_size=1, max_size=3))
def test_an_under_specified_pool_never_improves_a_quote(pools):
    """Adding pools that leave out their CPU, host memory or a known accelerator keeps every finding
    about the first pool and never raises the score; what could not be judged is a skip naming the pool."""
    extra = [f"    - name: extra{i}\n      count: 2\n      accelerator: {{model: {model}, count: 8}}\n"
             + ("      cpu: {sockets: 2, cores_per_socket: 64}\n" if cpu else "") + ("      memory: 2TB\n" if mem else "")
             for i, (model, cpu, mem) in enumerate(pools)]
    with tempfile.TemporaryDirectory() as tmp:
        base, more = Path(tmp) / "base.yaml", Path(tmp) / "more.yaml"
        base.write_text(CPU001_BAD)
        more.write_text(_with_pools(extra))
        before, after = check_json(str(base)), check_json(str(more))
    first = {(f["rule"], f["message"]) for f in before["findings"] if f["path"].startswith("spec.node_pools[0]")}
    assert ("CPU001", "2 x 8 = 16 physical cores per node in pool 'gpu' cannot feed 8 accelerators: "
            "8 x (3 dataloader workers + 1) = 32 cores needed (workload)") in first  # the "before" case fired
    assert first <= {(f["rule"], f["message"]) for f in after["findings"]}
    assert after["score"]["score"] <= before["score"]["score"]
    reasons = {(s["rule"], s["reason"]) for s in after["skipped"]}
    for i, (model, cpu, _) in enumerate(pools):
        if not cpu:
            assert ("CPU001", f"pool 'extra{i}': the cluster states no CPU for its nodes") in reasons
        if model == "Mystery-9000":
            assert ("LCK001", f"pool 'extra{i}': accelerator 'Mystery-9000' is not in the catalog (see SPEC004)") in reasons


def test_the_heterogeneous_example_places_itself_on_its_training_pool():
    # 6 x 8B x 300B / (64 x 312 TFLOPS x 0.4) = 1,802,885 s = 20.87 days; 112 GB / 100 GB/s every 2 h = 0.02%
    [(line, col, message, evidence)] = _findings(check_json(str(SPECS / "hetero-a100-l40s.yaml")), "CST001")
    assert (line, col) == (14, 14)
    assert message.startswith("estimated training time 20.87 days = 6 x 8B params x 300B tokens / (64 x 312 TFLOPS x 0.4 MFU) "
                              "on 64 x A100-SXM-80GB on pool 'dgx-a100' (placement.nodes 8 x 8 accelerators per node);")
    assert evidence[0] == "accelerators 64 x A100-SXM-80GB: placement.nodes 8 x 8 accelerators per node; pool: placement.pool"


def test_acc004_judges_multi_node_plans_only(tmp_path):
    message = ("assumed MFU 0.75 is above 0.6: about 0.5 is already excellent for multi-node training, "
               "so time and cost estimates are too optimistic")
    cases = [  # placement, ACC004 findings
        ("  placement: {pool: training, nodes: 1}\n", []),  # 8 accelerators in one node
        ("  placement: {pool: training, accelerators: 9}\n", [(57, 16, message)]),  # 9 > 8 per node
        ("  placement: {pool: training}\n", [(57, 16, message)]),  # tensor 8 x data 4 = 32
    ]
    for placement, expected in cases:
        path = _two_pool(tmp_path, placement, "parallelism: {tensor: 8, pipeline: 1, data: 4}")
        Path(path).write_text(Path(path).read_text().replace("assumed_mfu: 0.45", "assumed_mfu: 0.75"))
        assert [f[:3] for f in _findings(check_json(path), "ACC004")] == expected, placement
    alone = tmp_path / "workload.yaml"  # no cluster: the plan is judged as multi-node
    alone.write_text("---".join(TWO_POOLS.split("---")[1:]).replace("assumed_mfu: 0.45", "assumed_mfu: 0.75"))
    assert [f[2] for f in _findings(check_json(str(alone)), "ACC004")] == [message]


def test_acc001_honours_the_stated_zero_stage(tmp_path):
    # 70B / (tensor 8) = 8.75B params per accelerator, x 1.25 overhead, data 4, A100 80 GB:
    # stage 0: 8.75B x 18 = 196.9 GB; stage 1: 8.75B x (6 + 12/4) = 98.44 GB; stage 2: 8.75B x (2 + 16/4) = 65.63 GB;
    # stage 3: 8.75B x 18/4 = 49.22 GB; unstated: the whole-cluster check, 70B x 18 x 1.25 / 80 GB = 20 <= 48 accelerators
    pool = "the first node pool (the workload names no placement.pool)"
    cases = [
        (", zero_stage: 0", "ZeRO stage 0 with tensor 8 x pipeline 1 x data 4 keeps 70B / 8 x (18 + 0 / 4) bytes x 1.25 = 196.9 GB per accelerator; A100-SXM-80GB has 80 GB"),
        (", zero_stage: 1", "ZeRO stage 1 with tensor 8 x pipeline 1 x data 4 keeps 70B / 8 x (6 + 12 / 4) bytes x 1.25 = 98.44 GB per accelerator; A100-SXM-80GB has 80 GB"),
        (", zero_stage: 2", None),
        (", zero_stage: 3", None),
        ("", None),
    ]
    for stage, expected in cases:
        path = _two_pool(tmp_path, "", "parallelism: {tensor: 8, pipeline: 1, data: 4" + stage + "}")
        Path(path).write_text(Path(path).read_text().replace("parameters: 7B", "parameters: 70B"))
        found = _findings(check_json(path), "ACC001")
        if expected is None:
            assert found == [], stage
        else:
            assert found == [(52, 62, expected, ["80 GB per accelerator: catalog A100-SXM-80GB, https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf",
                                                 f"accelerators 32: tensor 8 x pipeline 1 x data 4; pool: {pool}"])], stage


def test_the_sizing_table_reads_configured_acc001_params(tmp_path, monkeypatch):
    # 70B x 18 bytes x 2 (configured overhead) / 80 GB = 31.5 -> 32 H100s; serving keeps ACC002's 1.25: 70B x 2 x 1.25 / 80 GB -> 3
    shutil.copy(SPECS / "llama70b-pretrain.yaml", tmp_path / "w.yaml")
    (tmp_path / ".clusterlint.yaml").write_text("params:\n  ACC001: {overhead: 2}\n")
    monkeypatch.chdir(tmp_path)
    code, out, _ = run_cli("estimate", "--workload", "w.yaml", "--accelerator", "H100-SXM")
    assert code == 0 and out.splitlines()[2].split() == ["H100-SXM", "80", "GB", "32", "3"]
    assert "train: 70B x 18 bytes x 2 / memory (ACC001 params)" in out
