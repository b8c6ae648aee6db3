"""ACC: is there enough accelerator memory, and are the quoted figures honest?"""

from __future__ import annotations

from clusterlint.estimate import sizing
from clusterlint.model import units
from clusterlint.engine.review import check

from clusterlint.rules.common import PRECISION_BYTES, NO_PARAMS, ceil, fmt, memory, total_accelerators


def _pool_count_path(review):
    pools = review.cluster.spec.node_pools
    return ("spec", "node_pools", 0, "count") if len(pools) == 1 else ("spec", "node_pools")


def _min_memory(review):
    figures = [memory(review, pool) for pool in review.cluster.spec.node_pools]
    return min(figures)


def _shortfall(review, need_bytes: float, need_text: str):
    """A finding when the cluster's accelerators hold less than `need_bytes` (the smallest pool's memory decides)."""
    per, source = _min_memory(review)
    need = ceil(need_bytes / per)
    have = total_accelerators(review.cluster)
    if have < need:
        yield review.hit(
            "Cluster", _pool_count_path(review),
            f"{need_text} = {need} accelerators of {units.human(per, 'size')}; the cluster has {have}",
            evidence=(f"{units.human(per, 'size')} per accelerator: {source}",),
        )


@check("clusterlint.rules.params:TrainingMemory")
def too_few_for_training(review, params):
    spec = review.workload.spec
    if spec.task == "inference":
        return
    n_params = spec.model.parameters.value
    if "zero_stage" in spec.parallelism.model_fields_set:
        yield from _zero_stage_shortfall(review, params)
        return
    need_bytes = n_params * params.bytes_per_parameter * params.overhead
    yield from _shortfall(
        review, need_bytes,
        f"training {units.human(n_params, 'count')} parameters needs {units.human(need_bytes, 'size')} of accelerator memory "
        f"({units.human(n_params, 'count')} x {params.bytes_per_parameter:g} bytes x {params.overhead:g})",
    )


ZERO_SHARDED = {0: 0, 1: 12, 2: 16}  # bytes per parameter ZeRO shards over data parallelism; stage 3: all of them


def _zero_stage_shortfall(review, params):
    """Per-accelerator training state under the stated ZeRO stage: params / (tp x pp) x (unsharded +
    sharded / dp) x overhead, where stage 1 shards the optimizer states (fp32 master 4 + Adam 8 = 12
    bytes), stage 2 also the gradients (+4) and stage 3 also the bf16 weights (all of them)."""
    spec = review.workload.spec
    par = spec.parallelism
    alloc = sizing.allocate(review)
    model_parallel = par.tensor * par.pipeline
    dp = par.data or max(1, alloc.accelerators // model_parallel)
    total = params.bytes_per_parameter
    sharded = total if par.zero_stage == 3 else min(total, ZERO_SHARDED[par.zero_stage])
    n_params = spec.model.parameters.value
    per_bytes = n_params / model_parallel * (total - sharded + sharded / dp) * params.overhead
    per, source = memory(review, review.cluster.spec.node_pools[alloc.pool_index])
    if per_bytes > per:
        count = units.human(n_params, "count")
        yield review.hit(
            "Workload", ("spec", "parallelism", "zero_stage"),
            f"ZeRO stage {par.zero_stage} with tensor {par.tensor} x pipeline {par.pipeline} x data {dp} keeps "
            f"{count} / {model_parallel} x ({fmt(total - sharded)} + {fmt(sharded)} / {dp}) bytes x {params.overhead:g} = "
            f"{units.human(per_bytes, 'size')} per accelerator; {alloc.model} has {units.human(per, 'size')}",
            evidence=(f"{units.human(per, 'size')} per accelerator: {source}", f"accelerators {alloc.accelerators}: {alloc.how}"),
        )


@check("clusterlint.rules.params:InferenceMemory")
def too_few_for_inference(review, params):
    spec = review.workload.spec
    if spec.task != "inference":
        return
    n_params = spec.model.parameters.value
    per_param = PRECISION_BYTES[spec.precision]
    need_bytes = n_params * per_param * params.overhead
    yield from _shortfall(
        review, need_bytes,
        f"serving {units.human(n_params, 'count')} parameters in {spec.precision} needs {units.human(need_bytes, 'size')} "
        f"({units.human(n_params, 'count')} x {per_param:g} bytes x {params.overhead:g})",
    )


@check("clusterlint.rules.params:SparseClaim")
def sparse_tflops_claim(review, params):
    for i, pool in enumerate(review.cluster.spec.node_pools):
        quoted = pool.accelerator.quoted_tflops or {}
        if not quoted:
            continue
        facts = review.facts(pool)
        for dtype, value in quoted.items():
            dense = facts.tflops.get(dtype)
            if dense and value >= params.ratio * dense:
                yield review.hit(
                    "Cluster", ("spec", "node_pools", i, "accelerator", "quoted_tflops", dtype),
                    f"quoted {fmt(value)} {dtype} TFLOPS is {value / dense:.2g}x the dense {fmt(dense)} of {facts.id}: "
                    f"that is the 2:4-sparsity figure, which dense training never reaches",
                    evidence=(f"dense {dtype} {fmt(dense)} TFLOPS: {facts.cite('compute', dtype)}",),
                )


@check("clusterlint.rules.params:Mfu")
def optimistic_mfu(review, params):
    mfu = review.workload.spec.assumed_mfu
    if review.cluster is not None and mfu is not None:
        alloc = sizing.allocate(review)
        if alloc.accelerators <= alloc.per_node:  # one node: no inter-node traffic, higher MFU is plausible
            return
    if mfu is not None and mfu > params.max_mfu:
        yield review.hit(
            "Workload", ("spec", "assumed_mfu"),
            f"assumed MFU {mfu:g} is above {params.max_mfu:g}: about 0.5 is already excellent for multi-node training, so time and cost estimates are too optimistic",
        )


@check(NO_PARAMS)
def allocation_exceeds_pool(review, params):
    """The workload's placement names a pool the cluster lacks, or asks for more accelerators than its pool has."""
    spec = review.workload.spec
    placement = spec.placement
    names = [p.name for p in review.cluster.spec.node_pools]
    if placement is not None and placement.pool is not None and placement.pool not in names:
        yield review.hit(
            "Workload", ("spec", "placement", "pool"),
            f"placement.pool {placement.pool!r} is not a node pool of cluster {review.cluster.metadata.name!r} (pools: {', '.join(names)})",
        )
        return
    alloc = sizing.allocate(review)
    if alloc.accelerators <= alloc.available:
        return
    if placement is not None and placement.accelerators is not None:
        path = ("spec", "placement", "accelerators")
    elif placement is not None and placement.nodes is not None:
        path = ("spec", "placement", "nodes")
    else:
        path = ("spec", "parallelism", "data")
    pool = review.cluster.spec.node_pools[alloc.pool_index]
    yield review.hit(
        "Workload", path,
        f"the workload asks for {alloc.accelerators} accelerators ({alloc.basis}); pool {alloc.pool_name!r} has {alloc.available} "
        f"({pool.count} nodes x {alloc.per_node} {alloc.model}): the job cannot start as planned",
        evidence=(f"pool: {alloc.pool_basis}",),
    )
