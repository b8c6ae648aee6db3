"""SPEC004: the document names an accelerator the catalog does not know."""

from __future__ import annotations

from clusterlint import catalog
from clusterlint.engine import check

from .common import Params


@check(Params)
def unknown_accelerator(review, params):
    for i, pool in enumerate(review.cluster.spec.node_pools):
        model = pool.accelerator.model
        if catalog.lookup(model) is None:
            yield review.hit(
                "Cluster", ("spec", "node_pools", i, "accelerator", "model"),
                f"accelerator {model!r} is not in the catalog{catalog.suggest(model)}; rules that need its figures are skipped (see clusterlint catalog)",
            )
