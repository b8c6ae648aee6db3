"""Builders for the rule case tables (test_*_cases.py): one cluster quote whose parts a case
replaces, so every line number a case asserts is read off this one template."""

from __future__ import annotations

CLUSTER = """apiVersion: clusterlint/v1
kind: Cluster
metadata: {{name: q, vendor: Fixture Cloud, offering: buy}}
spec:
  node_pools:
    - name: gpu
      count: {nodes}
      spares: 0
      accelerator: {accel}
      cpu: {cpu}
      memory: {memory}
      local_storage: {local}
{pool2}  network:
{network}{storage}  software: {{orchestrator: slurm, root_access: true}}
"""
H100 = "{model: H100-SXM, count: 8}"
# a Workload document up to its `spec:` line; a case table adds the spec's lines (a str.format template)
WORKLOAD_HEAD = "apiVersion: clusterlint/v1\nkind: Workload\nmetadata: {{name: w}}\nspec:\n"


def cluster(network: str, storage: str = "  storage: []\n", nodes: int = 2, accel: str = H100, local: str = "[]", pool2: str = "",
            cpu: str = "{sockets: 2, cores_per_socket: 56}", memory: str = "2TB") -> str:
    """The quote: pool 'gpu' on lines 6-12 (count 7, accelerator 9, cpu 10, memory 11, local_storage 12),
    `pool2` lines after it, then `network` (the lines under `network:`, from line 14) and `storage` (whole lines)."""
    return CLUSTER.format(nodes=nodes, accel=accel, cpu=cpu, memory=memory, local=local, pool2=pool2, network=network, storage=storage)


def findings(report, rule) -> list[tuple]:
    """(severity, line, column, message, evidence) of each finding of `rule` in a JSON report."""
    return [(f["severity"], f["line"], f["column"], f["message"], f["evidence"]) for f in report["findings"] if f["rule"] == rule]


def skips(report, rule) -> list[str]:
    """Why `rule` did not run, per skip in a JSON report."""
    return [s["reason"] for s in report["skipped"] if s["rule"] == rule]
