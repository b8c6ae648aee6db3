"""Rule tables for the cluster model's storage, network, spares and "not stated" rules.

Each case is a small spec written out in full, so lines and columns are read off the text; every
expected number is computed by hand in the comment next to it (never by the code under test).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from clusterlint.engine.review import FileResult, run_rules, typed_documents
from clusterlint.readers.loader import load_text

POOL = "accelerator: {{model: {model}, count: {per}}}, cpu: {{sockets: 2, cores_per_socket: 56}}, memory: 4TB"


def cluster(nodes=4, offering="buy", model="H100-SXM", per=8, pool_extra="spares: 1, local_storage: [{type: nvme, capacity: 30TB}]",
            inter="{fabric: infiniband, nics_per_node: 8, nic_speed: 400Gbps, rdma: true, oversubscription: 1, dedicated: true}",
            storage="storage:\n    - {name: shared, type: lustre, capacity: 1PB, purpose: [datasets, checkpoints, code]}",
            software="software: {orchestrator: slurm}", workload="task: training, model: {parameters: 7B}") -> str:
    """A cluster quote (plus a workload); a part set to None is left out of the text."""
    lines = [
        "apiVersion: clusterlint/v1",
        "kind: Cluster",
        f"metadata: {{name: q, offering: {offering}}}",
        "spec:",
        "  node_pools:",
        f"    - {{name: gpu, count: {nodes}, " + POOL.format(model=model, per=per) + (f", {pool_extra}" if pool_extra else "") + "}",
    ]
    if inter is not None:
        lines += ["  network:", f"    inter_node: {inter}"]
    if storage is not None:
        lines += [f"  {storage}"]
    if software is not None:
        lines += [f"  {software}"]
    if workload is not None:
        lines += ["---", "apiVersion: clusterlint/v1", "kind: Workload", "metadata: {name: w}", f"spec: {{{workload}}}"]
    return "\n".join(lines) + "\n"


def review(text: str):
    loaded = load_text(text, "q.yaml")
    result = FileResult("q.yaml", loaded.lines)
    run_rules(result, typed_documents(loaded, result), None)
    return result


def hits(text: str, rule: str) -> list[tuple]:
    return [(f.severity, f.message, f.line, f.column) for f in review(text).findings if f.rule == rule]


def skipped(text: str, rule: str) -> list[str]:
    return [s.reason for s in review(text).skipped if s.rule == rule]


def place(text: str, needle: str) -> tuple[int, int]:
    """Line and column (from 1) where `needle` starts in the text: the oracle for a finding's place."""
    for number, line in enumerate(text.splitlines(), 1):
        if needle in line:
            return number, line.index(needle) + 1
    raise AssertionError(f"{needle!r} not in the spec")


# ---------------------------------------------------------------- SPEC006 and the rules it stands in for

SILENT = dict(pool_extra=None, inter="{fabric: infiniband, nics_per_node: 8, nic_speed: 400Gbps, rdma: true}", storage=None, software=None)
NONE = dict(pool_extra="spares: 0, local_storage: []", storage="storage: []", software="software: {orchestrator: none}")


def test_a_silent_quote_gets_one_question_and_no_verdicts():
    text = cluster(**SILENT)
    assert hits(text, "SPEC006") == [(
        "info",
        "the quote does not state the local drives (pool 'gpu'), the spare nodes (pool 'gpu'), the fabric's oversubscription, "
        "the storage or the scheduler: ask; the rules that judge them are skipped, not passed",
        4, 1,
    )]
    for rule, reason in [
        ("STO004", "the quote does not state its storage (see SPEC006)"),
        ("SW001", "the quote does not state a scheduler (see SPEC006)"),
        ("STO006", "the quote does not state the nodes' local drives (see SPEC006)"),
        ("REL001", "the quote does not state spare nodes (see SPEC006)"),
        ("NET006", "the quote does not state the fabric's oversubscription (see SPEC006)"),
    ]:
        assert hits(text, rule) == [] and skipped(text, rule) == [reason]


def test_stating_none_keeps_every_verdict():
    text = cluster(**NONE)
    assert hits(text, "SPEC006") == []
    fired = {f.rule: f.severity for f in review(text).findings}
    # 4 nodes bought with 0 spares: below min_nodes 8, so REL001 says so at info
    assert {r: fired.get(r) for r in ("STO004", "SW001", "STO006", "REL001")} == {
        "STO004": "warning", "SW001": "warning", "STO006": "info", "REL001": "info"}
    assert hits(text, "SW001")[0][2:] == place(text, "orchestrator: none")[:1] + (place(text, "none}")[1],)


