"""CON001: a clause that promises only effort, anchored in the effort words it quotes."""

from __future__ import annotations

import re

from clusterlint.contracts.folded import Folded
from clusterlint.contracts.sentences import sentence_span
from clusterlint.rules import clauses
from clusterlint.rules.anchors import anchored, quoted, words
from clusterlint.rules.clauses import parts, phrase_pattern, texts
from clusterlint.engine.review import check


_ACTION_WORD = Folded(r"attempt|tr(?:y|ies)|aim|target")  # effort words that can also be nouns
# what follows an effort word used as a noun: "attempts to the Instance", not "strives to keep"
_AIM_AT_A_THING = Folded(r"(?:\s+to)?\s+(?:the|a|an|any|its|your|our|their|this|that|each|every)\b")
_DETERMINED = Folded(
    r"\b(?:the|a|an|any|all|such|no|these|those|its|their|your|our|of|\d+|one|two|three|four|five|several|multiple|repeated|many)\s+(?:[\w-]+\s+)?$",
)
_MANNER = Folded(r"(?<!\s)\s+(?:manner|way|fashion|time\w*|period|basis)\b")  # how a thing is done: effort
_ASKS = Folded(r"\b(?:asks?|requests?|requires?|invites?|expects?|encourages?|urges?)\s+(?:the\s+)?([\w'’]+(?:\s+[A-Z][\w'’]+)?)\s+to\b[^.;]{0,40}$")
_PLEASE = Folded(r"\bplease\s+(?:\w+\s+)?$")
_COUNTED = Folded(r"\b(?:\d+|one|two|three|four|five|six|several|multiple|repeated)\s+(?:successive\s+|consecutive\s+|further\s+)?$")  # attempts counted
# effort denied or past: "not an obligation merely to use reasonable efforts", "despite having used reasonable efforts"
_NOT_MERELY = Folded(r"\bnot\b[^.;]{0,30}\b(?:merely|only|simply|just)\s+(?:to\s+)?(?:use\s+|make\s+)?$|\bdespite\s+(?:having\s+)?(?:used|using|making|made)\s+$|\bnotwithstanding\s+(?:its|their|our|his|her|the\s+[\w'’]+)\s+$")
_ASIDE = re.compile(r",.*,|\s+to$")  # what a finding quotes of effort words: not ", where practicable," nor a trailing "to"
_CLASS_BEFORE = Folded(r"\b(?:queue|tier|class|partition|plan|pool)\s*\(\s*$")  # "Shared Queue (best effort)"
_QUALIFIES = Folded(r"\s+[a-z]")  # a word after the adjective: the noun it qualifies
_SERVICE_CLASS = Folded(r"(?<!\s)\s+(?:[\w-]+\s+)?(?:queues?|jobs?|tiers?|class(?:es)?|partitions?|capacity|instances?|nodes?|traffic|priority|allocations?)\b")  # "best-effort queue"


# the effort words the learned reading needs in a sentence before it may confirm it (its anchor)
EFFORT_WORDS = Folded(
    r"\b(?:efforts?|endeavou?r\w*|striv\w*|tr(?:y|ies|ying)|attempt\w*|aim(?:s|ing)?|goal|objective|target\w*|seek\w*|hop(?:e|es|ing)|intend\w*"
    r"|aspir\w*|utmost|diligent\w*|best|(?:commercially\s+)?reasonabl[ey]|possible\s+steps)\b",
)
_GOAL = Folded(r"goal|objective")
# what a programme or a document is for, not a result owed to the customer: "the Matching Fund aims to encourage the community"
# (or what the vendor's conduct is for: "We do our best to deserve that trust", "endeavors to ensure you are successful")
_PURPOSE = Folded(r"\s+(?:to\s+)?(?:encourag|promot|foster|inspir|celebrat|reward|rais\w*\s+awareness|deserv|earn\w*\s+(?:\w+\s+)?trust|empower"
                   r"|be\s+(?:the|a)\s+(?:most|best|leading|first|premier)\b|help\s+deliver|quickly\s+enable|enable\s+(?:new\s+)?(?:users|researchers)"
                   r"|ensure\s+(?:that\s+)?(?:you|customers?|users?|our\s+customers)\s+(?:are|is|will\s+be|become)\s+successful|help\s+(?:you|customers?|users?)\s+succeed)")
