"""STO001-STO006 and STO008 case by case: the gate, each severity band and each boundary, with line, column,
the exact message and the exact evidence (oracles computed by hand in the comments)."""

from __future__ import annotations

import pytest

from cases import WORKLOAD_HEAD, cluster, findings, skips
from conftest import check_json, run_cli

# the network on lines 14-15, storage from line 16
ACCEL = "{model: H100-SXM, count: 8, dense_tflops: {bf16: 1000}}"
NETWORK = ("    intra_node: {fabric: nvswitch}\n"
           "    inter_node: {fabric: infiniband, nics_per_node: 8, nic_speed: 400Gbps, rdma: true, oversubscription: 1, dedicated: true}\n")
# the workload runs on the whole pool: 2 nodes x 8 = 16 accelerators at the spec's 1,000 dense bf16 TFLOPS
WORKLOAD = "---\n" + WORKLOAD_HEAD + """  task: {task}
  model: {{parameters: 1B}}
  tokens: 1T
  parallelism: {{tensor: 8, pipeline: 1}}
{data}  assumed_mfu: 0.75
"""
# 2 TB dataset + 2 kept checkpoints of 1 TB = 4 TB to hold; a 1 TB checkpoint every hour
DATA = "  dataset: {size: 2TB}\n  checkpoints: {interval: 1h, keep: 2, size: 1TB}\n"


def _stores(*entries: str) -> str:
    """A storage list with one flow mapping per line: store k sits on line 17 + k."""
    return "  storage:\n" + "".join(f"    - {{{e}}}\n" for e in entries)


def _report(tmp_path, storage, *args, nodes=2, local="[]", pool2="", task="training", data=DATA, workload=True):
    text = cluster(NETWORK, storage, nodes=nodes, accel=ACCEL, local=local, pool2=pool2)
    if workload:
        text += WORKLOAD.format(task=task, data=data)
    path = tmp_path / "q.yaml"
    path.write_text(text, encoding="utf-8")
    return check_json(str(path), *args)


# ---------------------------------------------------------------- STO001

def _sto001(name, said, holds, nodes=2):
    return f"shared storage {name!r} is {said}, not a parallel filesystem, and holds {holds}: {nodes} nodes reading and writing through it will stall training"


@pytest.mark.parametrize("stores, nodes, expected", [
    (["name: shared, type: nfs, purpose: [datasets, checkpoints]"], 2,
     [(17, 28, _sto001("shared", "nfs", "datasets, checkpoints"))]),
    (["name: shared, type: nfs, purpose: [datasets, checkpoints]"], 1, []),  # one node: nothing to share
    (["name: shared, type: nfs"], 3, [(17, 28, _sto001("shared", "nfs", "datasets, checkpoints, code", 3))]),  # no purpose: everything
    (["name: home, type: nfs, purpose: [home, logs]"], 2, []),  # home directories on NFS are fine
    (["name: home, type: nfs, purpose: [home, code]"], 2, [(17, 26, _sto001("home", "nfs", "code"))]),
    (["name: shared, type: cephfs, purpose: [checkpoints]"], 2, [(17, 28, _sto001("shared", "cephfs", "checkpoints"))]),
    (["name: shared, type: weka, purpose: [checkpoints]"], 2, []),  # a parallel type
    (["name: shared, type: nfs, parallel: true"], 2, []),  # the spec's flag overrides the type
    (["name: fast, type: lustre, parallel: false, purpose: [datasets]"], 2,
     [(17, 44, _sto001("fast", "parallel: false", "datasets"))]),  # pointed at the flag
    (["name: dfs, type: distributed-fs, purpose: [datasets]"], 2, []),  # unknown: SPEC006 asks
    (["name: dfs, type: distributed-fs, parallel: false"], 2, [(17, 51, _sto001("dfs", "parallel: false", "datasets, checkpoints, code"))]),
    (["name: bucket, type: object, parallel: false"], 2, []),  # object stores scale out
    (["name: local, type: nfs, shared: false"], 2, []),  # not shared
    (["name: cold, type: nfs, tier: archive"], 2, []),  # not working storage
    (["name: fast, type: lustre", "name: home, type: smb, purpose: [checkpoints]"], 2,
     [(18, 26, _sto001("home", "smb", "checkpoints"))]),  # the second store
])
def test_sto001_cases(tmp_path, stores, nodes, expected):
    report = _report(tmp_path, _stores(*stores), nodes=nodes, workload=False)
    assert [(line, column, message) for severity, line, column, message, _ in findings(report, "STO001")] == expected
    assert {f[0] for f in findings(report, "STO001")} <= {"warning"}