@pytest.mark.parametrize("changes, expected", [
    # an HPC allocation's spares are the centre's business
    (dict(offering="hpc-allocation", pool_extra="local_storage: []"), None),
    # one node: no fabric to ask about
    (dict(nodes=1, inter=None), None),
    # more than one node and no inter-node block at all
    (dict(inter=None), "the inter-node network"),
    # a torus has no uplinks to taper
    (dict(inter="{fabric: ici, topology: torus}"), None),
    # tiers stand for the oversubscription
    (dict(inter="{fabric: infiniband, tiers: [{name: pod, accelerators: 16, oversubscription: 1}, {name: spine, oversubscription: 3}]}"), None),
    # a local-nvme entry under storage answers the local-drives question for every pool
    (dict(pool_extra="spares: 1", storage="storage:\n    - {name: scratch, type: local-nvme, shared: false, capacity: 30TB}"), None),
    # a generic distributed filesystem must say whether it is parallel
    (dict(storage="storage:\n    - {name: dfs, type: distributed-fs, capacity: 1PB}"), "whether 'dfs' is a parallel filesystem"),
])
def test_what_is_asked(changes, expected):
    found = hits(cluster(**changes), "SPEC006")
    if expected is None:
        assert found == []
    else:
        assert found == [("info", f"the quote does not state {expected}: ask; the rules that judge them are skipped, not passed", 4, 1)]


# ---------------------------------------------------------------- STO002 counts only storage that holds the data

# workload: 8 TB dataset + 1 checkpoint of 100 GB = 8.1 TB; x 1.25 = 10.125 TB
STO_WORKLOAD = "task: training, model: {parameters: 7B}, dataset: {size: 8TB}, checkpoints: {interval: 2h, keep: 1, size: 100GB}"
NEED = "needs 1.25 x (8 TB dataset + 1 x 100 GB checkpoints) = 10.12 TB"


@pytest.mark.parametrize("stores, expected, needle", [
    # 1 PB of home NFS does not make a 1 TB Lustre enough
    ("[{name: home, type: nfs, capacity: 1PB, purpose: [home]}, {name: lfs, type: lustre, capacity: 1TB, purpose: [datasets, checkpoints]}]",
     "holds 1 TB", "capacity: 1TB"),
    # boundary: exactly 10.125 TB passes, 10.124 TB does not
    ("[{name: lfs, type: lustre, capacity: 10.125TB, purpose: [datasets, checkpoints]}]", None, None),
    ("[{name: lfs, type: lustre, capacity: 10.124TB, purpose: [datasets, checkpoints]}]", "holds 10.12 TB", "capacity: 10.124TB"),
    # the per-project quota caps a large filesystem, and the finding points at it
    ("[{name: lfs, type: lustre, capacity: 35PB, quota_per_project: 10TB, purpose: [datasets, checkpoints]}]", "holds 10 TB", "quota_per_project"),
    # an archive tier is not working storage; a store with no purpose holds anything
    ("[{name: tape, type: object, tier: archive, capacity: 1PB}, {name: lfs, type: lustre, capacity: 2TB}]", "holds 2 TB", "capacity: 2TB"),
])
def test_sto002_counts_storage_for_the_data(stores, expected, needle):
    text = cluster(storage=f"storage: {stores}", workload=STO_WORKLOAD)
    found = hits(text, "STO002")
    if expected is None:
        assert found == [] and skipped(text, "STO002") == []
    else:
        line, _ = place(text, needle)
        assert [(s, m, ln) for s, m, ln, _ in found] == [("error", f"shared storage for datasets and checkpoints {expected} but {NEED}", line)]


def test_sto002_evidence_names_each_store_and_its_figure():
    text = cluster(storage="storage: [{name: lfs, type: lustre, capacity: 35PB, quota_per_project: 10TB, purpose: [datasets, checkpoints]}]",
                   workload=STO_WORKLOAD)
    finding = [f for f in review(text).findings if f.rule == "STO002"][0]
    assert finding.evidence == ("'lfs': 10 TB (quota per project; holds datasets, checkpoints)", "checkpoint size: workload")


