"""CON002-004, CON008, REL002-003, LCK004, CST004: what the contract leaves out, and cross-checks.

Each rule reads the structured terms of a Contract first and its clauses second, so the same
rule works on a YAML contract and on the vendor's own text (see `clusterlint.readers.prose`). The
phrase rules are in effort (CON001), supply (CON005), sole_remedy (CON006) and downtime (CON007).
"""

from __future__ import annotations

import re
from clusterlint.contracts.folded import Folded
from clusterlint.model import units
from clusterlint.engine.review import Skip, check
from clusterlint.contracts.sentences import per_sentence, sentence_at

from clusterlint.rules import clauses
from clusterlint.rules.clauses import DATE, MEASURE, REMEDY, sentences_with, texts
from clusterlint.rules.common import NO_PARAMS, fmt
from clusterlint.rules.missing import ACCEPTANCE, DELIVERY, EXIT, PERFORMANCE, PRICING, REPLACEMENT, missing


# ---------------------------------------------------------------- what must be there


_DELIVERY = Folded(
    r"\b(?:deliver\w*|hand\s?over|handed\s+over|ready\s+for\s+(?:service|use)|available\s+for\s+(?:use|production)|go-?live|commission\w*"
    r"|make\s+(?:[\w-]+\s+){0,5}?available|provision(?:ed|s)?|installation|install(?:ed)?|in\s+service)\b",
)
# a date named as the delivery's: "the Delivery Date is 1 March 2027", "target handover date: 2027-03-01"
_NAMED_DATE = Folded(r"\b(?:delivery|handover|hand-over|go-?live|ready[\s-]for[\s-]service|service\s+start|commencement)\s+date\b")


@check(NO_PARAMS)
def no_delivery_date(review, params):
    contract = review.contract
    if contract.spec.delivery.date is not None or _promised(review, _DELIVERY, DATE) or _named(review):
        return
    yield missing(review, DELIVERY, "the contract names no delivery date",
                  "without one the vendor can deliver late, or never, at no cost", ("spec", "delivery"))


def _promised(review, *patterns) -> bool:
    """Whether one sentence holds all `patterns` under the vendor's obligation ("Provider shall
    deliver ... by 2027-03-01", "The Cluster will be handed over on ..."): a date near a word like
    "Commission" in a recital-like description is no delivery promise."""
    from clusterlint.contracts.obligations import read_at

    who = clauses.parties_of(review)
    for item, match in sentences_with(review.contract, *patterns):
        reading = read_at(item.text, match.start(), who)
        if reading.obligor in ("vendor", "none") and reading.modality in ("obligation", "aspiration"):
            return True
    return False


def _named(review) -> bool:
    """Whether a sentence gives the delivery's date by name: "The Delivery Date is 1 March 2027",
    "Target go-live date: 2027-03-01" (not "the Delivery Date" with no date beside it)."""
    for item, match in sentences_with(review.contract, _NAMED_DATE, DATE):
        return True
    return False


_PERFORMANCE = Folded(
    r"\b(?:bandwidth|throughput|busbw|all[_\s-]?reduce|nccl|tflops|mfu|latency|iops|tokens?\s+per\s+second)\b"
)
_METHOD = Folded(r"\b(?:measured|nccl-tests|benchmark\w*|test\w*|as\s+reported\s+by|using)\b")
_FIGURE = re.compile(r"^\s*\d+(?:\.\d+)?\s*[^\d\s].*$")


@check(NO_PARAMS)
def no_performance_guarantee(review, params):
    contract = review.contract
    for i, item in enumerate(contract.spec.performance):  # every entry, whatever the order: one good entry excuses no bad one
        if not _FIGURE.match(item.value):
            yield review.hit("Contract", ("spec", "performance", i, "value"),
                             f"performance commitment {item.metric!r} is {item.value!r}: not a number with a unit, so it cannot be checked")
        elif not item.method:
            yield review.hit("Contract", ("spec", "performance", i),
                             f"performance commitment {item.metric!r} of {item.value} names no measurement method, so it cannot be checked",
                             key=True)
    if contract.spec.performance:
        return
    for item, match in sentences_with(contract, _PERFORMANCE, MEASURE):
        if _METHOD.search(sentence_at(item.text, match.start())):
            return
    yield missing(review, PERFORMANCE, "the contract commits to no measurable performance (a figure with a unit and how it is "
                  "measured, e.g. nccl-tests all_reduce busbw >= 360GB/s)", "a slow cluster still meets it", ("spec", "performance"))


_OBLIGATION = Folded(r"\b(?:shall|will|must|agrees?\s+to|commits?\s+to|guarantees?)\b")
_CHECKABLE = Folded(f"{DATE.pattern}|{MEASURE.pattern}")  # a date or a figure


