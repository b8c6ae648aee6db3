"""SPEC004: the document names an accelerator the catalog does not know (and does not describe it)."""

from __future__ import annotations

from clusterlint.model import catalog
from clusterlint.engine.review import check

from clusterlint.rules.common import NO_PARAMS


@check(NO_PARAMS)
def unknown_accelerator(review, params):
    for i, pool in enumerate(review.cluster.spec.node_pools):
        acc = pool.accelerator
        if catalog.lookup(acc.model) is not None:
            continue
        missing = [name for name, value in (("dense_tflops", acc.dense_tflops), ("memory", acc.memory)) if not value]
        if not missing:
            continue  # described in the spec: the rules use its figures, cited "spec"
        given = [name for name in ("dense_tflops", "memory", "memory_bandwidth", "scale_up_domain") if getattr(acc, name)]
        uses = f"rules use the spec's {', '.join(given)} and skip those that need its {' or '.join(missing)}" if given else (
            "rules that need its figures are skipped")
        yield review.hit(
            "Cluster", ("spec", "node_pools", i, "accelerator", "model"),
            f"accelerator {acc.model!r} is not in the catalog{catalog.suggest(acc.model, acc)}; {uses} (see clusterlint catalog)",
        )
