"""LCK: can you leave?"""

from __future__ import annotations

from pydantic import Field

from clusterlint.engine.review import PartSkip, check

from clusterlint.rules.common import Params, catalog_facts, judged_pools


@check(Params)
def single_cloud_accelerator(review, params):
    for item in judged_pools(review, catalog_facts):
        if isinstance(item, PartSkip):
            yield item
            continue
        i, pool, facts = item
        if facts.single_provider:
            yield review.hit(
                "Cluster", ("spec", "node_pools", i, "accelerator", "model"),
                f"{facts.id} can be rented only from {facts.single_provider}: code tuned for it does not move to another provider",
                evidence=(f"where it is rented: {facts.cite('availability')}",),
            )


@check(Params)
def proprietary_software_required(review, params):
    required = review.cluster.spec.software.proprietary
    if required:
        yield review.hit(
            "Cluster", ("spec", "software", "proprietary"),
            f"the cluster requires proprietary software: {', '.join(required)}; your workflow would depend on it",
        )


class PluginFabrics(Params):
    fabrics: dict[str, str] = Field(
        description="Inter-node fabrics that need a vendor-specific collective plugin, and the plugin.",
    )


@check(PluginFabrics)
def proprietary_network_stack(review, params):
    inter = review.cluster.spec.network.inter_node
    if inter is not None and inter.fabric in params.fabrics:
        yield review.hit(
            "Cluster", ("spec", "network", "inter_node", "fabric"),
            f"{inter.fabric} needs {params.fabrics[inter.fabric]} for NCCL: container images and tuning are specific to this provider",
        )
