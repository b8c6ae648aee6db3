"""CON006: service credits made the only remedy, anchored in the exclusive-remedy wording."""

from __future__ import annotations

import re
from functools import cache

from clusterlint.contracts.folded import Folded
from clusterlint.engine.review import check
from clusterlint.rules.anchors import anchored, words
from clusterlint.rules.clauses import candidates, texts


_REMEDY_NOUN = r"(?:remed(?:y|ies)|recourse|compensation|redress|relief|claims?|damages?|indemnification|indemnit(?:y|ies)|entitlement|refunds?)"
_CREDIT_NOUN = (r"(?:(?:the|a|any|applicable|those|these|such|our|its|your|relevant)\s+){0,2}(?:(?:issue|issuance|receipt|payment|provision|grant(?:ing)?|award)\s+of\s+(?:the\s+|a\s+|any\s+)?)?"
                r"(?:(?:(?:service|fee|sla|availability|outage|performance|uptime)[\s-]+)?(?:(?:re-?)?credit(?:s|ing)?|rebates?)|compensatory\s+(?:[\w-]+[\s-])?(?:hours|time|allocation))\b")
_SOLE_REMEDY_WORDS = "|".join((
    # "sole and exclusive remedy", "only recourse", "exclusive means of redress", "sole and exclusive right"
    r"\b(?:sole|exclusive|only|entire|unique|single|final)(?:[\s*_]+and[\s*_]+(?:exclusive|entire|sole|only))?[\s*_]+(?:(?:and[\s*_]+)?(?:means|form|source|way)[\s*_]+of[\s*_]+)?"
    r"(?:(?:financial|monetary|pecuniary|contractual|legal)[\s*_]+)?" + _REMEDY_NOUN + r"\b",
    r"\bsole[\s*_]+and[\s*_]+exclusive[\s*_]+(?:rights?|entitlement)\b",
    r"\b(?:in\s+lieu|instead)\s+of,?\s+(?:and\s+not\s+in\s+addition\s+to,\s+)?(?:all|any)\s+(?:other\s+)?(?:rights?\s+(?:and|or)\s+)?" + _REMEDY_NOUN + r"\b",
    # "cannot claim other compensation besides the service credit"
    r"\b(?:no|not|cannot|can['’]t)\b[^.;]{0,30}?\b(?:other|further|additional)\s+" + _REMEDY_NOUN + r"\b[^.;]{0,40}?\b(?:other\s+than|than|besides|except|beyond|apart\s+from|save)\s+" + _CREDIT_NOUN,
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
    # "... applied to the next invoice ... No further guarantees are provided."
    r"\bno\s+(?:other|further|additional)\s+(?:guarantees?|warrant(?:y|ies)|commitments?)\s+(?:is|are|will\s+be|shall\s+be)\s+(?:provided|given|offered|made)\b",
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
    # "will provide the remedies outlined in the SLA and will not be responsible for any other remedies"
    r"\b(?:not|no)\b[^.;]{0,40}?\b(?:responsible|liable)\s+(?:for|to\s+(?:provide|offer))\s+(?:any\s+)?(?:other|further|additional)\s+" + _REMEDY_NOUN + r"\b",
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
    # "their payment frees the Provider of all other responsibility", "the penalties are liberatory", "That's all you get."
    r"\bfree[sd]?\s+(?:[\w'’]+\s+){0,3}?(?:of|from)\s+(?:all|any)\s+(?:other\s+|further\s+)?(?:liabilit(?:y|ies)|responsibilit(?:y|ies)|obligations?|claims?|" + _REMEDY_NOUN + r")\b"
    r"|\b(?:is|are|shall\s+be)\s+liberatory\b|\bthat(?:['’]s|\s+is)\s+all\s+(?:you|they|\w+)\s+(?:get|gets|receive|receives|can\s+claim)\b",
    r"\b(?:is|are|shall\s+be|constitutes?|represents?|sets?\s+out|states?|describes?)\s+the\s+(?:(?:full|whole|entire|total|outer)\s+)?(?:limit|extent|entirety)\s+of\s+(?:the\s+)?(?:[\w-]+['’]s\s+|its\s+|our\s+)?(?:obligations?|liability|responsibilit(?:y|ies)|" + _REMEDY_NOUN + r")\b",
))


@cache
def _sole_remedy() -> re.Pattern:
    """The exclusive-remedy wording, compiled on first use: only a text that speaks of credits needs it."""
    return re.compile(_SOLE_REMEDY_WORDS, re.IGNORECASE)