def test_sto001_counts_the_nodes_of_every_pool(tmp_path):
    pool2 = "    - {name: more, count: 1, spares: 0, accelerator: {model: H100-SXM, count: 8}}\n"
    report = _report(tmp_path, _stores("name: shared, type: efs"), nodes=1, pool2=pool2, workload=False)
    assert [f[3] for f in findings(report, "STO001")] == [_sto001("shared", "efs", "datasets, checkpoints, code", 2)]


# ---------------------------------------------------------------- STO002

# needs 1.25 x 4 TB = 5 TB
NEEDS = "but needs 1.25 x (2 TB dataset + 2 x 1 TB checkpoints) = 5 TB"
ANY = "holds anything, purpose not stated"


@pytest.mark.parametrize("stores, expected", [
    (["name: shared, type: lustre, capacity: 5TB"], None),  # exactly 1.25 x: enough
    (["name: shared, type: lustre, capacity: 4999GB"],
     (17, 46, f"shared storage for datasets and checkpoints holds 4.999 TB {NEEDS}", [f"'shared': 4.999 TB (capacity; {ANY})"])),
    (["name: shared, type: lustre, capacity: 10TB, quota_per_project: 4TB"],  # the quota is what a project may fill
     (17, 71, f"shared storage for datasets and checkpoints holds 4 TB {NEEDS}", [f"'shared': 4 TB (quota per project; {ANY})"])),
    (["name: shared, type: lustre, quota_per_project: 5TB"], None),
    (["name: data, type: lustre, capacity: 3TB, purpose: [datasets]", "name: ckpt, type: lustre, capacity: 1TB, purpose: [checkpoints, logs]"],
     (16, 3, f"shared storage for datasets and checkpoints holds 4 TB {NEEDS}",
      ["'data': 3 TB (capacity; holds datasets)", "'ckpt': 1 TB (capacity; holds checkpoints, logs)"])),
    (["name: data, type: lustre, capacity: 3TB, purpose: [datasets]", "name: ckpt, type: lustre, capacity: 2TB, purpose: [checkpoints]"], None),
    (["name: home, type: nfs, capacity: 1PB, purpose: [home]", "name: shared, type: lustre, capacity: 4TB"],  # a large home does not count
     (18, 46, f"shared storage for datasets and checkpoints holds 4 TB {NEEDS}", [f"'shared': 4 TB (capacity; {ANY})"])),
    (["name: cold, type: lustre, capacity: 1PB, tier: archive", "name: shared, type: lustre, capacity: 4TB"],  # nor an archive tier
     (18, 46, f"shared storage for datasets and checkpoints holds 4 TB {NEEDS}", [f"'shared': 4 TB (capacity; {ANY})"])),
    (["name: nocap, type: lustre", "name: shared, type: lustre, capacity: 5TB"], None),  # enough without the unknown one
])
def test_sto002_cases(tmp_path, stores, expected):
    report = _report(tmp_path, _stores(*stores))
    if expected is None:
        assert findings(report, "STO002") == [] and skips(report, "STO002") == []
        return
    line, column, message, evidence = expected
    assert findings(report, "STO002") == [("error", line, column, message, [*evidence, "checkpoint size: workload"])]


