"""REL004, REL006-REL009: the service levels a contract commits to, judged by their level.

Each rule reads the structured term first (`sla.availability`, `sla.support`, `sla.maintenance`,
`sla.health_checks`, `delivery.acceptance_test`) and the contract's clauses second, with the same
anchored-words discipline as the contract rules: a clause counts only when it names the words, and
a finding on a clause points at them. A term the contract leaves out is asked for where it belongs
(`clusterlint.rules.missing`); on public paper that is one info.
"""

from __future__ import annotations

import re

from clusterlint.contracts.folded import Folded
from clusterlint.engine.review import Skip, check
from clusterlint.model import units

from clusterlint.contracts.figures import Unplaced, availability
from clusterlint.rules.clauses import and_list, first, sentences_with, texts
from clusterlint.rules.common import NO_PARAMS, fmt
from clusterlint.rules.missing import Term, missing

MONTH_HOURS = 365.25 * 24 / 12  # a twelfth of a Julian year, as `units` counts a month


def _words(*alternatives: str) -> tuple:
    return tuple(re.compile(rf"\b(?:{a})\b", re.IGNORECASE) for a in alternatives)


_SLA_HEADINGS = r"service\s+(?:levels?|commitments?)|SLA"
SUPPORT = Term("a severity-1 support response time", "support", _words(r"support|incidents?|severity", _SLA_HEADINGS), on_sla=True)
MAINTENANCE = Term("a notice period for planned maintenance", "maintenance", _words(r"maintenance", _SLA_HEADINGS), on_sla=True)
HEALTH = Term("a duty to run health checks and drain failed nodes", "health checks",
              _words(r"health\s+checks?|monitoring|maintenance", r"support", _SLA_HEADINGS), on_sla=True)

# a duration as contracts write it: "15 minutes", "4 business hours", "2 days", "1h"
_SPAN = r"(?<![\d.])(\d+(?:\.\d+)?)\s*(?:\(\d+\)\s*)?(minutes?|mins?|(?:business\s+|working\s+|calendar\s+)?(?:hours?|days?)|hrs?|h|weeks?)\b"
_UNIT = {"minute": "min", "min": "min", "hour": "h", "hr": "h", "h": "h", "day": "d", "week": "w"}


def _seconds(number: str, unit: str) -> float:
    word = unit.lower().split()[-1].rstrip("s") or "h"
    return units.parse(f"{number} {_UNIT.get(word, word)}", "duration").value


def _where(contract, label: str) -> tuple:
    for item in texts(contract):
        if item.label == label:
            return item
    return None


# ---------------------------------------------------------------- REL004 availability floor


@check("clusterlint.rules.params:AvailabilityFloor")
def availability_floor(review, params):
    found = availability(review.contract)
    if found is None:
        raise Skip("the contract states no availability commitment")
    if isinstance(found, Unplaced):
        raise Skip(found.text)
    value, source = found.value, found.source.removeprefix("contract ")
    if value >= params.warn_below:
        return
    down = (1 - value) * MONTH_HOURS
    run = _run_hours(review)
    over_run = f", {fmt((1 - value) * run)} h over the workload's {fmt(run)} h run" if run else ""
    message = (f"availability {units.human(value, 'percent')} allows {fmt(down)} h of downtime a month "
               f"({units.human(1 - value, 'percent')} of {fmt(MONTH_HOURS)} h){over_run}; ask for at least {units.human(params.warn_below, 'percent')}")
    severity = "error" if value < params.error_below else "warning"
    if source == "sla.availability":
        yield review.hit("Contract", ("spec", "sla", "availability"), message, severity=severity)
        return
    item = _where(review.contract, source)
    hit = review.hit_words("Contract", item.path, re.search(r"\d+(?:\.\d+)?\s?%", item.text), message)
    hit.severity = severity
    yield hit


def _run_hours(review) -> float | None:
    """Hours the workload's training runs on this cluster, when a workload and the figures are given."""
    if review.workload is None or review.cluster is None:
        return None
    from clusterlint.estimate import sizing

    try:
        run = sizing.training(review)
    except Skip:
        return None
    return None if run is None else run.seconds / 3600


# ---------------------------------------------------------------- REL006 severity-1 support response


