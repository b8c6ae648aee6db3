"""SPEC006: what the quote does not state is asked about, never read as "none"."""

from __future__ import annotations

from clusterlint.engine.review import check

from clusterlint.rules.common import NO_PARAMS, total_nodes


def _pools(names: list[str]) -> str:
    return f"pool {names[0]!r}" if len(names) == 1 else "pools " + ", ".join(map(repr, names))


def unstated(cluster) -> list[str]:
    """The facts other rules need that the quote leaves out, in the order of the spec."""
    spec, missing = cluster.spec, []
    if not any(s.type == "local-nvme" for s in spec.storage or ()):
        drives = [p.name for p in spec.node_pools if p.local_storage is None]
        if drives:
            missing.append(f"the local drives ({_pools(drives)})")
    if cluster.metadata.offering != "hpc-allocation":
        spares = [p.name for p in spec.node_pools if p.spares is None]
        if spares:
            missing.append(f"the spare nodes ({_pools(spares)})")
    inter = spec.network.inter_node
    if total_nodes(cluster) > 1:
        if inter is None:
            missing.append("the inter-node network")
        elif inter.fabric != "none" and inter.topology != "torus" and not inter.tiers and inter.oversubscription is None:
            missing.append("the fabric's oversubscription")
    if spec.storage is None:
        missing.append("the storage")
    else:
        missing += [f"whether {s.name!r} is a parallel filesystem" for s in spec.storage if s.type == "distributed-fs" and s.parallel is None]
    if spec.software.orchestrator is None:
        missing.append("the scheduler")
    return missing


@check(NO_PARAMS)
def not_stated(review, params):
    missing = unstated(review.cluster)
    if missing:
        listed = missing[0] if len(missing) == 1 else ", ".join(missing[:-1]) + " or " + missing[-1]
        yield review.hit(
            "Cluster", ("spec",),
            f"the quote does not state {listed}: ask; the rules that judge them are skipped, not passed",
        )
