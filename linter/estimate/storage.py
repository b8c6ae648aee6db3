"""Storage in the sizing model of record: what the shared stores must hold (STO002's fit and `compare`'s
headroom), and the stalls they add to the training time: writing checkpoints (STO003) and reading the
dataset slower than training consumes it (STO005). `sizing.estimate` adds both stalls to the time."""

from __future__ import annotations

from typing import NamedTuple

from clusterlint.engine.review import Skip
from clusterlint.estimate.sizing import Sourced, fmt, throughput
from clusterlint.model import units


def shared_storage(cluster) -> list:
    """(index, store) of the working storage every node mounts: not node-local drives, not an archive tier."""
    return [(i, s) for i, s in enumerate(cluster.spec.storage or ()) if s.shared and s.type != "local-nvme" and s.tier != "archive"]


def checkpoint_size(workload) -> Sourced:
    """Bytes of one checkpoint: the workload's figure, or params x 14 bytes (bf16 weights 2 + fp32
    master weights 4 + Adam moments 8) for training with Adam-style optimizers."""
    ckpt = workload.spec.checkpoints
    if ckpt is not None and ckpt.size is not None:
        return Sourced(ckpt.size.value, "workload")
    params = workload.spec.model.parameters.value
    return Sourced(params * 14, f"{units.human(params, 'count')} x 14 bytes (weights + fp32 master + Adam moments)")


def required_storage(workload) -> tuple[float, str]:
    """Bytes the shared storage must hold for the workload (dataset + kept checkpoints) and how."""
    spec = workload.spec
    parts, total = [], 0.0
    if spec.dataset is not None and spec.dataset.size is not None:
        total += spec.dataset.size.value
        parts.append(f"{units.human(spec.dataset.size.value, 'size')} dataset")
    if spec.checkpoints is not None:
        size = checkpoint_size(workload).value
        total += size * spec.checkpoints.keep
        parts.append(f"{spec.checkpoints.keep} x {units.human(size, 'size')} checkpoints")
    if not parts:
        raise Skip("the workload states no dataset size and no checkpoints")
    return total, " + ".join(parts)


def usable_capacity(store) -> tuple[float, str] | None:
    """Bytes a project may fill and the field it comes from: the capacity, capped by a per-project quota."""
    figures = [(f.value, name) for name, f in (("capacity", store.capacity), ("quota_per_project", store.quota_per_project)) if f is not None]
    return min(figures) if figures else None


class StorageFit(NamedTuple):
    """The shared storage that holds the workload's data, against what it must hold."""

    need: float  # bytes of dataset + kept checkpoints
    how: str
    wanted: tuple  # the purposes the workload needs: datasets, checkpoints
    stores: tuple  # (index, store, usable_capacity(store) or None) of the stores that may hold them

    @property
    def capacity(self) -> float:
        return sum(u[0] for _, _, u in self.stores if u is not None)

    @property
    def unknown(self) -> list:
        return [s.name for _, s, u in self.stores if u is None]

    @property
    def headroom(self) -> float | None:
        """Capacity over need; None when a store that may hold the data states no size."""
        return None if self.unknown else self.capacity / self.need


def storage_fit(review) -> StorageFit:
    """Skip when the workload states no data or no shared store may hold it."""
    spec = review.workload.spec
    need, how = required_storage(review.workload)
    wanted = tuple(p for p, part in (("datasets", spec.dataset and spec.dataset.size), ("checkpoints", spec.checkpoints)) if part is not None)
    stores = [(i, s) for i, s in shared_storage(review.cluster) if not s.purpose or set(s.purpose) & set(wanted)]
    if not stores:
        raise Skip(f"the cluster has no shared storage for {' or '.join(wanted)} (see STO004)")
    return StorageFit(need, how, wanted, tuple((i, s, usable_capacity(s)) for i, s in stores))


class CheckpointStall(NamedTuple):
    """Seconds training idles writing one checkpoint, and the share of time that costs."""

    size: Sourced  # bytes
    bandwidth: float  # bytes/s of the checkpoint stores' stated write bandwidth
    interval: float  # s
    at: tuple  # the spec path of the first store counted

    @property
    def seconds(self) -> float:
        return self.size.value / self.bandwidth

    @property
    def share(self) -> float:
        return self.seconds / self.interval


def checkpoint_stall(review) -> CheckpointStall:
    """Skip when the workload states no checkpoints or no checkpoint store states a write bandwidth."""
    ckpt = review.workload.spec.checkpoints
    if ckpt is None or review.workload.spec.task == "inference":
        raise Skip("the workload states no checkpoints")
    stores = [(i, s) for i, s in shared_storage(review.cluster) if not s.purpose or "checkpoints" in s.purpose]
    written = [(i, s) for i, s in stores if s.write_bandwidth is not None]
    if not written:
        raise Skip("no checkpoint storage states a write_bandwidth")
    bandwidth = sum(s.write_bandwidth.value for _, s in written) / 8
    return CheckpointStall(checkpoint_size(review.workload), bandwidth, ckpt.interval.value, ("spec", "storage", written[0][0], "write_bandwidth"))


class DataloaderRead(NamedTuple):
    """The dataset's read rate the training consumes (throughput in tokens/s x bytes per token on disk)
    against what its stores read; a shortfall stretches each step by need / have."""

    tokens_per_s: float
    bytes_per_token: float
    have: float  # bytes/s the dataset stores read
    at: tuple  # the spec path of the first store counted

    @property
    def need(self) -> float:
        return self.tokens_per_s * self.bytes_per_token

    @property
    def share(self) -> float:
        """The time the accelerators wait on the dataset over their compute time (0 when the stores keep up)."""
        return max(0.0, self.need / self.have - 1)

    @property
    def formula(self) -> str:
        return (f"{units.human(self.need * 8, 'byte_rate')} needed / {units.human(self.have * 8, 'byte_rate')} read - 1 "
                f"({fmt(self.tokens_per_s)} tokens/s x {fmt(self.bytes_per_token)} bytes/token)")


def dataloader_read(review, speed=None) -> DataloaderRead:
    """STO005's figures on the throughput `speed` (a sizing.Throughput; the workload's when None); Skip when
    the workload states no dataset size and tokens or no dataset store states a read bandwidth."""
    spec = review.workload.spec
    if spec.dataset is None or spec.dataset.size is None or spec.tokens is None:
        raise Skip("the workload states no dataset size and tokens to derive the bytes read per token")
    stores = [(i, s) for i, s in shared_storage(review.cluster) if (not s.purpose or "datasets" in s.purpose) and s.read_bandwidth]
    if not stores:
        raise Skip("no dataset storage states a read_bandwidth")
    tokens_per_s = (speed or throughput(review)).flops / (6 * spec.model.parameters.value)
    have = sum(s.read_bandwidth.value for _, s in stores) / 8
    return DataloaderRead(tokens_per_s, spec.dataset.size.value / spec.tokens.value, have, ("spec", "storage", stores[0][0], "read_bandwidth"))
