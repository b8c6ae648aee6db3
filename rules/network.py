"""NET: tensor parallelism inside the fast domain, and an inter-node network that keeps up."""

from __future__ import annotations

from clusterlint.estimate import sizing, traffic as flows
from clusterlint.estimate.traffic import crossed_tier
from clusterlint.model import units
from clusterlint.engine.review import PartSkip, Skip, check

from clusterlint.rules.common import NO_PARAMS, fmt, intra_fabric, judged_pools, inter_node_per_accelerator, is_training, scale_up_domain, total_accelerators, total_nodes


def _workload_pool(review):
    """The (index, pool) the workload runs on (its allocation's pool), as a one-item list."""
    alloc = sizing.allocate(review)
    return [(alloc.pool_index, review.cluster.spec.node_pools[alloc.pool_index])]


@check(NO_PARAMS)
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


@check(NO_PARAMS)
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


def _multi_node_training(review) -> bool:
    """True when training traffic must cross nodes over the inter-node network."""
    cluster = review.cluster
    if total_nodes(cluster) <= 1 or not is_training(review):
        return False
    pool = cluster.spec.node_pools[0]
    domain, _ = scale_up_domain(review, pool)
    return total_accelerators(cluster) > domain


def _crossing(review, pool, job):
    """(job accelerators, scale-up domain, its source) of a pool; the job is the workload's allocation
    on its pool, else the whole pool."""
    domain, source = scale_up_domain(review, pool)
    return (pool.count * pool.accelerator.count if job is None else job), domain, source


def _need(review, params, pool, domain, column):
    """(need in bits/s per accelerator, wording for the message, evidence) for one pool; Skip when
    its dense TFLOPS are unknown."""
    peak = sizing.training_peak(review.facts(pool), column)
    tflops, ratio = peak.value.value, peak.value.value / params.reference_tflops
    warn = params.warn_below.value
    evidence = [f"dense {fmt(tflops)} {peak.column} TFLOPS: {peak.value.source}"] + ([peak.assumption] if peak.assumption else [])
    spec = review.workload.spec if review.workload is not None else None
    if spec is not None and spec.global_batch_size is not None and spec.sequence_length is not None:
        need, text, more = _workload_traffic(review, params, domain)
        evidence = more + evidence
    else:
        need = warn * ratio
        if spec is not None:
            evidence.append("the workload states no global_batch_size and sequence_length: the reference design's traffic pattern is assumed")
        assumed = f" (no {column} figure: {peak.column} assumed)" if peak.assumption else ""
        text = (f"training on {fmt(tflops)} dense {peak.column} TFLOPS{assumed} wants >= {units.human(min(need, warn), 'rate')} "
                f"({units.human(warn, 'rate')} per {fmt(params.reference_tflops)} reference TFLOPS")
        evidence.insert(0, f"threshold: {units.human(warn, 'rate')} x {fmt(tflops)} / {fmt(params.reference_tflops)} TFLOPS = {units.human(need, 'rate')}")
        text += f", capped at the reference design's {units.human(warn, 'rate')})" if need > warn else ")"
    if need > warn:
        evidence.append(f"capped at {units.human(warn, 'rate')} per accelerator, the reference design's NIC speed (NET003 params warn_below)")
    return min(need, warn), text, evidence


def _workload_traffic(review, params, domain):
    """The need from the workload's own traffic, the model of record (`estimate.traffic`) that NET007 and
    the time read: its gradient all-reduce across scale-up domains within the backward pass of a step."""
    speed, net = sizing.throughput(review), sizing.assumptions(review).network
    run = flows.step(review, speed, net)
    traffic, step = run.traffic, run.compute
    need = run.need(params.overlap_share, net.efficiency)
    text = (f"the job's gradient all-reduce across {traffic.domains} scale-up domains of {domain} "
            f"({units.human(traffic.bytes, 'size')} per accelerator per step) within {params.overlap_share:.0%} of its "
            f"{step:.3g} s step wants >= {units.human(min(need, params.warn_below.value), 'rate')}")
    evidence = [f"traffic: {traffic.formula}",
                f"need: {units.human(traffic.bytes, 'size')} x 8 / ({params.overlap_share:g} x {step:.3g} s x {net.efficiency:g} efficiency)"
                f" = {units.human(need, 'rate')}",
                f"step: {run.formula}", speed.evidence[-1], speed.evidence[0], *run.uncounted]
    return need, text, evidence


