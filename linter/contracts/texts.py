"""Every free text of a contract, with where it is, what a message calls it and what kind it is:
the clauses first, then the structured terms written as text. The contract rules and the figures
the estimate reads from prose walk the same list."""

from __future__ import annotations

from typing import NamedTuple

from clusterlint.contracts.kinds import kind_of
from clusterlint.contracts.memo import last_document


class Text(NamedTuple):
    """One text of a contract: where it is, what to call it in a message, what kind it is."""

    path: tuple
    label: str
    text: str
    kind: str


_FIELDS = (
    (("delivery", "acceptance_test"), "delivery.acceptance_test"),
    (("delivery", "late_remedy"), "delivery.late_remedy"),
    (("sla", "measured_as"), "sla.measured_as"),
    (("sla", "credits"), "sla.credits"),
    (("exit", "data_export"), "exit.data_export"),
)


@last_document
def texts(contract) -> tuple[Text, ...]:
    """Every free text of a contract: clauses first, then the structured terms written as text."""
    out = []
    for i, clause in enumerate(contract.spec.clauses):
        out.append(Text(("spec", "clauses", i, "text"), f"clause {clause.ref}", clause.text, clause.kind or kind_of(clause.text)))
    for (section, name), label in _FIELDS:
        value = getattr(getattr(contract.spec, section), name)
        if value:
            out.append(Text(("spec", section, name), label, value, "operative"))
    for i, item in enumerate(contract.spec.performance):
        if item.method:
            out.append(Text(("spec", "performance", i, "method"), f"performance[{i}].method", item.method, "operative"))
    return tuple(out)  # shared by every caller: not to be changed
