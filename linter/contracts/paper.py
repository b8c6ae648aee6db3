"""What paper a contract is: a negotiated order form, click-through terms, an SLA or a policy.

A buyer negotiates an order form (or a master services agreement, a reservation, a statement of
work) for reserved capacity; that paper should carry the delivery date, the performance figures,
the replacement time, the acceptance test and the exit terms, so their absence is a finding in
full. Public paper never carries them: click-through terms of service, a service level agreement
published for every customer, a maintenance, support or acceptable-use policy. There an absence
says only where to ask, once, as info.

The kind is the one the user declares (`spec.kind` in a Contract, `contract-kind:` in a Markdown
contract's front matter or in the configuration), else the one the text shows: its title first,
then the phrases each kind of paper uses. A contract that shows none is read as an order form, so
nothing is excused on a guess.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from clusterlint.contracts.memo import last_document

KINDS = ("order-form", "terms", "sla", "policy")

# the title says what the paper is
_TITLE = (
    ("order-form", re.compile(r"\border\s+(?:form|terms)\b|\bmaster\s+(?:services?\s+|subscription\s+)?agreement\b|\bMSA\b|\bstatement\s+of\s+work\b"
                              r"|\breservation\s+(?:agreement|order)\b|\b(?:capacity|reserved)\s+(?:order|agreement|commitment)\b", re.IGNORECASE)),
    ("sla", re.compile(r"\bservice[\s-]+level\s+(?:agreement|addendum|commitment|terms|objectives?)\b|\bSLA\b", re.IGNORECASE)),
    ("policy", re.compile(r"\b(?:acceptable[\s-]+use|maintenance|support|fair[\s-]+use|usage)\s+polic(?:y|ies)\b|\bAUP\b", re.IGNORECASE)),
    ("terms", re.compile(r"\bterms\s+(?:of\s+(?:service|use)|and\s+conditions)\b|\b(?:customer|user|subscription|online|cloud|self[\s-]serve)"
                         r"\s+(?:agreement|terms)\b|\bgeneral\s+terms\b", re.IGNORECASE)),
)  # the first match wins: "Service Level Agreement and Order Terms" is negotiated paper that holds an SLA
# phrases in the body that only one kind of paper uses
_SIGNS = {
    "terms": re.compile(
        r"\bby\s+(?:clicking|accessing|using|creating\s+an\s+account|signing\s+up)\b|\bcontinued\s+use\b"
        r"|\b(?:we|provider)\s+may\s+(?:modify|update|change|revise|amend)\s+(?:these|this)\s+(?:terms|agreement)\b"
        r"|\blast\s+(?:updated|modified|revised)\b|\bif\s+you\s+do\s+not\s+agree\b|\bgovern\s+your\s+(?:access\s+to\s+and\s+)?use\b",
        re.IGNORECASE),
    "sla": re.compile(r"\bmonthly\s+(?:uptime|availability)\s+percentage\b|\bservice\s+credit\s+percentage\b|\bscheduled\s+downtime\s+excludes?\b",
                      re.IGNORECASE),
    "policy": re.compile(r"\bthis\s+(?:acceptable\s+use\s+|maintenance\s+|support\s+)?policy\b|\bprohibited\s+(?:uses?|activities|content)\b",
                         re.IGNORECASE),
    "order-form": re.compile(
        r"\bin\s+witness\s+whereof\b|\bauthori[sz]ed\s+signatory\b|\bsigned\s+(?:by|for\s+and\s+on\s+behalf)\b"
        r"|\b(?:reserved|committed|dedicated)\s+(?:capacity|gpus?|accelerators?|nodes?)\b|\bthis\s+order\s+form\b|\bcommitted\s+term\b",
        re.IGNORECASE),
}
_READ = 200_000  # characters of the body read for signs: the front of a contract says what it is


class Paper(NamedTuple):
    kind: str  # one of KINDS
    why: str  # how it was known: 'declared by the contract ...', "the title 'Terms of Service'", ...

    @property
    def public(self) -> bool:
        return self.kind != "order-form"

    def evidence(self) -> str:
        return f"document kind: {self.kind} ({self.why})"


@last_document
def paper(contract, declared: str | None = None) -> Paper:
    """The kind of `contract`: `spec.kind`, else `declared` (the configuration's), else read."""
    if contract.spec.kind:
        return Paper(contract.spec.kind, "declared by the contract: spec.kind, or contract-kind in its front matter")
    if declared:
        return Paper(declared, "declared by contract-kind in the configuration")
    title = contract.metadata.title or ""
    for kind, pattern in _TITLE:
        match = pattern.search(title)
        if match:
            return Paper(kind, f"the title {title.strip()!r}")
    body, size = [], 0
    for clause in contract.spec.clauses:
        body.append(clause.text)
        size += len(clause.text)
        if size > _READ:
            break
    text = "\n".join(body)[:_READ]
    counts = {kind: [m.group(0) for m in pattern.finditer(text)] for kind, pattern in _SIGNS.items()}
    best = max(KINDS, key=lambda k: (len(counts[k]), k == "order-form"))  # a tie goes to the order form: nothing excused on a guess
    if not counts[best]:
        return Paper("order-form", "no sign of public terms, an SLA or a policy: read as negotiated paper")
    return Paper(best, "the text says " + _quote(counts[best]))


def _quote(words: list[str]) -> str:
    """Up to three distinct phrases, quoted."""
    seen = list(dict.fromkeys(" ".join(w.split()) for w in words))[:3]
    return ", ".join(repr(w) for w in seen)
