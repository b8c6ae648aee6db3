"""CON, REL002-003, LCK004, CST004: what the contract promises, and what it leaves out.

Each rule reads the structured terms of a Contract first and its clauses second, so the same
rule works on a YAML contract and on the vendor's own text (see `clusterlint.readers.prose`).
"""

from __future__ import annotations

import re
from pydantic import Field

from clusterlint.model import units
from clusterlint.engine.review import Skip, check
from clusterlint.contracts.sentences import per_sentence, sentence_at, sentence_span

from clusterlint.rules import clauses
from clusterlint.rules.clauses import DATE, MEASURE, REMEDY, LearnedParams, LearnedPhrases, candidates, parts, sentences_with, texts
from clusterlint.rules.common import Params, fmt
from clusterlint.rules.missing import ACCEPTANCE, DELIVERY, EXIT, PERFORMANCE, PRICING, REPLACEMENT, missing


# ---------------------------------------------------------------- promises of effort and availability


_ACTION_WORD = re.compile(r"attempt|tr(?:y|ies)|aim|target", re.IGNORECASE)  # effort words that can also be nouns
# what follows an effort word used as a noun: "attempts to the Instance", not "strives to keep"
_AIM_AT_A_THING = re.compile(r"(?:\s+to)?\s+(?:the|a|an|any|its|your|our|their|this|that|each|every)\b", re.IGNORECASE)
_DETERMINED = re.compile(
    r"\b(?:the|a|an|any|all|such|no|these|those|its|their|your|our|of|\d+|one|two|three|four|five|several|multiple|repeated|many)\s+(?:[\w-]+\s+)?$",
    re.IGNORECASE,
)
_MANNER = re.compile(r"\s+(?:manner|way|fashion|time\w*|period|basis)\b", re.IGNORECASE)  # how a thing is done: effort
_ASKS = re.compile(r"\b(?:asks?|requests?|requires?|invites?|expects?|encourages?|urges?)\s+(?:the\s+)?([\w'’]+(?:\s+[A-Z][\w'’]+)?)\s+to\b[^.;]{0,40}$", re.IGNORECASE)
_PLEASE = re.compile(r"\bplease\s+(?:\w+\s+)?$", re.IGNORECASE)
_COUNTED = re.compile(r"\b(?:\d+|one|two|three|four|five|six|several|multiple|repeated)\s+(?:successive\s+|consecutive\s+|further\s+)?$", re.IGNORECASE)  # attempts counted
# effort denied or past: "not an obligation merely to use reasonable efforts", "despite having used reasonable efforts"
_NOT_MERELY = re.compile(r"\bnot\b[^.;]{0,30}\b(?:merely|only|simply|just)\s+(?:to\s+)?(?:use\s+|make\s+)?$|\bdespite\s+(?:having\s+)?(?:used|using|making|made)\s+$|\bnotwithstanding\s+(?:its|their|our|his|her|the\s+[\w'’]+)\s+$", re.IGNORECASE)
_ASIDE = re.compile(r",.*,|\s+to$")  # what a finding quotes of effort words: not ", where practicable," nor a trailing "to"
_CLASS_BEFORE = re.compile(r"\b(?:queue|tier|class|partition|plan|pool)\s*\(\s*$", re.IGNORECASE)  # "Shared Queue (best effort)"
_QUALIFIES = re.compile(r"\s+[a-z]", re.IGNORECASE)  # a word after the adjective: the noun it qualifies
_SERVICE_CLASS = re.compile(r"\s+(?:[\w-]+\s+)?(?:queues?|jobs?|tiers?|class(?:es)?|partitions?|capacity|instances?|nodes?|traffic|priority|allocations?)\b", re.IGNORECASE)  # "best-effort queue"


@check(LearnedPhrases)
def reasonable_effort_clause(review, params):
    from clusterlint.contracts.obligations import is_noun_or_predicate, read, read_at

    pattern, who = params.pattern, clauses.parties_of(review)
    for item in texts(review.contract):
        if item.kind != "operative":
            continue
        found = matched = None
        for match in pattern.finditer(item.text):
            matched = True
            if quoted(item.text, match):
                continue  # named, not used: 'a party using "reasonable endeavours" shall be construed ...'
            use = is_noun_or_predicate(item.text, match.start())
            if use == "a condition" and not _ACTION_WORD.match(match.group(0)) and not match.group(0).lower().startswith(("striv", "endeav", "best")):
                continue  # "(i) is commercially reasonable;" (but "is striving to" is a verb)
            reading = read_at(item.text, match.start(), who)
            if _binds_nobody(item.text, match, use, reading) or _asked_of_customer(item.text, match, who):
                continue
            found = found or parts(item.text, who)  # once per text: linear however many matches
            if found.firm:
                break  # a hard date or figure with the customer's remedy: the effort words only add to it
            words = _ASIDE.sub("", " ".join(match.group(0).split()))
            yield _read(review.hit_words(
                "Contract", item.path, match,
                f"{item.label} is {reading.describe()} that promises only {words!r}: {found.describe()}; "
                "an effort promise cannot be enforced",
            ), reading)
            break
        for match, sentence, reading_learned in () if matched else clauses.learned(item.text, "CON001", params.learned):
            reading = read(sentence, who)  # the sentence's main clause: the learned reading points at no one word
            if reading.obligor in ("customer", "both") or reading.modality in ("permission", "prohibition", "condition"):
                continue  # as for the words the patterns know: no customer's duty, right, prohibition or condition
            found = parts(item.text, who)
            if found.firm:
                break
            yield _read(_learned_hit(review, item, match, reading_learned,
                                     f"{item.label} is {reading.describe()} that reads as a promise of effort only "
                                     f"({reading_learned.describe()}): {found.describe()}; an effort promise cannot be enforced"), reading)
            break


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
    if _PLEASE.search(text, max(0, match.start() - 30), match.start()):
        return True  # an imperative to the reader, the customer: "Please try to raise tickets through the portal"
    if reading.obligor in ("customer", "both") or reading.modality in ("permission", "prohibition", "condition"):
        return True  # the customer's duty, a right, a prohibition or a condition: not the vendor's promise
    if reading.obligor != "none":
        return False
    if reading.modality == "aspiration":  # a noun, nobody aims: "connection attempts to the Instance fail",
        return bool(_AIM_AT_A_THING.match(text, match.end())  # "the failed attempts to deliver", "makes three attempts to"
                    or _ACTION_WORD.match(words) and _DETERMINED.search(text, max(0, match.start() - 30), match.start()))
    return False


