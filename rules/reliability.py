"""REL: failed hardware gets replaced fast."""

from __future__ import annotations

from pydantic import Field

from clusterlint.engine.review import Skip, check

from clusterlint.rules.common import Params, ceil


class Spares(Params):
    min_share: float = Field(ge=0, le=1, description="Spare nodes as a share of the pool's nodes that a purchase should include.")
    min_nodes: int = Field(ge=1, description="Pools with fewer nodes are not asked for a spare (one spare would be a large share of the purchase); an info finding says so.")


@check(Spares)
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