@check(NO_PARAMS)
def no_remedy(review, params):
    contract = review.contract
    spec = contract.spec
    if spec.delivery.date is not None and not spec.delivery.late_remedy:
        yield review.hit("Contract", ("spec", "delivery", "date"),
                         f"delivery date {spec.delivery.date} has no remedy if missed (late_remedy: a credit, fee suspension or termination)")
    if spec.sla.availability is not None and not spec.sla.credits:
        yield review.hit("Contract", ("spec", "sla", "availability"),
                         f"availability {spec.sla.availability} has no remedy if missed (credits: a share of the fee per shortfall)")
    if spec.delivery.late_remedy or spec.sla.credits:
        return
    if any(REMEDY.search(item.text) for item in texts(contract) if item.kind == "operative"):
        return
    for item, match in sentences_with(contract, _OBLIGATION, _CHECKABLE):
        yield review.hit_words(
            "Contract", item.path, match,
            f"{item.label} sets an obligation, and no clause of the contract says what the vendor owes when it is missed "
            "(a credit, fee suspension or termination right)",
        )
        return


_REPLACE = Folded(r"\b(?:replac\w*|repair\w*|swap\w*|RMA)\b")
_WITHIN = Folded(r"\bwithin\s+(\d+(?:\.\d+)?)\s*(hours?|hrs?|h|minutes?|mins?|(?:business\s+|calendar\s+|working\s+)?days?|d)\b")


def replacement_time(contract):
    """How fast a failed node is replaced: (seconds, path, label) from the SLA or a clause, else None."""
    if contract.spec.sla.node_replacement is not None:
        return contract.spec.sla.node_replacement.value, ("spec", "sla", "node_replacement"), "sla.node_replacement"
    for item, _ in sentences_with(contract, _REPLACE, _WITHIN, kinds=("operative", "definition")):
        for match, sentence in per_sentence(_REPLACE, item.text):
            within = _WITHIN.search(sentence)
            if within:
                unit = within.group(2).lower().split()[-1].rstrip("s")
                unit = {"hr": "h", "minute": "min"}.get(unit, unit)
                return units.parse(f"{within.group(1)} {unit}", "duration").value, item.path, item.label
    return None


@check(NO_PARAMS)
def no_replacement_sla(review, params):
    contract = review.contract
    if replacement_time(contract) is not None:
        return
    yield missing(review, REPLACEMENT, "the contract states no replacement time for a failed node or accelerator",
                  "a dead GPU can idle the whole job while the vendor takes its time", ("spec", "sla"))


# an acceptance test of the delivered systems; "acceptance of these Terms" is consent to a contract
_ACCEPTANCE = Folded(
    r"\bacceptance[\s-]+(?:test\w*|criteria|procedure|period|certificate)\b|\bburn[\s-]?in\b"
    r"|\baccept(?:ance\s+of|s?)\s+(?:the\s+|each\s+|any\s+)?(?:cluster|nodes?|systems?|hardware|delivery|servers?|capacity)\b",
)


@check(NO_PARAMS)
def no_acceptance_test(review, params):
    contract = review.contract
    if contract.spec.delivery.acceptance_test or clauses.first(contract, _ACCEPTANCE, kinds=("operative", "definition")):
        return
    yield missing(review, ACCEPTANCE, "the contract has no acceptance or burn-in test before handover",
                  "you pay from day one for nodes that were never shown to work together", ("spec", "delivery"))


_TERMINATION = Folded(
    r"\bterminat\w*[^.;]{0,80}\bfor\s+(?:its\s+|the\s+customer['’]s\s+)?convenience\b|\bfor\s+convenience\b[^.;]{0,60}\bterminat\w*"
    r"|\bterminat\w*[^.;]{0,80}\b(?:upon|on|with|by\s+giving)\s+(?:at\s+least\s+)?(?:\w+\s+\()?\d+\)?\s+(?:days|months)['’]?\s+(?:prior\s+)?(?:written\s+)?notice"
    r"|\bterminat\w*[^.;]{0,80}\bat\s+any\s+time\b|\bat\s+any\s+time\b[^.;]{0,40}\bterminat\w*",
)
_EXPORT = Folded(
    r"\b(?:export\w*|retriev\w*|return\w*|download\w*|migrat\w*)\b[^.;]{0,80}\bdata\b|\bdata\b[^.;]{0,80}\b(?:export\w*|retriev\w*|returned)\b",
)


def _customer_may_terminate(review) -> bool:
    """A clause lets the customer (or either party) end the contract at will: for convenience, at
    any time or on notice. "Provider may terminate at any time" is no exit for the buyer."""
    from clusterlint.contracts.obligations import read_at

    who = clauses.parties_of(review)
    for item in texts(review.contract):
        if item.kind == "operative":
            for match in _TERMINATION.finditer(item.text):
                reading = read_at(item.text, match.start(), who)
                if reading.obligor in ("customer", "both", "none") and reading.modality != "prohibition":
                    return True
    return False