# what a document or a statement of purpose is for: "This guide aims to ...", "The SLA's purpose is to ensure Provider strives to ..."
_DOCUMENT_AIMS = Folded(r"(?:\b(?:this|the)\s+(?:guide|page|document|section|tutorial|course|chapter|faq|article|handbook|manual|website)\s+"
                        r"|\bpurpose\s+is\s+to\b[^.;]{0,60})$")
# what a sentence defines, not a promise: "Response Time is the estimated time in which personnel try to respond", "best-effort
# support means doing our utmost", "it refers to making all reasonable endeavors", "a primary service is one where we expect to"
_DEFINES = Folded(r"\b(?:means|refers\s+to|is\s+defined\s+as|is\s+one\s+(?:where|in\s+which|that))\b[^.;]{0,120}$")
_DEFINED_BY = Folded(r"(?:\s+[\w-]+){0,2}\s+(?:means|is\s+defined\s+as|refers\s+to)\b")  # the term defined: "best-effort support means"
_FIRST_PERSON = re.compile(r"(?<!\w)I\s+(?:[a-z]+\s+){0,3}$")  # the user who signs: "I will use best efforts", "I should make"
_HOPE_AS_NOUN = Folded(r"\b(?:with|in)\s+the\s+$")  # "with the hope to lower the overhead": why a thing was done
_TERM_IS = re.compile(r"\W{0,4}(?:\d{1,3}(?:\.\d{1,3}){0,3}\.?\s+\W{0,4})?(?!(?:The|This|That|Our|Each|Any|Every|All)\b)[A-Z][\w-]*\s+[A-Z][\w-]*\s+(?:is|are)\s+(?:the|an?)\b")
# what was done, not promised: "UKRI has endeavoured to ensure"; an effort that stops: "we will stop trying to submit jobs"
_DONE = Folded(r"\b(?:has|have|had)\s+(?:\w+\s+)?$")
_STOPS = Folded(r"\b(?:stop|stops|stopped|cease|ceases)\s+$")
# a program tries, not a party: "The LUMI module will try to detect the node type", "the scheduler will attempt to place the job"
_SOFTWARE = Folded(r"\b(?:module|scheduler|script|installer|daemon|plugin|algorithm|command|program|client|tool|library|package|slurm)\W{0,2}\s+"
                   r"(?:will|would|may|can|shall)\s+(?:\w+\s+)?$")
# "targeted at" an audience, not a date: "It's specifically targeted at cloud solutions" (but "targeted at the end of March")
_AUDIENCE = Folded(r"\s+at\s+(?!(?:the\s+)?(?:end|start|beginning|middle|close)\b|\d|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b|q[1-4]\b)")
# what the vendor is always doing, no promise about a result: "We're always trying to improve our Services, so they may change"
_HABIT = Folded(r"\b(?:is|are|am|['’]re|['’]m)\s+(?:always|constantly|continually|continuously|forever)\s+$")
# a try negated, a prohibition: "Not to disrupt the Services ..., nor to try to breach their security"
_NEGATED = Folded(r"\b(?:not|nor|never)\s+(?:to\s+)?$")
# somebody else trying: "timely support to users trying to apply for access"
_OTHERS_TRYING = Folded(r"\b(?:(?:users?|customers?|people|anyone|someone|researchers?|applicants?|those|persons?|visitors?|clients?|members?"
                        r"|students?|jobs?|applications?|workloads?|codes?)\s+(?:(?:who|that|which)\s+(?:are\s+|is\s+)?)?"
                        # a use or an activity that seeks to: "your use of the service seeks to impede", "activities which seek to"
                        r"|(?:use|activit(?:y|ies)|conduct|behaviou?r)\s+(?:of\s+(?:[\w-]+\s+){1,4}?)?(?:(?:that|which)\s+)?"
                        # a programme's aim: "an initiative that aims to provide free access"
                        r"|(?:initiative|project|programme|program|consortium|network|partnership|collaboration|community|alliance)\s+(?:that|which)\s+)$")