def test_sto002_a_store_with_no_size_is_asked_about_when_the_rest_fall_short(tmp_path):
    report = _report(tmp_path, _stores("name: nocap, type: lustre", "name: other, type: vast", "name: shared, type: lustre, capacity: 4TB"))
    assert findings(report, "STO002") == []
    assert skips(report, "STO002") == ["storage 'nocap', 'other' states no capacity or quota_per_project"]


@pytest.mark.parametrize("data, capacity, expected", [
    # dataset only: 1.25 x 4 TB = 5 TB; no checkpoint evidence
    ("  dataset: {size: 4TB}\n", "5TB", None),
    ("  dataset: {size: 4TB}\n", "4999GB",
     ("shared storage for datasets holds 4.999 TB but needs 1.25 x (4 TB dataset) = 5 TB", [f"'shared': 4.999 TB (capacity; {ANY})"])),
    # checkpoints only, size derived: 1B x 14 bytes = 14 GB, 2 kept = 28 GB, x 1.25 = 35 GB
    ("  checkpoints: {interval: 1h, keep: 2}\n", "35GB", None),
    ("  dataset: {files: 10}\n  checkpoints: {interval: 1h, keep: 2}\n", "34GB",  # a dataset of unstated size is not wanted
     ("shared storage for checkpoints holds 34 GB but needs 1.25 x (2 x 14 GB checkpoints) = 35 GB",
      [f"'shared': 34 GB (capacity; {ANY})", "checkpoint size: 1B x 14 bytes (weights + fp32 master + Adam moments)"])),
    ("  checkpoints: {interval: 1h, keep: 2}\n", "34GB",
     ("shared storage for checkpoints holds 34 GB but needs 1.25 x (2 x 14 GB checkpoints) = 35 GB",
      [f"'shared': 34 GB (capacity; {ANY})", "checkpoint size: 1B x 14 bytes (weights + fp32 master + Adam moments)"])),
])
def test_sto002_dataset_or_checkpoints_alone(tmp_path, data, capacity, expected):
    report = _report(tmp_path, _stores(f"name: shared, type: lustre, capacity: {capacity}"), data=data)
    assert findings(report, "STO002") == ([] if expected is None else [("error", 17, 46, *expected)])


def test_sto002_configured_ratio(tmp_path):
    # min_ratio 1: 4 TB is exactly enough, 3.999 TB is not
    args = ("--param", "STO002.min_ratio=1")
    assert findings(_report(tmp_path, _stores("name: shared, type: lustre, capacity: 4TB"), *args), "STO002") == []
    [(_, _, _, message, _)] = findings(_report(tmp_path, _stores("name: shared, type: lustre, capacity: 3999GB"), *args), "STO002")
    assert message == "shared storage for datasets and checkpoints holds 3.999 TB but needs 1 x (2 TB dataset + 2 x 1 TB checkpoints) = 4 TB"


def test_sto002_no_store_for_the_data(tmp_path):
    report = _report(tmp_path, _stores("name: home, type: nfs, capacity: 1PB, purpose: [home]"))
    assert skips(report, "STO002") == ["the cluster has no shared storage for datasets or checkpoints (see STO004)"]
    report = _report(tmp_path, _stores("name: shared, type: lustre, capacity: 1GB"), data="  dataset: {files: 10}\n")
    assert skips(report, "STO002") == ["the workload states no dataset size and no checkpoints"]


# ---------------------------------------------------------------- STO003

# 1 TB / 100 GB/s = 10 s per checkpoint: the share is 10 s / interval
@pytest.mark.parametrize("interval, expected", [
    ("1000s", None),  # exactly 1%: not above
    ("999s", ("warning", "10 seconds every 16.65 minutes: 1.0% of training time idle (limit 1%)")),
    ("200s", ("warning", "10 seconds every 3.333 minutes: 5.0% of training time idle (limit 1%)")),  # exactly 5%: a warning
    ("199s", ("error", "10 seconds every 3.317 minutes: 5.0% of training time idle (limit 5%)")),
    ("10s", ("error", "10 seconds every 10 seconds: 100.0% of training time idle (limit 5%)")),
])
def test_sto003_bands_and_boundaries(tmp_path, interval, expected):
    data = f"  checkpoints: {{interval: {interval}, size: 1TB}}\n"
    report = _report(tmp_path, _stores("name: shared, type: lustre, write_bandwidth: 100GB/s"), data=data)
    if expected is None:
        assert findings(report, "STO003") == []
        return
    severity, tail = expected
    assert findings(report, "STO003") == [(severity, 17, 53, f"writing a 1 TB checkpoint at 100 GB/s takes {tail}", ["checkpoint size: workload"])]


