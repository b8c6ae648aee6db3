"""Issue 35's rules case by case (REL004-REL009, SEC001, NET008, SW003, SW004, STO007, LCK005; STO008's
table is in test_storage_cases.py): the gate, each severity band and each boundary, with line, column
and the exact message. One quote, workload and contract (QUOTE) meets every threshold (STO008's too);
a case replaces one term. Oracles by hand in the comments; a line and column are read off the text at
the words the finding must point at."""

from __future__ import annotations

import pytest

from cases import findings, skips
from conftest import check_json

QUOTE = """apiVersion: clusterlint/v1
kind: Cluster
metadata: {name: q, vendor: Fixture Cloud, offering: rent}
spec:
  node_pools:
    - name: gpu
      count: 64
      spares: 3
      accelerator: {model: H100-SXM, count: 8}
      cpu: {sockets: 2, cores_per_socket: 56}
      memory: 2TB
      local_storage: []
  service_nodes:
    - {name: head, role: head, count: 2}
  security:
    attestations: [{standard: soc2-type2, scope: GPU cloud, date: 2026-03-31}]
    tenant_isolation: [infiniband-pkeys]
  network:
    inter_node: {fabric: infiniband, nics_per_node: 8, nic_speed: 400Gbps, rdma: true, oversubscription: 1, dedicated: false}
  storage:
    - name: shared
      type: lustre
      capacity: 1PB
      write_bandwidth: 200GB/s
      purpose: [datasets, checkpoints]
      protection: {durability: erasure-coded, snapshots: true, backup: true}
    - {name: bucket, type: object, purpose: [datasets]}
  software:
    orchestrator: slurm
    root_access: true
    monitoring: [dcgm-exporter, xid-alerts, grafana]
---
apiVersion: clusterlint/v1
kind: Workload
metadata: {name: w}
spec:
  task: training
  model: {parameters: 70B}
  tokens: 2T
  dataset: {size: 20TB}
  checkpoints: {interval: 2h, keep: 4, size: 1TB}
---
apiVersion: clusterlint/v1
kind: Contract
metadata: {name: c}
spec:
  kind: order-form
  pricing: {accelerator_hour: 2.50 USD, extras: {egress: 0.05 USD/GB}}
  delivery:
    date: 2027-01-15
    late_remedy: credit
    acceptance_test: "nccl-tests all_reduce_perf busbw >= 360GB/s across all nodes; dcgmi diag -r 3 on every node; 48h burn-in"
  sla:
    availability: 99.5%
    credits: 10%
    node_replacement: 24h
    support: {hours: 24x7, response: {sev1: 30min}}
    maintenance: {notice: 7d}
    health_checks: {active: true, passive: true, drain: true}
  exit: {termination_for_convenience: true, data_export: export on request, export_allowance: 30TB}
"""
RULES = ("REL004", "REL005", "REL006", "REL007", "REL008", "REL009", "SEC001", "NET008", "SW003", "SW004", "STO007", "STO008", "LCK005")


def _report(tmp_path, *changes):
    text = QUOTE
    for old, new in changes:
        assert old in text, old
        text = text.replace(old, new, 1)
    path = tmp_path / "q.yaml"
    path.write_text(text, encoding="utf-8")
    return text, check_json(str(path))


def at(text: str, needle: str, occurrence: int = 1) -> tuple[int, int]:
    """(line, column) of the `occurrence`-th `needle` in the text."""
    start = -1
    for _ in range(occurrence):
        start = text.index(needle, start + 1)
    line = text.count("\n", 0, start) + 1
    return line, start - (text.rfind("\n", 0, start) + 1) + 1


def _one(tmp_path, rule, *changes):
    text, report = _report(tmp_path, *changes)
    return text, [(s, line, col, message) for s, line, col, message, _ in findings(report, rule)], skips(report, rule)


def test_a_quote_and_contract_that_meet_every_threshold_give_none(tmp_path):
    _, report = _report(tmp_path)
    assert [f for f in report["findings"] if f["rule"] in RULES] == []
    assert [s for s in report["skipped"] if s["rule"] in RULES] == []


