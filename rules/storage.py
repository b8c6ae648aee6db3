"""STO: a parallel shared filesystem with room and speed for the data and the checkpoints."""

from __future__ import annotations

from clusterlint.estimate import sizing, storage
from clusterlint.model import units
from clusterlint.engine.review import Skip, check

from clusterlint.rules.common import NO_PARAMS, checkpoint_size, fmt, shared_storage, total_nodes

WORKING_DATA = ("datasets", "checkpoints", "code")


def is_parallel(store, params) -> bool | None:
    """Whether a store stripes I/O across servers: the spec's `parallel`, else its type's default; None when unknown."""
    if store.parallel is not None:
        return store.parallel
    if store.type == "distributed-fs":
        return None
    return store.type not in params.types


@check("clusterlint.rules.params:NonParallel")
def non_parallel_shared_filesystem(review, params):
    if total_nodes(review.cluster) <= 1:
        return
    for i, store in shared_storage(review.cluster):
        holds = [p for p in store.purpose if p in WORKING_DATA] if store.purpose else list(WORKING_DATA)
        if store.type == "object" or not holds or is_parallel(store, params) is not False:
            continue  # object stores scale out; an unknown distributed-fs is asked about by SPEC006
        said = "parallel: false" if store.parallel is False else store.type
        yield review.hit(
            "Cluster", ("spec", "storage", i, "parallel" if store.parallel is False else "type"),
            f"shared storage {store.name!r} is {said}, not a parallel filesystem, and holds {', '.join(holds)}: "
            f"{total_nodes(review.cluster)} nodes reading and writing through it will stall training",
        )


@check("clusterlint.rules.params:Headroom")
def insufficient_storage_headroom(review, params):
    spec = review.workload.spec
    fit = storage.storage_fit(review)
    need, how, wanted, usable, capacity = fit.need, fit.how, fit.wanted, fit.stores, fit.capacity
    if capacity >= params.min_ratio * need:
        return
    if fit.unknown:
        raise Skip(f"storage {', '.join(map(repr, fit.unknown))} states no capacity or quota_per_project")
    i, _, (_, field) = usable[0]
    evidence = tuple(
        f"{s.name!r}: {units.human(u[0], 'size')} ({u[1].replace('_', ' ')}; holds {', '.join(s.purpose) if s.purpose else 'anything, purpose not stated'})"
        for _, s, u in usable
    )
    if spec.checkpoints is not None:
        evidence += (f"checkpoint size: {checkpoint_size(review.workload)[1]}",)
    yield review.hit(
        "Cluster", ("spec", "storage", i, field) if len(usable) == 1 else ("spec", "storage"),
        f"shared storage for {' and '.join(wanted)} holds {units.human(capacity, 'size')} but needs {params.min_ratio:g} x ({how}) = "
        f"{units.human(params.min_ratio * need, 'size')}",
        evidence=evidence,
    )


@check("clusterlint.rules.params:CheckpointStall")
def slow_checkpoint_writes(review, params):
    stall = storage.checkpoint_stall(review)
    share = stall.share
    if share > params.warn_above:
        severity = "error" if share > params.error_above else "warning"
        yield review.hit(
            "Cluster", stall.at,
            f"writing a {units.human(stall.size.value, 'size')} checkpoint at {units.human(stall.bandwidth * 8, 'byte_rate')} takes "
            f"{units.human(stall.seconds, 'duration')} every {units.human(stall.interval, 'duration')}: "
            f"{share:.1%} of training time idle (limit {(params.error_above if severity == 'error' else params.warn_above):.0%})",
            severity=severity,
            evidence=(f"checkpoint size: {stall.size.source}",),
        )


def is_filesystem(store) -> bool:
    """A store every node can open files on: not a bare object store (one with a POSIX mount counts)."""
    return store.type != "object" or store.posix_mount is True


@check(NO_PARAMS)
def no_shared_filesystem(review, params):
    if total_nodes(review.cluster) <= 1:
        return  # one node: nothing to share, so nothing to ask
    if review.cluster.spec.storage is None:
        raise Skip("the quote does not state its storage (see SPEC006)")
    if not [s for _, s in shared_storage(review.cluster) if is_filesystem(s)]:
        yield review.hit(
            "Cluster", ("spec", "storage"),
            f"{total_nodes(review.cluster)} nodes and no shared filesystem: code, data and checkpoints must be copied to every node",
        )


@check(NO_PARAMS)
def dataloader_bandwidth_shortfall(review, params):
    spec = review.workload.spec
    if spec.task == "inference":
        return
    read = storage.dataloader_read(review)
    if read.have < read.need:
        yield review.hit(
            "Cluster", read.at,
            f"training consumes {fmt(read.tokens_per_s)} tokens/s x {fmt(read.bytes_per_token)} bytes/token = "
            f"{units.human(read.need * 8, 'byte_rate')}, more than the {units.human(read.have * 8, 'byte_rate')} the dataset storage reads",
            evidence=sizing.throughput(review).evidence,
        )


@check(NO_PARAMS)
def no_local_nvme(review, params):
    cluster = review.cluster
    if any(s.type == "local-nvme" for s in cluster.spec.storage or ()):
        return  # the quote lists node-local NVMe among its storage
    unstated = [p.name for p in cluster.spec.node_pools if p.local_storage is None]
    if len(unstated) == len(cluster.spec.node_pools):
        raise Skip("the quote does not state the nodes' local drives (see SPEC006)")
    for i, pool in enumerate(cluster.spec.node_pools):
        if pool.local_storage is not None and not any(d.type == "nvme" for d in pool.local_storage):
            yield review.hit(
                "Cluster", ("spec", "node_pools", i, "local_storage"),
                f"pool {pool.name!r} has no local NVMe: no fast scratch for checkpoints staged before upload, or for dataset caches",
            )
