"""NET001-NET007 case by case: the gate (multi-node training only), each severity band and each
boundary, with line, column, the exact message and the exact evidence (oracles computed by hand
in the comments)."""

from __future__ import annotations

import pytest

from cases import WORKLOAD_HEAD, H100, cluster, findings, skips
from conftest import check_json, run_cli

from clusterlint.model import catalog

# the workload is a file of its own: its parallelism.tensor value is always at line 10, column 25
WORKLOAD = WORKLOAD_HEAD + """  task: {task}
  model: {{parameters: 8B}}
  tokens: 1T
  sequence_length: 1000
  global_batch_size: {gbs}
  parallelism: {parallelism}
  assumed_mfu: 0.75
{placement}"""
FAST = "{fabric: infiniband, nics_per_node: 8, nic_speed: 400Gbps, rdma: true, oversubscription: 1}"
CATALOG_H100 = "catalog H100-SXM, https://www.nvidia.com/en-us/data-center/h100/"
WHOLE_POOL = "the whole pool, 2 nodes x 8: no placement or data parallelism stated; pool: the only node pool"


def _report(tmp_path, *args, inter=FAST, intra=None, nodes=2, accel=H100, pool2="", workload=True, task="training", gbs=50,
            parallelism="{tensor: 8, pipeline: 1}", placement=""):
    """The quote's inter_node line is line 14 (intra_node, when given, follows it)."""
    network = (f"    inter_node: {inter}\n" if inter else "") + (f"    intra_node: {intra}\n" if intra else "")
    quote = tmp_path / "q.yaml"
    quote.write_text(cluster(network, nodes=nodes, accel=accel, pool2=pool2), encoding="utf-8")
    if workload:
        work = tmp_path / "w.yaml"
        work.write_text(WORKLOAD.format(task=task, gbs=gbs, parallelism=parallelism, placement=placement), encoding="utf-8")
        args = ("--workload", str(work), *args)
    return check_json(str(quote), *args)


def _on_workload(report, rule):
    """A finding about the workload file sits on the quote's name (line 3, column 18) and points at the workload's line."""
    return [(f["severity"], f["line"], f["column"], [(r["file"].rsplit("/", 1)[-1], r["line"], r["column"], r["message"]) for r in f["related"]], f["message"], f["evidence"])
            for f in report["findings"] if f["rule"] == rule]


TENSOR = [("w.yaml", 10, 25, "workload spec.parallelism.tensor")]


# ---------------------------------------------------------------- NET001

def _net001(tp, domain, pool="gpu"):
    return (f"tensor parallel degree {tp} exceeds the {domain}-accelerator scale-up domain of pool {pool!r}: "
            "every layer's activations would cross the inter-node network")


SMALL = "    - {name: small, count: 2, spares: 0, accelerator: {model: H100-SXM, count: 4}}\n"


@pytest.mark.parametrize("tp, intra, pool2, placement, expected", [
    (8, None, "", "", None),  # the H100's domain of 8: equal is inside
    (16, None, "", "", (_net001(16, 8), f"scale-up domain 8: {CATALOG_H100}")),
    (4, "{fabric: nvswitch, scale_up_domain: 4}", "", "", None),
    (5, "{fabric: nvswitch, scale_up_domain: 4}", "", "", (_net001(5, 4), "scale-up domain 4: spec")),
    # the workload's pool: four H100s per node cap the catalog's domain of 8
    (8, None, SMALL, "  placement: {pool: small}\n",
     (_net001(8, 4, "small"), "scale-up domain 4: the node's accelerator count (the catalog's domain of 8 is capped by the node)")),
    (4, None, SMALL, "  placement: {pool: small}\n", None),
    (8, None, SMALL, "", None),  # the first pool holds 8
])
def test_net001_cases(tmp_path, tp, intra, pool2, placement, expected):
    report = _report(tmp_path, intra=intra, pool2=pool2, placement=placement, parallelism=f"{{tensor: {tp}, pipeline: 1}}")
    assert _on_workload(report, "NET001") == ([] if expected is None else [("error", 3, 18, TENSOR, expected[0], [expected[1]])])


def test_net001_and_net002_name_a_pool_they_cannot_judge(tmp_path):
    report = _report(tmp_path, accel="{model: Mystery-9000, count: 8}", parallelism="{tensor: 16, pipeline: 1}")
    reason = "pool 'gpu': accelerator 'Mystery-9000' is not in the catalog (see SPEC004)"
    assert findings(report, "NET001") == [] and skips(report, "NET001") == [reason]
    assert findings(report, "NET002") == [] and skips(report, "NET002") == [reason]


# ---------------------------------------------------------------- NET002

def _net002(tp, pool="gpu"):
    return (f"tensor parallel degree {tp} runs over PCIe in pool {pool!r}: PCIe moves a fraction of what NVLink does, "
            "so every layer waits on communication")


@pytest.mark.parametrize("tp, intra, expected", [
    (2, "{fabric: pcie}", [("warning", 3, 18, TENSOR, _net002(2), ["intra-node fabric pcie: spec"])]),
    (1, "{fabric: pcie}", []),  # no tensor parallelism: nothing crosses PCIe
    (2, "{fabric: nvlink}", []),
    (8, None, []),  # the H100-SXM's catalog fabric is NVLink
])
def test_net002_cases(tmp_path, tp, intra, expected):
    report = _report(tmp_path, intra=intra, parallelism=f"{{tensor: {tp}, pipeline: 1}}")
    assert _on_workload(report, "NET002") == expected


