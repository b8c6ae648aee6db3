"""SEC: who has audited the provider (the fabric's tenant isolation, NET008, is in `network`)."""

from __future__ import annotations

import re

from clusterlint.contracts.folded import Folded
from clusterlint.engine.review import check

from clusterlint.rules.clauses import first
from clusterlint.rules.common import NO_PARAMS
from clusterlint.rules.missing import Term, missing

ATTESTATION = Term("a security attestation (SOC 2 Type II, ISO 27001)", "security",
                   tuple(re.compile(rf"\b(?:{a})\b", re.IGNORECASE) for a in (r"security|compliance|certifications?|audits?", r"data\s+protection")))
# the attestations ClusterMAX names as the bare minimum, as contracts write them
_ATTESTED = Folded(r"\bSOC\s?[12]\b(?:\s+Type\s+(?:II|2|I|1)\b)?|\bISO(?:/IEC)?\s?2700[17]\b")


@check(NO_PARAMS)
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
