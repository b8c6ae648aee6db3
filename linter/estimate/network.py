"""Time on the network: the exposed part of each step's data-parallel gradient traffic, the one model
NET007 judges and CST001, `estimate` and `compare` add to the training time.

Per step, each accelerator all-reduces its shard of the gradients over a ring: 2 x (dp-1)/dp x params
x gradient bytes / (tp x pp) bytes. It moves at the effective per-accelerator inter-node bandwidth:
advertised (NICs x speed / accelerators per node) x efficiency / the oversubscription of the fabric tier
the job crosses, x the shared-fabric share when the fabric is shared with other tenants. Frameworks
overlap part of it with the backward pass (PyTorch DDP buckets gradients and reduces them while the
backward runs); the `overlap` share is hidden, the rest adds to the step. All four constants are NET007
params (configurable).
"""

from __future__ import annotations

from typing import NamedTuple

from clusterlint.engine.review import Skip
from clusterlint.estimate.sizing import fmt
from clusterlint.model import units


class NetworkParams(NamedTuple):
    efficiency: float
    gradient_bytes: float
    overlap: float
    shared_share: float

    @classmethod
    def of(cls, rules: dict) -> "NetworkParams":
        rule = rules.get("NET007")
        if rule is None:
            from clusterlint.engine.registry import builtin_rules

            rule = builtin_rules()["NET007"]
        p = rule.settings
        return cls(p.efficiency, p.gradient_bytes, p.overlap, p.shared_fabric_share)


class Bandwidth(NamedTuple):
    """Effective inter-node bits/s per accelerator and each factor with its source."""

    advertised: float
    how: str
    efficiency: float
    oversubscription: float
    oversubscription_source: str
    shared: float  # 1 on a dedicated fabric

    @property
    def value(self) -> float:
        return self.advertised * self.efficiency / self.oversubscription * self.shared

    @property
    def formula(self) -> str:
        out = f"{units.human(self.advertised, 'rate')} ({self.how}) x {self.efficiency:g} efficiency / {self.oversubscription:g} oversubscription"
        return out + (f" x {self.shared:g} shared fabric" if self.shared != 1 else "")


def bandwidth(review, alloc, params: NetworkParams) -> Bandwidth:
    """Skip when the cluster states no NIC speed."""
    from clusterlint.estimate.sizing import inter_node_per_accelerator

    pool = review.cluster.spec.node_pools[alloc.pool_index]
    figure = inter_node_per_accelerator(review, pool)
    if figure is None:
        raise Skip("the cluster states no inter-node nics_per_node and nic_speed")
    inter = review.cluster.spec.network.inter_node
    crossed = crossed_tier(inter, alloc.accelerators)
    ratio, where = (1.0, "not stated, counted as non-blocking (SPEC006 asks)") if crossed is None else (max(1.0, crossed[0]), f"spec, {crossed[2]}")
    shared = params.shared_share if inter.dedicated is False else 1.0
    return Bandwidth(figure[0], figure[1], params.efficiency, ratio, where, shared)


class Comms(NamedTuple):
    """One step's gradient all-reduce against its compute."""

    bytes: float  # per accelerator per step
    bandwidth: Bandwidth
    compute: float  # s of compute per step
    overlap: float
    dp: int

    @property
    def seconds(self) -> float:
        return self.bytes * 8 / self.bandwidth.value

    @property
    def exposed(self) -> float:
        return self.seconds * (1 - self.overlap)

    @property
    def share(self) -> float:
        """Exposed communication over compute: what it adds to the training time."""
        return self.exposed / self.compute

    @property
    def formula(self) -> str:
        return (f"{units.human(self.bytes, 'size')} all-reduce per step / {units.human(self.bandwidth.value, 'rate')} = {self.seconds:.3g} s, "
                f"x (1 - {self.overlap:g} overlap) / {self.compute:.3g} s compute per step")

    @property
    def evidence(self) -> tuple:
        return (f"gradient all-reduce 2 x ({self.dp}-1)/{self.dp} x shard: {units.human(self.bytes, 'size')} per accelerator per step",
                f"effective inter-node bandwidth {units.human(self.bandwidth.value, 'rate')} per accelerator = {self.bandwidth.formula}",
                f"oversubscription {self.bandwidth.oversubscription:g}: {self.bandwidth.oversubscription_source}",
                f"overlap {self.overlap:g}, efficiency {self.bandwidth.efficiency:g}: default (NET007 params)")


def comms(review, speed, params: NetworkParams) -> Comms | None:
    """The step's gradient traffic on the allocation of `speed` (a sizing.Throughput); None when it
    never crosses nodes; Skip when the workload or the cluster lacks a figure it needs."""
    spec = review.workload.spec
    alloc = speed.allocation
    if alloc.accelerators <= alloc.per_node:
        return None
    par = spec.parallelism
    dp = par.data or max(1, alloc.accelerators // (par.tensor * par.pipeline))
    if dp <= 1:
        return None
    if spec.global_batch_size is None or spec.sequence_length is None:
        raise Skip("the workload states no global_batch_size and sequence_length")
    params_n = spec.model.parameters.value
    compute = speed.seconds(params_n, spec.global_batch_size * spec.sequence_length)
    shard = params_n * params.gradient_bytes / (par.tensor * par.pipeline)
    return Comms(2 * (dp - 1) / dp * shard, bandwidth(review, alloc, params), compute, params.overlap, dp)


def crossed_tier(inter, accelerators: int) -> tuple[float, tuple, str] | None:
    """(oversubscription, path, which level) the job's traffic crosses: the smallest tier that holds it,
    or the whole fabric's figure; None when the quote states neither."""
    for k, tier in enumerate(inter.tiers):
        if tier.accelerators is None or accelerators <= tier.accelerators:
            span = f"{fmt(tier.accelerators)} accelerators" if tier.accelerators else "the whole cluster"
            return tier.oversubscription, ("spec", "network", "inter_node", "tiers", k, "oversubscription"), f"tier {tier.name!r} ({span})"
    if inter.tiers or inter.oversubscription is None:  # the job outgrows every stated tier, or nothing is stated
        return None
    return inter.oversubscription, ("spec", "network", "inter_node", "oversubscription"), "the fabric"
