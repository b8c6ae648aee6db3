"""DLV015-DLV017: the software a delivered node runs: the NVIDIA driver, Container Toolkit, Docker
Engine, runc, CUDA Toolkit, DCGM and ConnectX firmware against the security floors of SemiAnalysis'
ClusterMAX minimum-version table, Slurm's HealthCheckProgram,
and the NVIDIA GPU operator's pods under Kubernetes."""

from __future__ import annotations

import re

from clusterlint.engine.review import Skip, check

from clusterlint.rules.common import NO_PARAMS
from clusterlint.rules.delivery import _nodes, _pool

# ClusterMAX cmax/scripts/1-audit/minimum-versions.json (SemiAnalysisAI/ClusterMAX, Apache-2.0, commit
# ebc0390080481143b53625542c801fb857def6a8): the floor of each driver branch and the bulletin behind it.
MAY_2026 = "NVIDIA Security Bulletin: GPU Display Driver - May 2026 (a_id 5821, 2026-05-19)"
JANUARY_2026 = "NVIDIA Security Bulletin: GPU Display Driver - January 2026 (a_id 5747, 2026-01-28)"
DRIVER_FLOORS = {"535": ("535.309.01", MAY_2026), "570": ("570.211.01", JANUARY_2026), "580": ("580.159.03", MAY_2026),
                 "590": ("590.48.01", JANUARY_2026), "595": ("595.71.05", MAY_2026)}
# component -> (name in messages, floor, advisory): a single minimum each (same table and commit)
FLOORS = {
    "nvidia-container-toolkit": ("NVIDIA Container Toolkit", "1.19.1",
                                 "CVE-2026-24260, NVIDIA Security Bulletin: NVIDIA Container Toolkit - June 2026 (a_id 5850, 2026-06-30)"),
    "docker": ("Docker Engine", "29.7.0", "CVE-2026-17106, Docker Engine 29 release notes"),
    "cuda": ("CUDA Toolkit", "13.1", "CVE-2025-33228 to CVE-2025-33231, NVIDIA Security Bulletin: CUDA Toolkit - January 2026 (a_id 5755)"),
    "dcgm": ("DCGM", "4.5.3", "CVE-2026-47483, NVIDIA Security Bulletin: NVIDIA DCGM Exporter - July 2026 (a_id 5857, 2026-07-28)"),
}
# runc: one fixed release per major.minor branch and the advisory that set it (the table's ladder and floorSources)
RUNC_LADDER = {(0, 1): ("0.1.0", "GHSA-q3j5-32m5-58c2"), (1, 0): ("1.0.3", "GHSA-v95c-p5hm-xq8f"), (1, 1): ("1.1.14", "GHSA-jfvp-7x6p-h2pv"),
               (1, 2): ("1.2.8", "GHSA-9493-h29p-rfm2"), (1, 3): ("1.3.6", "GHSA-xjvp-4fhw-gc47"), (1, 4): ("1.4.3", "GHSA-xjvp-4fhw-gc47"),
               (1, 5): ("1.5.0-rc.3", "GHSA-xjvp-4fhw-gc47")}
# ConnectX / BlueField firmware: fw_ver is family.train.patch (28.39.2048: family 28, train 39); the table gives the
# fixed patch of each train. cmax's own comparison (security_version_audit.py connectx_firmware_verdict, commit
# 462de57b3beb1daf0bf1002eeff31cf2be64a9e0) reads `_, train, patch` and passes a train above every listed one.
FIRMWARE_TRAINS = {28: 4702, 32: 1908, 35: 8002, 39: 8002, 43: 8002, 46: 3008}
FIRMWARE_ADVISORY = "NVIDIA Security Bulletin: NVIDIA Networking BlueField and ConnectX - June 2026 (a_id 5699, 2026-06-30)"
TABLE = "ClusterMAX minimum-version table"


def _version(text: str) -> tuple:
    return tuple(int(p) for p in re.findall(r"[0-9]+", re.split(r"[-+~]", text, maxsplit=1)[0])[:4])


def _rc(text: str):
    match = re.search(r"(?:^|[-.~+])rc[.-]?([0-9]+)", text, re.I)
    return int(match.group(1)) if match else None


def _runc(version: str):
    """(floor, advisory, branch) when `version` is below its branch's fixed release (cmax's ladder rule), else None."""
    seen = (_version(version) + (0, 0, 0))[:3]
    branch = seen[:2]
    if branch > max(RUNC_LADDER):
        return None
    if branch not in RUNC_LADDER:
        branch = min(b for b in RUNC_LADDER if b > branch)
        return (*RUNC_LADDER[branch], branch)
    floor, advisory = RUNC_LADDER[branch]
    low = (_version(floor) + (0, 0, 0))[:3]
    if seen != low:
        passed = seen > low
    else:
        passed = _rc(version) is None or (_rc(floor) is not None and _rc(version) >= _rc(floor))
    return None if passed else (floor, advisory, branch)


def _firmware(node, path, review):
    seen = set()
    for fact in node.firmware:
        device, version = fact.value["device"], fact.value["version"]
        parts = _version(version)
        if len(parts) < 3 or (device, version) in seen:
            continue
        seen.add((device, version))
        train, patch = parts[1], parts[2]
        if train in FIRMWARE_TRAINS and patch < FIRMWARE_TRAINS[train]:
            yield review.hit("Cluster", path, f"node {node.host} adapter {device} runs firmware {version}, below its train {train}'s security floor "
                             f"{train}.{FIRMWARE_TRAINS[train]} ({FIRMWARE_ADVISORY})", evidence=(fact.cite(),))
        elif train not in FIRMWARE_TRAINS and train < max(FIRMWARE_TRAINS):
            yield review.hit("Cluster", path, f"node {node.host} adapter {device} runs firmware {version}, a train ({train}) the {TABLE} does not list "
                             f"({', '.join(map(str, sorted(FIRMWARE_TRAINS)))}): unsupported", evidence=(fact.cite(),))


@check(NO_PARAMS)
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
        for key, (name, floor, advisory) in FLOORS.items():
            fact = node.software.get(key)
            if fact is not None and _version(fact.value) < _version(floor):
                yield review.hit("Cluster", path, f"node {node.host} runs {name} {fact.value}, below the security floor {floor} ({advisory})",
                                 evidence=(fact.cite(),))
        runc = node.software.get("runc")
        below = _runc(runc.value) if runc is not None else None
        if below:
            floor, advisory, (major, minor) = below
            yield review.hit("Cluster", path, f"node {node.host} runs runc {runc.value}, below the {major}.{minor} branch's security floor {floor} "
                             f"({advisory})", evidence=(runc.cite(),))
        yield from _firmware(node, path, review)


@check(NO_PARAMS)
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


@check(NO_PARAMS)
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
