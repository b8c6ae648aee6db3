"""NET: tensor parallelism inside the fast domain, and an inter-node network that keeps up."""

from __future__ import annotations

from pydantic import Field

from clusterlint.estimate import sizing
from clusterlint.model import units
from clusterlint.engine.review import PartSkip, Skip, check
from clusterlint.model.base import Rate

from clusterlint.rules.common import Params, dense_tflops, fmt, intra_fabric, judged_pools, inter_node_per_accelerator, is_training, scale_up_domain, total_accelerators, total_nodes


def _workload_pool(review):
    """The (index, pool) the workload runs on (its allocation's pool), as a one-item list."""
    alloc = sizing.allocate(review)
    return [(alloc.pool_index, review.cluster.spec.node_pools[alloc.pool_index])]


@check(Params)
def tensor_parallel_crosses_nodes(review, params):
    tp = review.workload.spec.parallelism.tensor
    for item in judged_pools(review, scale_up_domain, _workload_pool(review)):
        if isinstance(item, PartSkip):
            yield item
            continue
        _, pool, (domain, source) = item
        if tp > domain:
            yield review.hit(
                "Workload", ("spec", "parallelism", "tensor"),
                f"tensor parallel degree {tp} exceeds the {domain}-accelerator scale-up domain of pool {pool.name!r}: "
                f"every layer's activations would cross the inter-node network",
                evidence=(f"scale-up domain {domain}: {source}",),
            )


@check(Params)
def tensor_parallel_over_pcie(review, params):
    tp = review.workload.spec.parallelism.tensor
    if tp <= 1:
        return
    for item in judged_pools(review, intra_fabric, _workload_pool(review)):
        if isinstance(item, PartSkip):
            yield item
            continue
        _, pool, (fabric, source) = item
        if fabric == "pcie":
            yield review.hit(
                "Workload", ("spec", "parallelism", "tensor"),
                f"tensor parallel degree {tp} runs over PCIe in pool {pool.name!r}: PCIe moves a fraction of what NVLink does, "
                f"so every layer waits on communication",
                evidence=(f"intra-node fabric pcie: {source}",),
            )


class InterNodeBandwidth(Params):
    warn_below: Rate = Field(description="Advertised inter-node bandwidth per accelerator below which multi-node training is warned about, for the reference accelerator; scaled by dense TFLOPS.")
    error_below: Rate = Field(description="Advertised bandwidth per reference accelerator below which it is an error; scaled by dense TFLOPS.")
    reference_tflops: float = Field(gt=0, description="Dense bf16 TFLOPS of the accelerator the thresholds are written for (H100-SXM).")
    efficiency: float = Field(gt=0, le=1, description="Share of the advertised bandwidth that collectives really reach.")


def _multi_node_training(review) -> bool:
    """True when training traffic must cross nodes over the inter-node network."""
    cluster = review.cluster
    if total_nodes(cluster) <= 1 or not is_training(review):
        return False
    pool = cluster.spec.node_pools[0]
    domain, _ = scale_up_domain(review, pool)
    return total_accelerators(cluster) > domain


@check(InterNodeBandwidth)
def low_inter_node_bandwidth(review, params):
    if not _multi_node_training(review):
        return
    inter = review.cluster.spec.network.inter_node
    if inter is not None and inter.fabric == "none":
        raise Skip("the cluster has no inter-node fabric (see NET004)")
    judged = []
    for pool in review.cluster.spec.node_pools:
        figure = inter_node_per_accelerator(review, pool)
        if figure is None:
            raise Skip("the cluster states no inter-node nics_per_node and nic_speed")
        judged.append((pool, figure, dense_tflops(review, pool, "bf16")))
    for pool, (per, how), (tflops, source) in judged:
        scale = tflops / params.reference_tflops
        warn, error = params.warn_below.value * scale, params.error_below.value * scale
        if per >= warn:
            continue
        severity = "error" if per < error else "warning"
        limit = (f"training on {fmt(tflops)} dense bf16 TFLOPS wants >= {units.human(warn, 'rate')} "
                 f"({units.human(params.warn_below.value, 'rate')} per {fmt(params.reference_tflops)} reference TFLOPS)")
        if severity == "error":
            limit += f", and below {units.human(error, 'rate')} is an error"
        yield review.hit(
            "Cluster", ("spec", "network", "inter_node", "nic_speed"),
            f"{how} = {units.human(per, 'rate')} per accelerator ({units.human(per * params.efficiency, 'rate')} effective at "
            f"{params.efficiency:.0%} of advertised) in pool {pool.name!r}; {limit}",
            severity=severity,
            evidence=(
                f"threshold: {units.human(params.warn_below.value, 'rate')} x {fmt(tflops)} / {fmt(params.reference_tflops)} TFLOPS = "
                f"{units.human(warn, 'rate')}; error below {units.human(params.error_below.value, 'rate')} x the same ratio = {units.human(error, 'rate')}",
                f"dense {fmt(tflops)} bf16 TFLOPS: {source}",
            ),
        )