# attempts as the subject of their consequence: "Attempts to subvert these limits ... may result in termination"
_ATTEMPTS_THAT = Folded(r"(?:any\s+|all\s+)?attempts?\s+to\b[^.;]{0,200}?\b(?:may|will|shall|can|could|would|is|are)\s+(?:\w+\s+)?"
                        r"(?:result|lead|incur|constitut|violat|be\s+(?:treated|considered|deemed|grounds|void)|prohibited|forbidden|not\s+(?:permitted|allowed))")
# a capitalised defined term, not a promise: "Target Uptime", "Service Level Target", "Target Response Time"
_TERM_AFTER = re.compile(r"\s+[A-Z][a-z]")
_LABEL = re.compile(r"\W{0,3}:\W{0,3}\d")  # a label and its figure
# effort words that open the sentence as an adverbial ("On a best-effort basis, ..."): its main clause says who does what
_LEADS = Folded(r"\W{0,4}(?:\d{1,3}(?:\.\d{1,3}){0,3}\.?\s+)?(?:on|in)\s+an?\s+")
_LEADING = Folded(r"(?:\s+basis)?\s*,\s*")
_MODAL = Folded(r"\b(?:will|shall|must|may|might|can|could|would)\b")
_TERM_BEFORE = re.compile(r"[A-Z][a-z]+\s+$")
_ITEM_START = Folded(r"^\s*(?:[-*•]\s+|\(?[a-z0-9ivx]{1,4}[.)]\s*)+$")  # "(c) attempt to ...": a list's item
# a list item that runs on from a lead-in the clause does not hold ("Partner shall ensure that the Endpoint: ... (c) uses
# commercially reasonable efforts to ...;"): it starts with a verb in the third person, no subject of its
# own, so its party is the lead-in's and is not known here
_CONTINUED_ITEM = re.compile(
    r"[ \t]{0,8}(?:\d{1,3}(?:\.\d{1,3}){1,3}\.?[ \t]{1,4})?(?:(?:[-*•]|\(?(?:[a-zA-Z]|\d{1,3}|[ivxIVX]{1,4})[.)])[ \t]{1,4}){1,3}"
    r"[a-z]{1,20}s\b(?<!\bits)(?<!\bthis)[^\n]*")
# an act and the attempt at it, listed together: "register, or attempt to register", "access or attempt to access", "reverse
# engineer, decompile, or otherwise attempt to derive" (what a prohibition lists, never an effort promise)
# (a series of acts ending "... or seek to access": "reverse engineer, decompile or seek to access the source code")
_ACT_OR_ATTEMPT = Folded(r"\b([a-z]{3,}),?\s+or\s+(?:to\s+)?attempt\s+to\s+\1\b|,\s+or\s+otherwise\s+attempt\s+to\b"
                         r"|\b(?:attempt|seek|try)s?\s+to\s+or\s+[a-z]{3,}"  # "Attempt to or circumvent ...", "activities which seek to or result in"
                         r"|,\s+[a-z]{3,}(?:\s+[a-z]{3,})?,?\s+or\s+(?:otherwise\s+)?(?:attempt|seek|try)\s+to\b")