def _asked_of_customer(text: str, match: re.Match, who) -> bool:
    """Whether the effort words are what the vendor asks of the customer: "Provider asks the Customer
    to make all reasonable effort to ..." binds the customer, not the vendor."""
    asked = _ASKS.search(text, max(0, match.start() - 80), match.start())
    return asked is not None and who.party(asked.group(1)) == "customer"


def quoted(text: str, match: re.Match) -> bool:
    """Whether the words `match` found are named in quotes, not used: '"reasonable endeavours" shall be
    construed as ...', "no more 'subject to availability' language"."""
    return match.start() > 0 and text[match.start() - 1] in "\"'‘“"


def _learned_hit(review, item, match, learned, message):
    """A hit of the learned reading: its score, threshold and strongest words are its evidence."""
    from clusterlint.contracts import clause_model

    hit = review.hit_words("Contract", item.path, match, message)
    hit.evidence = (*hit.evidence, *learned.as_evidence(clause_model.trained_on()))
    return hit


def _read(hit, reading):
    """`hit` (a fresh one, the rule's own) with the party and modal it was read from as evidence."""
    hit.evidence = (*hit.evidence, *reading.as_evidence())
    return hit


_EXTRA_CAPACITY = re.compile(
    r"\b(?:additional|extra|further|excess|burst\w*|more)\s+(?:\w+\s+)?(?:capacity|gpus?|accelerators?|nodes?|instances?|servers?)\b"
    r"|\bupgrad\w*\b|\bincreas\w*\b",
    re.IGNORECASE,
)
# capacity on top of a reservation the sentence itself names: "beyond the Contracted Configuration",
# "except for the Reserved Capacity", "above the Project's Awarded Allocation"
_BEYOND_RESERVED = re.compile(
    r"\b(?:beyond|above|over\s+and\s+above|in\s+addition\s+to|additional\s+to|in\s+excess\s+of|on\s+top\s+of|more\s+than|except(?:\s+for)?|other\s+than|outside(?:\s+of)?|apart\s+from|save\s+for)"
    r"\s+(?:(?:the\s+|its\s+|your\s+|our\s+|their\s+|that\s+|this\s+)?(?:[\w'’-]+\s+|\(\d+\)\s+){0,5}?(?:reserved|committed|contracted|awarded|allocated|purchased|dedicated|reservation|commitment)\b"
    r"|(?:the|those|these)\s+(?:\d[\d,]*|one|two|three|four|five|six|seven|eight|nine|ten|twelve)\b(?!\s*(?:%|percent)))",  # "anything above the 64": a count the sentence gave before
    re.IGNORECASE,
)
_RESERVATION = re.compile(
    r"\b(?:reserved|committed|contracted|dedicated)\s+(?:\w+\s+)?(?:capacity|gpus?|accelerators?|nodes?|instances?|servers?|power)\b"
    r"|\breserv(?:es?|ing|ation)\b[^.;]{0,60}?\b(?:capacity|gpus?|accelerators?|nodes?|instances?|servers?)\b",
    re.IGNORECASE,
)
_CAPACITY = re.compile(
    r"\b(?:capacity|gpus?|accelerators?|nodes?|instances?|servers?|systems?|units|products|reservations?|configurations?|quantit(?:y|ies)|(?:[abh]|gb|mi)\d{3}x?s?|tpus?|cluster|hardware|equipments?|inventory|resources?|machines?|compute"
    r"|(?:spare|replacement|required|failed)\s+parts?|parts\s+replacement|drives|disks|boards|modules|spares|components?|rack\s+space|racks|cages?|cabinets?|colocation|power)\b", re.IGNORECASE
)
_NOT_CAPACITY = re.compile(
    r"\bas[\s\"”']+is\b|\b(?:no|without|any|all|disclaims?|disclaimer\s+of)\s+(?:\w+\s+)?warrant\w*|\bwarrants?\s+that\b|\bdisclaim|\bpublish\w*|\bdocumentation\b|\brelease\s+notes\b|\bdetails\b"
    r"|(?<!depends\s)(?<!depending\s)(?<!dependent\s)\bon[\s-]demand\b|\bburst\w*|\bspot\b|\bpre-?emptible\b|\binterruptible\b|\blow[\s-]priority\b|\bevict\w*|\bidle\s+capacity\b|\bfree[\s-]tier\b"
    r"|\btrial\b|\bevaluation\b|\bproof[\s-]of[\s-]concept\b|\bfund(?:ing|s)\b|\bbudget\w*|\bappropriations?\b|\bapprovals?\b",
    re.IGNORECASE,
)


_NOT_BEFORE = re.compile(r"\b(?:not|never|no\s+longer)\s+(?:be\s+|been\s+|(?:make|render)\s+(?:[\w'’]+\s+){0,4})?$", re.IGNORECASE)  # "these GPUs are not subject to availability"
_RECEIVES = re.compile(r"\b(?:shall|will|must|['’]ll)\s+(?:\w+\s+)?(?:receive|have|get|obtain|access|be\s+(?:given|granted|provided|allocated|offered))\b", re.IGNORECASE)
_COUNTED_AS = re.compile(r"\b(?:count\w*|treat\w*|consider\w*|regard\w*|deem\w*|mark\w*|report\w*|show\w*)\s+(?:(?!(?:is|are|was|were)\b)\w+\s+)?$", re.IGNORECASE)  # not a noun: "the final count is whatever ..."


