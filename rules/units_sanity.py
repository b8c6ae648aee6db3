"""UNI: figures that are implausible in the unit they were written in."""

from __future__ import annotations

from clusterlint.model import units
from clusterlint.engine.review import PartSkip, check

from clusterlint.rules.common import NO_PARAMS, catalog_facts, judged_pools


@check("clusterlint.rules.params:PortSpeed")
def bits_bytes_confusion(review, params):
    spec = review.cluster.spec
    inter = spec.network.inter_node
    if inter is not None and inter.nic_speed is not None and inter.nic_speed.in_bytes and inter.nic_speed.value > params.max_port.value:
        speed = inter.nic_speed
        yield review.hit(
            "Cluster", ("spec", "network", "inter_node", "nic_speed"),
            f"nic_speed {speed.text} = {units.human(speed.value, 'rate')} per port, faster than any NIC ({units.human(params.max_port.value, 'rate')}): "
            f"NICs are sold in bits, did the quote mean {speed.text.replace('B/s', 'bps').replace('Bps', 'bps')}?",
        )
    for i, store in enumerate(spec.storage or ()):
        for field in ("read_bandwidth", "write_bandwidth", "burst_read_bandwidth", "burst_write_bandwidth"):
            rate = getattr(store, field)
            if rate is not None and not rate.in_bytes:
                yield review.hit(
                    "Cluster", ("spec", "storage", i, field),
                    f"storage {field} {rate.text} is written in bits ({units.human(rate.value, 'byte_rate')}); storage is sold in bytes per second, check which the quote means",
                )


@check(NO_PARAMS)
def bidirectional_bandwidth(review, params):
    intra = review.cluster.spec.network.intra_node
    if intra is not None and intra.bandwidth is not None and intra.direction == "bidirectional":
        half = intra.bandwidth.value / 2
        yield review.hit(
            "Cluster", ("spec", "network", "intra_node", "bandwidth"),
            f"intra-node bandwidth {intra.bandwidth.text} counts both directions: {units.human(half, 'byte_rate')} each way, the figure a collective sees",
        )


@check("clusterlint.rules.params:Aggregate")
def aggregate_vs_per_accelerator(review, params):
    spec = review.cluster.spec
    intra = spec.network.intra_node
    for item in judged_pools(review, catalog_facts):
        if isinstance(item, PartSkip):
            yield item
            continue
        i, pool, facts = item
        n = pool.accelerator.count
        if intra is not None and intra.bandwidth is not None and facts.intra_node_bandwidth is not None and n > 1:
            aggregate = facts.intra_node_bandwidth.value * n
            if abs(intra.bandwidth.value - aggregate) <= params.tolerance * aggregate:
                yield review.hit(
                    "Cluster", ("spec", "network", "intra_node", "bandwidth"),
                    f"intra-node bandwidth {intra.bandwidth.text} is the node aggregate ({n} x {units.human(facts.intra_node_bandwidth.value, 'byte_rate')}), "
                    f"not the per-accelerator figure clusterlint expects",
                    evidence=(f"per accelerator: {facts.cite('intra_node')}",),
                )
    inter = spec.network.inter_node
    if inter is not None and inter.nic_speed is not None and not inter.nic_speed.in_bytes and inter.nics_per_node > 1 and inter.nic_speed.value > params.max_port.value:
        per = inter.nic_speed.value / inter.nics_per_node
        yield review.hit(
            "Cluster", ("spec", "network", "inter_node", "nic_speed"),
            f"nic_speed {inter.nic_speed.text} per NIC is faster than any port ({units.human(params.max_port.value, 'rate')}): it looks like the node "
            f"aggregate; {inter.nics_per_node} NICs of {units.human(per, 'rate')} would be written nic_speed: {units.human(per, 'rate').replace(' ', '')}",
        )
