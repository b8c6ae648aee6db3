"""Scoring invariants and monotonic rules, as properties over generated clusters."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from clusterlint.engine.review import FileResult, run_rules, typed_documents
from clusterlint.readers.loader import load_text
from clusterlint.engine.scoring import finding_score, grade, scorecard

TEMPLATE = """apiVersion: clusterlint/v1
kind: Cluster
metadata: {{name: generated, offering: buy}}
spec:
  node_pools:
    - name: gpu
      count: {nodes}
      spares: {spares}
      accelerator: {{model: H100-SXM, count: 8}}
      cpu: {{sockets: 2, cores_per_socket: {cores}}}
      memory: {ram}GB
  network:
    inter_node: {{fabric: {fabric}, nics_per_node: {nics}, nic_speed: {speed}Gbps, rdma: {rdma}, oversubscription: {oversub}}}
  storage:
    - {{name: shared, type: {storage}, capacity: {capacity}TB, write_bandwidth: {write}GB/s}}
  software: {{orchestrator: slurm}}
---
apiVersion: clusterlint/v1
kind: Workload
metadata: {{name: w}}
spec: {{task: training, model: {{parameters: 70B}}, tokens: 1T, dataset: {{size: 10TB}}, checkpoints: {{interval: 2h, keep: 3}}}}
"""

CLUSTERS = st.fixed_dictionaries({
    "nodes": st.integers(1, 64), "spares": st.integers(0, 4), "cores": st.integers(4, 64), "ram": st.integers(128, 4096),
    "fabric": st.sampled_from(["infiniband", "roce", "ethernet"]), "nics": st.integers(1, 8), "speed": st.sampled_from([25, 100, 200, 400]),
    "rdma": st.booleans(), "oversub": st.sampled_from([1, 2, 4]), "storage": st.sampled_from(["lustre", "nfs"]),
    "capacity": st.integers(1, 2000), "write": st.integers(1, 400),
})


def review(values) -> list:
    loaded = load_text(TEMPLATE.format(**{k: str(v).lower() if isinstance(v, bool) else v for k, v in values.items()}), "gen.yaml")
    result = FileResult("gen.yaml", loaded.lines)
    run_rules(result, typed_documents(loaded, result), None)
    return result.findings


@settings(max_examples=150, deadline=None)
@given(CLUSTERS)
def test_score_is_bounded_and_deterministic(values):
    findings = review(values)
    card = scorecard(findings)
    assert 0 <= card["score"] <= 100
    assert all(0 <= v <= 100 for v in card["areas"].values())
    assert review(values) == findings
    assert card["score"] == max(0, round(100 - sum(f.score for f in findings), 2))


MORE = {"cores": ("CPU001",), "ram": ("CPU002",), "nics": ("NET003", "NET007"), "speed": ("NET003", "NET007"),
        "capacity": ("STO002",), "write": ("STO003",), "spares": ("REL001",)}


@settings(max_examples=150, deadline=None)
@given(CLUSTERS, st.sampled_from(sorted(MORE)), st.integers(1, 1000))
def test_more_resources_never_add_a_finding(values, resource, extra):
    richer = dict(values)
    if resource == "speed":
        richer["speed"] = {25: 100, 100: 200, 200: 400, 400: 400}[values["speed"]]
    elif resource == "nics":
        richer["nics"] = min(8, values["nics"] + extra)
    else:
        richer[resource] = values[resource] + extra
    before = {(f.rule, f.severity) for f in review(values) if f.rule in MORE[resource]}
    after = {(f.rule, f.severity) for f in review(richer) if f.rule in MORE[resource]}
    rank = {"info": 0, "warning": 1, "error": 2}
    assert all(any(r == rule and rank[s] <= rank[s2] for r, s2 in before) for rule, s in after)
    assert scorecard(review(richer)).get("score") >= 0


@settings(max_examples=100, deadline=None)
@given(CLUSTERS)
def test_removing_a_cause_never_lowers_the_score(values):
    fixed = dict(values, rdma="true", fabric="infiniband", storage="lustre", oversub=1)
    assert scorecard(review(fixed))["score"] >= scorecard(review(values))["score"]


# ---------------------------------------------------------------- exact cases (oracles written by hand)

class _Found:
    def __init__(self, rule: str, score: float):
        self.rule, self.score = rule, score


@pytest.mark.parametrize("score, letter", [
    (100, "A"), (90, "A"), (89.99, "B"), (80, "B"), (79.99, "C"), (70, "C"), (69.99, "D"), (60, "D"), (59.99, "F"), (0, "F"),
])
def test_grade_boundaries(score, letter):
    assert grade(score) == letter


@pytest.mark.parametrize("weight, severity, points", [
    (20, "error", 20.0), (20, "warning", 10.0), (20, "info", 0.0),
    (0.333, "error", 0.33), (0.333, "warning", 0.17),  # 0.1665 to two decimals
])
def test_finding_score_is_weight_times_severity_to_two_decimals(weight, severity, points):
    assert finding_score(weight, severity) == points


def test_scorecard_rounds_to_two_decimals_and_floors_each_area_at_zero():
    card = scorecard([_Found("NET003", 0.333), _Found("NET001", 0.333), _Found("STO002", 150.0)])
    assert card["points"] == 150.67  # 150.666 to two decimals
    assert card["score"] == 0.0 and card["grade"] == "F"
    assert card["areas"]["NET"] == 99.33 and card["areas"]["STO"] == 0.0 and card["areas"]["CPU"] == 100.0
    card = scorecard([_Found("CON001", 12.3456)])
    assert card["score"] == 87.65 and card["grade"] == "B" and card["areas"]["CON"] == 87.65


def test_a_review_that_did_not_happen_has_points_but_no_score():
    card = scorecard([_Found("SPEC002", 0.125)], not_reviewed="spec.task: required field is missing")
    assert card == {"score": None, "grade": None, "not_reviewed": "spec.task: required field is missing", "points": 0.12, "areas": {}}