def test_net002_reads_the_catalog_fabric_of_the_workloads_pool(tmp_path):
    pool2 = "    - {name: pcie, count: 2, spares: 0, accelerator: {model: L40S, count: 8}}\n"
    report = _report(tmp_path, pool2=pool2, placement="  placement: {pool: pcie}\n", parallelism="{tensor: 2, pipeline: 1}")
    assert _on_workload(report, "NET002") == [("warning", 3, 18, TENSOR, _net002(2, "pcie"),
                                               ["intra-node fabric pcie: catalog L40S, https://www.nvidia.com/en-us/data-center/l40s/"])]


# ---------------------------------------------------------------- NET003

def _inter(nics, speed, extra=""):
    return f"{{fabric: infiniband, nics_per_node: {nics}, nic_speed: {speed}, rdma: true, oversubscription: 1{extra}}}"


def _src(model):
    """The catalog's citation of a part's dense TFLOPS, as the evidence writes it."""
    return f"catalog {model}, {catalog.lookup(model).sources['compute']}"


def _net003(nics, speed, per, eff, tail, pool="gpu", per_node=8):
    return (f"{nics} x {speed} / {per_node} accelerators = {per} per accelerator ({eff} effective at 80% of advertised) "
            f"in pool {pool!r}; {tail}")


def _scaled(tflops, need, column="bf16", capped=False, error=None, assumed=""):
    cap = ", capped at the reference design's 400 Gbps" if capped else ""
    tail = f"training on {tflops} dense {column} TFLOPS{assumed} wants >= {need} (400 Gbps per 989.4 reference TFLOPS{cap})"
    return tail + (f", and below {error} is an error" if error else "")


CAP = "capped at 400 Gbps per accelerator, the reference design's NIC speed (NET003 params warn_below)"
NO_BATCH = "the workload states no global_batch_size and sequence_length: the reference design's traffic pattern is assumed"


def _error(at):
    return f"error below 100 Gbps / 400 Gbps x the need = {at}"


# H100: 989.4 dense bf16 TFLOPS, the reference: warning below 400 Gbps per accelerator, error below a quarter, 100 Gbps
@pytest.mark.parametrize("nics, speed, expected", [
    (8, "400Gbps", None),  # exactly the need
    (8, "399Gbps", ("warning", _net003(8, "399 Gbps", "399 Gbps", "319.2 Gbps", _scaled("989.4", "400 Gbps")))),
    (2, "400Gbps", ("warning", _net003(2, "400 Gbps", "100 Gbps", "80 Gbps", _scaled("989.4", "400 Gbps")))),  # a quarter: still a warning
    (8, "99Gbps", ("error", _net003(8, "99 Gbps", "99 Gbps", "79.2 Gbps", _scaled("989.4", "400 Gbps", error="100 Gbps")))),
])
def test_net003_bands_and_boundaries(tmp_path, nics, speed, expected):
    report = _report(tmp_path, inter=_inter(nics, speed), workload=False)
    evidence = ["threshold: 400 Gbps x 989.4 / 989.4 TFLOPS = 400 Gbps", f"dense 989.4 bf16 TFLOPS: {_src('H100-SXM')}", _error("100 Gbps")]
    assert findings(report, "NET003") == ([] if expected is None else [(expected[0], 14, 67, expected[1], evidence)])


# half the reference TFLOPS wants half the bandwidth; twice the reference would want 800 Gbps but is capped at the
# reference design's 400 Gbps (no NIC a B200 server takes carries 900 Gbps per GPU), its error line a quarter of that
HALF = "{model: H100-SXM, count: 8, dense_tflops: {bf16: 494.7}}"
DOUBLE = "{model: H100-SXM, count: 8, dense_tflops: {bf16: 1978.8}}"


@pytest.mark.parametrize("accel, speed, expected", [
    (HALF, "200Gbps", None),
    (HALF, "199Gbps", ("warning", _net003(8, "199 Gbps", "199 Gbps", "159.2 Gbps", _scaled("494.7", "200 Gbps")))),
    (HALF, "50Gbps", ("warning", _net003(8, "50 Gbps", "50 Gbps", "40 Gbps", _scaled("494.7", "200 Gbps")))),
    (HALF, "49Gbps", ("error", _net003(8, "49 Gbps", "49 Gbps", "39.2 Gbps", _scaled("494.7", "200 Gbps", error="50 Gbps")))),
    (DOUBLE, "400Gbps", None),  # the cap: the reference design's own speed never warns
    (DOUBLE, "399Gbps", ("warning", _net003(8, "399 Gbps", "399 Gbps", "319.2 Gbps", _scaled("1,978.8", "400 Gbps", capped=True)))),
    (DOUBLE, "100Gbps", ("warning", _net003(8, "100 Gbps", "100 Gbps", "80 Gbps", _scaled("1,978.8", "400 Gbps", capped=True)))),
    (DOUBLE, "99Gbps", ("error", _net003(8, "99 Gbps", "99 Gbps", "79.2 Gbps", _scaled("1,978.8", "400 Gbps", capped=True, error="100 Gbps")))),
])
def test_net003_need_scales_with_dense_tflops_up_to_the_cap(tmp_path, accel, speed, expected):
    report = _report(tmp_path, inter=_inter(8, speed), accel=accel, workload=False)
    if accel == HALF:
        evidence = ["threshold: 400 Gbps x 494.7 / 989.4 TFLOPS = 200 Gbps", "dense 494.7 bf16 TFLOPS: spec", _error("50 Gbps")]
    else:
        evidence = ["threshold: 400 Gbps x 1,978.8 / 989.4 TFLOPS = 800 Gbps", "dense 1,978.8 bf16 TFLOPS: spec", CAP, _error("100 Gbps")]
    assert findings(report, "NET003") == ([] if expected is None else [(expected[0], 14, 67, expected[1], evidence)])