@check(LearnedPhrases)
def subject_to_availability(review, params):
    from clusterlint.contracts.obligations import read, read_at

    pattern, contract, who = params.pattern, review.contract, clauses.parties_of(review)
    reserved = None
    for item in texts(contract):
        if item.kind != "operative" or not _CAPACITY.search(item.text):
            continue  # no capacity, nothing made to depend on stock (and one cheap scan before the long phrase list)
        for match, sentence, learned in candidates(pattern, item.text, "CON005", params.learned):
            if _NOT_BEFORE.search(item.text, max(0, match.start() - 50), match.start()):
                continue  # "these GPUs are not subject to availability"
            if _COUNTED_AS.search(item.text, max(0, match.start() - 30), match.start()):
                continue  # a status, not a condition on supply: "if it answers pings we count it as available"
            if quoted(item.text, match):
                continue  # the words named, not used: "no more 'subject to availability' language on them"
            span = sentence_span(item.text, match.start())
            if _NOT_CAPACITY.search(sentence) or not (_CAPACITY.search(sentence) or _CAPACITY.search(item.text, sentence_span(item.text, max(0, span[0] - 1))[0], span[0])):
                continue  # "as is and as available" warranty boilerplate, documentation, spot/on-demand: not reserved capacity
                # (the capacity may be named in the sentence before: "... approved the 48 nodes. The last 16 are contingent on ...")
            if _BEYOND_RESERVED.search(sentence):
                continue  # capacity on top of the reservation it names may fairly depend on availability
            before = span[0], match.start()
            if _EXTRA_CAPACITY.search(item.text, *before):
                if reserved is None:
                    reserved = any(_RESERVATION.search(t.text) for t in texts(contract) if t.kind == "operative")
                if reserved:
                    continue  # what it qualifies is capacity on top of a firm reservation: that may fairly depend on availability
            reading = read_at(item.text, match.start(), who) if learned is None else read(sentence, who)
            if reading.obligor == "customer" and reading.modality == "obligation" and not _RECEIVES.search(sentence):
                continue  # the customer's own duty ("Customer will provide rack space", "return the spares, subject to courier slots"),
                # not what it is to receive ("You will receive 64 reserved GPUs, subject to availability")
            said = f"makes capacity {' '.join(match.group(0).split())!r}" if learned is None else f"reads as making capacity depend on supply ({learned.describe()})"
            message = f"{item.label} is {reading.describe()} that {said}: the vendor may never provide it; reserve the accelerators by count and date"
            hit = review.hit_words("Contract", item.path, match, message) if learned is None else _learned_hit(review, item, match, learned, message)
            yield _read(hit, reading)
            break


_REMEDY_NOUN = r"(?:remed(?:y|ies)|recourse|compensation|redress|relief|claims?|damages?|indemnification|entitlement|refunds?)"
_CREDIT_NOUN = (r"(?:(?:the|a|any|applicable|those|these|such|our|its|your|relevant)\s+){0,2}(?:(?:issue|issuance|receipt|payment|provision|grant(?:ing)?|award)\s+of\s+(?:the\s+|a\s+|any\s+)?)?"
                r"(?:(?:service|fee|sla|availability|outage|performance|uptime)[\s-]+)?(?:(?:re-?)?credit(?:s|ing)?|rebates?)\b")