_SEV1 = Folded(r"\b(?:severity|sev|priority)[\s-]*(?:1|one|I)\b|\bP[\s-]?1\b|\bS1\b|\bcritical\s+(?:incidents?|issues?|severity|priority|tickets?)\b")
_RESPONSE = Folded(r"\b(?:respon\w*|acknowledg\w*|answer\w*)\b[^.;]{0,60}?\b(?:within|in|of)\s+" + _SPAN
                       + r"|" + _SPAN + r"[^.;]{0,20}?\b(?:response|acknowledg\w*)")


def _sev1_in(text: str):
    """The first response time for severity 1 a text states: (seconds, match of the severity words), else None."""
    for sev in _SEV1.finditer(text):
        end = text.find(".", sev.end())
        sentence = text[text.rfind(".", 0, sev.start()) + 1: len(text) if end < 0 else end]
        response = _RESPONSE.search(sentence)
        if response:
            number, unit = (response.group(1), response.group(2)) if response.group(1) else (response.group(3), response.group(4))
            return _seconds(number, unit), sev
    return None


@check("clusterlint.rules.params:SupportResponse")
def support_response(review, params):
    contract = review.contract
    support = contract.spec.sla.support
    limit, worst = units.parse(params.max_sev1, "duration").value, units.parse(params.error_sev1, "duration").value
    path, seconds, words = ("spec", "sla", "support"), None, None
    if support is not None and not isinstance(support, str):
        if "sev1" in support.response:
            path, seconds = ("spec", "sla", "support", "response", "sev1"), support.response["sev1"].value
    else:
        candidates = ([(path, support)] if support else []) + [(item.path, item.text) for item in texts(contract) if item.kind == "operative"]
        for where, text in candidates:
            found = _sev1_in(text)
            if found:
                (seconds, words), path = found, where
                break
    if seconds is None:
        if support is None:
            yield missing(review, SUPPORT, "the contract states no severity-1 support response time",
                          "a cluster that is down waits in the queue with every other ticket", ("spec", "sla"))
            return
        said = f"support {support!r}" if isinstance(support, str) else "sla.support"
        yield review.hit("Contract", ("spec", "sla", "support"),
                         f"{said} states no severity-1 response time: ask for a first response within {units.human(limit, 'duration')}")
        return
    if seconds <= limit:
        return
    message = (f"severity-1 support responds in {units.human(seconds, 'duration')}, over {units.human(limit, 'duration')}: "
               f"a down cluster idles every node until someone answers")
    hit = review.hit_words("Contract", path, words, message) if words is not None else review.hit("Contract", path, message)
    hit.severity = "error" if seconds > worst else "warning"
    yield hit


# ---------------------------------------------------------------- REL007 maintenance notice


_MAINTENANCE = Folded(r"\b(?:planned|scheduled)?\s*maintenance\b")
_NOTICE = Folded(_SPAN + r"['’]?\s+(?:of\s+)?(?:prior\s+|advanced?\s+|written\s+)*notice\b|\bnotice\s+(?:of\s+)?(?:at\s+least\s+)?"
                     + _SPAN + r"|" + _SPAN + r"\s+in\s+advance\b")


def _notice_in(text: str):
    for match in _NOTICE.finditer(text):
        groups = [g for g in match.groups() if g is not None]
        return _seconds(groups[0], groups[1]), match
    return None


@check("clusterlint.rules.params:MaintenanceNotice")
def maintenance_notice(review, params):
    contract = review.contract
    low, worst = units.parse(params.min_notice, "duration").value, units.parse(params.error_notice, "duration").value
    terms = contract.spec.sla.maintenance
    if terms is not None and terms.notice is not None:
        seconds, path, words = terms.notice.value, ("spec", "sla", "maintenance", "notice"), None
    else:
        found = None
        for item, _ in sentences_with(contract, _MAINTENANCE, _NOTICE, kinds=("operative", "definition")):
            found = _notice_in(item.text)
            if found:
                (seconds, words), path = found, item.path
                break
        if found is None:
            if terms is not None:
                yield review.hit("Contract", ("spec", "sla", "maintenance"),
                                 f"planned maintenance states no notice period: ask for at least {units.human(low, 'duration')}")
                return
            yield missing(review, MAINTENANCE, "the contract states no notice before planned maintenance",
                          "a maintenance window can stop a run without warning", ("spec", "sla"))
            return
    if seconds >= low:
        return
    message = (f"planned maintenance is announced {units.human(seconds, 'duration')} ahead, under {units.human(low, 'duration')}: "
               f"too short to checkpoint and reschedule a multi-day run")
    hit = review.hit_words("Contract", path, words, message) if words is not None else review.hit("Contract", path, message)
    hit.severity = "error" if seconds < worst else "warning"
    yield hit