@check(Params)
def no_rdma_fabric(review, params):
    if not _multi_node_training(review):
        return
    inter = review.cluster.spec.network.inter_node
    if inter is None:
        raise Skip("the cluster states no inter-node network")
    if inter.fabric in ("tcpx", "tcpxo"):
        return  # GPUDirect-TCPX/TCPXO: zero-copy GPU networking without RDMA; LCK003 notes its plugin
    if inter.fabric == "none":
        yield review.hit(
            "Cluster", ("spec", "network", "inter_node", "fabric"),
            f"multi-node training on {total_nodes(review.cluster)} nodes with no inter-node fabric (fabric: none): "
            f"gradients and activations cannot cross nodes at training speed",
        )
    elif inter.rdma is False or (inter.fabric == "ethernet" and inter.rdma is not True):
        at = ("spec", "network", "inter_node", "rdma") if inter.rdma is not None else ("spec", "network", "inter_node", "fabric")
        said = "rdma: false" if inter.rdma is False else "plain ethernet with no RDMA stated"
        yield review.hit(
            "Cluster", at,
            f"multi-node training over {inter.fabric} without RDMA ({said}): collectives go through the kernel TCP stack and host memory",
        )


@check(Params)
def shared_inter_node_fabric(review, params):
    inter = review.cluster.spec.network.inter_node
    if inter is not None and inter.dedicated is False and _multi_node_training(review):
        yield review.hit(
            "Cluster", ("spec", "network", "inter_node", "dedicated"),
            "the inter-node fabric is shared with other tenants: their traffic makes your collectives slow and unpredictable",
        )


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


@check(Params)
def oversubscribed_fabric(review, params):
    inter = review.cluster.spec.network.inter_node
    if inter is None or inter.fabric == "none" or not _multi_node_training(review):
        return
    allocation = sizing.allocate(review)
    job, how = allocation.accelerators, allocation.how
    if job <= scale_up_domain(review, review.cluster.spec.node_pools[allocation.pool_index])[0]:
        return  # the job fits one scale-up domain: its collectives never reach the fabric
    crossed = crossed_tier(inter, job)
    if crossed is None and inter.topology == "torus":
        return  # a torus has no uplinks to taper: nothing to ask unless the quote states a figure
    if crossed is None and inter.tiers:
        raise Skip(f"no stated fabric tier holds the job's {fmt(job)} accelerators")
    if crossed is None:
        raise Skip("the quote does not state the fabric's oversubscription (see SPEC006)")
    ratio, at, level = crossed
    if ratio > 1:
        yield review.hit(
            "Cluster", at,
            f"{level} is {ratio:g}:1 oversubscribed for a job on {fmt(job)} accelerators: all-reduce across them gets at most "
            f"1/{ratio:g} of the NIC bandwidth",
            evidence=(f"job size {fmt(job)} accelerators: {how}",),
        )


class CommsCompute(Params):
    efficiency: float = Field(gt=0, le=1, description="Share of the advertised inter-node bandwidth that collectives reach.")
    gradient_bytes: float = Field(gt=0, description="Bytes per gradient element reduced (bf16).")
    overlap: float = Field(ge=0, lt=1, description="Share of the gradient all-reduce hidden under the backward pass; the rest adds to each step (CST001's time).")
    shared_fabric_share: float = Field(gt=0, le=1, description="Share of the bandwidth a job gets on a fabric shared with other tenants (dedicated: false).")


@check(CommsCompute)
def comms_exceed_compute(review, params):
    from clusterlint.estimate.network import NetworkParams, comms

    spec = review.workload.spec
    if spec.task == "inference" or not _multi_node_training(review):
        return
    speed = sizing.throughput(review)
    step = comms(review, speed, NetworkParams(params.efficiency, params.gradient_bytes, params.overlap, params.shared_fabric_share))
    if step is not None and step.seconds > step.compute:
        params_n, tokens = spec.model.parameters.value, spec.global_batch_size * spec.sequence_length
        yield review.hit(
            "Cluster", ("spec", "network", "inter_node", "nic_speed"),
            f"each step's gradient all-reduce ({units.human(step.bytes, 'size')} per accelerator at "
            f"{units.human(step.bandwidth.value, 'rate')} effective) takes {step.seconds:.3g} s, longer than the step's compute "
            f"{step.compute:.3g} s ({speed.formula(params_n, tokens)})",
            evidence=speed.evidence,
        )