_SOLE_REMEDY = re.compile("|".join((
    # "sole and exclusive remedy", "only recourse", "exclusive means of redress", "sole and exclusive right"
    r"\b(?:sole|exclusive|only|entire|unique|single|final)(?:[\s*_]+and[\s*_]+(?:exclusive|entire|sole|only))?[\s*_]+(?:(?:and[\s*_]+)?(?:means|form|source|way)[\s*_]+of[\s*_]+)?"
    r"(?:(?:financial|monetary|pecuniary|contractual|legal)[\s*_]+)?" + _REMEDY_NOUN + r"\b",
    r"\bsole[\s*_]+and[\s*_]+exclusive[\s*_]+(?:rights?|entitlement)\b",
    r"\b(?:in\s+lieu|instead)\s+of,?\s+(?:and\s+not\s+in\s+addition\s+to,\s+)?(?:all|any)\s+(?:other\s+)?(?:rights?\s+(?:and|or)\s+)?" + _REMEDY_NOUN + r"\b",
    # "cannot claim other compensation besides the service credit"
    r"\b(?:no|not|cannot|can['’]t)\b[^.;]{0,30}?\b(?:other|further|additional)\s+" + _REMEDY_NOUN + r"\b[^.;]{0,40}?\b(?:other\s+than|besides|except|beyond|apart\s+from|save)\s+" + _CREDIT_NOUN,
    # "the single measure of responsibility of the Contractor"
    r"\b(?:sole|single|only|exclusive)\s+(?:measure|extent)\s+of\s+(?:\w+\s+)?(?:responsibility|liability)\b",
    # "Except for Service Credits, Customer has no remedy", "Apart from credits ... no further claim"
    r"\b(?:except|apart|save|other\s+than)\s+(?:for\s+|from\s+)?(?:the\s+right\s+to\s+(?:receive\s+)?)?" + _CREDIT_NOUN
    + r"[^.;]{0,90}?(?:\bno|\bnot\s+(?:[\w-]+\s+){0,3}?any|n['’]t\s+(?:[\w-]+\s+){0,3}?any)\s+(?:other\s+|further\s+)?(?:right\s+(?:or\s+)?(?:to\s+(?:any\s+)?(?:other\s+|further\s+)?)?)?(?:" + _REMEDY_NOUN + r"|liability)\b",
    # "Other than the rebate ..., the Lessee can claim nothing from the Lessor"
    r"\b(?:except|apart|save|other\s+than)\s+(?:for\s+|from\s+)?" + _CREDIT_NOUN + r"[^.;]{0,90}?\b(?:claim|recover|receive|is\s+owed|get)\s+nothing\b",
    # "Where Provider pays Service Credits ..., Customer shall not be entitled to any further remedy"
    r"\b" + _CREDIT_NOUN + r"[^.;]{0,160}?\b(?:ha(?:s|ve)\s+no|not\s+(?:be\s+)?(?:entitled|eligible)\s+to\s+any|not\s+have\s+any)\s+(?:other|further|additional)\s+"
    + r"(?:" + _REMEDY_NOUN + r"|liability)\b",
    # "the credit regime is exhaustive and replaces any other right", "SLA remedy: service credits only"
    r"\b(?:is|are)\s+exhaustive\b|\breplace[sd]?\s+(?:any|all|every)\s+(?:other\s+)?(?:rights?|" + _REMEDY_NOUN + r")\b",
    r"\bremed(?:y|ies)(?:\s*[:=–—|-]\s*|\s{2,})" + _CREDIT_NOUN + r"\s+only\b",
    # "the exclusive means by which Customer may be compensated", "entitled exclusively to the service credits"
    r"\b(?:sole|exclusive|only|single)\s+(?:means|way|manner)\s+(?:by|through|in)\s+which\b",
    r"\bentitled\s+(?:exclusively|solely|only)\s+to\s+" + _CREDIT_NOUN,
    # "further claims ... are excluded", "no other remedy shall be available", "the only monies payable"
    r"\b(?:further|other|additional)\s+(?:claims?|liabilit(?:y|ies)|" + _REMEDY_NOUN + r")\b[^.;]{0,60}?\b(?:are|is|shall\s+be)\s+excluded\b",
    r"\bno\s+(?:other|further)\s+" + _REMEDY_NOUN + r"\b[^.;]{0,40}?\b(?:shall|will|is|are)\s+(?:be\s+)?(?:available|payable|due)\b",
    # "the credit remedy in this Section is exclusive", "the MSA rules out any other remedy"
    r"\b(?:remed(?:y|ies)|credits?|rebates?)\b[^.;]{0,40}?\b(?:is|are|shall\s+be|will\s+be)\s+(?:the\s+)?(?:sole\s+and\s+)?exclusive\b(?!\s+of)",
    r"\b(?:rules?\s+out|excludes?|precludes?)\s+(?:any|all|every)\s+(?:other|further|additional)\s+(?:rights?\s+(?:and|or)\s+)?(?:" + _REMEDY_NOUN + r"|liability)\b",
    # "accepts the credits as full compensation for, and in discharge of, all loss"
    r"\b(?:as|in)\s+(?:full|complete|final)\s+(?:and\s+final\s+)?(?:compensation|settlement|satisfaction|discharge)\b|\bin\s+(?:full\s+)?discharge\s+of\b",
    r"\b(?:sole|only|exclusive)\s+(?:monies|money|amounts?|sums?|payments?)\s+(?:payable|due|owed)\b",
    # "SLA credits are all you get for downtime"
    r"\b" + _CREDIT_NOUN + r"[^.;]{0,40}?\ball\s+(?:that\s+)?(?:you|\w+)(?:['’](?:d|ll))?\s+(?:can\s+|will\s+|would\s+|could\s+)?(?:get|gets|receive|receives|recover|claim)\b(?!\s*\?)",
    # "no remedy other than a Service Credit", "not entitled to any remedy other than the credits"
    r"\b(?:no|not\b[^.;]{0,30}?\bany)\s+(?:other\s+|further\s+)?" + _REMEDY_NOUN + r"\s+(?:\w+\s+){0,5}?other\s+than\s+" + _CREDIT_NOUN,
    # "liability ... is limited to the Service Credits", "remedied exclusively by the issue of credits"
    r"\b(?:limited|restricted|confined)\s+(?:solely\s+|exclusively\s+|only\s+)?to\s+" + _CREDIT_NOUN,
    # "all claims of the Customer ... are settled", "any claim for the outage shall be deemed satisfied"
    r"\b(?:all|any|every)\s+(?:other\s+|further\s+)?claims?\b[^.;]{0,80}?\b(?:are|is|shall\s+be|will\s+be)\s+(?:deemed\s+|thereby\s+|fully\s+)?(?:compensated\s+and\s+)?(?:settled|satisfied|discharged|extinguished|exhausted)\b",
    # "shall not be liable for any unavailability except to issue the Service Credits"
    r"\b(?:not|no|never)\b[^.;]{0,40}?\b(?:liable|liability|responsib\w+|obligations?)\b[^.;]{0,80}?\b(?:except|other(?:wise)?\s+than|save|apart\s+from|beyond)\s+"
    r"(?:for\s+|from\s+)?(?:to\s+(?:issue|pay|provide|grant|apply|give)\s+|to\s+|by\s+way\s+of\s+)?" + _CREDIT_NOUN,
    # "the credit ... is the full extent of what we can offer"
    r"\b(?:full|entire|whole)\s+extent\s+of\s+(?:what|our|its|their|the\s+\w+['’]s|\w+['’]s)\b",
    r"\b(?:remedied|compensated|satisfied|discharged)\s+(?:solely|exclusively|only)\s+(?:by|through|with)\s+" + _CREDIT_NOUN,
    # credits that settle everything: "in full and final settlement", "discharges all of Provider's liability",
    # "settle every claim", "waives every other remedy", "may recover only Service Credits"
    r"\bfull\s+and\s+final\s+(?:settlement|satisfaction)\b",
    r"\bdischarg\w*\s+(?:all|any|the\s+(?:entire|whole))(?:\s+of)?\s+(?:\w+['’]s\s+|its\s+|our\s+)?(?:liability|obligations?)\b",
    r"\b(?:settles?|satisf(?:y|ies))\s+(?:in\s+full\s+|fully\s+|finally\s+)?(?:all|every|any)\s+(?:other\s+)?(?:claims?|liabilit(?:y|ies))\b",
    r"\b(?:waives?|renounc\w*)\s+(?:to\s+)?(?:all|every|any)\s+(?:other\s+|further\s+)?(?:rights?\s+(?:and|or)\s+)?" + _REMEDY_NOUN + r"\b",
    # "the credits are the remedy, and there is nothing beyond them"
    r"\bnothing\s+(?:else\s+|more\s+)?(?:beyond|besides|other\s+than|apart\s+from|except)\s+(?:them|those|these|that|it)\b",
    # "are exhaustive of Licensee's remedies", "exhaust all claims of the Customer"
    r"\bexhaust(?:s|ive\s+of)?\s+(?:all\s+|any\s+|every\s+)?(?:(?:the\s+)?\w+['’]s\s+|its\s+|their\s+|your\s+)?(?:other\s+)?(?:" + _REMEDY_NOUN + r"|rights?|liability)\b",
    # "will owe you nothing other than the credits", "anything for unavailability other than credits"
    r"\b(?:anything|nothing)\b[^.;]{0,80}?\b(?:other\s+than|except(?:\s+for)?|save(?:\s+for)?|apart\s+from|beyond)\s+" + _CREDIT_NOUN,
    # "Service Credits are our only liability", "The obligation to issue Service Credits states Provider's entire obligation"
    r"\b" + _CREDIT_NOUN + r"[^.;]{0,60}?\b(?:are|is|shall\s+be|will\s+be|constitutes?|represents?|states?)\s+(?:the\s+|our\s+|its\s+|their\s+)?(?:[\w-]+['’]s?\s+)?(?:sole|only|entire|exclusive)\s+(?:and\s+(?:sole|only|entire|exclusive)\s+)?(?:liability|obligation|responsibility)\b",
    r"\b(?:recover|claim|receive|obtain|entitled\s+to)\s+only\s+" + _CREDIT_NOUN,
    # "the only thing Provider owes"
    r"\b(?:sole|only)\s+(?:thing|obligation|liability)\b[^.;]{0,40}?\b(?:owes?|owed|due|entitled|get|gets|receives?|recovers?|offer|offers|provide|provides|give|gives|is\s+to\s+(?:issue|pay|provide|grant|apply|credit))\b",
    # "are exclusive of any other indemnification", "is the limit of Provider's obligation"
    r"\bexclusive\s+of\s+(?:any|all)\s+other\s+" + _REMEDY_NOUN + r"\b",
    r"\b(?:is|are|shall\s+be|constitutes?|represents?|sets?\s+out|states?|describes?)\s+the\s+(?:limit|extent|entirety)\s+of\s+(?:the\s+)?(?:[\w-]+['’]s\s+|its\s+|our\s+)?(?:obligations?|liability|responsibilit(?:y|ies)|" + _REMEDY_NOUN + r")\b",
)), re.IGNORECASE)
_NEGATED = re.compile(r"\b(?:not|non|never)\b[^.;]{0,30}$|n['’]t\b[^.;]{0,30}$", re.IGNORECASE)
_PRESERVED = re.compile(
    r"\bwithout\s+prejudice\s+to\s+(?!(?:clauses?|sections?|paragraphs?|schedules?|articles?)\s)|\b(?:does|do|shall|will)(?:\s+not|n['’]t)\s+(?:stop|prevent|preclude|limit|bar)\b|\bin\s+addition\s+to\s+(?:any|all|other)\b|\bnothing\s+in\s+(?:this|these|the)\b", re.IGNORECASE
)
_CREDIT = re.compile(r"\b(?:credit(?:s|ing|ed)?|rebates?)\b", re.IGNORECASE)