@check("clusterlint.rules.params:LearnedPhrases")
def reasonable_effort_clause(review, params):
    from clusterlint.contracts.obligations import is_noun_or_predicate, read_at

    pattern, who = phrase_pattern(params.phrases), clauses.parties_of(review)
    for item in texts(review.contract):
        if item.kind != "operative":
            continue
        found, continued = None, _CONTINUED_ITEM.match(item.text)
        for match, _, learned in _effort_words(pattern, item.text, params.learned):
            if quoted(item.text, match) or _defined_term(item.text, match) or _ITEM_START.match(item.text, 0, match.start()) or (
                    continued and match.start() < continued.end()) or _ACT_OR_ATTEMPT.search(item.text, max(0, match.start() - 40), match.end() + 40):
                continue  # named, not used ('a party using "reasonable endeavours" ...'), a defined term, a list's item, an
                # item whose party is in a lead-in the clause does not hold, an attempt listed with its act
            use = is_noun_or_predicate(item.text, match.start())
            first = match.group(0).split()[0].lower()
            if use == "a condition" and not _ACTION_WORD.match(first) and not first.startswith(("striv", "endeav", "best")) \
                    and not first.endswith("ing") and first != "as":
                continue  # "(i) is commercially reasonable;" (but "is striving to", "is hoping to" are verbs, and "is as reliable
                # as is reasonably practical" qualifies the work)
            reading = read_at(item.text, match.start(), who)
            lead = _LEADING.match(item.text, match.end()) if not reading.modal and _LEADS.fullmatch(
                item.text, sentence_span(item.text, match.start())[0], match.start()) else None
            modal = lead and _MODAL.search(item.text, lead.end(), lead.end() + 60)
            if modal and modal.group(0).lower() in ("might", "could"):
                continue  # "On a best-effort basis, Microsoft Support might advise ...": a possibility, no promise
            if modal:  # "On a best-effort basis, Provider will help ...": read the main clause after it, at its verb
                reading = read_at(item.text, modal.end(), who)
            if _binds_nobody(item.text, match, use, reading) or _asked_of_customer(item.text, match, who):
                continue
            found = found or parts(item.text, who)  # once per text: linear however many matches
            if found.firm:
                break  # a hard date or figure with the customer's remedy: the effort words only add to it
            said = _ASIDE.sub("", words(match)).strip("_*")  # not Markdown's emphasis: "_try_"
            how = "" if learned is None else f", confirmed by the learned reading ({learned.describe()})"
            yield anchored(review, item, match, f"{item.label} is {reading.describe()} that promises only {said!r}{how}: "
                           f"{found.describe()}; an effort promise cannot be enforced", reading, learned)
            break


def _effort_words(pattern, text, threshold):
    """(match, sentence, learned) for every effort phrase in `text` (sentence and learned None), else
    for the effort words of each sentence the learned reading confirms."""
    found = False
    for match in pattern.finditer(text):
        found = True
        yield match, None, None
    if not found:
        yield from clauses.learned(text, "CON001", threshold, EFFORT_WORDS)


def _defined_term(text: str, match: re.Match) -> bool:
    """Whether the words are part of a capitalised defined term: "the Target Uptime", "Service Level Target", "meet target
    Resolution Times" (not a label that states its figure: "Target Availability: 99.99%")."""
    first = match.group(0)[:1]
    if not _ACTION_WORD.match(match.group(0)) and not _GOAL.match(match.group(0)) or _LABEL.match(text, match.end()):
        return False
    if not first.isupper():
        return match.group(0).lower().startswith("target ") and bool(_TERM_AFTER.match(text, match.start() + 6))
    return bool(_TERM_AFTER.match(text, match.start() + len(match.group(0).split()[0])) or _TERM_BEFORE.search(text, max(0, match.start() - 30), match.start()))


