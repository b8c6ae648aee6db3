"""STO: a parallel shared filesystem with room and speed for the data and the checkpoints."""

from __future__ import annotations

from pydantic import Field

from clusterlint import sizing, units
from clusterlint.engine import Skip, check

from .common import Params, checkpoint_size, fmt, shared_storage, total_nodes

WORKING_DATA = ("datasets", "checkpoints", "code")


class NonParallel(Params):
    types: list[str] = Field(["nfs", "smb", "efs", "filestore", "cephfs"], description="Storage types that are not parallel filesystems.")


@check(NonParallel)
def non_parallel_shared_filesystem(review, params):
    if total_nodes(review.cluster) <= 1:
        return
    for i, store in shared_storage(review.cluster):
        holds = [p for p in store.purpose if p in WORKING_DATA] if store.purpose else list(WORKING_DATA)
        if store.type in params.types and holds:
            yield review.hit(
                "Cluster", ("spec", "storage", i, "type"),
                f"shared storage {store.name!r} is {store.type}, not a parallel filesystem, and holds {', '.join(holds)}: "
                f"{total_nodes(review.cluster)} nodes reading and writing through it will stall training",
            )


class Headroom(Params):
    min_ratio: float = Field(1.25, ge=1, description="Capacity needed as a multiple of the data it must hold.")


def required_storage(workload) -> tuple[float, str]:
    spec = workload.spec
    parts, total = [], 0.0
    if spec.dataset is not None and spec.dataset.size is not None:
        total += spec.dataset.size.value
        parts.append(f"{units.human(spec.dataset.size.value, 'size')} dataset")
    if spec.checkpoints is not None:
        size, _ = checkpoint_size(workload)
        total += size * spec.checkpoints.keep
        parts.append(f"{spec.checkpoints.keep} x {units.human(size, 'size')} checkpoints")
    if not parts:
        raise Skip("the workload states no dataset size and no checkpoints")
    return total, " + ".join(parts)


@check(Headroom)
def insufficient_storage_headroom(review, params):
    stores = shared_storage(review.cluster)
    if not stores:
        raise Skip("the cluster has no shared storage (see STO004)")
    need, how = required_storage(review.workload)
    capacity = sum(s.capacity.value for _, s in stores)
    if capacity < params.min_ratio * need:
        at = ("spec", "storage", stores[0][0], "capacity") if len(stores) == 1 else ("spec", "storage")
        evidence = ()
        if review.workload.spec.checkpoints is not None:
            evidence = (f"checkpoint size: {checkpoint_size(review.workload)[1]}",)
        yield review.hit(
            "Cluster", at,
            f"shared storage holds {units.human(capacity, 'size')} but needs {params.min_ratio:g} x ({how}) = "
            f"{units.human(params.min_ratio * need, 'size')}",
            evidence=evidence,
        )


class CheckpointStall(Params):
    warn_above: float = Field(0.01, gt=0, lt=1, description="Share of training time spent writing checkpoints above which it is a warning.")
    error_above: float = Field(0.05, gt=0, lt=1, description="Share above which it is an error.")


@check(CheckpointStall)
def slow_checkpoint_writes(review, params):
    stall = sizing.checkpoint_stall(review)
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


@check(Params)
def no_shared_filesystem(review, params):
    if total_nodes(review.cluster) > 1 and not [s for _, s in shared_storage(review.cluster) if s.type != "object"]:
        stated = "storage" in review.cluster.spec.model_fields_set
        yield review.hit(
            "Cluster", ("spec", "storage") if stated else ("spec",),
            f"{total_nodes(review.cluster)} nodes and no shared filesystem: code, data and checkpoints must be copied to every node",
        )


@check(Params)
def dataloader_bandwidth_shortfall(review, params):
    spec = review.workload.spec
    if spec.task == "inference":
        return
    if spec.dataset is None or spec.dataset.size is None or spec.tokens is None:
        raise Skip("the workload states no dataset size and tokens to derive the bytes read per token")
    stores = [(i, s) for i, s in shared_storage(review.cluster) if (not s.purpose or "datasets" in s.purpose) and s.read_bandwidth]
    if not stores:
        raise Skip("no dataset storage states a read_bandwidth")
    speed = sizing.throughput(review)
    tokens_per_s = speed.flops / (6 * spec.model.parameters.value)
    bytes_per_token = spec.dataset.size.value / spec.tokens.value
    need = tokens_per_s * bytes_per_token
    have = sum(s.read_bandwidth.value for _, s in stores) / 8
    if have < need:
        yield review.hit(
            "Cluster", ("spec", "storage", stores[0][0], "read_bandwidth"),
            f"training consumes {fmt(tokens_per_s)} tokens/s x {bytes_per_token:.3g} bytes/token = "
            f"{units.human(need * 8, 'byte_rate')}, more than the {units.human(have * 8, 'byte_rate')} the dataset storage reads",
            evidence=speed.evidence,
        )


@check(Params)
def no_local_nvme(review, params):
    for i, pool in enumerate(review.cluster.spec.node_pools):
        if not any(d.type == "nvme" for d in pool.local_storage):
            at = ("spec", "node_pools", i, "local_storage") if pool.local_storage else ("spec", "node_pools", i)
            yield review.hit(
                "Cluster", at,
                f"pool {pool.name!r} has no local NVMe: no fast scratch for checkpoints staged before upload, or for dataset caches",
            )