# the workload's precision picks the column (int8 trains in bf16); 99 Gbps per accelerator against each need
PRECISIONS = "{model: H100-SXM, count: 8, dense_tflops: {bf16: 494.7, fp16: 247.35, fp8: 989.4, fp32: 123.675}}"


@pytest.mark.parametrize("precision, column, tflops, need, error", [
    ("bf16", "bf16", "494.7", "200 Gbps", None),
    ("int8", "bf16", "494.7", "200 Gbps", None),
    ("fp16", "fp16", "247.3", "100 Gbps", None),
    ("fp8", "fp8", "989.4", "400 Gbps", "100 Gbps"),  # the FP8 job wants what its FP8 compute asks (CST001's column too)
    ("fp32", "fp32", "123.7", None, None),  # wants 50 Gbps: 99 is enough
])
def test_net003_each_precision(tmp_path, precision, column, tflops, need, error):
    report = _report(tmp_path, inter=_inter(8, "99Gbps"), accel=PRECISIONS, gbs="null", placement=f"  precision: {precision}\n")
    if need is None:
        assert findings(report, "NET003") == []
        return
    [(severity, line, col, message, evidence)] = findings(report, "NET003")
    assert (severity, line, col) == ("error" if error else "warning", 14, 67)
    assert message == _net003(8, "99 Gbps", "99 Gbps", "79.2 Gbps", _scaled(tflops, need, column=column, error=error))
    assert evidence[1:3] == [f"dense {tflops} {column} TFLOPS: spec", NO_BATCH]


# V100 publishes no bf16 figure: its fp16 tensor figure (125 TFLOPS) is the nearest, said so; 400 x 125 / 989.4 = 50.54 Gbps
V100 = "{model: V100-SXM2-32GB, count: 8}"


@pytest.mark.parametrize("speed, expected", [
    ("51Gbps", None),
    ("50Gbps", ("warning", _net003(8, "50 Gbps", "50 Gbps", "40 Gbps", _scaled("125", "50.54 Gbps", column="fp16", assumed=" (no bf16 figure: fp16 assumed)")))),
    ("12Gbps", ("error", _net003(8, "12 Gbps", "12 Gbps", "9.6 Gbps",
                                 _scaled("125", "50.54 Gbps", column="fp16", assumed=" (no bf16 figure: fp16 assumed)", error="12.63 Gbps")))),
])
def test_net003_falls_back_to_fp16_on_v100(tmp_path, speed, expected):
    report = _report(tmp_path, inter=_inter(8, speed), accel=V100, workload=False)
    evidence = ["threshold: 400 Gbps x 125 / 989.4 TFLOPS = 50.54 Gbps", f"dense 125 fp16 TFLOPS: {_src('V100-SXM2-32GB')}",
                "V100-SXM2-32GB publishes no dense bf16 TFLOPS: its fp16 figure is assumed, the nearest published precision", _error("12.63 Gbps")]
    assert skips(report, "NET003") == []
    assert findings(report, "NET003") == ([] if expected is None else [(expected[0], 14, 67, expected[1], evidence)])


MYSTERY = "    - {name: mystery, count: 2, spares: 0, accelerator: {model: Mystery-9000, count: 8}}\n"
T4 = "    - {name: serve, count: 2, spares: 0, accelerator: {model: T4, count: 8}}\n"


def test_net003_skips_the_pool_it_cannot_judge_and_judges_the_other(tmp_path):
    report = _report(tmp_path, inter=_inter(8, "99Gbps"), pool2=MYSTERY, workload=False)
    assert [(f[0], f[1], f[3]) for f in findings(report, "NET003")] == [
        ("error", 15, _net003(8, "99 Gbps", "99 Gbps", "79.2 Gbps", _scaled("989.4", "400 Gbps", error="100 Gbps")))]
    assert skips(report, "NET003") == ["pool 'mystery': accelerator 'Mystery-9000' is not in the catalog (see SPEC004)"]


