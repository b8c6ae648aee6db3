"""Figures the checks share, each returned with where it came from (spec, catalog, default)."""

from __future__ import annotations

from clusterlint.estimate import storage
from clusterlint.engine.review import PartSkip, Skip
from clusterlint.estimate.sizing import PRECISION_BYTES, ceil, fmt  # noqa: F401  (the sizing model's, re-exported for the checks)
from clusterlint.estimate.storage import shared_storage  # noqa: F401
from clusterlint.estimate.traffic import inter_node_per_accelerator, scale_up_domain  # noqa: F401


NO_PARAMS = "clusterlint.rules.params:Params"  # a check without parameters: any param given is an error


def pools(review):
    return list(enumerate(review.cluster.spec.node_pools))


def judged_pools(review, figure, chosen=None):
    """(index, pool, figure(review, pool)) for each pool (or each of `chosen`, (index, pool) pairs) the
    figure can be had for, and a PartSkip naming each other pool and why (an accelerator the catalog
    does not know): a rule judges the pools it can and says which it could not."""
    for i, pool in pools(review) if chosen is None else chosen:
        try:
            yield i, pool, figure(review, pool)
        except Skip as exc:
            yield PartSkip(f"pool {pool.name!r}: {exc}")


def catalog_facts(review, pool):
    return review.facts(pool)


def total_nodes(cluster) -> int:
    return sum(p.count for p in cluster.spec.node_pools)


def total_accelerators(cluster) -> int:
    return sum(p.count * p.accelerator.count for p in cluster.spec.node_pools)


def is_training(review) -> bool:
    """Training unless a workload says it is inference (a cluster quote alone is reviewed for training)."""
    return review.workload is None or review.workload.spec.task != "inference"


def memory(review, pool) -> tuple[float, str]:
    """Bytes of memory per accelerator and the source of the figure."""
    if pool.accelerator.memory is not None:
        return pool.accelerator.memory.value, "spec"
    facts = review.facts(pool)
    if facts.memory is None:
        raise Skip(f"the memory of {facts.id} is not stated (give the pool's accelerator `memory`)")
    return facts.memory.value, facts.cite("memory")


def intra_fabric(review, pool) -> tuple[str, str]:
    intra = review.cluster.spec.network.intra_node
    if intra is not None:
        return intra.fabric, "spec"
    facts = review.facts(pool)
    if facts.fabric is None:
        raise Skip(f"the fabric between {facts.id} accelerators is not stated (give network.intra_node.fabric)")
    return facts.fabric, facts.cite("intra_node")


def dense_tflops(review, pool, dtype: str) -> tuple[float, str]:
    facts = review.facts(pool)
    value = facts.tflops.get(dtype)
    if not value:
        raise Skip(f"neither the catalog nor the spec gives dense {dtype} TFLOPS for {facts.id}")
    return value, facts.cite("compute", dtype)


def checkpoint_size(workload) -> tuple[float, str]:
    """Bytes of one checkpoint and their source (the sizing model's figure)."""
    size = storage.checkpoint_size(workload)
    return size.value, size.source

