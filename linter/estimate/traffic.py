"""The inter-node traffic model of record: what one training step sends over the inter-node network per
accelerator, how fast it moves, how much of it the step waits for, and the bandwidth it needs. NET003
(the need), NET007 (traffic longer than compute) and CST001, `estimate` and `compare` (the network term
of the time) read these figures, so one question has one answer.

- Traffic: the data-parallel gradient all-reduce across scale-up domains, hierarchical (reduce-scatter
  inside each domain, a ring across the domains, an all-gather inside): 2 x (domains - 1) / domains x
  params x gradient bytes / (tensor x pipeline) / the replicas of a shard inside one domain. When tensor
  x pipeline outgrows a domain there is one replica per domain and the ring is the plain one.
- Pipeline activations (and tensor-parallel activations of a group wider than a domain) are not
  counted: the workload states no hidden size to size them; the evidence says so when they cross.
- Effective bandwidth per accelerator: advertised (NICs x speed / accelerators per node) x efficiency
  / the oversubscription of the fabric tier the job crosses x the shared-fabric share when
  `dedicated: false`.
- Exposed: the traffic's time x (1 - overlap) adds to each step (CST001's time).
- Need (NET003): the advertised bandwidth that moves the traffic within the backward pass (a share of
  the step's compute), bytes x 8 / (window x compute x efficiency).
Constants are NET007's params (configurable), read once through `sizing.assumptions`.
"""

from __future__ import annotations

from typing import NamedTuple

from clusterlint.engine.review import Skip
from clusterlint.estimate.sizing import ceil, fmt
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


def inter_node_per_accelerator(review, pool) -> tuple[float, str] | None:
    """Advertised inter-node bits/s per accelerator and how it was computed, or None if unstated."""
    inter = review.cluster.spec.network.inter_node
    if inter is None or inter.nic_speed is None or inter.nics_per_node == 0:
        return None
    per = inter.nics_per_node * inter.nic_speed.value / pool.accelerator.count
    how = f"{inter.nics_per_node} x {units.human(inter.nic_speed.value, 'rate')} / {pool.accelerator.count} accelerators"
    return per, how


def unstated_nics(inter) -> str:
    """Why there is no advertised figure: the NIC fields the quote leaves out, named."""
    missing = [name for name, absent in (("nics_per_node", inter is None or inter.nics_per_node == 0),
                                         ("nic_speed", inter is None or inter.nic_speed is None)) if absent]
    return f"the cluster states no inter-node {' and '.join(missing)}"


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


class DomainTraffic(NamedTuple):
    """The gradient all-reduce a data-parallel job sends over the inter-node network per step and per
    accelerator: 2 x (domains - 1) / domains x shard / replicas on each NIC."""

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


class Step(NamedTuple):
    """One training step of the workload on its allocation: its inter-node traffic and its compute."""

    traffic: DomainTraffic
    domain: int  # accelerators per scale-up domain
    domain_source: str
    compute: float  # s of compute per step (the sizing model's throughput)
    formula: str  # of the compute
    uncounted: tuple  # traffic that crosses domains and is not counted, said in words

    def need(self, window: float, efficiency: float) -> float:
        """Advertised bits/s per accelerator that move the traffic within `window` of the step's compute."""
        return self.traffic.bytes * 8 / (window * self.compute * efficiency)


def step(review, speed, params: NetworkParams) -> Step:
    """The step of the workload on the allocation of `speed` (a sizing.Throughput); Skip when the
    workload states no batch and sequence length."""
    spec = review.workload.spec
    if spec.global_batch_size is None or spec.sequence_length is None:
        raise Skip("the workload states no global_batch_size and sequence_length")
    alloc = speed.allocation
    par = spec.parallelism
    domain, source = scale_up_domain(review, review.cluster.spec.node_pools[alloc.pool_index])
    data = par.data or max(1, alloc.accelerators // (par.tensor * par.pipeline))
    params_n, tokens = spec.model.parameters.value, spec.global_batch_size * spec.sequence_length
    traffic = domain_traffic(params_n, params.gradient_bytes, par.tensor, par.pipeline, data, domain)
    uncounted = ()
    if par.tensor * par.pipeline > domain and alloc.accelerators > domain:
        crossing = "tensor-parallel and pipeline" if par.tensor > domain else "pipeline"
        uncounted = (f"{crossing} activations crossing domains are not counted: the workload states no hidden size",)
    return Step(traffic, domain, source, speed.seconds(params_n, tokens), speed.formula(params_n, tokens), uncounted)


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
    """Skip when the cluster states no NICs or no NIC speed."""
    pool = review.cluster.spec.node_pools[alloc.pool_index]
    inter = review.cluster.spec.network.inter_node
    figure = inter_node_per_accelerator(review, pool)
    if figure is None:
        raise Skip(unstated_nics(inter))
    crossed = crossed_tier(inter, alloc.accelerators)
    ratio, where = (1.0, "not stated, counted as non-blocking (SPEC006 asks)") if crossed is None else (max(1.0, crossed[0]), f"spec, {crossed[2]}")
    shared = params.shared_share if inter.dedicated is False else 1.0
    return Bandwidth(figure[0], figure[1], params.efficiency, ratio, where, shared)


class Comms(NamedTuple):
    """One step's inter-node traffic at the effective bandwidth, against its compute."""

    step: Step
    bandwidth: Bandwidth
    overlap: float

    @property
    def bytes(self) -> float:
        return self.step.traffic.bytes

    @property
    def compute(self) -> float:
        return self.step.compute

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
        return (f"gradient all-reduce per accelerator per step: {self.step.traffic.formula}",
                f"scale-up domain {self.step.domain}: {self.step.domain_source}",
                f"effective inter-node bandwidth {units.human(self.bandwidth.value, 'rate')} per accelerator = {self.bandwidth.formula}",
                f"oversubscription {self.bandwidth.oversubscription:g}: {self.bandwidth.oversubscription_source}",
                f"overlap {self.overlap:g}, efficiency {self.bandwidth.efficiency:g}: default (NET007 params)") + self.step.uncounted


def comms(review, speed, params: NetworkParams) -> Comms | None:
    """The step's inter-node traffic on the allocation of `speed` (a sizing.Throughput); None when it
    never crosses a scale-up domain; Skip when the workload or the cluster lacks a figure it needs."""
    alloc = speed.allocation
    if alloc.accelerators <= alloc.per_node:
        return None
    par = review.workload.spec.parallelism
    if (par.data or alloc.accelerators // (par.tensor * par.pipeline)) <= 1:
        return None  # one replica: nothing to reduce
    run = step(review, speed, params)
    if run.traffic.bytes == 0:
        return None
    return Comms(run, bandwidth(review, alloc, params), params.overlap)