def test_net003_judges_the_workloads_pool_for_its_job(tmp_path):
    # an A100 training pool at 12.5 Gbps per accelerator beside a T4 inference pool: the T4 pool (fp16 65 TFLOPS,
    # wants 26.28 Gbps) is judged too when no workload says which pool trains; with one placed on 'gpu' only it is
    a100 = "{model: A100-SXM-80GB, count: 8}"
    alone = _report(tmp_path, inter=_inter(1, "100Gbps"), accel=a100, pool2=T4, workload=False)
    assert [(f[0], f[3].split("; ")[0]) for f in findings(alone, "NET003")] == [
        ("error", "1 x 100 Gbps / 8 accelerators = 12.5 Gbps per accelerator (10 Gbps effective at 80% of advertised) in pool 'gpu'"),
        ("warning", "1 x 100 Gbps / 8 accelerators = 12.5 Gbps per accelerator (10 Gbps effective at 80% of advertised) in pool 'serve'")]
    placed = _report(tmp_path, inter=_inter(1, "100Gbps"), accel=a100, pool2=T4, gbs="null", placement="  placement: {pool: gpu}\n")
    assert [(f[0], f[3]) for f in findings(placed, "NET003")] == [("error", _net003(
        1, "100 Gbps", "12.5 Gbps", "10 Gbps", _scaled("312", "126.1 Gbps", error="31.53 Gbps")))]
    assert skips(placed, "NET003") == []


# GB200 NVL72: 4 GPUs per compute tray, 72 in one NVLink domain across 18 trays (the catalog's scale_up_spans_nodes)
NVL72 = "{model: GB200, count: 4}"


@pytest.mark.parametrize("nodes, nics, speed, expected", [
    (18, 4, "10Gbps", None),  # one rack: every collective stays on NVLink
    (36, 4, "400Gbps", None),  # two racks at NVIDIA's reference 400 Gbps per GPU: 2,500 TFLOPS would want 1.011 Tbps, capped
    (36, 4, "100Gbps", ("warning", _net003(4, "100 Gbps", "100 Gbps", "80 Gbps", _scaled("2,500", "400 Gbps", capped=True), per_node=4))),
    (36, 4, "10Gbps", ("error", _net003(4, "10 Gbps", "10 Gbps", "8 Gbps", _scaled("2,500", "400 Gbps", capped=True, error="100 Gbps"), per_node=4))),
])
def test_net003_nvl72_without_a_workload(tmp_path, nodes, nics, speed, expected):
    report = _report(tmp_path, inter=_inter(nics, speed), accel=NVL72, nodes=nodes, workload=False)
    assert [(f[0], f[1], f[2], f[3]) for f in findings(report, "NET003")] == ([] if expected is None else [(expected[0], 14, 67, expected[1])])


# with a workload only its data-parallel gradients cross racks: 8B params, tensor 8 on 144 GPUs: data 18, 9 replicas per
# 72-GPU domain, 2 domains; shard 8B x 2 / 8 = 2 GB; 2 x 1/2 x 2 GB / 9 = 222.2 MB per GPU per step;
# step 6 x 8B x (gbs x 1,000) / (144 x 2,500 TFLOPS x 0.75) = gbs x 177.8 us; need 1.778 Gb / (0.6667 x step x 0.8)
def _nvl72_job(speed, gbs, need, step, severity=None, error=None):
    tail = (f"the job's gradient all-reduce across 2 scale-up domains of 72 (222.2 MB per accelerator per step) within 67% of its "
            f"{step} s step wants >= {need}") + (f", and below {error} is an error" if error else "")
    return severity, _net003(4, speed, speed, f"{float(speed[:-5]) * 0.8:g} Gbps", tail, per_node=4)


@pytest.mark.parametrize("speed, gbs, expected", [
    ("10Gbps", 10000, None),  # wants 1.875 Gbps
    ("10Gbps", 1000, _nvl72_job("10 Gbps", 1000, "18.75 Gbps", "0.178", "warning")),
    ("4Gbps", 1000, _nvl72_job("4 Gbps", 1000, "18.75 Gbps", "0.178", "error", "4.687 Gbps")),
    ("100Gbps", 1, _nvl72_job("100 Gbps", 1, "400 Gbps", "0.000178", "warning")),  # wants 18.75 Tbps: capped
])
def test_net003_nvl72_with_a_workload(tmp_path, speed, gbs, expected):
    report = _report(tmp_path, inter=_inter(4, speed), accel=NVL72, nodes=36, gbs=gbs)
    got = [(f[0], f[3]) for f in findings(report, "NET003")]
    assert got == ([] if expected is None else [expected])
    if expected:
        [(_, _, _, _, evidence)] = findings(report, "NET003")
        assert evidence[0] == "traffic: 2 x (2 - 1) / 2 domains x 2 GB gradient shard / 9 replicas per domain = 222.2 MB"


