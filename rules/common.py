"""Figures the checks share, each returned with where it came from (spec, catalog, default)."""

from __future__ import annotations

import math

from pydantic import BaseModel, ConfigDict

from clusterlint import units
from clusterlint.engine import Skip

class Params(BaseModel):
    """Base of every check's parameters: unknown keys are errors, defaults are validated too."""

    model_config = ConfigDict(extra="forbid", validate_default=True, frozen=True)


PRECISION_BYTES = {"fp32": 4, "bf16": 2, "fp16": 2, "fp8": 1, "int8": 1, "int4": 0.5}


def pools(review):
    return list(enumerate(review.cluster.spec.node_pools))


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


def scale_up_domain(review, pool) -> tuple[int, str]:
    """Accelerators in one fast domain: the spec's figure (network or accelerator), else the
    catalog's, capped by the node unless the domain spans nodes (NVL72 racks, TPU slices)."""
    intra = review.cluster.spec.network.intra_node
    if intra is not None and intra.scale_up_domain is not None:
        return intra.scale_up_domain, "spec"
    facts = review.facts(pool)
    if facts.scale_up_domain is None:
        return pool.accelerator.count, "the node's accelerator count"
    if facts.scale_up_spans_nodes or facts.scale_up_domain <= pool.accelerator.count:
        return facts.scale_up_domain, facts.cite("scale_up_domain")
    return pool.accelerator.count, f"the node's accelerator count (the catalog's domain of {facts.scale_up_domain} is capped by the node)"


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


def inter_node_per_accelerator(review, pool) -> tuple[float, str] | None:
    """Advertised inter-node bits/s per accelerator and how it was computed, or None if unstated."""
    inter = review.cluster.spec.network.inter_node
    if inter is None or inter.nic_speed is None or inter.nics_per_node == 0:
        return None
    per = inter.nics_per_node * inter.nic_speed.value / pool.accelerator.count
    how = f"{inter.nics_per_node} x {units.human(inter.nic_speed.value, 'rate')} / {pool.accelerator.count} accelerators"
    return per, how


def checkpoint_size(workload) -> tuple[float, str]:
    """Bytes of one checkpoint: the workload's figure, or params x 14 bytes (bf16 weights 2 +
    fp32 master weights 4 + Adam moments 8) for training with Adam-style optimizers."""
    ckpt = workload.spec.checkpoints
    if ckpt is not None and ckpt.size is not None:
        return ckpt.size.value, "workload"
    params = workload.spec.model.parameters.value
    return params * 14, f"{units.human(params, 'count')} x 14 bytes (weights + fp32 master + Adam moments)"


def ceil(x: float) -> int:
    return math.ceil(x - 1e-9)


def shared_storage(cluster):
    """(index, store) of the working storage every node mounts: not node-local drives, not an archive tier."""
    return [(i, s) for i, s in enumerate(cluster.spec.storage or ()) if s.shared and s.type != "local-nvme" and s.tier != "archive"]


def fmt(value: float) -> str:
    """A number for a message: integers plainly, others to 4 significant figures (1 decimal from 1,000)."""
    if float(value).is_integer() and abs(value) < 1e15:
        return f"{int(value):,}"
    return f"{value:,.4g}" if abs(value) < 1000 else f"{value:,.1f}"
