"""SW: a scheduler and the access to fix your own problems."""

from __future__ import annotations

from clusterlint.engine import check

from .common import Params


@check(Params)
def no_orchestrator(review, params):
    software = review.cluster.spec.software
    if software.orchestrator in (None, "none"):
        at = ("spec", "software", "orchestrator")
        said = "none" if software.orchestrator == "none" else "not stated"
        yield review.hit(
            "Cluster", at,
            f"orchestrator {said}: without Slurm or Kubernetes, sharing nodes, queueing jobs and restarting after failures are manual",
        )


@check(Params)
def no_root_access(review, params):
    if review.cluster.spec.software.root_access is False:
        yield review.hit(
            "Cluster", ("spec", "software", "root_access"),
            "no root access: drivers, NCCL versions and kernel settings wait on the provider's support queue",
        )