@pytest.mark.parametrize("kwargs, reason", [
    ({"nodes": 1}, None),  # one node: nothing crosses the network
    ({"nodes": 1, "intra": "{fabric: nvswitch, scale_up_domain: 4}"}, None),  # even when it holds two scale-up domains
    ({"workload": True, "task": "inference"}, None),  # serving, not training
    ({"workload": True, "placement": "  placement: {accelerators: 8}\n"}, None),  # the job fits one node's domain
    ({"intra": "{fabric: nvswitch, scale_up_domain: 16}"}, None),  # 2 x 8 = 16 accelerators fit one scale-up domain
    ({"intra": "{fabric: nvswitch, scale_up_domain: 15}"}, "found"),
    ({"inter": "{fabric: none}"}, "the cluster has no inter-node fabric (see NET004)"),
    ({"inter": "{fabric: infiniband, nics_per_node: 8, rdma: true}"}, "the cluster states no inter-node nic_speed"),  # only what is missing
    ({"inter": "{fabric: infiniband, nics_per_node: 0, nic_speed: 400Gbps}"}, "the cluster states no inter-node nics_per_node"),
    ({"inter": None, "intra": "{fabric: nvswitch}"}, "the cluster states no inter-node nics_per_node and nic_speed"),
])
def test_net003_gate_andskips(tmp_path, kwargs, reason):
    report = _report(tmp_path, **{"inter": _inter(8, "10Gbps"), "workload": False, "gbs": "null", **kwargs})
    assert len(findings(report, "NET003")) == (reason == "found")
    assert skips(report, "NET003") == ([] if reason in (None, "found") else [reason])


def test_net003_configured_efficiency_and_per_pool_division(tmp_path):
    # the second pool has 4 accelerators per node: 8 x 399 / 4 = 798 Gbps each, above 400; the efficiency is the traffic
    # model's, NET007's param, which NET003 reads too
    pool2 = "    - {name: half, count: 2, spares: 0, accelerator: {model: H100-SXM, count: 4}}\n"
    report = _report(tmp_path, "--param", "NET007.efficiency=0.5", inter=_inter(8, "399Gbps"), pool2=pool2, workload=False)
    assert [(f[0], f[1], f[3]) for f in findings(report, "NET003")] == [("warning", 15, (
        "8 x 399 Gbps / 8 accelerators = 399 Gbps per accelerator (199.5 Gbps effective at 50% of advertised) in pool 'gpu'; "
        "training on 989.4 dense bf16 TFLOPS wants >= 400 Gbps (400 Gbps per 989.4 reference TFLOPS)"))]


# ---------------------------------------------------------------- NET004

@pytest.mark.parametrize("inter, nodes, expected", [
    ("{fabric: none}", 2, (26, "multi-node training on 2 nodes with no inter-node fabric (fabric: none): "
                               "gradients and activations cannot cross nodes at training speed")),
    ("{fabric: none}", 1, None),
    ("{fabric: infiniband, nics_per_node: 8, nic_speed: 400Gbps, rdma: false}", 3,
     (82, "multi-node training over infiniband without RDMA (rdma: false): collectives go through the kernel TCP stack and host memory")),
    ("{fabric: ethernet, nics_per_node: 8, nic_speed: 400Gbps, rdma: false}", 2,
     (80, "multi-node training over ethernet without RDMA (rdma: false): collectives go through the kernel TCP stack and host memory")),
    ("{fabric: ethernet, nics_per_node: 8, nic_speed: 400Gbps, rdma: true}", 2, None),
    ("{fabric: roce, nics_per_node: 8, nic_speed: 400Gbps}", 2, None),  # RoCE is RDMA by name
    ("{fabric: infiniband, nics_per_node: 8, nic_speed: 400Gbps}", 2, None),
    ("{fabric: tcpx, nics_per_node: 4, nic_speed: 200Gbps, rdma: false}", 2, None),  # GPUDirect-TCPX: zero-copy without RDMA
    ("{fabric: tcpxo, nics_per_node: 8, nic_speed: 200Gbps, rdma: false}", 2, None),
])
def test_net004_cases(tmp_path, inter, nodes, expected):
    report = _report(tmp_path, inter=inter, nodes=nodes, workload=False)
    assert findings(report, "NET004") == ([] if expected is None else [("error", 14, *expected, [])])


def test_net004_asks_when_ethernet_does_not_say_rdma(tmp_path):
    # unknown is not "no": plain ethernet that does not state rdma is asked, neither passed nor failed
    report = _report(tmp_path, inter="{fabric: ethernet, nics_per_node: 8, nic_speed: 400Gbps}", workload=False)
    assert findings(report, "NET004") == []
    assert skips(report, "NET004") == ["the quote does not say whether its ethernet fabric does RDMA (inter_node.rdma): ask"]


def test_net004_asks_when_the_inter_node_network_is_unstated(tmp_path):
    report = _report(tmp_path, inter=None, intra="{fabric: nvswitch}", workload=False)
    assert findings(report, "NET004") == [] and skips(report, "NET004") == ["the cluster states no inter-node network"]
    assert skips(_report(tmp_path, inter=None, intra="{fabric: nvswitch}", nodes=1, workload=False), "NET004") == []  # one node needs none


# ---------------------------------------------------------------- NET005

SHARED = "{fabric: infiniband, nics_per_node: 8, nic_speed: 400Gbps, rdma: true, dedicated: false}"


@pytest.mark.parametrize("inter, kwargs, found", [
    (SHARED, {}, True),
    (SHARED, {"nodes": 1}, False),
    (SHARED, {"workload": True, "task": "inference"}, False),
    (SHARED.replace("false", "true"), {}, False),
    (SHARED.replace(", dedicated: false", ""), {}, False),  # not stated: SPEC006's question, not a finding
])
def test_net005_cases(tmp_path, inter, kwargs, found):
    report = _report(tmp_path, **{"inter": inter, "workload": False, **kwargs})
    message = "the inter-node fabric is shared with other tenants: their traffic makes your collectives slow and unpredictable"
    assert findings(report, "NET005") == ([("warning", 14, 99, message, [])] if found else [])