def test_sto002_unknown_capacity_skips_only_when_the_rest_falls_short():
    short = cluster(storage="storage: [{name: a, type: lustre, capacity: 1TB}, {name: b, type: gpfs}]", workload=STO_WORKLOAD)
    assert hits(short, "STO002") == [] and skipped(short, "STO002") == ["storage 'b' states no capacity or quota_per_project"]
    enough = cluster(storage="storage: [{name: a, type: lustre, capacity: 1PB}, {name: b, type: gpfs}]", workload=STO_WORKLOAD)
    assert hits(enough, "STO002") == [] and skipped(enough, "STO002") == []


# ---------------------------------------------------------------- STO001, STO004, STO006, SW001: what is stated

@pytest.mark.parametrize("store, fires", [
    ("{name: dfs, type: distributed-fs, parallel: false, capacity: 1PB}", True),
    ("{name: dfs, type: distributed-fs, parallel: true, capacity: 1PB}", False),
    ("{name: dfs, type: distributed-fs, capacity: 1PB}", False),  # unknown: SPEC006 asks
    ("{name: dfs, type: nfs, parallel: true, capacity: 1PB}", False),  # pNFS: the flag overrides the type
    ("{name: s3, type: object, posix_mount: true, capacity: 1PB}", False),
])
def test_sto001_reads_the_parallel_flag(store, fires):
    text = cluster(storage=f"storage: [{store}]")
    expected = [("warning", "shared storage 'dfs' is parallel: false, not a parallel filesystem, and holds datasets, checkpoints, code: "
                 "4 nodes reading and writing through it will stall training", *place(text, "parallel: false"))] if fires else []
    found = hits(text, "STO001")
    assert [(s, m, ln) for s, m, ln, _ in found] == [(s, m, ln) for s, m, ln, _ in expected]


@pytest.mark.parametrize("storage, fires", [
    ("storage: []", True),
    ("storage: [{name: s3, type: object, capacity: 1PB}]", True),
    ("storage: [{name: s3, type: object, posix_mount: true, capacity: 1PB}]", False),
    ("storage: [{name: n, type: local-nvme, shared: false, capacity: 30TB}]", True),
])
def test_sto004_a_posix_mounted_object_store_is_a_filesystem(storage, fires):
    text = cluster(storage=storage)
    message = "4 nodes and no shared filesystem: code, data and checkpoints must be copied to every node"
    assert [(s, m, ln) for s, m, ln, _ in hits(text, "STO004")] == ([("warning", message, place(text, "  storage:")[0])] if fires else [])


def test_sto004_needs_more_than_one_node():
    assert hits(cluster(nodes=1, storage="storage: []"), "STO004") == []


def test_sto006_reads_local_nvme_storage_entries():
    listed = cluster(pool_extra="spares: 1", storage="storage: [{name: n, type: local-nvme, shared: false, capacity: 30TB}]")
    assert hits(listed, "STO006") == [] and skipped(listed, "STO006") == []
    none = cluster(pool_extra="spares: 1, local_storage: []")
    assert [(s, m, ln) for s, m, ln, _ in hits(none, "STO006")] == [
        ("info", "pool 'gpu' has no local NVMe: no fast scratch for checkpoints staged before upload, or for dataset caches", 6)]
    ssd = cluster(pool_extra="spares: 1, local_storage: [{type: ssd, capacity: 4TB}]")
    assert [s for s, *_ in hits(ssd, "STO006")] == ["info"]


# ---------------------------------------------------------------- REL001: spares by size

@pytest.mark.parametrize("nodes, spares, expected", [
    (8, 0, ("warning", "pool 'gpu' has 0 spare nodes for 8 (a purchase); keep >= 1 (5%) so a failed node does not stop the job until it is repaired")),
    (7, 0, ("info", "pool 'gpu' has 0 spare nodes for 7 (a purchase); below 8 nodes no spare is demanded, but a failed node stops the job until it is repaired")),
    (40, 2, None),  # 5% of 40 = 2
    (41, 2, ("warning", "pool 'gpu' has 2 spare nodes for 41 (a purchase); keep >= 3 (5%) so a failed node does not stop the job until it is repaired")),  # ceil(2.05) = 3
    (7, 1, None),
])
def test_rel001_bands(nodes, spares, expected):
    text = cluster(nodes=nodes, pool_extra=f"spares: {spares}, local_storage: []")
    found = hits(text, "REL001")
    assert [(s, m) for s, m, *_ in found] == ([expected] if expected else [])
    if expected:
        line, column = place(text, f"spares: {spares}")
        assert found[0][2:] == (line, column + len("spares: "))  # the finding points at the value


# ---------------------------------------------------------------- NET003: bandwidth in proportion to compute