@check(LearnedParams)
def sole_remedy_credits(review, params):
    for item in texts(review.contract):
        if item.kind == "recital" or not _CREDIT.search(item.text):
            continue  # no credits, no sole remedy in credits (and one cheap scan instead of many)
        for match, sentence, learned in candidates(_SOLE_REMEDY, item.text, "CON006", params.learned):
            before = item.text[max(0, match.start() - 40) : match.start()]
            if _NEGATED.search(before) or _PRESERVED.search(sentence):
                continue
            if learned is None:
                yield review.hit_words("Contract", item.path, match, f"{item.label} makes service credits the "
                                       f"{' '.join(match.group(0).split())!r}" + _CREDITS_ONLY)
            else:
                yield _learned_hit(review, item, match, learned,
                                   f"{item.label} reads as making service credits the only remedy ({learned.describe()})" + _CREDITS_ONLY)
            break


_CREDITS_ONLY = ": a long outage earns a few percent of a month's fee and nothing more"


_DOWNTIME = re.compile(r"\b(?:downtime|uptime|unavailab\w*|availability|not\s+available|outages?|down|offline|(?:failure|outage|fault)\s+time|service\s+stops?|stoppages?|failures?|inaccessib\w*|(?:deemed|considered(?:\s+as)?|treated\s+as|regarded\s+as|counts?\s+as|counted\s+as)\s+(?:available|up)|(?<=\bis\s)available|(?<=\bare\s)available|(?<=[\x22“])(?:available|up)(?=[\x22”])|(?:service\s+)?(?:interrupt(?:ed|ions?)|disrupt(?:ed|ions?)))\b", re.IGNORECASE)
_CONNECTIVITY = re.compile(
    r"(?=[^\W_])(?:"  # every alternative starts with a letter or digit: a run of spaces or punctuation is passed in one step
    r"\b(?:(?:external|network|internet)\s+)?connectivity\b|\bconnect(?:ion)?s?\b|\bdisconnect\w*|\breachab\w*|\bunreachable\b|\b(?:in)?accessib\w*|\b(?:can|could|be)\s+(?:be\s+)?reached\b"
    r"|\b(?:cannot|can\s+not|can['’]t|could\s*n[o']t|unable\s+to|not\s+able\s+to|fails?\s+to|failure\s+to)\s+(?:be\s+)?(?:access(?:ed)?|connect(?:ed)?|log\s?in|log\s+in|sign\s+in|reach(?:ed)?|hit|communicate|ssh|"
    r"(?:pass|carry|route|send|receive|exchange)\s+(?:\w+\s+)?(?:traffic|packets|data)|logged\s+in(?:to)?|(?:open|establish|initiate|make)\s+(?:a|an)\s+(?:\w+\s+)?(?:session|connection)|launch|start|create|provision)\b"
    r"|\b(?:no|loss\s+of|lacks?|without)\s+(?:external\s+|remote\s+)?(?:network\s+|internet\s+)?access\b|\b(?:network|internet)\s+(?:traffic|requests|access|paths?)\b"
    # "can send or receive packets", "can neither log in to it nor reach", "could be contacted", "our probes lose contact"
    r"|\b(?:send|receive|transmit)\s+(?:or\s+(?:send|receive|transmit)\s+)?(?:network\s+|ip\s+)?(?:packets|traffic)\b|\bneither\s+(?:log\s?in|connect|reach|access|ssh)\w*|\bnor\s+reach\w*"
    r"|\b(?:be|been)\s+contacted\b|\blos(?:e|es|t|ing)\s+contact\b|\bhttps?\s+(?:\d{3}\s+)?(?:response|status|code)\b|\b(?:fibre|fiber)\s+(?:paths?|links?|routes?)\b"
    r"|\b(?:respond\w*|answers?|answering|replies|reply)\s+(?:to\s+)?(?:\w+\s+){0,2}?(?:requests|pings?|probes)|\bping(?:s|ed|ing|able)?\b|\b(?:stops?|stopped|ceases?|fails?)\s+(?:to\s+)?(?:respond|answer)\w*|(?:\bnot|n['’]t|\bno\s+longer)\s+(?:respond|answer)\w*|\bno\s+response\b|\bunresponsive\b"
    r"|\bimpossib\w*\s+(?:of\s+|to\s+)?(?:access|connect|reach|communicat|log)\w*|\bcommunicat(?:ion|ing|e)\b[^.;]{0,40}?\bimpossible\b"
    r"|\b(?:answers?|responds?|replies)\s+(?:on|at|via)\s+(?:its\s+|the\s+|a\s+)?(?:public\s+|private\s+)?(?:network\s+)?(?:ip|address|endpoint|port|interface)\b"
    r"|\breturns?\s+(?:a\s+)?(?:valid\s+|successful\s+)?response|\b(?:no|zero)\s+(?:network\s+)?(?:packets|traffic)\b"
    r"|\b(?:able|possible)\s+to\s+(?:access|connect|reach|log\s?in|(?:open|establish)\s+(?:a|an)\s+(?:\w+\s+)?(?:session|connection))|\buplinks?\b|\bcross[\s-]?connects?\b|\bip\s+transit\b"
    r"|\b(?:drops?|dropped|falls?|fell|goes|went)\s+off\s+(?:the\s+)?network\b|\bcan\s+(?:still\s+)?(?:log\s?in|ssh|connect|access|reach)\b"
    r"|\bheartbeats?\b|\btim(?:e|es|ed|ing)\s+out\b|\btimeouts?\b"
    # API errors as the measure: "returns server errors to all API calls", "answers every request with an error"
    r"|\b(?:server|5xx|http|api)\s+errors?\b|\berror\s+rates?\b|\brequests?\s+(?:that\s+)?fail\w*|\b(?:failed|unsuccessful)\s+requests?\b|\b(?:requests?|calls?)\b[^.;]{0,40}?\b(?:errors?|timeouts?|time\s+out)\b)",
    re.IGNORECASE,
)
_DEGRADED = re.compile(
    r"\bdegrad\w*|\bperformance\b|\bthroughput\b|\bbandwidth\b|\bunhealthy\b|\bhealth[\s-]*checks?\b|\bhealthy\b|\bthrottl\w*|\bdiag(?:s|nostics?)?\b|\bburn[\s-]?in\b|\bdcgm\b"
    r"|\bfall\w*\s+off\s+the\s+bus\b|\bbelow\s+(?:its\s+|the\s+|their\s+)?(?:rated|committed|specified|advertised|nominal|benchmark\w*)\b"
    r"|\bperform\w*\s+below\b|\bbelow\s+spec\w*|\bout\s+of\s+service\b|\becc\b|\bxid\b|\b(?:gpu|accelerator|nic|fabric|interconnect|nvlink|infiniband)s?\b[^.;]{0,60}\b(?:fail\w*|fault\w*|error\w*|impair\w*|lost|hang\w*|hung|drop\w*|slow\w*|missing|absent|reduced)",
    re.IGNORECASE,
)
# what a narrow definition leaves out of downtime: degraded hardware, partial outages, single instances
_PARTIAL = re.compile(
    r"\bpartial\w*|\b(?:individual|single|one\s+or\s+more|some\s+but\s+not\s+all)\s+(?:\w+\s+)?(?:gpus?|accelerators?|instances?|nodes?|servers?|links?|components?)\b"
    r"|\breduced\b|\bslow\w*", re.IGNORECASE,
)
_LEAVES_OUT = re.compile(
    r"\b(?:does|do|shall|will)\s+not\s+(?:include|cover|count|constitute|amount\s+to|extend\s+to)\b"
    r"|\b(?:is|are)\s+not\s+(?:(?:counted|treated|regarded)\s+as\s+|considered\s+)?(?:downtime|unavailab\w*|an?\s+outage|outages|down)\b"
    r"|\bexclud(?:es?|ed|ing)\b|\bnot\s+count(?:ed)?\b|,\s+not\s+(?:downtime|an?\s+outage|unavailab\w*)\b",
    re.IGNORECASE,
)
_CAUSED = re.compile(r"\b(?:caused\s+by|due\s+to|because|b/c|resulting\s+from|attributable\s+to|arising\s+from)\b", re.IGNORECASE)
# what ties downtime to the connectivity words that measure it: "Downtime means / occurs when / is any
# period in which ... unreachable" (downtime first), "Loss of access ... counts as Downtime" (after)
_MEASURED_BY = re.compile(
    r"\b(?:means?|meaning|refers?\s+to|in\s+(?:the\s+)?case|when|whenever|if|while|where|during\s+which|in\s+which|unless|only|requires?|as|periods?|minutes?|intervals?"
    r"|once|starts?|begins?|determined|measured|calculated|assessed|includes?|covers?|consists?|comprises?|intended|understood|times?)\b|[:=—–|]|\b(?:is|are)\s+(?:any|every)\b"
    r"|\b(?:is|are)\s+(?:the\s+|an?\s+)?(?:absence|lack|loss)\s+of\b",
    re.IGNORECASE,
)
_MEASURES = re.compile(
    r"\b(?:constitut\w*|count\w*|treated|deemed|regarded|considered|amounts?\s+to|means|results?\s+in|leads?\s+to)\b"
    r"|\b(?:is|are)\s+(?:not\s+)?(?:in\s+)?(?:an?\s+|the\s+)?$",
    re.IGNORECASE,
)