# ---------------------------------------------------------------- REL004: 730.5 h a month (a twelfth of a Julian year)

def _rel004(pct, down, share):
    return f"availability {pct} allows {down} h of downtime a month ({share} of 730.5 h); ask for at least 99%"


@pytest.mark.parametrize("value, expected", [
    ("99%", None),  # the floor itself passes
    ("98.9%", ("warning", _rel004("98.9%", "8.035", "1.1%"))),  # (1 - 0.989) x 730.5 = 8.03549... in binary floating point
    ("95%", ("warning", _rel004("95%", "36.53", "5%"))),  # error_below 95% is strict; 0.05 x 730.5 = 36.525, 36.5250...03 in floating point
    ("94.9%", ("error", _rel004("94.9%", "37.26", "5.1%"))),
    ("90%", ("error", _rel004("90%", "73.05", "10%"))),
])
def test_rel004_bands(tmp_path, value, expected):
    # the workload's run is dropped (tokens out) so the message is the month's figure alone
    text, found, _ = _one(tmp_path, "REL004", ("availability: 99.5%", f"availability: {value}"), ("  tokens: 2T\n", ""))
    assert found == ([] if expected is None else [(expected[0], *at(text, value), expected[1])])


def test_rel004_counts_the_workloads_run(tmp_path):
    # 6 x 70B x 2T / (512 x 989.4 TFLOPS x 0.4) = 1,151.5 h; 10% of it = 115.2 h
    text, found, _ = _one(tmp_path, "REL004", ("availability: 99.5%", "availability: 90%"))
    assert found == [("error", *at(text, "90%"), "availability 90% allows 73.05 h of downtime a month (10% of 730.5 h), "
                      "115.2 h over the workload's 1,151.5 h run; ask for at least 99%")]


def test_rel004_reads_a_clause_and_points_at_the_figure(tmp_path):
    text, found, _ = _one(tmp_path, "REL004", ("    availability: 99.5%\n", ""), ("  exit:", "  clauses:\n    - {ref: '3.1', text: 'Monthly availability shall be at least 97%.'}\n  exit:"),
                          ("  tokens: 2T\n", ""))
    assert found == [("warning", *at(text, "97%"), _rel004("97%", "21.92", "3%"))]


def test_rel004_gate(tmp_path):
    _, found, skipped = _one(tmp_path, "REL004", ("    availability: 99.5%\n", ""))
    assert found == [] and skipped == ["the contract states no availability commitment"]


# ---------------------------------------------------------------- REL005

def _rel005(took, hours, idle):
    return (f"node replacement {took} with no spare node in pool 'gpu': one failed node stalls the 64-node job or idles its other 63 nodes "
            f"for {hours} h ({idle} node-hours); ask for replacement within 72 h or spare nodes")


@pytest.mark.parametrize("replacement, spares, expected", [
    ("72h", 0, None),  # max_hours itself passes
    ("73h", 0, ("warning", _rel005("3.042 days", "73", "4,599"))),  # 63 x 73
    ("7d", 0, ("warning", _rel005("7 days", "168", "10,584"))),  # error_hours 168 is strict
    ("14d", 0, ("error", _rel005("14 days", "336", "21,168"))),  # the 64-node job: 63 x 336
    ("14d", 1, None),  # a spare swaps in
])
def test_rel005_bands(tmp_path, replacement, spares, expected):
    text, found, _ = _one(tmp_path, "REL005", ("node_replacement: 24h", f"node_replacement: {replacement}"), ("spares: 3", f"spares: {spares}"))
    line, col = at(text, f"node_replacement: {replacement}")
    assert found == ([] if expected is None else [(expected[0], line, col + len("node_replacement: "), expected[1])])