@pytest.mark.parametrize("model, nics, speed, expected", [
    ("H100-SXM", 8, "400Gbps", None),  # 400 >= 400 x 989.4 / 989.4
    ("H100-SXM", 8, "399Gbps", ("warning", "8 x 399 Gbps / 8 accelerators = 399 Gbps per accelerator (319.2 Gbps effective at 80% of advertised) in pool 'gpu'; "
                                "training on 989.4 dense bf16 TFLOPS wants >= 400 Gbps (400 Gbps per 989.4 reference TFLOPS)")),
    ("H100-SXM", 1, "800Gbps", ("warning", "1 x 800 Gbps / 8 accelerators = 100 Gbps per accelerator (80 Gbps effective at 80% of advertised) in pool 'gpu'; "
                                "training on 989.4 dense bf16 TFLOPS wants >= 400 Gbps (400 Gbps per 989.4 reference TFLOPS)")),  # 100 is not below 100
    ("H100-SXM", 1, "792Gbps", ("error", "1 x 792 Gbps / 8 accelerators = 99 Gbps per accelerator (79.2 Gbps effective at 80% of advertised) in pool 'gpu'; "
                                "training on 989.4 dense bf16 TFLOPS wants >= 400 Gbps (400 Gbps per 989.4 reference TFLOPS), and below 100 Gbps is an error")),
    # A100: 400 x 312 / 989.4 = 126.1 Gbps, so 200 Gbps per GPU is enough (it warned before)
    ("A100-SXM-80GB", 8, "200Gbps", None),
    # B200: 400 x 2250 / 989.4 = 909.6 Gbps, capped at the reference design's 400 Gbps (DGX B200: 8 x 400 Gbps
    # ConnectX-7): its own reference speed does not warn, a quarter of it does, and below a quarter is an error
    ("B200", 8, "800Gbps", None),
    ("B200", 8, "400Gbps", None),
    ("B200", 2, "400Gbps", ("warning", "2 x 400 Gbps / 8 accelerators = 100 Gbps per accelerator (80 Gbps effective at 80% of advertised) in pool 'gpu'; "
                            "training on 2,250 dense bf16 TFLOPS wants >= 400 Gbps (400 Gbps per 989.4 reference TFLOPS, capped at the reference design's 400 Gbps)")),
    ("B200", 2, "396Gbps", ("error", "2 x 396 Gbps / 8 accelerators = 99 Gbps per accelerator (79.2 Gbps effective at 80% of advertised) in pool 'gpu'; "
                            "training on 2,250 dense bf16 TFLOPS wants >= 400 Gbps (400 Gbps per 989.4 reference TFLOPS, capped at the reference design's 400 Gbps), "
                            "and below 100 Gbps is an error")),
])
def test_net003_scales_with_dense_tflops(model, nics, speed, expected):
    text = cluster(model=model, inter=f"{{fabric: infiniband, nics_per_node: {nics}, nic_speed: {speed}, rdma: true, oversubscription: 1}}")
    found = hits(text, "NET003")
    assert [(s, m) for s, m, *_ in found] == ([expected] if expected else [])
    if expected:
        assert found[0][2:] == place(text, speed)


def test_net003_evidence_shows_the_formula_and_the_catalog():
    text = cluster(model="B200", inter="{fabric: infiniband, nics_per_node: 2, nic_speed: 400Gbps, rdma: true, oversubscription: 1}")
    evidence = [f for f in review(text).findings if f.rule == "NET003"][0].evidence
    assert evidence[0] == "threshold: 400 Gbps x 2,250 / 989.4 TFLOPS = 909.6 Gbps"
    assert evidence[1].startswith("dense 2,250 bf16 TFLOPS: catalog B200, http")
    assert evidence[2:] == ("the workload states no global_batch_size and sequence_length: the reference design's traffic pattern is assumed",
                            "capped at 400 Gbps per accelerator, the reference design's NIC speed (NET003 params warn_below)",
                            "error below 100 Gbps / 400 Gbps x the need = 100 Gbps")


SLOW = "{fabric: ethernet, nics_per_node: 1, nic_speed: 100Gbps, rdma: false, oversubscription: 4, dedicated: false}"


@pytest.mark.parametrize("changes", [dict(nodes=1), dict(workload="task: inference, model: {parameters: 7B}")])
@pytest.mark.parametrize("rule", ["NET003", "NET004", "NET005", "NET006"])
def test_network_rules_gate_on_multi_node_training(rule, changes):
    assert hits(cluster(inter=SLOW), rule) != [], "the ungated case fires"
    assert hits(cluster(inter=SLOW, **changes), rule) == []


