"""REL: failed hardware gets replaced fast."""

from __future__ import annotations

from clusterlint.engine.review import Skip, check

from clusterlint.rules.common import ceil, fmt


@check("clusterlint.rules.params:Spares")
def no_spare_nodes(review, params):
    cluster = review.cluster
    offering = cluster.metadata.offering
    if offering == "hpc-allocation":
        return
    if offering == "rent":
        if review.contract is None:
            raise Skip("a rented cluster's spares depend on the contract's replacement SLA: needs a Contract document")
        from clusterlint.rules.contract import replacement_time  # the clause readers load only when a contract is reviewed

        if replacement_time(review.contract) is not None:
            return
    pools = cluster.spec.node_pools
    if all(p.spares is None for p in pools):
        raise Skip("the quote does not state spare nodes (see SPEC006)")
    why = "no replacement SLA in the contract" if offering == "rent" else "a purchase"
    for i, pool in enumerate(pools):
        need = ceil(params.min_share * pool.count)
        if pool.spares is None or pool.spares >= need:
            continue
        if pool.count < params.min_nodes:
            yield review.hit(
                "Cluster", ("spec", "node_pools", i, "spares"),
                f"pool {pool.name!r} has {pool.spares} spare nodes for {pool.count} ({why}); below {params.min_nodes} nodes no spare is demanded, "
                f"but a failed node stops the job until it is repaired",
                severity="info",
            )
            continue
        yield review.hit(
            "Cluster", ("spec", "node_pools", i, "spares"),
            f"pool {pool.name!r} has {pool.spares} spare nodes for {pool.count} ({why}); keep >= {need} "
            f"({params.min_share:.0%}) so a failed node does not stop the job until it is repaired",
        )


@check("clusterlint.rules.params:ReplacementTime")
def slow_replacement_without_spares(review, params):
    from clusterlint.estimate.sizing import allocate
    from clusterlint.model import units
    from clusterlint.rules.contract import replacement_time

    found = replacement_time(review.contract)
    if found is None:
        raise Skip("the contract states no replacement time (see REL002)")
    seconds, path, _ = found
    hours = seconds / 3600
    if hours <= params.max_hours:
        return
    job = allocate(review)
    pool = review.cluster.spec.node_pools[job.pool_index]
    if pool.spares is None:
        raise Skip(f"the quote does not state pool {pool.name!r}'s spare nodes (see SPEC006)")
    nodes = ceil(job.accelerators / job.per_node)
    if pool.spares > 0 or nodes < 2:
        return
    yield review.hit(
        "Contract", path,
        f"node replacement {units.human(seconds, 'duration')} with no spare node in pool {pool.name!r}: one failed node stalls the "
        f"{nodes}-node job or idles its other {nodes - 1} nodes for {fmt(hours)} h ({fmt((nodes - 1) * hours)} node-hours); "
        f"ask for replacement within {fmt(params.max_hours)} h or spare nodes",
        severity="error" if hours > params.error_hours else "warning",
        evidence=(f"job: {job.text}",),
    )