def test_sto003_adds_the_checkpoint_stores_and_points_at_the_first_that_writes(tmp_path):
    # 50 + 50 GB/s = 100 GB/s; the dataset store's 1 GB/s and the store with no write figure do not count
    stores = _stores("name: data, type: lustre, write_bandwidth: 1GB/s, purpose: [datasets]", "name: a, type: lustre, purpose: [checkpoints]",
                     "name: b, type: lustre, write_bandwidth: 50GB/s, purpose: [checkpoints]", "name: c, type: vast, write_bandwidth: 50GB/s")
    report = _report(tmp_path, stores, data="  checkpoints: {interval: 999s, size: 1TB}\n")
    assert findings(report, "STO003") == [("warning", 19, 48, "writing a 1 TB checkpoint at 100 GB/s takes 10 seconds every 16.65 minutes: "
                                                               "1.0% of training time idle (limit 1%)", ["checkpoint size: workload"])]


def test_sto003_derived_size_and_configured_limits(tmp_path):
    # 1B x 14 bytes = 14 GB at 1 GB/s = 14 s every 100 s = 14%: above a configured 10% error limit
    args = ("--param", "STO003.warn_above=0.05", "--param", "STO003.error_above=0.1")
    report = _report(tmp_path, _stores("name: shared, type: lustre, write_bandwidth: 1GB/s"), *args, data="  checkpoints: {interval: 100s}\n")
    assert findings(report, "STO003") == [("error", 17, 53, "writing a 14 GB checkpoint at 1 GB/s takes 14 seconds every 1.667 minutes: "
                                                             "14.0% of training time idle (limit 10%)",
                                            ["checkpoint size: 1B x 14 bytes (weights + fp32 master + Adam moments)"])]


@pytest.mark.parametrize("task, data, stores, reason", [
    ("inference", DATA, ["name: shared, type: lustre, write_bandwidth: 1GB/s"], "the workload states no checkpoints"),
    ("training", "  dataset: {size: 2TB}\n", ["name: shared, type: lustre, write_bandwidth: 1GB/s"], "the workload states no checkpoints"),
    ("training", DATA, ["name: shared, type: lustre"], "no checkpoint storage states a write_bandwidth"),
    ("training", DATA, ["name: data, type: lustre, write_bandwidth: 1GB/s, purpose: [datasets]"], "no checkpoint storage states a write_bandwidth"),
])
def test_sto003skips(tmp_path, task, data, stores, reason):
    report = _report(tmp_path, _stores(*stores), task=task, data=data)
    assert findings(report, "STO003") == [] and skips(report, "STO003") == [reason]


# ---------------------------------------------------------------- STO004

@pytest.mark.parametrize("storage, nodes, expected", [
    ("  storage: []\n", 2, (16, 3)),
    ("  storage: []\n", 1, None),  # one node shares nothing
    (_stores("name: shared, type: lustre"), 2, None),
    (_stores("name: bucket, type: object"), 2, (16, 3)),  # object storage alone is no filesystem
    (_stores("name: bucket, type: object, posix_mount: true"), 2, None),  # unless every node mounts it
    (_stores("name: bucket, type: object, posix_mount: false"), 3, (16, 3)),
    (_stores("name: box, type: nfs, shared: false"), 2, (16, 3)),
    (_stores("name: scratch, type: local-nvme"), 2, (16, 3)),
    (_stores("name: cold, type: lustre, tier: archive"), 2, (16, 3)),
    (_stores("name: bucket, type: object", "name: home, type: nfs"), 2, None),
])
def test_sto004_cases(tmp_path, storage, nodes, expected):
    report = _report(tmp_path, storage, nodes=nodes, workload=False)
    if expected is None:
        assert findings(report, "STO004") == []
        return
    message = f"{nodes} nodes and no shared filesystem: code, data and checkpoints must be copied to every node"
    assert findings(report, "STO004") == [("warning", *expected, message, [])]