# ---------------------------------------------------------------- NET006

def _net006(level, ratio, job):
    return f"{level} is {ratio}:1 oversubscribed for a job on {job} accelerators: all-reduce across them gets at most 1/{ratio} of the NIC bandwidth"


FABRIC = "{fabric: infiniband, nics_per_node: 8, nic_speed: 400Gbps, rdma: true, oversubscription: %s}"
TIERS = "{fabric: infiniband, nics_per_node: 8, nic_speed: 400Gbps, rdma: true, tiers: [%s]}"
LEAF_SPINE = "{name: leaf, accelerators: 16, oversubscription: %s}, {name: spine, oversubscription: 3}"


@pytest.mark.parametrize("inter, nodes, placement, expected", [
    (FABRIC % 1, 2, "", None),  # non-blocking
    (FABRIC % 2, 2, "", (106, _net006("the fabric", 2, 16), f"job size 16 accelerators: {WHOLE_POOL}")),
    (FABRIC % 1.5, 2, "", (106, _net006("the fabric", 1.5, 16), f"job size 16 accelerators: {WHOLE_POOL}")),
    (FABRIC % 2, 2, "  placement: {accelerators: 8}\n", None),  # fits one scale-up domain: never reaches the fabric
    (FABRIC % 2, 2, "  placement: {accelerators: 9}\n",
     (106, _net006("the fabric", 2, 9), "job size 9 accelerators: placement.accelerators; pool: the only node pool")),
    # the job of 16 stays in its leaf of 16; a job of 24 crosses the spine
    (TIERS % (LEAF_SPINE % 2), 2, "", (145, _net006("tier 'leaf' (16 accelerators)", 2, 16), f"job size 16 accelerators: {WHOLE_POOL}")),
    (TIERS % (LEAF_SPINE % 1), 2, "", None),
    (TIERS % (LEAF_SPINE % 1), 3, "",
     (181, _net006("tier 'spine' (the whole cluster)", 3, 24),
      "job size 24 accelerators: the whole pool, 3 nodes x 8: no placement or data parallelism stated; pool: the only node pool")),
    (TIERS % "{name: leaf, accelerators: 1024, oversubscription: 2}", 2, "",
     (147, _net006("tier 'leaf' (1,024 accelerators)", 2, 16), f"job size 16 accelerators: {WHOLE_POOL}")),
    ("{fabric: ici, nics_per_node: 8, nic_speed: 400Gbps, topology: torus}", 2, "", None),  # a torus has no uplinks to taper
    ("{fabric: ici, nics_per_node: 8, nic_speed: 400Gbps, topology: torus, oversubscription: 2}", 2, "",
     (104, _net006("the fabric", 2, 16), f"job size 16 accelerators: {WHOLE_POOL}")),  # unless the quote states a figure
    ("{fabric: none}", 2, "", None),  # NET004's finding
    (FABRIC % 2, 1, "", None),  # one node
])
def test_net006_cases(tmp_path, inter, nodes, placement, expected):
    report = _report(tmp_path, inter=inter, nodes=nodes, placement=placement)
    assert skips(report, "NET006") == []
    assert findings(report, "NET006") == ([] if expected is None else [("warning", 14, expected[0], expected[1], [expected[2]])])


@pytest.mark.parametrize("inter, reason", [
    (TIERS % "{name: leaf, accelerators: 16, oversubscription: 1}", "no stated fabric tier holds the job's 24 accelerators"),
    ("{fabric: infiniband, nics_per_node: 8, nic_speed: 400Gbps, rdma: true}", "the quote does not state the fabric's oversubscription (see SPEC006)"),
])
def test_net006skips(tmp_path, inter, reason):
    report = _report(tmp_path, inter=inter, nodes=3)
    assert findings(report, "NET006") == [] and skips(report, "NET006") == [reason]


# ---------------------------------------------------------------- NET007

# 8 x 100 Gbps / 8 = 100 Gbps per accelerator, 80 Gbps effective; the spec's 1,000 dense bf16 TFLOPS at MFU 0.75
SLOW = _inter(8, "100Gbps")
K1000 = "{model: H100-SXM, count: 8, dense_tflops: {bf16: 1000}}"


def _net007(comm, at, took, compute, formula):
    return (f"each step's gradient all-reduce ({comm} per accelerator at {at} effective) takes {took} s, "
            f"longer than the step's compute {compute} s ({formula})")


def _evidence(accelerators, how):
    return [f"accelerators {accelerators} x H100-SXM: {how}", "dense bf16 1,000 TFLOPS: spec", "MFU 0.75: workload assumed_mfu"]