def test_rel005_one_node_job_and_gates(tmp_path):
    one = ("  checkpoints:", "  placement: {nodes: 1}\n  checkpoints:")
    assert _one(tmp_path, "REL005", ("node_replacement: 24h", "node_replacement: 14d"), ("spares: 3", "spares: 0"), one)[1] == []
    _, found, skipped = _one(tmp_path, "REL005", ("node_replacement: 24h", "node_replacement: 14d"), ("      spares: 3\n", ""))
    assert found == [] and skipped == ["the quote does not state pool 'gpu''s spare nodes (see SPEC006)"]
    assert _one(tmp_path, "REL005", ("    node_replacement: 24h\n", ""))[2] == ["the contract states no replacement time (see REL002)"]


# ---------------------------------------------------------------- REL006

@pytest.mark.parametrize("sev1, expected", [
    ("1h", None),  # max_sev1 itself passes
    ("61min", ("warning", "severity-1 support responds in 1.017 hours, over 1 hour: a down cluster idles every node until someone answers")),
    ("24h", ("warning", "severity-1 support responds in 1 day, over 1 hour: a down cluster idles every node until someone answers")),
    ("25h", ("error", "severity-1 support responds in 1.042 days, over 1 hour: a down cluster idles every node until someone answers")),
])
def test_rel006_bands(tmp_path, sev1, expected):
    text, found, _ = _one(tmp_path, "REL006", ("sev1: 30min", f"sev1: {sev1}"))
    line, col = at(text, f"sev1: {sev1}")
    assert found == ([] if expected is None else [(expected[0], line, col + len("sev1: "), expected[1])])


def test_rel006_support_without_a_response_time(tmp_path):
    text, found, _ = _one(tmp_path, "REL006", ("support: {hours: 24x7, response: {sev1: 30min}}", "support: business hours"))
    assert found == [("warning", *at(text, "business hours"), "support 'business hours' states no severity-1 response time: ask for a first response within 1 hour")]


def test_rel006_reads_a_clause(tmp_path):
    clause = "  clauses:\n    - {ref: '4.2', text: 'Provider shall respond to Severity 1 incidents within 4 hours.'}\n  exit:"
    text, found, _ = _one(tmp_path, "REL006", ("    support: {hours: 24x7, response: {sev1: 30min}}\n", ""), ("  exit:", clause))
    assert found == [("warning", *at(text, "Severity 1"), "severity-1 support responds in 4 hours, over 1 hour: a down cluster idles every node until someone answers")]


def test_rel006_absent(tmp_path):
    text, found, _ = _one(tmp_path, "REL006", ("    support: {hours: 24x7, response: {sev1: 30min}}\n", ""))
    assert found == [("warning", *at(text, "sla:"), "the contract states no severity-1 support response time: a cluster that is down waits in the queue with every other ticket")]


# ---------------------------------------------------------------- REL007

@pytest.mark.parametrize("notice, expected", [
    ("7d", None),  # min_notice itself passes
    ("6d", ("warning", "planned maintenance is announced 6 days ahead, under 7 days: too short to checkpoint and reschedule a multi-day run")),
    ("24h", ("warning", "planned maintenance is announced 1 day ahead, under 7 days: too short to checkpoint and reschedule a multi-day run")),
    ("12h", ("error", "planned maintenance is announced 12 hours ahead, under 7 days: too short to checkpoint and reschedule a multi-day run")),
])
def test_rel007_bands(tmp_path, notice, expected):
    text, found, _ = _one(tmp_path, "REL007", ("notice: 7d", f"notice: {notice}"))
    line, col = at(text, f"notice: {notice}")
    assert found == ([] if expected is None else [(expected[0], line, col + len("notice: "), expected[1])])


def test_rel007_clause_and_absence(tmp_path):
    clause = "  clauses:\n    - {ref: '5.1', text: 'Provider gives 48 hours notice of planned maintenance.'}\n  exit:"
    text, found, _ = _one(tmp_path, "REL007", ("    maintenance: {notice: 7d}\n", ""), ("  exit:", clause))
    assert found == [("warning", *at(text, "48 hours notice"), "planned maintenance is announced 2 days ahead, under 7 days: too short to checkpoint and reschedule a multi-day run")]
    text, found, _ = _one(tmp_path, "REL007", ("    maintenance: {notice: 7d}\n", ""))
    assert found == [("warning", *at(text, "sla:"), "the contract states no notice before planned maintenance: a maintenance window can stop a run without warning")]