def test_sto004_unstated_storage_is_asked_about(tmp_path):
    report = _report(tmp_path, "", workload=False)
    assert findings(report, "STO004") == [] and skips(report, "STO004") == ["the quote does not state its storage (see SPEC006)"]


def test_sto004_is_silent_on_one_node_even_when_storage_is_unstated(tmp_path):
    report = _report(tmp_path, "", nodes=1, workload=False)
    assert findings(report, "STO004") == [] and skips(report, "STO004") == []  # one node shares nothing: no question to ask


# ---------------------------------------------------------------- STO005

# 16 x 1,000 TFLOPS x 0.75 MFU / (6 x 1B) = 2,000,000 tokens/s; 1 PB / 1T tokens = 1,000 bytes/token: 2 GB/s
IMAGES = "  dataset: {size: 1PB}\n"
EVIDENCE = ["accelerators 16 x H100-SXM: the whole pool, 2 nodes x 8: no placement or data parallelism stated; pool: the only node pool",
            "dense bf16 1,000 TFLOPS: spec", "MFU 0.75: workload assumed_mfu"]


def _sto005(have):
    return f"training consumes 2,000,000 tokens/s x 1,000 bytes/token = 2 GB/s, more than the {have} the dataset storage reads"


@pytest.mark.parametrize("stores, expected", [
    (["name: data, type: lustre, read_bandwidth: 2GB/s"], None),  # exactly enough
    (["name: data, type: lustre, read_bandwidth: 1999MB/s"], (17, 50, "1.999 GB/s")),
    (["name: data, type: lustre, read_bandwidth: 1GB/s, purpose: [datasets]", "name: more, type: vast, read_bandwidth: 1GB/s"], None),  # 1 + 1
    (["name: data, type: lustre, read_bandwidth: 1GB/s, purpose: [datasets]", "name: more, type: vast, read_bandwidth: 999MB/s"],
     (17, 50, "1.999 GB/s")),
    (["name: ckpt, type: lustre, read_bandwidth: 100GB/s, purpose: [checkpoints]", "name: data, type: lustre, read_bandwidth: 1GB/s"],
     (18, 50, "1 GB/s")),  # a checkpoint store does not feed the dataloaders
    (["name: nobw, type: lustre", "name: data, type: lustre, read_bandwidth: 1GB/s, purpose: [datasets, code]"], (18, 50, "1 GB/s")),
])
def test_sto005_cases(tmp_path, stores, expected):
    report = _report(tmp_path, _stores(*stores), data=IMAGES)
    assert findings(report, "STO005") == ([] if expected is None else [("warning", expected[0], expected[1], _sto005(expected[2]), EVIDENCE)])


def test_sto005_a_fractional_bytes_per_token(tmp_path):
    # 2,000,000 tokens/s x (1.5 TB / 1T tokens = 1.5 bytes/token) = 3 MB/s
    report = _report(tmp_path, _stores("name: data, type: lustre, read_bandwidth: 2MB/s"), data="  dataset: {size: 1.5TB}\n")
    assert [f[3] for f in findings(report, "STO005")] == [
        "training consumes 2,000,000 tokens/s x 1.5 bytes/token = 3 MB/s, more than the 2 MB/s the dataset storage reads"]