# 16 accelerators, tensor 8: data 2; gradient 8B x 2 bytes / 8 = 2 GB, all-reduce 2 x 1/2 x 2 GB = 2 GB = 16 Gb / 80 Gbps = 0.2 s;
# compute 6 x 8B x (batch x 1,000 tokens) / (16 x 1,000 TFLOPS x 0.75) = batch x 4 ms: 0.2 s at a batch of 50
@pytest.mark.parametrize("gbs, expected", [
    (50, None),  # exactly equal: not longer
    (49, _net007("2 GB", "80 Gbps", "0.2", "0.196", "6 x 8B params x 49K tokens / (16 x 1,000 TFLOPS x 0.75 MFU)")),
])
def test_net007_boundary(tmp_path, gbs, expected):
    report = _report(tmp_path, inter=SLOW, accel=K1000, gbs=gbs)
    assert findings(report, "NET007") == ([] if expected is None else [("warning", 14, 67, expected, _evidence(16, WHOLE_POOL))])


@pytest.mark.parametrize("nodes, gbs, parallelism, placement, expected", [
    # 4 nodes, data 4 stated: 32 accelerators; all-reduce 2 x 3/4 x 2 GB = 3 GB = 0.3 s; compute batch x 2 ms
    (4, 150, "{tensor: 8, pipeline: 1, data: 4}", "", None),
    (4, 149, "{tensor: 8, pipeline: 1, data: 4}", "",
     (_net007("3 GB", "80 Gbps", "0.3", "0.298", "6 x 8B params x 149K tokens / (32 x 1,000 TFLOPS x 0.75 MFU)"),
      _evidence(32, "tensor 8 x pipeline 1 x data 4; pool: the only node pool"))),
    # tensor 4 x pipeline 2 on 32: data 4; shard 8B x 2 / 8 = 2 GB, all-reduce 2 x 3/4 x 2 GB = 3 GB = 0.3 s; compute batch x 2 ms
    (4, 149, "{tensor: 4, pipeline: 2}", "",
     (_net007("3 GB", "80 Gbps", "0.3", "0.298", "6 x 8B params x 149K tokens / (32 x 1,000 TFLOPS x 0.75 MFU)"),
      _evidence(32, "the whole pool, 4 nodes x 8: no placement or data parallelism stated; pool: the only node pool"))),
    # tensor 3 on 16: data 16 // 3 = 5; 8 // 3 = 2 replicas of a shard per 8-GPU domain, ceil(5 / 2) = 3 domains; shard
    # 8B x 2 / 3 = 5.333 GB, hierarchical all-reduce 2 x 2/3 x 5.333 GB / 2 = 3.556 GB = 0.356 s
    (2, 49, "{tensor: 3, pipeline: 1}", "",
     (_net007("3.556 GB", "80 Gbps", "0.356", "0.196", "6 x 8B params x 49K tokens / (16 x 1,000 TFLOPS x 0.75 MFU)"), _evidence(16, WHOLE_POOL))),
    # 9 accelerators, tensor 1: data 9, 8 replicas per domain, 2 domains; 2 x 1/2 x 16 GB / 8 = 2 GB = 0.2 s (reduce-scatter
    # inside the node first: only a shard of the gradients leaves it); compute 6 x 8B x 1K / 6.75e15 = 7.11 ms
    (2, 1, "{tensor: 1, pipeline: 1}", "  placement: {accelerators: 9}\n",
     (_net007("2 GB", "80 Gbps", "0.2", "0.00711", "6 x 8B params x 1K tokens / (9 x 1,000 TFLOPS x 0.75 MFU)"),
      _evidence(9, "placement.accelerators; pool: the only node pool"))),
    (2, 1, "{tensor: 1, pipeline: 1}", "  placement: {accelerators: 8}\n", None),  # one node's worth: no inter-node all-reduce
    # the stated data degree wins over 24 // 8 = 3: 2 x 1/2 x 2 GB = 2 GB = 0.2 s; compute 6 x 8B x 49K / 1.8e16 = 0.131 s
    (3, 49, "{tensor: 8, pipeline: 1, data: 2}", "  placement: {accelerators: 24}\n",
     (_net007("2 GB", "80 Gbps", "0.2", "0.131", "6 x 8B params x 49K tokens / (24 x 1,000 TFLOPS x 0.75 MFU)"),
      _evidence(24, "placement.accelerators; pool: the only node pool"))),
    (2, 1, "{tensor: 8, pipeline: 2}", "", None),  # data 16 // 16 = 1: nothing to reduce
    (2, 1, "{tensor: 4, pipeline: 8}", "", None),  # data 16 // 32 is less than one: still one replica
])
def test_net007_data_parallel_degree(tmp_path, nodes, gbs, parallelism, placement, expected):
    report = _report(tmp_path, inter=SLOW, accel=K1000, nodes=nodes, gbs=gbs, parallelism=parallelism, placement=placement)
    assert findings(report, "NET007") == ([] if expected is None else [("warning", 14, 67, *expected)])


