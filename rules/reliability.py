"""REL: failed hardware gets replaced fast."""

from __future__ import annotations

from pydantic import Field

from clusterlint.engine import Skip, check

from .common import Params, ceil


class Spares(Params):
    min_share: float = Field(0.05, ge=0, le=1, description="Spare nodes as a share of the pool's nodes that a purchase should include.")


@check(Spares)
def no_spare_nodes(review, params):
    cluster = review.cluster
    offering = cluster.metadata.offering
    if offering == "hpc-allocation":
        return
    if offering == "rent":
        if review.contract is None:
            raise Skip("a rented cluster's spares depend on the contract's replacement SLA: needs a Contract document")
        from .contract import replacement_time  # the clause readers load only when a contract is reviewed

        if replacement_time(review.contract) is not None:
            return
    for i, pool in enumerate(cluster.spec.node_pools):
        need = ceil(params.min_share * pool.count)
        if pool.spares < need:
            why = "no replacement SLA in the contract" if offering == "rent" else "a purchase"
            yield review.hit(
                "Cluster", ("spec", "node_pools", i, "spares") if "spares" in pool.model_fields_set else ("spec", "node_pools", i, "count"),
                f"pool {pool.name!r} has {pool.spares} spare nodes for {pool.count} ({why}); keep >= {need} "
                f"({params.min_share:.0%}) so a failed node does not stop the job until it is repaired",
            )