@check(NO_PARAMS)
def no_exit_terms(review, params):
    contract = review.contract
    exit_terms = contract.spec.exit
    lacks = []
    if not exit_terms.termination_for_convenience and not _customer_may_terminate(review):
        lacks.append("no termination for convenience")
    if not exit_terms.data_export and not clauses.first(contract, _EXPORT):
        lacks.append("no data export")
    if lacks:
        yield missing(review, EXIT, f"the contract has {' and '.join(lacks)} terms",
                      "leaving this provider means paying out the term or losing the data", ("spec", "exit"))


# ---------------------------------------------------------------- cost and performance cross-checks


COST_LINES = ("storage", "network", "support", "egress")
_LINE_WORDS = {
    line: re.compile(words, re.IGNORECASE)
    for line, words in {
        "storage": r"\bstorage\b",
        "network": r"\b(?:network\w*|interconnect|fabric)\b",
        "support": r"\bsupport\b",
        "egress": r"\b(?:egress|data\s+transfer\s+out|outbound\s+(?:data|transfer|traffic))\b",
    }.items()
}
# An amount of money: a number starts only where no digit, dot or comma precedes it, so a 20 KB
# run of "1,2,3,..." is read once (linear), not once per digit (quadratic).
_MONEY = r"(?:[$€£]\s?\d|(?<![\d.,])\d[\d.,]*\s?(?:USD|EUR|GBP)\b)"
# A price of compute or of a cost line: money per unit of time or of capacity ("2.10 USD per
# GPU-hour", "$0.08/GB-month", "EUR 400 per node per month"). An invoicing threshold ("invoices
# under 20,000 USD") or a liability cap ("limited to 5,000 USD") is an amount, not a price.
_PRICE = Folded(
    _MONEY + r"[\d.,]*\s?(?:USD|EUR|GBP)?\s?(?:per|/|an?|each)\s?(?:[\w-]{1,20}[\s-]){0,2}?"
    r"(?:hours?|hrs?|h|months?|mo|days?|weeks?|years?|gpus?|accelerators?|nodes?|instances?|servers?|[kMGTP]i?B)\b",
)
_COVERED = Folded(
    r"\binclud\w*|\bbundled\b|\bat\s+no\s+(?:additional\s+|extra\s+)?(?:cost|charge)\b|\bfree\s+of\s+charge\b|\bno\s+charge\b|"
    + _PRICE.pattern,
)


@check(NO_PARAMS)
def hidden_cost_lines(review, params):
    contract = review.contract
    pricing = contract.spec.pricing
    if pricing.accelerator_hour is None and not clauses.first(contract, _PRICE):
        raise Skip("the contract states no price")
    covered = set(pricing.includes) | {line for line in COST_LINES for key in pricing.extras if line in key}
    for line in COST_LINES:
        if line not in covered and next(sentences_with(contract, _LINE_WORDS[line], _COVERED), None):
            covered.add(line)
    lacks = [line for line in COST_LINES if line not in covered]
    if lacks:
        yield missing(review, PRICING, f"the price neither includes nor prices {clauses.and_list(lacks)}",
                      "these lines arrive on the first invoice", ("spec", "pricing", "includes"), ("spec", "pricing"), public=False)


@check("clusterlint.rules.params:Commitment")
def commitment_below_advertised(review, params):
    cluster, contract = review.cluster, review.contract
    advertised = _advertised(cluster)
    for i, item in enumerate(contract.spec.performance):
        if item.metric not in advertised:
            continue
        try:
            committed = units.parse(item.value, "rate").value
        except units.UnitError:
            continue  # not a rate: CON003 says so
        figure, how = advertised[item.metric]
        if figure and committed < params.min_share * figure:
            yield review.hit(
                "Contract", ("spec", "performance", i, "value"),
                f"the contract commits to {item.metric} {item.value}, {fmt(100 * committed / figure)}% of the "
                f"{units.human(figure, 'rate')} the cluster advertises ({how}); below {params.min_share:.0%} the "
                "rest is a promise the contract does not make",
            )


def _advertised(cluster) -> dict:
    out = {}
    inter = cluster.spec.network.inter_node
    if inter is not None and inter.nic_speed is not None and inter.nics_per_node:
        out["inter_node_bandwidth"] = (inter.nics_per_node * inter.nic_speed.value,
                                       f"{inter.nics_per_node} x {units.human(inter.nic_speed.value, 'rate')} per node")
    for direction in ("read", "write"):
        figures = [getattr(s, f"{direction}_bandwidth") for s in cluster.spec.storage or () if s.shared and getattr(s, f"{direction}_bandwidth")]
        if figures:
            out[f"storage_{direction}_bandwidth"] = (sum(f.value for f in figures), f"shared storage {direction} bandwidth")
    return out