def test_net007_configured_gradient_bytes_and_efficiency(tmp_path):
    # 4 bytes per gradient element: 4 GB per step at 80 Gbps = 0.4 s > 99 x 4 ms; efficiency 0.4 halves the bandwidth instead
    args = ("--param", "NET007.gradient_bytes=4")
    [(_, _, _, message, _)] = findings(_report(tmp_path, *args, inter=SLOW, accel=K1000, gbs=99), "NET007")
    assert message == _net007("4 GB", "80 Gbps", "0.4", "0.396", "6 x 8B params x 99K tokens / (16 x 1,000 TFLOPS x 0.75 MFU)")
    args = ("--param", "NET007.efficiency=0.4")
    [(_, _, _, message, _)] = findings(_report(tmp_path, *args, inter=SLOW, accel=K1000, gbs=99), "NET007")
    assert message == _net007("2 GB", "40 Gbps", "0.4", "0.396", "6 x 8B params x 99K tokens / (16 x 1,000 TFLOPS x 0.75 MFU)")


@pytest.mark.parametrize("kwargs, reason", [
    ({"task": "inference"}, None),
    ({"nodes": 1, "gbs": 49}, None),
    ({"intra": "{fabric: nvswitch, scale_up_domain: 16}", "gbs": 49}, None),  # both nodes in one scale-up domain
    ({"gbs": "null"}, "the workload states no global_batch_size and sequence_length"),
    ({"inter": "{fabric: infiniband, nics_per_node: 8, rdma: true, oversubscription: 1}"}, "the cluster states no inter-node nic_speed"),
])
def test_net007_gate_andskips(tmp_path, kwargs, reason):
    report = _report(tmp_path, **{"inter": SLOW, "accel": K1000, "gbs": 1, **kwargs})
    assert findings(report, "NET007") == [] and skips(report, "NET007") == ([] if reason is None else [reason])


def test_net007_needs_the_sequence_length(tmp_path):
    quote = tmp_path / "q.yaml"
    quote.write_text(cluster(f"    inter_node: {SLOW}\n", accel=K1000), encoding="utf-8")
    work = tmp_path / "w.yaml"
    work.write_text(WORKLOAD.format(task="training", gbs=1, parallelism="{tensor: 8}", placement="").replace("  sequence_length: 1000\n", ""))
    assert skips(check_json(str(quote), "--workload", str(work)), "NET007") == ["the workload states no global_batch_size and sequence_length"]


@pytest.mark.parametrize("param, error", [
    ("NET003.overlap_share=1", None),  # all of the step is allowed
    ("NET003.overlap_share=1.5", "NET003 params.overlap_share: Input should be less than or equal to 1"),
    ("NET003.overlap_share=0", "NET003 params.overlap_share: Input should be greater than 0"),
    ("NET003.reference_tflops=0.5", None),
    ("NET003.reference_tflops=0", "NET003 params.reference_tflops: Input should be greater than 0"),
    ("NET007.efficiency=1", None),
    ("NET007.efficiency=1.01", "NET007 params.efficiency: Input should be less than or equal to 1"),
    ("NET007.gradient_bytes=0.5", None),
    ("NET007.gradient_bytes=0", "NET007 params.gradient_bytes: Input should be greater than 0"),
])
def test_configured_params_are_validated(tmp_path, param, error):
    (tmp_path / "q.yaml").write_text(cluster(f"    inter_node: {FAST}\n"), encoding="utf-8")
    code, _, err = run_cli("check", str(tmp_path / "q.yaml"), "--param", param)
    rule = param.split(".")[0]
    if error is None:
        assert code in (0, 1) and err == ""  # accepted: the check ran (and may find something)
    else:
        assert (code, err) == (2, f"clusterlint: error: --param {rule}: {error}\n")


# ---------------------------------------------------------------- one traffic model: NET003, NET007 and CST001 read the same figures

def test_net003_net007_and_the_time_read_one_traffic_model(tmp_path):
    # 4 nodes of 8, tensor 2 x pipeline 2: data 32 / 4 = 8, 8 // 4 = 2 replicas per node, 4 domains; shard 8B x 2 / 4 = 4 GB,
    # 2 x 3/4 x 4 GB / 2 = 3 GB per accelerator per step, the figure all three quote
    report = _report(tmp_path, inter=SLOW, accel=K1000, nodes=4, gbs=1, parallelism="{tensor: 2, pipeline: 2}")
    traffic = "2 x (4 - 1) / 4 domains x 4 GB gradient shard / 2 replicas per domain = 3 GB"
    [net003] = [f for f in report["findings"] if f["rule"] == "NET003"]
    [net007] = [f for f in report["findings"] if f["rule"] == "NET007"]
    [cst001] = [f for f in report["findings"] if f["rule"] == "CST001"]
    assert f"traffic: {traffic}" in net003["evidence"]
    assert "(3 GB per accelerator at 80 Gbps effective) takes 0.3 s" in net007["message"]
    assert f"gradient all-reduce per accelerator per step: {traffic}" in cst001["evidence"]


def test_activations_that_cross_domains_are_said_not_counted(tmp_path):
    # tensor 8 x pipeline 2 on 8-GPU nodes: each pipeline stage is a node, so activations cross; the workload gives no
    # hidden size to size them, and the time's evidence says so instead of counting them as 0
    report = _report(tmp_path, inter=SLOW, accel=K1000, nodes=4, gbs=1, parallelism="{tensor: 8, pipeline: 2}")
    [cst001] = [f for f in report["findings"] if f["rule"] == "CST001"]
    assert "pipeline activations crossing domains are not counted: the workload states no hidden size" in cst001["evidence"]