def test_net004_fires_on_no_fabric_at_all():
    text = cluster(inter="{fabric: none}")
    assert hits(text, "NET004") == [("error", "multi-node training on 4 nodes with no inter-node fabric (fabric: none): "
                                               "gradients and activations cannot cross nodes at training speed", *place(text, "none}"))]
    assert skipped(text, "NET003") == ["the cluster has no inter-node fabric (see NET004)"]
    assert hits(cluster(nodes=1, inter="{fabric: none}"), "NET004") == []


def test_net005_fires_for_multi_node_training():
    text = cluster(inter="{fabric: infiniband, nics_per_node: 8, nic_speed: 400Gbps, rdma: true, oversubscription: 1, dedicated: false}")
    assert hits(text, "NET005") == [("warning", "the inter-node fabric is shared with other tenants: their traffic makes your collectives "
                                                 "slow and unpredictable", *place(text, "false}"))]


# ---------------------------------------------------------------- NET006: the tier the job crosses

# 512 nodes x 8 = 4,096 H100s: a non-blocking pod of 3,072 under a 7:1 spine
TAPERED = "{fabric: infiniband, nics_per_node: 8, nic_speed: 400Gbps, rdma: true, tiers: [{name: pod, accelerators: 3072, oversubscription: 1}, {name: spine, oversubscription: 7}]}"
DRAGONFLY = "{fabric: slingshot, nics_per_node: 8, nic_speed: 400Gbps, rdma: true, topology: dragonfly, tiers: [{name: group, accelerators: 512, oversubscription: 1}, {name: global, accelerators: 4096, oversubscription: 2}]}"


def job(data: int) -> str:
    return f"task: training, model: {{parameters: 70B}}, parallelism: {{tensor: 8, pipeline: 4, data: {data}}}"


@pytest.mark.parametrize("inter, data, expected", [
    (TAPERED, 96, None),  # 8 x 4 x 96 = 3,072: fits the pod
    (TAPERED, 97, ("tier 'spine' (the whole cluster) is 7:1 oversubscribed for a job on 3,104 accelerators: all-reduce across them gets at most "
                   "1/7 of the NIC bandwidth", "oversubscription: 7")),  # 8 x 4 x 97 = 3,104
    (DRAGONFLY, 16, None),  # 512 accelerators: one group
    (DRAGONFLY, 17, ("tier 'global' (4,096 accelerators) is 2:1 oversubscribed for a job on 544 accelerators: all-reduce across them gets at most "
                     "1/2 of the NIC bandwidth", "oversubscription: 2")),
])
def test_net006_judges_the_tier_the_job_crosses(inter, data, expected):
    text = cluster(nodes=512, inter=inter, workload=job(data))
    found = hits(text, "NET006")
    assert [(s, m, ln) for s, m, ln, _ in found] == ([("warning", expected[0], place(text, expected[1])[0])] if expected else [])


def test_net006_evidence_says_how_the_job_was_sized():
    finding = [f for f in review(cluster(nodes=512, inter=TAPERED, workload=job(97))).findings if f.rule == "NET006"][0]
    assert finding.evidence == ("job size 3,104 accelerators: tensor 8 x pipeline 4 x data 97; pool: the only node pool",)
    whole = [f for f in review(cluster(inter=SLOW)).findings if f.rule == "NET006"][0]
    assert whole.message == "the fabric is 4:1 oversubscribed for a job on 32 accelerators: all-reduce across them gets at most 1/4 of the NIC bandwidth"
    assert whole.evidence == ("job size 32 accelerators: the whole pool, 4 nodes x 8: no placement or data parallelism stated; pool: the only node pool",)


def test_net006_a_job_inside_one_node_never_reaches_the_fabric():
    assert hits(cluster(inter=SLOW, workload="task: training, model: {parameters: 7B}, parallelism: {tensor: 8, data: 1}"), "NET006") == []


def test_net006_a_job_beyond_every_stated_tier_is_skipped():
    inter = "{fabric: infiniband, tiers: [{name: pod, accelerators: 16, oversubscription: 1}]}"
    text = cluster(inter=inter)
    assert hits(text, "NET006") == [] and skipped(text, "NET006") == ["no stated fabric tier holds the job's 32 accelerators"]