def _binds_nobody(text: str, match: re.Match, use: str | None, reading) -> bool:
    """Whether the effort words `match`, used as `use` ("a noun", "a condition" or None) and read as
    `reading`, are no promise of the vendor's."""
    from clusterlint.contracts.obligations import PASSIVE

    words = match.group(0)
    if use and _ACTION_WORD.match(words) and (reading.modality == "description" or reading.subject == PASSIVE
                                               or reading.modal.lower() == words.split()[0].lower()
                                               or _COUNTED.search(text, max(0, match.start() - 30), match.start())):
        return True  # a noun: "any attempt to assign is void", "... will be rejected", "the Contractor's attempts to
        # contact" (read as its own verb), "will make up to three attempts"
    if " ".join(words.lower().split()) == "commercially reasonable" and _QUALIFIES.match(text, match.end()) and not _MANNER.match(text, match.end()):
        return True  # an adjective: "a commercially reasonable equivalent", "maintain commercially reasonable safeguards"
        # (not "in a commercially reasonable manner", nor "as soon as commercially reasonable")
    if words.lower().startswith("best") and (_SERVICE_CLASS.match(text, match.end()) or _CLASS_BEFORE.search(text, max(0, match.start() - 30), match.start())):
        return True  # a class of service, whoever is read: "Spot and best-effort tiers get community support only"
    if _NOT_MERELY.search(text, max(0, match.start() - 60), match.start()):
        return True  # "an absolute obligation and not an obligation merely to use reasonable efforts", "despite having used ..."
    if _asks(text, match.start()):
        return True  # a question promises nothing: "What was the prospect attempting to do?"
    if _PLEASE.search(text, max(0, match.start() - 30), match.start()):
        return True  # an imperative to the reader, the customer: "Please try to raise tickets through the portal"
    if reading.obligor in ("customer", "both") or reading.modality in ("permission", "prohibition", "condition"):
        return True  # the customer's duty, a right, a prohibition or a condition: not the vendor's promise
    if words.lower() == "targeted" and _AUDIENCE.match(text, match.end()):
        return True  # who a thing is for: "It's specifically targeted at cloud solutions like IaaS"
    if _PURPOSE.match(text, match.end()):
        return True  # "the Matching Fund aims to encourage the community to contribute": a purpose, not a result owed
    if words.split()[0].lower().endswith("ing") and _HABIT.search(text, max(0, match.start() - 30), match.start()):
        return True  # "we're always trying to improve our products": a standing habit described, no result promised
    if _NEGATED.search(text, max(0, match.start() - 12), match.start()) or _ATTEMPTS_THAT.match(text, match.start()):
        return True  # "nor to try to breach their security": a prohibition; "Attempts to subvert the limits may result in ...": a noun
    if _OTHERS_TRYING.search(text, max(0, match.start() - 30), match.start()) and (_ACTION_WORD.match(words) or words.lower().startswith(("aim", "seek"))):
        return True  # "support to users trying to apply for access", "jobs that aim to scale out": they try, not the vendor
    if reading.subject == "I" or _FIRST_PERSON.search(text, sentence_span(text, match.start())[0], match.start()):
        return True  # the user who signs speaks: "I will use best efforts to publish the results"
    if _DOCUMENT_AIMS.search(text, sentence_span(text, match.start())[0], match.start()) \
            or _DEFINES.search(text, max(0, match.start() - 140), match.start()) or _DEFINED_BY.match(text, match.end()) \
            or _TERM_IS.match(text, sentence_span(text, match.start())[0]):
        return True  # what a document is for; what a sentence defines
    if words.lower().startswith("hop") and _HOPE_AS_NOUN.search(text, max(0, match.start() - 12), match.start()):
        return True  # why a thing was done: "with the hope to lower the overhead"
    if _DONE.search(text, max(0, match.start() - 20), match.start()) and words.split()[0].lower().endswith("ed") \
            or _STOPS.search(text, max(0, match.start() - 12), match.start()) or _SOFTWARE.search(text, max(0, match.start() - 40), match.start()):
        return True  # done, not promised; an effort that stops; a program tries
    if reading.obligor != "none":
        return False
    if reading.modality == "aspiration":  # a noun, nobody aims: "connection attempts to the Instance fail",
        return bool(_AIM_AT_A_THING.match(text, match.end())  # "the failed attempts to deliver", "makes three attempts to"
                    or _ACTION_WORD.match(words) and _DETERMINED.search(text, max(0, match.start() - 30), match.start()))
    return False


def _asks(text: str, offset: int) -> bool:
    """Whether the sentence that holds `offset` is a question."""
    return text[: sentence_span(text, offset)[1]].rstrip().endswith("?")


def _asked_of_customer(text: str, match: re.Match, who) -> bool:
    """Whether the effort words are what the vendor asks of the customer: "Provider asks the Customer
    to make all reasonable effort to ..." binds the customer, not the vendor."""
    asked = _ASKS.search(text, max(0, match.start() - 80), match.start())
    return asked is not None and who.party(asked.group(1)) == "customer"

