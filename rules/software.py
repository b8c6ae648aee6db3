"""SW: a scheduler and the access to fix your own problems."""

from __future__ import annotations

from clusterlint.engine.review import Skip, check

from clusterlint.rules.common import Params


@check(Params)
def no_orchestrator(review, params):
    orchestrator = review.cluster.spec.software.orchestrator
    if orchestrator is None:
        raise Skip("the quote does not state a scheduler (see SPEC006)")
    if orchestrator == "none":
        yield review.hit(
            "Cluster", ("spec", "software", "orchestrator"),
            "orchestrator none: without Slurm or Kubernetes, sharing nodes, queueing jobs and restarting after failures are manual",
        )


@check(Params)
def no_root_access(review, params):
    if review.cluster.spec.software.root_access is False:
        yield review.hit(
            "Cluster", ("spec", "software", "root_access"),
            "no root access: drivers, NCCL versions and kernel settings wait on the provider's support queue",
        )