# ---------------------------------------------------------------- REL008

GOOD_TEST = "nccl-tests all_reduce_perf busbw >= 360GB/s across all nodes; dcgmi diag -r 3 on every node; 48h burn-in"


@pytest.mark.parametrize("test, lacks", [
    (GOOD_TEST, None),
    ("nodes power on and are reachable over SSH", "no multi-node nccl-tests bandwidth figure, no dcgm diagnostic level and no burn-in length"),
    ("nccl-tests all_reduce_perf busbw >= 360GB/s; 48h burn-in", "no dcgm diagnostic level"),
    ("nccl-tests on all nodes; dcgmi diag -r 3; 48h burn-in", "no multi-node nccl-tests bandwidth figure"),  # nccl without a figure
    ("nccl busbw >= 360GB/s; dcgmi diag -r 3; burn-in", "no burn-in length"),  # burn-in without a length
])
def test_rel008_parts(tmp_path, test, lacks):
    text, found, _ = _one(tmp_path, "REL008", (GOOD_TEST, test))
    line, col = at(text, "acceptance_test: ")
    assert found == ([] if lacks is None else [("warning", line, col + len("acceptance_test: "),
                                                f"acceptance test {test!r} names {lacks}: a cluster that boots but cannot train passes it")])


def test_rel008_clause_points_at_the_words_and_gate(tmp_path):
    clause = "  clauses:\n    - {ref: '2.2', text: 'Acceptance testing: nodes power on and are reachable over SSH.'}\n  exit:"
    text, found, _ = _one(tmp_path, "REL008", (f'    acceptance_test: "{GOOD_TEST}"\n', ""), ("  exit:", clause))
    assert found == [("warning", *at(text, "Acceptance testing"), "the acceptance test in clause 2.2 names no multi-node nccl-tests bandwidth figure, "
                      "no dcgm diagnostic level and no burn-in length: a cluster that boots but cannot train passes it")]
    assert _one(tmp_path, "REL008", (f'    acceptance_test: "{GOOD_TEST}"\n', ""))[2] == ["the contract has no acceptance test (see REL003)"]


# ---------------------------------------------------------------- REL009

@pytest.mark.parametrize("duty, expected", [
    ("{active: true, drain: true}", None),
    ("{passive: true, drain: false}", "the vendor does not drain a node that fails them: a failing node keeps taking jobs and crashing them"),
    ("{drain: true}", "the vendor runs no active or passive health checks: a failing node keeps taking jobs and crashing them"),
    ("{}", "the vendor runs no active or passive health checks and does not drain a node that fails them: a failing node keeps taking jobs and crashing them"),
])
def test_rel009_structured(tmp_path, duty, expected):
    text, found, _ = _one(tmp_path, "REL009", ("health_checks: {active: true, passive: true, drain: true}", f"health_checks: {duty}"))
    # a finding on a mapping points at its key
    assert found == ([] if expected is None else [("warning", *at(text, "health_checks:"), expected)])


def test_rel009_clause_and_absence(tmp_path):
    drop = ("    health_checks: {active: true, passive: true, drain: true}\n", "")
    clause = "  clauses:\n    - {ref: '3.5', text: 'Provider runs DCGM health checks and drains a node that fails them.'}\n  exit:"
    assert _one(tmp_path, "REL009", drop, ("  exit:", clause))[1] == []
    text, found, _ = _one(tmp_path, "REL009", drop)
    assert found == [("warning", *at(text, "sla:"), "the contract puts no duty on the vendor to run health checks and drain failed nodes: "
                      "a failing node keeps taking jobs and crashing them")]


# ---------------------------------------------------------------- SEC001

