"""Findings about a term a contract lacks: where the term belongs, and how much its absence weighs.

An absence is reported where the reader would write the term: the structured key the contract
wrote for it (`delivery:`), else the heading that covers the subject ("4. Delivery", "Service
Levels", "Support", "Termination"), else a clause that opens on the subject ("12.1 Termination.
..."), else the document's title line. The message names the section it looked in.

How much it weighs depends on the paper (`clusterlint.contracts.paper`): on an order form the absence is a
finding at the rule's severity; public paper (click-through terms, a policy, and an SLA for terms
an SLA does not carry) never carries the term, so the finding is one info that says where to ask.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from clusterlint.contracts.memo import last_document

from clusterlint.contracts.kinds import NUMBER_PREFIX

_LEAD = 60  # characters of a clause (after its number) that say what it is about: "Termination. Either party ..."


class Term(NamedTuple):
    """A term an absence rule looks for."""

    what: str  # 'a delivery date': what public paper never carries
    topic: str  # 'delivery': what a section on it is about
    sections: tuple  # patterns of the headings that cover it, the most specific first
    on_sla: bool = False  # whether an SLA is the paper to carry it


def _words(*alternatives: str) -> tuple:
    return tuple(re.compile(rf"\b(?:{a})\b", re.IGNORECASE) for a in alternatives)


_SERVICE_LEVELS = r"service\s+(?:levels?|commitments?)|SLA|availability|uptime"
DELIVERY = Term("a delivery date", "delivery", _words(r"deliver\w*|hand\s?-?over", r"provisioning|commissioning|timeline|schedule"))
PERFORMANCE = Term("a measurable performance commitment", "performance",
                   _words(r"performance|benchmarks?|specifications?", _SERVICE_LEVELS), on_sla=True)
REPLACEMENT = Term("a replacement time for a failed node", "support",
                   _words(r"replacement|hardware\s+failures?|repairs?|RMA", r"support|maintenance", _SERVICE_LEVELS), on_sla=True)
ACCEPTANCE = Term("an acceptance test", "acceptance", _words(r"acceptance|testing|burn[\s-]?in", r"deliver\w*|hand\s?-?over"))
EXIT = Term("exit terms (termination for convenience, data export)", "termination",
            _words(r"terminat\w*|exit|cancell?ation", r"expiry|expiration|data\s+(?:export|return|retrieval)"))
PRICING = Term("a full price", "pricing", _words(r"pric\w*|fees?|charges?|payment|billing|rates?"))


def missing(review, term: Term, head: str, tail: str, *candidates, public: bool = True):
    """The finding that `term` is absent: '{head}{where}: {tail}' at the place it belongs, or, on
    public paper (when `public` lets the paper excuse it), the info that says to ask for it."""
    from clusterlint.contracts.paper import paper

    contract = review.contract
    found = paper(contract, review.config.get("contract-kind"))
    path, where = place(contract, term, *candidates)
    evidence = (found.evidence(),)
    if public and found.public and not (found.kind == "sla" and term.on_sla):
        owner = "an SLA never carries" if found.kind == "sla" else "public terms never carry"
        return review.hit("Contract", path, f"{owner} {term.what}: ask for it in the order form", key=True, severity="info",
                          evidence=evidence)
    return review.hit("Contract", path, f"{head}{where}: {tail}", key=True, evidence=evidence)


def place(contract, term: Term, *candidates) -> tuple[tuple, str]:
    """(path, words for the message) where an absent `term` belongs (see the module's doc)."""
    for path in candidates:
        if _written(contract, path):
            return path, ""
    clauses = contract.spec.clauses
    sections: dict = {}  # each heading once, at its first clause: a long contract has far fewer headings than clauses
    for i, clause in enumerate(clauses):
        if clause.section:
            sections.setdefault(clause.section, i)
    for pattern in term.sections:
        for section, i in sections.items():
            if pattern.search(section):
                return ("spec", "clauses", i, "section"), f" (looked under {section.strip()!r} and in every clause)"
    leads = _leads(contract)
    for pattern in term.sections:
        for i, lead in enumerate(leads):
            if pattern.match(lead):
                return ("spec", "clauses", i), f" (looked in clause {clauses[i].ref} and in every clause)"
    if not clauses:
        return ("spec",), ""
    where = f" (no section covers {term.topic}; looked in every clause)"
    return (("metadata", "title") if contract.metadata.title else ("spec",)), where


@last_document  # every absence rule looks at them
def _leads(contract) -> list[str]:
    """What each clause opens on, after its number."""
    return [NUMBER_PREFIX.sub("", clause.text[: _LEAD + 20], count=1)[:_LEAD] for clause in contract.spec.clauses]


def _written(contract, path: tuple) -> bool:
    node = contract
    for part in path:
        if part not in getattr(node, "model_fields_set", ()):
            return False
        node = getattr(node, part)
    return True
