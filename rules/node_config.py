"""DLV018-DLV021: how a delivered node is configured, as SemiAnalysis' ClusterMAX audit (cmax) checks
it: NCCL settings forced on every job, profiling closed to users, Slurm without job accounting, PMIx or
a topology plugin on a multi-tier fabric, and adapter names NCCL does not expect.

Each hit points at the quote line the setting belongs to and cites the evidence file and line."""

from __future__ import annotations

import re

from clusterlint.engine.review import check

from clusterlint.rules.common import NO_PARAMS
from clusterlint.rules.delivery import nodes_with, pool_name

# cmax host-check.sh: grep -qE "NCCL_MIN_NCHANNELS|NCCL_PROTO|NCCL_ALGO" /etc/nccl.conf -> overridden
FORCED = ("NCCL_ALGO", "NCCL_PROTO", "NCCL_MIN_NCHANNELS")



def _orchestrator(review):
    return ("spec", "software", "orchestrator") if review.cluster.spec.software.orchestrator else ("metadata", "name")


@check(NO_PARAMS)
def nccl_forced(review, params):
    nodes = nodes_with(review, lambda n: any(k.startswith("nccl ") for k in n.software), "/etc/nccl.conf")
    path = pool_name(review)
    for node in nodes:
        for key in FORCED:
            fact = node.software.get(f"nccl {key}")
            if fact is not None:
                yield review.hit("Cluster", path, f"node {node.host} forces {key}={fact.value} on every job: NCCL's own choice of algorithm, "
                                 "protocol and channels is overridden", evidence=(fact.cite(),))


# cmax audit_findings.py: perf_event_paranoid expected <= 1, kptr_restrict expected 0; RmProfilingAdminOnly 0 for ncu
LIMITS = (("sysctl kernel.perf_event_paranoid", 1, "users cannot count CPU events with perf"),
          ("sysctl kernel.kptr_restrict", 0, "profilers cannot resolve kernel symbols"),
          ("nvidia RmProfilingAdminOnly", 0, "only administrators can read GPU performance counters (Nsight Compute fails with ERR_NVGPUCTRPERM)"))


@check(NO_PARAMS)
def profiling(review, params):
    nodes = nodes_with(review, lambda n: any(key in n.software for key, *_ in LIMITS), "sysctl kernel.perf_event_paranoid or /proc/driver/nvidia/params")
    path = pool_name(review)
    for node in nodes:
        for key, most, effect in LIMITS:
            fact = node.software.get(key)
            if fact is not None and fact.value > most:
                yield review.hit("Cluster", path, f"node {node.host} sets {key.split(' ', 1)[1]} = {fact.value}, above {most}: {effect}",
                                 evidence=(fact.cite(),))


_FLAT = ("topology/none", "topology/flat", "topology/default", "(null)", "")


@check(NO_PARAMS)
def slurm_services(review, params):
    nodes = nodes_with(review, lambda n: "srun mpi plugins" in n.software or any(k.startswith("slurm ") for k in n.software), "scontrol show config or srun --mpi=list")
    path = _orchestrator(review)
    inter = review.cluster.spec.network.inter_node
    tiers = len(inter.tiers) if inter is not None else 0
    for node in nodes:
        accounting = node.software.get("slurm AccountingStorageType")
        if accounting is not None and accounting.value in ("accounting_storage/none", "(null)", ""):
            yield review.hit("Cluster", path, f"node {node.host} runs Slurm with {accounting.value}: sacct has no job accounting",
                             evidence=(accounting.cite(),))
        plugins = node.software.get("srun mpi plugins")
        if plugins is not None and not any(p.startswith("pmix") for p in plugins.value):
            yield review.hit("Cluster", path, f"node {node.host} srun offers no PMIx ({', '.join(plugins.value) or 'no plugin'}): "
                             "MPI jobs cannot be launched with srun --mpi=pmix", evidence=(plugins.cite(),))
        topology = node.software.get("slurm TopologyPlugin")
        if topology is not None and tiers > 1 and topology.value in _FLAT:
            yield review.hit("Cluster", path, f"node {node.host} runs Slurm with TopologyPlugin {topology.value or '(unset)'} on a {tiers}-tier fabric: "
                             "jobs are placed without regard to switches", evidence=(topology.cite(),))


# cmax cluster-audit-slurm.sh: ^mlx5_[0-9]+$, or ^roce_p[0-9]+_rail[0-9]+$ (B300 RoCE rails, which need NCCL_IB_HCA)
_HCA = re.compile(r"^(mlx5_[0-9]+|roce_p[0-9]+_rail[0-9]+)$")


@check(NO_PARAMS)
def hca_names(review, params):
    nodes = nodes_with(review, lambda n: n.nics or n.firmware, "ibstat, ibstatus or ibv_devinfo")
    path = pool_name(review)
    for node in nodes:
        seen = set()
        for fact in [f for f in node.firmware] + list(node.nics):
            name = fact.value.get("device") or fact.value["name"].split("/", 1)[0]
            if name in seen or _HCA.match(name):
                continue
            seen.add(name)
            yield review.hit("Cluster", path, f"node {node.host} adapter {name} is not named mlx5_N: NCCL_IB_HCA has to name it",
                             evidence=(fact.cite(),))