@pytest.mark.parametrize("inter, message", [
    ("{fabric: infiniband, oversubscription: 2, tiers: [{name: pod, oversubscription: 1}]}",
     "state oversubscription (one figure for the fabric) or tiers (one per level), not both"),
    ("{fabric: infiniband, tiers: [{name: a, oversubscription: 1}, {name: b, accelerators: 64, oversubscription: 2}]}",
     "only the last tier may omit accelerators (it then spans the cluster)"),
    ("{fabric: infiniband, tiers: [{name: a, accelerators: 64, oversubscription: 1}, {name: b, accelerators: 32, oversubscription: 2}]}",
     "tiers go from the smallest up: each tier's accelerators must exceed the one before"),
])
def test_fabric_tiers_are_validated(inter, message):
    found = [f.message for f in review(cluster(inter=inter)).findings if f.rule == "SPEC002"]
    assert len(found) == 1 and found[0].startswith("spec.network.inter_node: " + message)


def test_posix_mount_is_for_object_stores():
    found = [f.message for f in review(cluster(storage="storage: [{name: l, type: lustre, posix_mount: true}]")).findings if f.rule == "SPEC002"]
    assert len(found) == 1 and found[0].startswith("spec.storage[0]: posix_mount applies to object stores; lustre is already a filesystem")


# ---------------------------------------------------------------- messages that name their source

def test_cpu001_says_the_workload_states_no_dataloader():
    text = cluster(pool_extra="spares: 1, local_storage: []").replace("cores_per_socket: 56", "cores_per_socket: 8")
    # 2 x 8 = 16 cores < 8 x (2 + 1) = 24
    assert [m for _, m, *_ in hits(text, "CPU001")] == [
        "2 x 8 = 16 physical cores per node in pool 'gpu' cannot feed 8 accelerators: 8 x (2 dataloader workers + 1) = 24 cores needed "
        "(default, the workload states no dataloader)"]
    alone = text.split("---")[0]
    assert [m for _, m, *_ in hits(alone, "CPU001")][0].endswith("(default, no workload)")


def test_net001_evidence_credits_the_node_for_a_capped_domain():
    text = cluster(model="A100-SXM-80GB", per=4, workload="task: training, model: {parameters: 7B}, parallelism: {tensor: 8}")
    finding = [f for f in review(text).findings if f.rule == "NET001"][0]
    assert finding.evidence == ("scale-up domain 4: the node's accelerator count (the catalog's domain of 8 is capped by the node)",)
    full = [f for f in review(cluster(workload="task: training, model: {parameters: 7B}, parallelism: {tensor: 16}")).findings if f.rule == "NET001"][0]
    assert full.evidence[0].startswith("scale-up domain 8: catalog H100-SXM")


# ---------------------------------------------------------------- property: silence is asked about, "none" is judged

FACTS = {  # fact -> (its "none" text, the rule that judges "none", what SPEC006 asks)
    "drives": ("local_storage: []", "STO006", "the local drives (pool 'gpu')"),
    "spares": ("spares: 0", "REL001", "the spare nodes (pool 'gpu')"),
    "storage": ("storage: []", "STO004", "the storage"),
    "scheduler": ("software: {orchestrator: none}", "SW001", "the scheduler"),
}


@settings(max_examples=30, deadline=None)
@given(st.fixed_dictionaries({fact: st.booleans() for fact in FACTS}), st.sampled_from([4, 8, 64]))
def test_each_fact_is_either_asked_about_or_judged(stated, nodes):
    pool = ", ".join(FACTS[f][0] for f in ("spares", "drives") if stated[f]) or None
    text = cluster(nodes=nodes, pool_extra=pool,
                   storage=FACTS["storage"][0] if stated["storage"] else None,
                   software=FACTS["scheduler"][0] if stated["scheduler"] else None)
    fired = {f.rule for f in review(text).findings}
    for fact, (_, rule, _) in FACTS.items():
        assert (rule in fired) == stated[fact], (fact, text)  # "none" fires; silence never does
    asked = [question for fact, (_, _, question) in FACTS.items() if not stated[fact]]
    message = [f.message for f in review(text).findings if f.rule == "SPEC006"]
    assert bool(message) == bool(asked)
    for question in asked:
        assert question in message[0]


def test_uni001_reads_burst_bandwidths_too():
    text = cluster(storage="storage: [{name: s, type: lustre, capacity: 1PB, burst_read_bandwidth: 800Gbps}]")
    assert [(s, m, ln) for s, m, ln, _ in hits(text, "UNI001")] == [(
        "warning", "storage burst_read_bandwidth 800Gbps is written in bits (100 GB/s); storage is sold in bytes per second, check which the quote means",
        place(text, "800Gbps")[0])]