# ---------------------------------------------------------------- REL008 acceptance test strength


_ACCEPTANCE_WORDS = Folded(r"\bacceptance[\s-]+test\w*|\bburn[\s-]?in\b")
_NCCL = Folded(r"\b(?:nccl\w*|all[_\s-]?reduce\w*|busbw)\b[^.;]{0,80}?(?<![\d.])\d+(?:\.\d+)?\s*(?:GB/s|GBps|Gbps|Gb/s|Tbps)"
                   r"|(?<![\d.])\d+(?:\.\d+)?\s*(?:GB/s|GBps|Gbps|Gb/s|Tbps)[^.;]{0,40}?\b(?:nccl\w*|all[_\s-]?reduce\w*|busbw)\b")
_DCGM = Folded(r"\bdcgm\w*\b[^.;]{0,40}?(?:-r\s*|level\s*|\br)[1-4]\b")
_BURN_IN = Folded(r"\bburn[\s-]?in\b[^.;]{0,40}?(?<![\d.])\d+(?:\.\d+)?\s*[-\s]?(?:h|hours?|hrs?|d|days?)\b"
                      r"|(?<![\d.])\d+(?:\.\d+)?\s*[-\s]?(?:h|hours?|hrs?|d|days?)\b[^.;]{0,20}?\bburn[\s-]?in\b")
_PARTS = ((_NCCL, "no multi-node nccl-tests bandwidth figure"), (_DCGM, "no dcgm diagnostic level"), (_BURN_IN, "no burn-in length"))


@check(NO_PARAMS)
def weak_acceptance_test(review, params):
    contract = review.contract
    written = contract.spec.delivery.acceptance_test
    if written:
        text, path, words, label = written, ("spec", "delivery", "acceptance_test"), None, f"acceptance test {written!r}"
    else:
        found = first(contract, _ACCEPTANCE_WORDS, kinds=("operative", "definition"))
        if found is None:
            raise Skip("the contract has no acceptance test (see REL003)")
        item, words = found
        text, path, label = item.text, item.path, f"the acceptance test in {item.label}"
    lacks = [what for pattern, what in _PARTS if not pattern.search(text)]
    if not lacks:
        return
    message = f"{label} names {and_list(lacks)}: a cluster that boots but cannot train passes it"
    yield review.hit_words("Contract", path, words, message) if words is not None else review.hit("Contract", path, message)


# ---------------------------------------------------------------- REL009 health-check duty


_CHECKS = Folded(r"\bhealth[\s-]?checks?\b|\bdcgm\w*\b|\bdiagnostics?\b|\bnode\s+health\b")
_DRAIN = Folded(r"\bdrain\w*|\bcordon\w*|\b(?:remov\w*|tak\w*)\b[^.;]{0,30}\bout\s+of\s+(?:service|rotation|scheduling)\b"
                    r"|\bremov\w*\b[^.;]{0,30}\bfrom\s+(?:service|the\s+pool|scheduling)\b")


@check(NO_PARAMS)
def health_check_duty(review, params):
    contract = review.contract
    duty = contract.spec.sla.health_checks
    if duty is not None:
        lacks = []
        if not (duty.active or duty.passive):
            lacks.append("runs no active or passive health checks")
        if not duty.drain:
            lacks.append("does not drain a node that fails them")
        if lacks:
            yield review.hit("Contract", ("spec", "sla", "health_checks"),
                             f"the vendor {' and '.join(lacks)}: a failing node keeps taking jobs and crashing them")
        return
    if any(True for _ in sentences_with(contract, _CHECKS, _DRAIN, kinds=("operative", "definition"))):
        return
    yield missing(review, HEALTH, "the contract puts no duty on the vendor to run health checks and drain failed nodes",
                  "a failing node keeps taking jobs and crashing them", ("spec", "sla"))
