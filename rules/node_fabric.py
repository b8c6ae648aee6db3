"""DLV027: how a delivered node's NCCL uses a multi-tier fabric, as SemiAnalysis' ClusterMAX audit (cmax,
nccl-ib-qps-entropy) checks it: NCCL_IB_QPS_PER_CONNECTION at its default of one queue pair where the
quote lists two or more fabric tiers (a spine for ECMP to spread flows across).

cmax reads the value from the job environment and /etc/nccl.conf (NCCL's default is 1), gates on
RDMA adapters and a multi-tier fabric, and grades a value below 2 as an advisory. Here the tiers are
the quote's (network.inter_node.tiers); the value is read from /etc/nccl.conf (or an `env | grep NCCL_`
listing put beside it), and a node whose collect manifest says /etc/nccl.conf is not there runs with
the default. Each hit points at the quoted tiers and cites the evidence file and line."""

from __future__ import annotations

from clusterlint.engine.review import Skip, check

from clusterlint.rules.common import NO_PARAMS
from clusterlint.rules.delivery import nodes_with

KEY = "NCCL_IB_QPS_PER_CONNECTION"
FLOOR = 2  # cmax RECOMMENDED_QPS_PER_CONNECTION: passes at 2 or more; NCCL's default is 1
_VERBS = ("infiniband", "roce")  # the fabrics NCCL drives through its IB verbs transport, where the setting applies


def _count(value: str) -> int:
    try:
        return int(value)
    except ValueError:
        return 1  # what cmax reads from a value that is not a number: the default


@check(NO_PARAMS)
def qps_entropy(review, params):
    inter = review.cluster.spec.network.inter_node
    if inter is None or inter.fabric not in _VERBS or len(inter.tiers) < 2:
        raise Skip("the quote lists no InfiniBand or RoCE fabric with two or more tiers (network.inter_node.tiers)")
    nodes = nodes_with(review, lambda n: any(k.startswith("nccl ") for k in n.software) or "collect manifest" in n.software, "/etc/nccl.conf and no collect manifest")
    path = ("spec", "network", "inter_node", "tiers")
    tail = (f"expected at least {FLOOR} on a {len(inter.tiers)}-tier {inter.fabric} fabric: one queue pair per connection gives "
            "ECMP one flow to hash onto the spine uplinks (sweep 2 to 4)")
    for node in nodes:
        settings = sorted((f for k, f in node.software.items() if k.startswith("nccl ")), key=lambda f: (f.file, f.line))
        fact = node.software.get(f"nccl {KEY}")
        if fact is not None:
            if _count(fact.value) < FLOOR:
                yield review.hit("Cluster", path, f"node {node.host} sets {KEY}={fact.value}, {tail}", evidence=(fact.cite(),))
        elif settings:
            yield review.hit("Cluster", path, f"node {node.host} leaves {KEY} unset (NCCL's default 1), {tail}",
                             evidence=(settings[0].where,))
        else:
            tries = node.software["collect manifest"].value.get("/etc/nccl.conf", [])
            if tries and all(t.value == "not-readable" for t in tries):
                yield review.hit("Cluster", path, f"node {node.host} has no /etc/nccl.conf, so {KEY} is NCCL's default 1, {tail}",
                                 evidence=(tries[0].cite(),))
