"""STO007: the checkpoints a run cannot lose are kept on storage that survives a failure; STO008: a large
training dataset has an object store to live in."""

from __future__ import annotations

from clusterlint.engine.review import Skip, check
from clusterlint.model import units

from clusterlint.rules.common import shared_storage


def checkpoint_stores(cluster) -> list:
    """(index, store) of the shared storage that holds checkpoints: named for them, or for nothing in particular."""
    return [(i, s) for i, s in shared_storage(cluster) if not s.purpose or "checkpoints" in s.purpose]


@check("clusterlint.rules.params:Durable")
def unprotected_checkpoints(review, params):
    workload = review.workload.spec
    if workload.checkpoints is None or workload.task == "inference":
        raise Skip("the workload states no checkpoints")
    stores = checkpoint_stores(review.cluster)
    if not stores:
        raise Skip("no shared storage holds checkpoints")
    unknown = [s.name for _, s in stores if s.protection is None]
    if len(unknown) == len(stores):
        raise Skip(f"the quote does not state how {', '.join(map(repr, unknown))} protects its data (durability, snapshots, backup): ask")
    for i, store in stores:
        guard = store.protection
        if guard is None or guard.durability in params.durable or guard.snapshots or guard.backup:
            continue
        kept = guard.durability or "not stated"
        yield review.hit(
            "Cluster", ("spec", "storage", i, "protection"),
            f"checkpoints on {store.name!r} have durability {kept}, no snapshots and no backup: one failed server "
            "can take the run's checkpoints, and the weeks of training behind them, with it",
        )


@check("clusterlint.rules.params:DatasetSizes")
def no_object_storage(review, params):
    workload = review.workload.spec
    if workload.task == "inference":
        return  # serving reads no training dataset: nothing to ask
    size = workload.dataset.size if workload.dataset is not None else None
    if size is None:
        raise Skip("the workload states no dataset size")
    stores = review.cluster.spec.storage
    if stores is None:
        raise Skip("the quote states no storage (SPEC006 asks)")
    if any(s.type == "object" for s in stores) or size.value < params.min_dataset.value:
        return
    bar = params.warn_dataset if size.value >= params.warn_dataset.value else params.min_dataset
    yield review.hit(
        "Cluster", ("spec", "storage"),
        f"the quote states no object store for the workload's {units.human(size.value, 'size')} dataset "
        f"(one is asked for from {units.human(bar.value, 'size')}): the dataset is kept on working storage and uploaded "
        "again to every new cluster; ask for managed S3-compatible object storage",
        severity="warning" if bar is params.warn_dataset else "info",
    )