@pytest.mark.parametrize("task, data, stores, reason", [
    ("inference", IMAGES, ["name: data, type: lustre, read_bandwidth: 1MB/s"], None),  # no dataloaders to starve
    ("training", DATA.replace("2TB", "1PB"), ["name: data, type: lustre, read_bandwidth: 1MB/s"], "found"),
    ("training", "  dataset: {files: 10}\n", ["name: data, type: lustre, read_bandwidth: 1MB/s"],
     "the workload states no dataset size and tokens to derive the bytes read per token"),
    ("training", "", ["name: data, type: lustre, read_bandwidth: 1MB/s"], "the workload states no dataset size and tokens to derive the bytes read per token"),
    ("training", IMAGES, ["name: data, type: lustre"], "no dataset storage states a read_bandwidth"),
    ("training", IMAGES, ["name: ckpt, type: lustre, read_bandwidth: 1MB/s, purpose: [checkpoints]"], "no dataset storage states a read_bandwidth"),
])
def test_sto005_gate_andskips(tmp_path, task, data, stores, reason):
    report = _report(tmp_path, _stores(*stores), task=task, data=data)
    assert len(findings(report, "STO005")) == (reason == "found")
    assert skips(report, "STO005") == ([] if reason in (None, "found") else [reason])


def test_sto005_needs_the_workloads_tokens(tmp_path):
    path = tmp_path / "q.yaml"
    text = cluster(NETWORK, _stores("name: data, type: lustre, read_bandwidth: 1MB/s"), accel=ACCEL)
    path.write_text(text + WORKLOAD.format(task="training", data=IMAGES).replace("  tokens: 1T\n", ""), encoding="utf-8")
    assert skips(check_json(str(path)), "STO005") == ["the workload states no dataset size and tokens to derive the bytes read per token"]


# ---------------------------------------------------------------- STO006

NO_NVME = "pool {!r} has no local NVMe: no fast scratch for checkpoints staged before upload, or for dataset caches"


@pytest.mark.parametrize("local, pool2, storage, expected", [
    ("[]", "", "  storage: []\n", [(12, 7, NO_NVME.format("gpu"))]),
    ("[{type: ssd, capacity: 4TB}, {type: hdd, capacity: 20TB}]", "", "  storage: []\n", [(12, 7, NO_NVME.format("gpu"))]),
    ("[{type: ssd, capacity: 4TB}, {type: nvme, capacity: 8TB}]", "", "  storage: []\n", []),
    ("[]", "", _stores("name: scratch, type: local-nvme, shared: false"), []),  # node-local NVMe listed under storage
    ("[]", "", _stores("name: shared, type: lustre"), [(12, 7, NO_NVME.format("gpu"))]),
    # a pool that leaves its drives out is SPEC006's; the other pool is judged
    ("[]", "    - {name: more, count: 1, spares: 0, accelerator: {model: H100-SXM, count: 8}}\n", "", [(12, 7, NO_NVME.format("gpu"))]),
    ("[{type: nvme, capacity: 8TB}]", "    - {name: more, count: 1, spares: 0, accelerator: {model: H100-SXM, count: 8}, local_storage: []}\n", "",
     [(13, 83, NO_NVME.format("more"))]),
])
def test_sto006_cases(tmp_path, local, pool2, storage, expected):
    report = _report(tmp_path, storage, local=local, pool2=pool2, workload=False)
    assert [(line, column, message) for severity, line, column, message, _ in findings(report, "STO006")] == expected
    assert {f[0] for f in findings(report, "STO006")} <= {"info"}


def test_sto006_unstated_drives_are_asked_about(tmp_path):
    report = _report(tmp_path, "  storage: []\n", local="null", workload=False)
    assert findings(report, "STO006") == [] and skips(report, "STO006") == ["the quote does not state the nodes' local drives (see SPEC006)"]


# ---------------------------------------------------------------- STO008: info from 10 TB, warning from 100 TB

def _sto008(size, bar):
    return (f"the quote states no object store for the workload's {size} dataset (one is asked for from {bar}): the dataset is "
            "kept on working storage and uploaded again to every new cluster; ask for managed S3-compatible object storage")