_EXCLUDED = re.compile(r"\b(?:does\s+not|shall\s+not|will\s+not|won['’]t|doesn['’]t)\s+include\b|\bexclud(?:es?|ed|ing)\b|\bnot\s+count(?:ed)?\b", re.IGNORECASE)


def _excluded(text: str, at: int) -> bool:
    """Whether the connectivity words at `at` are what downtime leaves out ("Downtime does not include
    periods in which the instance is unreachable because of ..."): an exclusion between the last
    mention of downtime before them and them."""
    lo = max(0, at - 200)
    last = None
    for last in _DOWNTIME.finditer(text, lo, at):
        pass
    return last is not None and bool(_EXCLUDED.search(text, last.end(), at))


def _measures_downtime(text: str, match: re.Match) -> bool:
    """Whether the connectivity words `match` are what a mention of downtime in their sentence is
    measured by: "Downtime occurs when ... unreachable", not "During an outage, Customer may connect
    to another region" or "Provider shall restore connectivity after an outage"."""
    for mention in _DOWNTIME.finditer(text, max(0, match.start() - 200), match.start()):  # any mention before, in the sentence
        if not _SENTENCE_END.search(text, mention.end(), match.start()) and (
                _MEASURED_BY.search(text, mention.end(), match.start()) or _DEFINING.search(text, max(0, mention.start() - 60), mention.start())):
            return True  # "Downtime means ...", "It will be understood by interruption ... the impossibility of accessing"
    after = _DOWNTIME.search(text, match.end(), match.end() + 120)
    if after is None or _SENTENCE_END.search(text, match.end(), after.start()):
        return False
    between = text[match.end() : after.start()]
    return bool(_MEASURES.search(between)) and not _NOT_COUNTED.search(between)  # "..., which is not counted as Downtime": left out, not the measure