def test_sec001(tmp_path):
    drop = ("    attestations: [{standard: soc2-type2, scope: GPU cloud, date: 2026-03-31}]\n", "")
    text, found, _ = _one(tmp_path, "SEC001", drop)
    assert found == [("error", *at(text, "spec:", 3), "neither the contract nor the quote names a security attestation (SOC 2 Type II, ISO 27001): "
                      "nobody outside has audited how your data and fabric are guarded")]
    clause = "  clauses:\n    - {ref: '9.1', text: 'Provider maintains ISO/IEC 27001 certification.'}\n  exit:"
    assert _one(tmp_path, "SEC001", drop, ("  exit:", clause))[1] == []
    text, found, _ = _one(tmp_path, "SEC001", drop, ("  exit:", "  security: {attestations: []}\n  exit:"))
    assert found == [("error", *at(text, "attestations: []}"), "the contract warrants no security attestation (attestations: []): no SOC 2 Type II or "
                      "ISO 27001 report shows that anyone outside has audited how your data and fabric are guarded")]
    text, found, _ = _one(tmp_path, "SEC001", drop, ("  kind: order-form\n", "  kind: terms\n"))  # public paper: one info
    assert found == [("info", *at(text, "spec:", 3), "public terms never carry a security attestation (SOC 2 Type II, ISO 27001): ask for it in the order form")]


# ---------------------------------------------------------------- NET008

def test_net008(tmp_path):
    message = "the infiniband fabric is shared with other tenants and the quote states no tenant isolation "
    text, found, _ = _one(tmp_path, "NET008", ("    tenant_isolation: [infiniband-pkeys]\n", ""))
    assert found == [("warning", *at(text, "false}"), message + "(InfiniBand partition keys, VLANs or VRFs): ask how other tenants are kept off your nodes")]
    text, found, _ = _one(tmp_path, "NET008", ("tenant_isolation: [infiniband-pkeys]", "tenant_isolation: []"))
    assert found == [("error", *at(text, "tenant_isolation: []"), message + "(tenant_isolation: []): other tenants' nodes can reach yours over the fabric")]
    assert _one(tmp_path, "NET008", ("tenant_isolation: [infiniband-pkeys]", "tenant_isolation: []"), ("dedicated: false", "dedicated: true"))[1] == []


# ---------------------------------------------------------------- SW003, SW004

@pytest.mark.parametrize("role, expected", [
    ("login", None), ("controller", None), ("head", None),
    ("storage", "slurm needs a CPU login and controller node and the quote has service nodes with roles storage: "
                "users would log in to, and slurmctld would run on, a GPU node"),
])
def test_sw003(tmp_path, role, expected):
    text, found, _ = _one(tmp_path, "SW003", ("role: head", f"role: {role}"))
    assert found == ([] if expected is None else [("warning", *at(text, "service_nodes:"), expected)])


def test_sw003_gates(tmp_path):
    text, found, _ = _one(tmp_path, "SW003", ("  service_nodes:\n    - {name: head, role: head, count: 2}\n", "  service_nodes: []\n"))
    assert found == [("warning", *at(text, "service_nodes: []"), "slurm needs a CPU login and controller node and the quote has no service nodes "
                      "(service_nodes: []): users would log in to, and slurmctld would run on, a GPU node")]
    assert _one(tmp_path, "SW003", ("  service_nodes:\n    - {name: head, role: head, count: 2}\n", ""))[2] == [
        "the quote does not state its service nodes (login, controller): ask"]
    assert _one(tmp_path, "SW003", ("role: head", "role: storage"), ("orchestrator: slurm", "orchestrator: kubernetes"))[1] == []


