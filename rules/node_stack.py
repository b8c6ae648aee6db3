"""DLV025-DLV026: the container and user-space stack the quote promises (software.containers,
software.tools) against what `clusterlint collect` found on each node, as SemiAnalysis' ClusterMAX
audit (cmax) checks it: Docker on workers, Singularity/Apptainer, Enroot, Pyxis, Nsight Compute, the
HPC SDK, Lmod and DCGM installed (docker-workers, singularity, enroot, pyxis, ncu-profiling, hpc-sdk,
lmod, dcgm-healthchecks), and DCGM wired into Slurm's HealthCheckProgram.

Presence is read from the collect manifest (clusterlint's own record of every tool it tried), or from
a real version output a reader knows (`docker version`, `dcgmi -v`). A promised tool that the manifest
says is not installed, failed or timed out blocks acceptance; one with neither is not evidenced."""

from __future__ import annotations

from clusterlint.engine.review import Skip, check

from clusterlint.rules.common import NO_PARAMS
from clusterlint.rules.delivery import _nodes, _not_evidenced

# quoted name -> (manifest name, the command collect tries, the version output that also shows it: node.software key, command)
PROBES = {
    "docker": ("docker", "docker --version", ("docker", "docker version")),
    "podman": ("podman", "podman --version", None),
    "apptainer": ("apptainer", "apptainer --version", None),
    "singularity": ("singularity", "singularity --version", None),
    "enroot": ("enroot", "enroot version", None),
    "pyxis": ("pyxis", "srun --help", None),
    "lmod": ("lmod", "$LMOD_CMD", None),
    "hpc-sdk": ("hpc-sdk", "/opt/nvidia/hpc_sdk", None),
    "nsight-compute": ("ncu", "ncu --version", None),
    "dcgm": ("dcgmi", "dcgmi -v", ("dcgm", "dcgmi -v")),
}
_STATE = {"not-installed": "is not installed (collect tried {command})", "failed": "did not answer ({command} failed)",
          "timed-out": "did not answer ({command} timed out)", "not-readable": "is not readable ({command})"}


def _promised(review):
    software = review.cluster.spec.software
    found = [(("spec", "software", key, i), name) for key in ("containers", "tools") for i, name in enumerate(getattr(software, key) or ())]
    if not found:
        raise Skip("the quote promises no container runtime or tool (software.containers, software.tools)")
    return found


@check(NO_PARAMS)
def stack_missing(review, params):
    promised = _promised(review)
    nodes = {n.host: n.software for n in _nodes(review)}
    hosts = sorted(set(nodes) | set(review.evidence.folders))  # a node folder whose files could not be read evidences nothing
    if not hosts:
        raise Skip("no node evidence")
    for host in hosts:
        software = nodes.get(host, {})
        manifest = software.get("collect manifest")
        for path, name in promised:
            key, command, shown = PROBES[name]
            tries = manifest.value.get(key, []) if manifest is not None else []
            if any(t.value == "found" for t in tries):
                continue
            if tries:
                first = tries[0]
                state = _STATE[first.value].format(command=first.text.split(" ", 3)[3])
                yield review.hit("Cluster", path, f"node {host}: the quoted {name} {state}", evidence=(first.cite(),))
            elif shown is None or shown[0] not in software:
                also = f" or {shown[1]} output" if shown else ""
                yield _not_evidenced(review, path, f"the quoted {name} on node {host}", f"collect manifest line for {key} ({command}){also}")


def _copies(node) -> list:
    return [fact for key, fact in sorted(node.software.items()) if key.startswith("healthcheck copy ")]


@check(NO_PARAMS)
def dcgm_health_check(review, params):
    tools = review.cluster.spec.software.tools or []
    if "dcgm" not in tools:
        raise Skip("the quote does not promise DCGM (software.tools)")
    nodes = [n for n in _nodes(review) if _copies(n) and "slurm HealthCheckProgram" in n.software]
    if not nodes:
        raise Skip("no scontrol show config with a copy of its HealthCheckProgram among the evidence files (clusterlint collect copies it)")
    for node in nodes:
        copies = _copies(node)
        if any(c.value["dcgm"] for c in copies):
            continue
        program = node.software["slurm HealthCheckProgram"]
        paths = ", ".join(c.value["path"] for c in copies)
        yield review.hit("Cluster", ("spec", "software", "tools", tools.index("dcgm")),
                         f"node {node.host}: the HealthCheckProgram {program.value} runs no DCGM check ({paths} names no dcgmi, dcgm or "
                         "nv-hostengine): a GPU that fails DCGM's health watches is not drained", evidence=(program.cite(), *(c.cite() for c in copies)))