_SENTENCE_END = re.compile(r"(?:[.;!]|\?(?!\s*A:))(?:\s|$)")  # an FAQ's "...? A: ..." goes on
_LEADING_IF = re.compile(r"\W{0,3}(?:\d{1,3}(?:\.\d{1,3}){0,3}\.?\s+)?(?:if|where|when|whenever|in\s+the\s+event\s+that)\b[^,;]{0,200},", re.IGNORECASE)


def _credit_trigger(text: str, match: re.Match) -> bool:
    """Whether the connectivity words `match` sit in a leading condition whose main clause grants a
    credit ("If the Instances are unreachable for more than 43 minutes, you will receive a credit"):
    the credit's trigger is the SLA's definition of downtime."""
    start, end = sentence_span(text, match.start())
    condition = _LEADING_IF.match(text, start)
    return condition is not None and match.end() <= condition.end() and bool(_CREDIT.search(text, condition.end(), end))
_DEFINING = re.compile(r"\b(?:understood|defined|deemed|considered|regarded)\s+(?:by|as)\b", re.IGNORECASE)
_NOT_COUNTED = re.compile(r"\bnot\b|n['’]t\b", re.IGNORECASE)


def _leaves_out_degradation(item):
    """The first sentence of `item` that takes degraded hardware or partial outages out of downtime
    ("Downtime does not include degraded performance", "Slow GPUs do not constitute Downtime"): the
    match of its exclusion, or None. An exclusion for a cause ("... caused by Customer's software")
    is fair."""
    for match, sentence in per_sentence(_LEAVES_OUT, item.text):
        if _DOWNTIME.search(sentence) and (_DEGRADED.search(sentence) or _PARTIAL.search(sentence)) and not _CAUSED.search(sentence):
            return match
    return None


@check(LearnedParams)
def narrow_downtime_definition(review, params):
    for item in texts(review.contract):
        if item.kind == "recital" or not (params.learned is not None or _CONNECTIVITY.search(item.text) or _LEAVES_OUT.search(item.text)):
            continue  # a pattern's finding quotes connectivity words or words that leave something out of downtime
        if not (_DOWNTIME.search(item.text) or _CREDIT.search(item.text) and _LEADING_IF.match(item.text)):
            continue  # both readings below need a word for downtime in the text, or a credit a leading condition earns
        degraded = found = None
        for match in _CONNECTIVITY.finditer(item.text):  # every match: the first in a sentence may measure nothing
            sentence = sentence_at(item.text, match.start())
            degraded = bool(_DEGRADED.search(item.text)) if degraded is None else degraded  # once per text
            if degraded or not (_DOWNTIME.search(sentence) and not _excluded(item.text, match.start()) and _measures_downtime(item.text, match)
                                or _credit_trigger(item.text, match)):
                continue
            found = f"counts downtime only as loss of connectivity ({' '.join(match.group(0).split())!r})"
            break
        else:
            match = _leaves_out_degradation(item)
            if match is not None:
                found = f"leaves degraded hardware and partial outages out of downtime ({' '.join(match.group(0).split())!r})"
        if found:
            yield review.hit_words("Contract", item.path, match, f"{item.label} {found}" + _NOT_DOWN)
        else:  # no pattern's reading: the learned one, which has seen degradation counted and left out
            for match, sentence, learned in clauses.learned(item.text, "CON007", params.learned, where=_DOWNTIME):
                yield _learned_hit(review, item, match, learned, f"{item.label} reads as counting downtime only as loss of "
                                   f"connectivity ({learned.describe()})" + _NOT_DOWN)
                break