@pytest.mark.parametrize("stores, size, task, expected", [
    (["name: shared, type: lustre"], "9.99TB", "training", []),  # below min_dataset: small enough to re-stage
    (["name: shared, type: lustre"], "10TB", "training", [("info", _sto008("10 TB", "10 TB"))]),  # the boundary is inclusive
    (["name: shared, type: lustre"], "99.9TB", "finetuning", [("info", _sto008("99.9 TB", "10 TB"))]),
    (["name: shared, type: lustre"], "100TB", "training", [("warning", _sto008("100 TB", "100 TB"))]),
    (["name: shared, type: lustre"], "1PB", "training", [("warning", _sto008("1 PB", "100 TB"))]),
    (["name: shared, type: lustre", "name: bucket, type: object, purpose: [datasets]"], "1PB", "training", []),  # an object store
    (["name: bucket, type: object, posix_mount: true"], "1PB", "training", []),
])
def test_sto008_cases(tmp_path, stores, size, task, expected):
    # `storage:` is line 16, column 3
    report = _report(tmp_path, _stores(*stores), task=task, data=f"  dataset: {{size: {size}}}\n")
    assert [(severity, line, column, message) for severity, line, column, message, _ in findings(report, "STO008")] == \
        [(severity, 16, 3, message) for severity, message in expected]


def test_sto008_inference_reads_no_training_dataset(tmp_path):
    report = _report(tmp_path, "  storage: []\n", task="inference", data="  dataset: {size: 1PB}\n")
    assert findings(report, "STO008") == [] and skips(report, "STO008") == []  # not applicable: passed, not skipped


def test_sto008_points_at_an_empty_storage_list(tmp_path):
    report = _report(tmp_path, "  storage: []\n", data="  dataset: {size: 100TB}\n")
    assert [(s, line, column) for s, line, column, *_ in findings(report, "STO008")] == [("warning", 16, 3)]


@pytest.mark.parametrize("storage, task, data, workload, reason", [
    ("  storage: []\n", "training", DATA, False, "needs Workload document"),
    ("  storage: []\n", "training", "", True, "the workload states no dataset size"),
    ("  storage: []\n", "training", "  dataset: {files: 400000}\n", True, "the workload states no dataset size"),
    ("", "training", "  dataset: {size: 1PB}\n", True, "the quote states no storage (SPEC006 asks)"),
])
def test_sto008_gate(tmp_path, storage, task, data, workload, reason):
    report = _report(tmp_path, storage, task=task, data=data, workload=workload)
    assert findings(report, "STO008") == [] and skips(report, "STO008") == [reason]


def test_sto008_thresholds_are_configurable(tmp_path):
    report = _report(tmp_path, _stores("name: shared, type: lustre"), "--param", "STO008.min_dataset=1TB",
                     "--param", "STO008.warn_dataset=2TB", data=DATA)
    assert [(s, message) for s, _, _, message, _ in findings(report, "STO008")] == [("warning", _sto008("2 TB", "2 TB"))]


@pytest.mark.parametrize("param, error", [
    ("STO002.min_ratio=1", None),
    ("STO002.min_ratio=0.99", "STO002 params.min_ratio: Input should be greater than or equal to 1"),
    ("STO003.warn_above=0.5", None),
    ("STO003.warn_above=0", "STO003 params.warn_above: Input should be greater than 0"),
    ("STO003.warn_above=1", "STO003 params.warn_above: Input should be less than 1"),
    ("STO003.error_above=0", "STO003 params.error_above: Input should be greater than 0"),
    ("STO003.error_above=1", "STO003 params.error_above: Input should be less than 1"),
    ("STO008.min_dataset=5TB", None),
])
def test_configured_params_are_validated(tmp_path, param, error):
    (tmp_path / "q.yaml").write_text(cluster(NETWORK, accel=ACCEL), encoding="utf-8")
    code, _, err = run_cli("check", str(tmp_path / "q.yaml"), "--param", param)
    if error is None:
        assert code in (0, 1) and err == ""  # accepted: the check ran (and may find something)
    else:
        assert (code, err) == (2, f"clusterlint: error: --param {param.split('.')[0]}: {error}\n")