def test_sw004(tmp_path):
    text, found, _ = _one(tmp_path, "SW004", ("[dcgm-exporter, xid-alerts, grafana]", "[dcgm-exporter, grafana]"))
    assert found == [("warning", *at(text, "monitoring:"), "the monitoring offered lacks xid-alerts: you learn of a failing GPU when the job crashes")]
    text, found, _ = _one(tmp_path, "SW004", ("[dcgm-exporter, xid-alerts, grafana]", "[]"))
    assert found == [("warning", *at(text, "monitoring:"), "the monitoring offered lacks dcgm-exporter, xid-alerts: you learn of a failing GPU when the job crashes")]
    assert _one(tmp_path, "SW004", ("    monitoring: [dcgm-exporter, xid-alerts, grafana]\n", ""))[2] == [
        "the quote does not state the monitoring offered to the customer: ask"]


# ---------------------------------------------------------------- STO007

UNPROTECTED = ("checkpoints on 'shared' have durability {}, no snapshots and no backup: one failed server can take the run's "
               "checkpoints, and the weeks of training behind them, with it")


@pytest.mark.parametrize("protection, expected", [
    ("{durability: raid}", None), ("{durability: single-copy, snapshots: true}", None), ("{durability: none, backup: true}", None),
    ("{durability: single-copy}", UNPROTECTED.format("single-copy")),
    ("{snapshots: false}", UNPROTECTED.format("not stated")),
])
def test_sto007(tmp_path, protection, expected):
    text, found, _ = _one(tmp_path, "STO007", ("{durability: erasure-coded, snapshots: true, backup: true}", protection))
    assert found == ([] if expected is None else [("error", *at(text, "protection:"), expected)])


def test_sto007_absent_is_asked(tmp_path):
    _, report = _report(tmp_path, ("      protection: {durability: erasure-coded, snapshots: true, backup: true}\n", ""))
    assert findings(report, "STO007") == []
    assert skips(report, "STO007") == ["the quote does not state how 'shared' protects its data (durability, snapshots, backup): ask"]


# ---------------------------------------------------------------- LCK005: 20 TB dataset + 4 x 1 TB checkpoints = 24 TB

def _lck005(cost, allowance, price):
    return (f"taking the workload's data out at the end costs {cost} USD = 24 TB (20 TB dataset + 4 x 1 TB checkpoints){allowance} x {price}: "
            "above 1,000 USD; ask for free export at exit")


@pytest.mark.parametrize("price, allowance, expected", [
    ("0.50 USD/GB", "", ("error", _lck005("12,000", "", "0.50 USD/GB"))),  # the 24,000 GB x 0.50
    ("0.05 USD/GB", "", ("warning", _lck005("1,200", "", "0.05 USD/GB"))),
    ("0.05 USD/GB", ", export_allowance: 4TB", None),  # 20,000 GB x 0.05 = 1,000: max_cost itself passes
    ("0.05 USD/GB", ", export_allowance: 3TB", ("warning", _lck005("1,050", " - 3 TB free", "0.05 USD/GB"))),
    ("50 USD/TB", "", ("warning", _lck005("1,200", "", "50 USD/TB"))),
])
def test_lck005(tmp_path, price, allowance, expected):
    text, found, _ = _one(tmp_path, "LCK005", ("egress: 0.05 USD/GB", f"egress: {price}"), (", export_allowance: 30TB}", allowance + "}"))
    line, col = at(text, f"egress: {price}")
    assert found == ([] if expected is None else [(expected[0], line, col + len("egress: "), expected[1])])


def test_lck005_reads_a_clause_and_gate(tmp_path):
    no_extras = ("pricing: {accelerator_hour: 2.50 USD, extras: {egress: 0.05 USD/GB}}", "pricing: {accelerator_hour: 2.50 USD}")
    clause = "  clauses:\n    - {ref: '4.1', text: 'Data egress is charged at 0.50 USD per GB.'}\n  exit:"
    text, found, _ = _one(tmp_path, "LCK005", no_extras, ("  exit:", clause), (", export_allowance: 30TB}", "}"))
    assert found == [("error", *at(text, "egress is charged"), _lck005("12,000", "", "0.50 USD/GB"))]
    assert _one(tmp_path, "LCK005", no_extras)[2] == ["the contract states no egress or data-export price"]