_NOT_DOWN = ": a failed accelerator, a degraded link or a slow fabric is not downtime and earns no credit"


# ---------------------------------------------------------------- what must be there


_DELIVERY = re.compile(
    r"\b(?:deliver\w*|hand\s?over|handed\s+over|ready\s+for\s+(?:service|use)|available\s+for\s+(?:use|production)|go-?live|commission\w*)\b",
    re.IGNORECASE,
)


@check(Params)
def no_delivery_date(review, params):
    contract = review.contract
    if contract.spec.delivery.date is not None or _promised(review, _DELIVERY, DATE):
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


_PERFORMANCE = re.compile(
    r"\b(?:bandwidth|throughput|busbw|all[_\s-]?reduce|nccl|tflops|mfu|latency|iops|tokens?\s+per\s+second)\b", re.IGNORECASE
)
_METHOD = re.compile(r"\b(?:measured|nccl-tests|benchmark\w*|test\w*|as\s+reported\s+by|using)\b", re.IGNORECASE)
_FIGURE = re.compile(r"^\s*\d+(?:\.\d+)?\s*[^\d\s].*$")


@check(Params)
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


_OBLIGATION = re.compile(r"\b(?:shall|will|must|agrees?\s+to|commits?\s+to|guarantees?)\b", re.IGNORECASE)
_CHECKABLE = re.compile(f"{DATE.pattern}|{MEASURE.pattern}", re.IGNORECASE)  # a date or a figure


@check(Params)
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


_REPLACE = re.compile(r"\b(?:replac\w*|repair\w*|swap\w*|RMA)\b", re.IGNORECASE)
_WITHIN = re.compile(r"\bwithin\s+(\d+(?:\.\d+)?)\s*(hours?|hrs?|h|minutes?|mins?|(?:business\s+|calendar\s+|working\s+)?days?|d)\b", re.IGNORECASE)


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


@check(Params)
def no_replacement_sla(review, params):
    contract = review.contract
    if replacement_time(contract) is not None:
        return
    yield missing(review, REPLACEMENT, "the contract states no replacement time for a failed node or accelerator",
                  "a dead GPU can idle the whole job while the vendor takes its time", ("spec", "sla"))


# an acceptance test of the delivered systems; "acceptance of these Terms" is consent to a contract
_ACCEPTANCE = re.compile(
    r"\bacceptance[\s-]+(?:test\w*|criteria|procedure|period|certificate)\b|\bburn[\s-]?in\b"
    r"|\baccept(?:ance\s+of|s?)\s+(?:the\s+|each\s+|any\s+)?(?:cluster|nodes?|systems?|hardware|delivery|servers?|capacity)\b",
    re.IGNORECASE,
)


@check(Params)
def no_acceptance_test(review, params):
    contract = review.contract
    if contract.spec.delivery.acceptance_test or clauses.first(contract, _ACCEPTANCE, kinds=("operative", "definition")):
        return
    yield missing(review, ACCEPTANCE, "the contract has no acceptance or burn-in test before handover",
                  "you pay from day one for nodes that were never shown to work together", ("spec", "delivery"))


_TERMINATION = re.compile(
    r"\bterminat\w*[^.;]{0,80}\bfor\s+(?:its\s+|the\s+customer['’]s\s+)?convenience\b|\bfor\s+convenience\b[^.;]{0,60}\bterminat\w*"
    r"|\bterminat\w*[^.;]{0,80}\b(?:upon|on|with|by\s+giving)\s+(?:at\s+least\s+)?(?:\w+\s+\()?\d+\)?\s+(?:days|months)['’]?\s+(?:prior\s+)?(?:written\s+)?notice"
    r"|\bterminat\w*[^.;]{0,80}\bat\s+any\s+time\b|\bat\s+any\s+time\b[^.;]{0,40}\bterminat\w*",
    re.IGNORECASE,
)
_EXPORT = re.compile(
    r"\b(?:export\w*|retriev\w*|return\w*|download\w*|migrat\w*)\b[^.;]{0,80}\bdata\b|\bdata\b[^.;]{0,80}\b(?:export\w*|retriev\w*|returned)\b",
    re.IGNORECASE,
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


@check(Params)
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
_PRICE = re.compile(
    _MONEY + r"[\d.,]*\s?(?:USD|EUR|GBP)?\s?(?:per|/|an?|each)\s?(?:[\w-]{1,20}[\s-]){0,2}?"
    r"(?:hours?|hrs?|h|months?|mo|days?|weeks?|years?|gpus?|accelerators?|nodes?|instances?|servers?|[kMGTP]i?B)\b",
    re.IGNORECASE,
)
_COVERED = re.compile(
    r"\binclud\w*|\bbundled\b|\bat\s+no\s+(?:additional\s+|extra\s+)?(?:cost|charge)\b|\bfree\s+of\s+charge\b|\bno\s+charge\b|"
    + _PRICE.pattern,
    re.IGNORECASE,
)


@check(Params)
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


class Commitment(Params):
    min_share: float = Field(gt=0, le=1, description="Share of the advertised figure a committed figure may fall to without a finding.")


@check(Commitment)
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
