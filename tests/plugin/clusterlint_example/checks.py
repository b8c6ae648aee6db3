"""A Python check: flags node pools whose accelerator count per node is not a power of two."""

from clusterlint.api import Params, check


class PowerOfTwo(Params):
    largest: int = 8


@check(PowerOfTwo)
def power_of_two_per_node(review, params):
    for i, pool in enumerate(review.cluster.spec.node_pools):
        count = pool.accelerator.count
        if count & (count - 1) or count > params.largest:
            yield review.hit("Cluster", ("spec", "node_pools", i, "accelerator", "count"),
                             f"pool {pool.name!r} has {count} accelerators per node; tensor parallelism wants a power of two up to {params.largest}")
