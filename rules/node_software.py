"""DLV015-DLV017: the software a delivered node runs: the NVIDIA driver and Container Toolkit against
the security floors of SemiAnalysis' ClusterMAX minimum-version table, Slurm's HealthCheckProgram,
and the NVIDIA GPU operator's pods under Kubernetes."""

from __future__ import annotations

import re

from clusterlint.engine.review import Skip, check

from clusterlint.rules.common import Params
from clusterlint.rules.delivery import _nodes, _pool

# ClusterMAX cmax/scripts/1-audit/minimum-versions.json (SemiAnalysisAI/ClusterMAX, Apache-2.0, commit
# ebc0390080481143b53625542c801fb857def6a8): the floor of each driver branch and the bulletin behind it.
MAY_2026 = "NVIDIA Security Bulletin: GPU Display Driver - May 2026 (a_id 5821, 2026-05-19)"
JANUARY_2026 = "NVIDIA Security Bulletin: GPU Display Driver - January 2026 (a_id 5747, 2026-01-28)"
DRIVER_FLOORS = {"535": ("535.309.01", MAY_2026), "570": ("570.211.01", JANUARY_2026), "580": ("580.159.03", MAY_2026),
                 "590": ("590.48.01", JANUARY_2026), "595": ("595.71.05", MAY_2026)}
TOOLKIT_FLOOR = ("1.19.1", "CVE-2026-24260, NVIDIA Security Bulletin: NVIDIA Container Toolkit - June 2026 (a_id 5850, 2026-06-30)")
TABLE = "ClusterMAX minimum-version table"


def _version(text: str) -> tuple:
    return tuple(int(p) for p in re.findall(r"[0-9]+", text)[:4])


@check(Params)
def versions(review, params):
    i, _ = _pool(review)
    path = ("spec", "node_pools", i, "name")
    for node in _nodes(review):
        if node.driver is not None:
            branch = str(node.driver.value).split(".", 1)[0]
            if branch not in DRIVER_FLOORS:
                yield review.hit("Cluster", path, f"node {node.host} runs driver {node.driver.value}, a branch the {TABLE} does not list "
                                 f"({', '.join(sorted(DRIVER_FLOORS))}): unsupported", evidence=(node.driver.cite(),))
            elif _version(node.driver.value) < _version(DRIVER_FLOORS[branch][0]):
                floor, advisory = DRIVER_FLOORS[branch]
                yield review.hit("Cluster", path, f"node {node.host} runs driver {node.driver.value}, below the {branch} branch's security floor "
                                 f"{floor} ({advisory})", evidence=(node.driver.cite(),))
        toolkit = node.software.get("nvidia-container-toolkit")
        if toolkit is not None and _version(toolkit.value) < _version(TOOLKIT_FLOOR[0]):
            yield review.hit("Cluster", path, f"node {node.host} runs NVIDIA Container Toolkit {toolkit.value}, below the security floor "
                             f"{TOOLKIT_FLOOR[0]} ({TOOLKIT_FLOOR[1]})", evidence=(toolkit.cite(),))


@check(Params)
def slurm_health(review, params):
    configs = [(n, n.software) for n in _nodes(review) if any(k.startswith("slurm ") for k in n.software)]
    if not configs:
        raise Skip("no scontrol show config among the evidence files")
    path = ("spec", "software", "orchestrator") if review.cluster.spec.software else ("metadata", "name")
    for node, software in configs:
        program = software.get("slurm HealthCheckProgram")
        if program is None or program.value in ("", "(null)"):
            cite = (program or next(v for k, v in software.items() if k.startswith("slurm "))).cite()
            yield review.hit("Cluster", path, f"node {node.host} runs Slurm without a HealthCheckProgram: a failing node keeps taking jobs",
                             evidence=(cite,))


_OPERATOR = re.compile(r"^(nvidia-|gpu-operator|gpu-feature-discovery|node-feature-discovery)")


@check(Params)
def gpu_operator(review, params):
    listings = [(n, n.software["kubernetes pods"]) for n in _nodes(review) if "kubernetes pods" in n.software]
    if not listings:
        raise Skip("no kubectl get pods among the evidence files")
    path = ("spec", "software", "orchestrator") if review.cluster.spec.software else ("metadata", "name")
    for node, listing in listings:
        pods = [p for p in listing.value if _OPERATOR.match(p.value["name"]) or "gpu-operator" in p.value["name"]]
        if not pods:
            yield review.hit("Cluster", path, f"{node.host}: kubectl lists no NVIDIA GPU operator pod", evidence=(listing.cite(),))
        for pod in pods:
            ready, _, want = pod.value["ready"].partition("/")
            if pod.value["status"] not in ("Running", "Completed") or (pod.value["status"] == "Running" and ready != want):
                yield review.hit("Cluster", path, f"GPU operator pod {pod.value['name']} is {pod.value['status']} ({pod.value['ready']} ready)",
                                 evidence=(pod.cite(),))
