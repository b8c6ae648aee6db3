"""CPU: enough cores to feed the dataloaders, enough host memory to stage the model."""

from __future__ import annotations

from clusterlint.model import units
from clusterlint.engine.review import PartSkip, check

from clusterlint.rules.common import NO_PARAMS, fmt, memory


def _cores_path(i, cpu):
    return ("spec", "node_pools", i, "cpu", "cores_per_socket" if cpu.cores_per_socket else "vcpus")


@check("clusterlint.rules.params:Cores")
def too_few_cpu_cores(review, params):
    loader = review.workload.spec.dataloader if review.workload is not None else None
    for i, pool in enumerate(review.cluster.spec.node_pools):
        cpu = pool.cpu
        if cpu is None:
            yield PartSkip(f"pool {pool.name!r}: the cluster states no CPU for its nodes")
            continue
        cores = cpu.physical_cores
        n = pool.accelerator.count
        have = f"{cpu.sockets} x {cpu.cores_per_socket} = {fmt(cores)} physical cores" if cpu.cores_per_socket else f"{cpu.vcpus} vCPUs = {fmt(cores)} physical cores"
        if loader is not None:
            workers, severity, origin = loader.workers_per_accelerator, "error", "workload"
            need = n * (workers + 1)
        else:
            workers, severity = params.default_workers_error, "error"
            origin = "default, no workload" if review.workload is None else "default, the workload states no dataloader"
            need = n * (workers + 1)
            if cores >= need:
                workers, severity = params.default_workers_warning, "warning"
                need = n * (workers + 1)
        if cores < need:
            yield review.hit(
                "Cluster", _cores_path(i, cpu),
                f"{have} per node in pool {pool.name!r} cannot feed {n} accelerators: {n} x ({workers} dataloader workers + 1) = {need} cores needed ({origin})",
                severity=severity,
            )


@check(NO_PARAMS)
def low_host_memory(review, params):
    for i, pool in enumerate(review.cluster.spec.node_pools):
        if pool.memory is None:
            yield PartSkip(f"pool {pool.name!r}: the cluster states no host memory for its nodes")
            continue
        per, source = memory(review, pool)
        device = per * pool.accelerator.count
        if pool.memory.value < device:
            yield review.hit(
                "Cluster", ("spec", "node_pools", i, "memory"),
                f"host memory {units.human(pool.memory.value, 'size')} per node is less than the {units.human(device, 'size')} of accelerator memory it hosts "
                f"({pool.accelerator.count} x {units.human(per, 'size')}): loading and checkpointing the model will swap or fail",
                evidence=(f"{units.human(per, 'size')} per accelerator: {source}",),
            )