@check("clusterlint.rules.params:InterNodeBandwidth")
def low_inter_node_bandwidth(review, params):
    if total_nodes(review.cluster) <= 1 or not is_training(review):
        return
    chosen, job, column = None, None, "bf16"
    if review.workload is not None:
        alloc = sizing.allocate(review)
        chosen, job, column = _workload_pool(review), alloc.accelerators, sizing.tflops_column(review.workload.spec.precision)
    crossing = []
    for item in judged_pools(review, lambda r, p: _crossing(r, p, job), chosen):
        if isinstance(item, PartSkip):
            yield item
        elif item[2][0] > item[2][1]:  # more accelerators than one scale-up domain holds
            crossing.append(item)
    if not crossing:
        return
    inter = review.cluster.spec.network.inter_node
    if inter is not None and inter.fabric == "none":
        raise Skip("the cluster has no inter-node fabric (see NET004)")
    efficiency = sizing.assumptions(review).network.efficiency
    for _, pool, (_, domain, _) in crossing:
        figure = inter_node_per_accelerator(review, pool)
        if figure is None:
            raise Skip(flows.unstated_nics(inter))
        try:
            need, text, evidence = _need(review, params, pool, domain, column)
        except Skip as exc:
            yield PartSkip(f"pool {pool.name!r}: {exc}")
            continue
        per, how = figure
        error = need * params.error_below.value / params.warn_below.value
        if per >= need:
            continue
        severity = "error" if per < error else "warning"
        if severity == "error":
            text += f", and below {units.human(error, 'rate')} is an error"
        yield review.hit(
            "Cluster", ("spec", "network", "inter_node", "nic_speed"),
            f"{how} = {units.human(per, 'rate')} per accelerator ({units.human(per * efficiency, 'rate')} effective at "
            f"{efficiency:.0%} of advertised) in pool {pool.name!r}; {text}",
            severity=severity,
            evidence=tuple(evidence) + (f"error below {units.human(params.error_below.value, 'rate')} / {units.human(params.warn_below.value, 'rate')} x "
                                        f"the need = {units.human(error, 'rate')}",),
        )


@check(NO_PARAMS)
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
    elif inter.fabric == "ethernet" and inter.rdma is None:
        raise Skip("the quote does not say whether its ethernet fabric does RDMA (inter_node.rdma): ask")
    elif inter.rdma is False:
        yield review.hit(
            "Cluster", ("spec", "network", "inter_node", "rdma"),
            f"multi-node training over {inter.fabric} without RDMA (rdma: false): collectives go through the kernel TCP stack and host memory",
        )


@check(NO_PARAMS)
def shared_inter_node_fabric(review, params):
    inter = review.cluster.spec.network.inter_node
    if inter is not None and inter.dedicated is False and _multi_node_training(review):
        yield review.hit(
            "Cluster", ("spec", "network", "inter_node", "dedicated"),
            "the inter-node fabric is shared with other tenants: their traffic makes your collectives slow and unpredictable",
        )


@check(NO_PARAMS)
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


@check("clusterlint.rules.params:CommsCompute")
def comms_exceed_compute(review, params):
    spec = review.workload.spec
    if spec.task == "inference" or not _multi_node_training(review):
        return
    speed = sizing.throughput(review)
    step = flows.comms(review, speed, flows.NetworkParams(params.efficiency, params.gradient_bytes, params.overlap, params.shared_fabric_share))
    if step is not None and step.seconds > step.compute:
        params_n, tokens = spec.model.parameters.value, spec.global_batch_size * spec.sequence_length
        yield review.hit(
            "Cluster", ("spec", "network", "inter_node", "nic_speed"),
            f"each step's gradient all-reduce ({units.human(step.bytes, 'size')} per accelerator at "
            f"{units.human(step.bandwidth.value, 'rate')} effective) takes {step.seconds:.3g} s, longer than the step's compute "
            f"{step.compute:.3g} s ({speed.formula(params_n, tokens)})",
            evidence=speed.evidence,
        )


@check(NO_PARAMS)
def shared_fabric_without_isolation(review, params):
    spec = review.cluster.spec
    inter = spec.network.inter_node
    if inter is None or inter.dedicated is not False or inter.fabric == "none":
        return
    isolation = spec.security.tenant_isolation if spec.security is not None else None
    if isolation:
        return
    if isolation is None:
        yield review.hit("Cluster", ("spec", "network", "inter_node", "dedicated"),
                         f"the {inter.fabric} fabric is shared with other tenants and the quote states no tenant isolation "
                         "(InfiniBand partition keys, VLANs or VRFs): ask how other tenants are kept off your nodes", severity="warning")
        return
    yield review.hit("Cluster", ("spec", "security", "tenant_isolation"),
                     f"the {inter.fabric} fabric is shared with other tenants and the quote states no tenant isolation "
                     "(tenant_isolation: []): other tenants' nodes can reach yours over the fabric", severity="error")