# the exclusive-remedy words the learned reading needs in a sentence before it may confirm it (its anchor)
EXCLUSIVE_WORDS = Folded(
    r"\b(?:sole(?:ly)?|exclusive(?:ly)?|only|entire|in\s+lieu|instead\s+of|no\s+(?:other|further)|nothing|settle\w*|satisf(?:y|ies|ied|action)"
    r"|discharg\w*|waive\w*|exhaust\w*|full\s+(?:and\s+final\s+)?(?:compensation|settlement)|limited\s+to|all\s+(?:you|that)|extent"
    r"|in\s+place\s+of|releas\w*|replac\w*|(?:any|all)\s+(?:the\s+)?other|other\s+\w+\s+than|sum\s+total|whole|that['’]s\s+(?:it|all)|that\s+is\s+(?:it|all)"
    r"|liberat\w*|frees?|freed|reliev\w*|absolv\w*|extinguish\w*|exclud\w*|preclud\w*|alone|merely|no\s+(?:more|additional|separate)|except|save\s+for|apart\s+from|besides|beyond)\b",
)
# a negation reaches over a bracket that follows it ("not (as noted above) the sole remedy"), not out of one ("(faults don't count) is the")
_NEGATED = Folded(r"(?:\b(?:not|non|never)\b|n['’]t\b)(?:[^.;()]{0,30}|[^.;()]{0,30}\([^.;()]{0,40}\)[^.;()]{0,30})$")
_PRESERVED = Folded(
    r"\bwithout\s+prejudice\s+to\s+(?!(?:clauses?|sections?|paragraphs?|schedules?|articles?)\s)|\b(?:does|do|shall|will)(?:\s+not|n['’]t)\s+(?:stop|prevent|preclude|limit|bar)\b|\bin\s+addition\s+to\s+(?:any|all|other)\b|\bnothing\s+in\s+(?:this|these|the)\b"
)
# the SLA itself named as the only remedy, its credits not named in the sentence: "This SLA states Customer's sole and
# exclusive remedy for any failure by Provider to meet the SLO"
_SLA_IS_THE_REMEDY = Folded(r"\b(?:this|the)\s+(?:[\w-]+\s+){0,2}?(?:sla|service\s+level\s+agreement)\b[^.;]{0,80}?\b(?:sole|exclusive|only)\b")
# the SLA's defined remedy as the only one for a missed service level ("Compensation is the sole and exclusive remedy ... for
# failure to comply with the warranted Service Level"): credits, or nothing, when the contract gives no way out
_REMEDY_FOR_A_MISS = re.compile(r"\b[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?\s+(?i:(?:is|are|shall\s+be|will\s+be|constitutes?)\s+(?:the\s+)?(?:sole|exclusive|only)\s+(?:and\s+exclusive\s+)?"
                                r"remed(?:y|ies)\b[^.;]{0,80}?\bfail(?:ure|ing|s|ed)?\s+to\s+(?:meet|comply\s+with|achieve)\s+(?:the\s+|any\s+)?(?:[\w-]+\s+){0,2}?"
                                r"(?:service\s+levels?|sla|slo|uptime|availability)\b)")
CREDIT = Folded(r"\b(?:credit(?:s|ing|ed)?|rebates?|compensatory|(?:availability|service[\s-]level|sla|uptime)\s+penalt(?:y|ies)|penalt(?:y|ies)\s+(?:of|for)\s+(?:un)?availability)\b")


@check("clusterlint.rules.params:LearnedParams")
def sole_remedy_credits(review, params):
    for item in texts(review.contract):
        if item.kind == "recital" or not (CREDIT.search(item.text) or _SLA_IS_THE_REMEDY.search(item.text) and _only_credits(review)
                                          or _REMEDY_FOR_A_MISS.search(item.text) and not _way_out(review)):
            continue  # no credits, no sole remedy in credits (and one cheap scan instead of many); an SLA named as the only remedy
            # is its credits when the contract grants credits and no way out (a termination right, a refund)
        for match, sentence, learned in candidates(_sole_remedy(), item.text, "CON006", params.learned, EXCLUSIVE_WORDS):
            before = item.text[max(0, match.start() - 40) : match.start()]
            if _NEGATED.search(before) or _PRESERVED.search(sentence):
                continue
            how = "" if learned is None else f", confirmed by the learned reading ({learned.describe()})"
            yield anchored(review, item, match, f"{item.label} makes service credits the {words(match)!r}{how}" + _CREDITS_ONLY, learned=learned)
            break


_WAY_OUT = Folded(r"\bterminat\w*|\brefunds?\b")


def _only_credits(review) -> bool:
    """Whether the contract's remedies are credits alone: a clause grants credits and none a right to terminate or a refund."""
    return any(CREDIT.search(item.text) for item in texts(review.contract)) and not _way_out(review)


def _way_out(review) -> bool:
    """Whether a clause of the contract gives the customer a right to terminate or a refund."""
    return any(_WAY_OUT.search(item.text) for item in texts(review.contract))


_CREDITS_ONLY = ": a long outage earns a few percent of a month's fee and nothing more"
