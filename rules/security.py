"""SEC: who has audited the provider, and whether other tenants can reach your fabric."""

from __future__ import annotations

import re

from clusterlint.engine.review import check

from clusterlint.rules.clauses import first
from clusterlint.rules.common import Params
from clusterlint.rules.missing import Term, missing

ATTESTATION = Term("a security attestation (SOC 2 Type II, ISO 27001)", "security",
                   tuple(re.compile(rf"\b(?:{a})\b", re.IGNORECASE) for a in (r"security|compliance|certifications?|audits?", r"data\s+protection")))
# the attestations ClusterMAX names as the bare minimum, as contracts write them
_ATTESTED = re.compile(r"\bSOC\s?[12]\b(?:\s+Type\s+(?:II|2|I|1)\b)?|\bISO(?:/IEC)?\s?2700[17]\b", re.IGNORECASE)


@check(Params)
def no_attestation(review, params):
    contract = review.contract
    stated = contract.spec.security
    if stated is not None and stated.attestations:
        return
    cluster = review.cluster
    if cluster is not None and cluster.spec.security is not None and cluster.spec.security.attestations:
        return
    if first(contract, _ATTESTED, kinds=("operative", "definition", "recital")):
        return
    if stated is not None:
        yield review.hit("Contract", ("spec", "security", "attestations"),
                         "the contract warrants no security attestation (attestations: []): no SOC 2 Type II or ISO 27001 report "
                         "shows that anyone outside has audited how your data and fabric are guarded")
        return
    yield missing(review, ATTESTATION, "neither the contract nor the quote names a security attestation (SOC 2 Type II, ISO 27001)",
                  "nobody outside has audited how your data and fabric are guarded", ("spec", "security"))


@check(Params)
def shared_fabric_without_isolation(review, params):
    spec = review.cluster.spec
    inter = spec.network.inter_node
    if inter is None or inter.dedicated is not False or inter.fabric == "none":
        return
    isolation = spec.security.tenant_isolation if spec.security is not None else None
    if isolation:
        return
    if isolation is None:
        yield review.hit("Cluster", ("spec", "network", "inter_node", "dedicated"),
                         f"the {inter.fabric} fabric is shared with other tenants and the quote states no tenant isolation "
                         "(InfiniBand partition keys, VLANs or VRFs): ask how other tenants are kept off your nodes", severity="warning")
        return
    yield review.hit("Cluster", ("spec", "security", "tenant_isolation"),
                     f"the {inter.fabric} fabric is shared with other tenants and the quote states no tenant isolation "
                     "(tenant_isolation: []): other tenants' nodes can reach yours over the fabric", severity="error")
