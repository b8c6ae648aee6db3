"""SW: a scheduler and the access to fix your own problems."""

from __future__ import annotations

from clusterlint.engine.review import Skip, check

from clusterlint.rules.common import NO_PARAMS


@check(NO_PARAMS)
def no_orchestrator(review, params):
    orchestrator = review.cluster.spec.software.orchestrator
    if orchestrator is None:
        raise Skip("the quote does not state a scheduler (see SPEC006)")
    if orchestrator == "none":
        yield review.hit(
            "Cluster", ("spec", "software", "orchestrator"),
            "orchestrator none: without Slurm or Kubernetes, sharing nodes, queueing jobs and restarting after failures are manual",
        )


@check(NO_PARAMS)
def no_root_access(review, params):
    if review.cluster.spec.software.root_access is False:
        yield review.hit(
            "Cluster", ("spec", "software", "root_access"),
            "no root access: drivers, NCCL versions and kernel settings wait on the provider's support queue",
        )


@check(NO_PARAMS)
def no_slurm_head_node(review, params):
    spec = review.cluster.spec
    if spec.software.orchestrator not in ("slurm", "slurm-on-kubernetes"):
        return
    if spec.service_nodes is None:
        raise Skip("the quote does not state its service nodes (login, controller): ask")
    roles = sorted({group.role for group in spec.service_nodes})
    if {"login", "controller", "head"} & set(roles):
        return
    has = f"service nodes with roles {', '.join(roles)}" if roles else "no service nodes (service_nodes: [])"
    yield review.hit(
        "Cluster", ("spec", "service_nodes"),
        f"{spec.software.orchestrator} needs a CPU login and controller node and the quote has {has}: "
        "users would log in to, and slurmctld would run on, a GPU node",
    )


@check("clusterlint.rules.params:Monitoring")
def no_gpu_monitoring(review, params):
    offered = review.cluster.spec.software.monitoring
    if offered is None:
        raise Skip("the quote does not state the monitoring offered to the customer: ask")
    lacks = [m for m in params.required if m not in offered]
    if lacks:
        yield review.hit(
            "Cluster", ("spec", "software", "monitoring"),
            f"the monitoring offered lacks {', '.join(lacks)}: you learn of a failing GPU when the job crashes",
        )
