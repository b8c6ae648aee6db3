"""The inter-node traffic model NET003 judges a pool by: the dense TFLOPS an accelerator trains at (with
the nearest published precision when its own is not), and the gradient all-reduce a data-parallel job
sends across scale-up domains per step. Step times come from the sizing model (`sizing.Throughput`)."""

from __future__ import annotations

from typing import NamedTuple

from clusterlint.engine.review import Skip
from clusterlint.estimate.sizing import Sourced, assumptions, ceil
from clusterlint.model import units


# the precision a part trains at when it publishes no figure for the one asked: the nearest published one
# (V100 has fp16 tensor cores and no bf16; an A100 asked for fp8 trains in bf16)
NEAREST_COLUMN = {"bf16": ("fp16",), "fp16": ("bf16",), "fp8": ("bf16", "fp16")}


class Peak(NamedTuple):
    """Dense TFLOPS an accelerator trains at: the column used, the figure, and the assumption when it
    is not the column asked for."""

    column: str
    value: Sourced
    assumption: str | None


def training_peak(facts, column: str) -> Peak:
    """`facts`' dense TFLOPS at `column`, else at the nearest published precision (said so);
    Skip when neither is published."""
    for use in (column, *NEAREST_COLUMN.get(column, ())):
        value = facts.tflops.get(use)
        if value:
            note = None if use == column else f"{facts.id} publishes no dense {column} TFLOPS: its {use} figure is assumed, the nearest published precision"
            return Peak(use, Sourced(value, facts.cite("compute", use)), note)
    raise Skip(f"neither the catalog nor the spec gives dense {column} TFLOPS for {facts.id}")


def mfu(review) -> Sourced:
    """The workload's assumed MFU, else the documented default."""
    spec = review.workload.spec
    if spec.assumed_mfu is not None:
        return Sourced(spec.assumed_mfu, "workload assumed_mfu")
    return Sourced(assumptions(review).default_mfu, "default (CST001 params default_mfu)")


class DomainTraffic(NamedTuple):
    """The gradient all-reduce a data-parallel job sends over the inter-node network per step and per
    accelerator, when tensor and pipeline groups stay inside one scale-up domain: a hierarchical
    all-reduce (reduce-scatter inside each domain over its `replicas` copies of a shard, a ring across the
    `domains`, an all-gather inside) puts 2 x (domains - 1) / domains x shard / replicas on each NIC."""

    shard_bytes: float  # gradient bytes per accelerator: parameters x bytes / (tensor x pipeline)
    replicas: int  # data-parallel copies of one shard inside one scale-up domain
    domains: int  # scale-up domains the data-parallel ring crosses

    @property
    def bytes(self) -> float:
        if self.domains <= 1:
            return 0.0
        return 2 * (self.domains - 1) / self.domains * self.shard_bytes / self.replicas

    @property
    def formula(self) -> str:
        return (f"2 x ({self.domains} - 1) / {self.domains} domains x {units.human(self.shard_bytes, 'size')} gradient shard"
                f" / {self.replicas} replica{'s' if self.replicas != 1 else ''} per domain = {units.human(self.bytes, 'size')}")


def domain_traffic(parameters: float, gradient_bytes: float, tensor: int, pipeline: int, data: int, domain: int) -> DomainTraffic:
    """The per-step inter-node gradient traffic of a job with these degrees on scale-up domains of `domain`."""
    group = tensor * pipeline
    replicas = max(1, min(data, domain // group)) if group <= domain else 1
    return DomainTraffic(parameters * gradient_bytes / group, replicas, ceil(data / replicas))
