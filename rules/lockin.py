"""LCK: can you leave?"""

from __future__ import annotations

from clusterlint.contracts.folded import Folded
from clusterlint.engine.review import PartSkip, Skip, check

from clusterlint.rules.common import NO_PARAMS, catalog_facts, fmt, judged_pools


@check(NO_PARAMS)
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


@check(NO_PARAMS)
def proprietary_software_required(review, params):
    required = review.cluster.spec.software.proprietary
    if required:
        yield review.hit(
            "Cluster", ("spec", "software", "proprietary"),
            f"the cluster requires proprietary software: {', '.join(required)}; your workflow would depend on it",
        )


@check("clusterlint.rules.params:PluginFabrics")
def proprietary_network_stack(review, params):
    inter = review.cluster.spec.network.inter_node
    if inter is not None and inter.fabric in params.fabrics:
        yield review.hit(
            "Cluster", ("spec", "network", "inter_node", "fabric"),
            f"{inter.fabric} needs {params.fabrics[inter.fabric]} for NCCL: container images and tuning are specific to this provider",
        )


_EGRESS_KEYS = ("egress", "data_export", "data-export", "data_transfer_out", "internet_egress")
# a clause's egress price: "Data egress is charged at 0.05 USD per GB", "egress: $0.09/GB"
_EGRESS_PRICE = Folded(
    r"\b(?:egress|data\s+transfer\s+out|outbound\s+(?:data|transfer|traffic))\b[^.;]{0,60}?"
    r"(?:\$\s?(?P<n1>\d+(?:\.\d+)?)|(?P<n2>\d+(?:\.\d+)?)\s?(?P<code>USD|EUR|GBP))\s*(?:per|/|a)\s*(?P<per>[kMGTP]B)\b")


def _export_price(contract):
    """(price, path, match or None): `exit.export_price`, an egress price under `pricing.extras`, else a clause's; None if none."""
    from clusterlint.model import units
    from clusterlint.rules.clauses import first

    if contract.spec.exit.export_price is not None:
        return contract.spec.exit.export_price, ("spec", "exit", "export_price"), None
    key = next((k for k in _EGRESS_KEYS if k in contract.spec.pricing.extras), None)
    if key is not None:
        return contract.spec.pricing.extras[key], ("spec", "pricing", "extras", key), None
    found = first(contract, _EGRESS_PRICE)
    if found is None:
        return None
    item, match = found
    price = units.parse(f"{match.group('n1') or match.group('n2')} {(match.group('code') or 'USD').upper()}/{match.group('per').upper()}", "money")
    return price, item.path, match


@check("clusterlint.rules.params:Egress")
def costly_data_export(review, params):
    from clusterlint.estimate.storage import required_storage
    from clusterlint.model import units

    contract = review.contract
    exit_terms = contract.spec.exit
    found = _export_price(contract)
    if found is None:
        raise Skip("the contract states no egress or data-export price")
    price, path, words = found
    if price.per not in units.SIZE_UNITS:
        raise Skip(f"the egress price {price.text} is not a price per unit of data")
    data, how = required_storage(review.workload)
    free = exit_terms.export_allowance.value if exit_terms.export_allowance is not None else 0.0
    billed = max(0.0, data - free)
    cost = billed / units.SIZE_UNITS[price.per] * price.value
    if cost <= params.max_cost:
        return
    allowance = f" - {units.human(free, 'size')} free" if free else ""
    message = (f"taking the workload's data out at the end costs {fmt(cost)} {price.currency} = {units.human(data, 'size')} ({how}){allowance} "
               f"x {price.text}: above {fmt(params.max_cost)} {price.currency}; ask for free export at exit")
    hit = review.hit_words("Contract", path, words, message) if words is not None else review.hit("Contract", path, message)
    hit.severity = "error" if cost > params.error_cost else "warning"
    yield hit
