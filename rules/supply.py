"""CON005: capacity promised "subject to availability", anchored in the availability condition."""

from __future__ import annotations


from clusterlint.contracts.folded import Folded
from clusterlint.contracts.sentences import sentence_span
from clusterlint.engine.review import check
from clusterlint.rules import clauses
from clusterlint.rules.anchors import anchored, quoted, words
from clusterlint.rules.clauses import candidates, phrase_pattern, texts


_EXTRA_CAPACITY = Folded(
    r"\b(?:additional|extra|further|excess|burst\w*|more)\s+(?:\w+\s+)?(?:capacity|gpus?|accelerators?|nodes?|instances?|servers?)\b"
    r"|\bupgrad\w*\b|\bincreas\w*\b",
)
# capacity on top of a reservation the sentence itself names: "beyond the Contracted Configuration",
# "except for the Reserved Capacity", "above the Project's Awarded Allocation"
_BEYOND_RESERVED = Folded(
    r"\b(?:beyond|above|over\s+and\s+above|in\s+addition\s+to|additional\s+to|in\s+excess\s+of|on\s+top\s+of|more\s+than|except(?:\s+for)?|other\s+than|outside(?:\s+of)?|apart\s+from|save\s+for)"
    r"\s+(?:(?:the\s+|its\s+|your\s+|our\s+|their\s+|that\s+|this\s+)?(?:[\w'’-]+\s+|\(\d+\)\s+){0,5}?(?:reserved|committed|contracted|awarded|allocated|purchased|dedicated|reservation|commitment)\b"
    r"|(?:the|those|these)\s+(?:\d[\d,]*|one|two|three|four|five|six|seven|eight|nine|ten|twelve)\b(?!\s*(?:%|percent)))",
)
_RESERVATION = Folded(
    r"\b(?:reserved|committed|contracted|dedicated)\s+(?:\w+\s+)?(?:capacity|gpus?|accelerators?|nodes?|instances?|servers?|power)\b"
    r"|\breserv(?:es?|ing|ation)\b[^.;]{0,60}?\b(?:capacity|gpus?|accelerators?|nodes?|instances?|servers?)\b",
)
_CAPACITY = Folded(
    r"(?=[^\W_])\b(?:capacity|gpus?|accelerators?|nodes?|instances?|servers?|systems?|units|products|reservations?|configurations?|quantit(?:y|ies)|(?:[abh]|gb|mi)\d{3}x?s?|tpus?|cluster|hardware|equipments?|inventory|resources?|machines?|compute"
    r"|(?:spare|replacement|required|failed)\s+parts?|parts\s+replacement|drives|disks|boards|modules|spares|components?|rack\s+space|racks|cages?|cabinets?|colocation|power"
    r"|stock|optics|transceivers?|trays|cables|switches|deliver(?:y|ies)|shipments?|lead\s+times?)\b"
)
_NOT_CAPACITY = Folded(
    r"\bas[\s\"”']+is\b|\b(?:no|without|any|all|disclaims?|disclaimer\s+of)\s+(?:\w+\s+)?warrant\w*|\bwarrants?\s+that\b|\bdisclaim|\bpublish\w*|\bdocumentation\b|\brelease\s+notes\b|\bdetails\b"
    r"|\bon(?<!depends\son)(?<!depending\son)(?<!dependent\son)[\s-]demand\b|\bburst\w*|\bspot\b|\bpre-?emptible\b|\binterruptible\b|\blow[\s-]priority\b|\bevict\w*|\bidle\s+capacity\b|\bfree[\s-]tier\b"
    r"|\bflex\s+(?:class|tier|capacity|jobs?)\b|\btrial\b|\bevaluation\b|\bproof[\s-]of[\s-]concept\b|\bfund(?:ing|s)\b|\bbudget\w*|\bappropriations?\b|\bapprovals?\b"
    # a software release that becomes available: "upgraded to the latest patch version as soon as it becomes available"
    r"|\b(?:major|minor|patch|new|newer|latest|supported|software|firmware|innovation|regular)\s+(?:versions?|releases?)\b|\bpatch(?:es)?\b",
)


# the availability condition's words the learned reading needs in a sentence before it may confirm it (its anchor)
SUPPLY_WORDS = Folded(
    r"(?=[^\W_])\b(?:availab\w*|stocks?|inventor(?:y|ies)|suppl(?:y|ies|ier\w*)|allocat\w*|allot\w*|permit\w*|allow\w*|free[ds]?|spare|procur\w*|sourc\w*"
    r"|lead\s+times?|shortages?|scarc\w*|on\s+hand|demand|exhaust\w*|insufficient|vacant|unused|unallocated|depend\w*|conditional|contingent|subject"
    r"|assuming|provided|ship\w*|arriv\w*|confirm\w*|production|manufactur\w*|oem"
    r"|obtain\w*|distribut\w*|vendors?|factory|import\w*|backorder\w*|back-order\w*|wait(?:ing)?[\s-]?list\w*|queue\w*|pending|tentative|indicative|estimat\w*|provisional"
    r"|possible|feasible|practicable|left|leftover|remain\w*|residual|surplus|as\s+and\s+when|if\s+and\s+when|when\s+and\s+if|ready|open\s+up|opens\s+up)\b",
)
_NOT_BEFORE = Folded(r"\b(?:not|never|no\s+longer)\s+(?:be\s+|been\s+|(?:make|render)\s+(?:[\w'’]+\s+){0,4})?$")  # "these GPUs are not subject to availability"
# supply said to be firm, which the learned reading may not read as a condition: "Lead times are fixed and stock is held in the
# warehouse" (capacity said not to depend on stock)
_FIRM = Folded(r"\b(?:stock|lead\s+times?|supply|supplies|inventory)\s+(?:is|are|will\s+be|remains?)\s+(?:\w+\s+)?(?:fixed|firm|guaranteed|secured|held|locked\s+in)\b")
_CONDITIONAL = Folded(r"\b(?:if|once|when|until|unless|subject|depend\w*|contingent|provided|pending|after)\b")
# the clause says the capacity itself is guaranteed once bought: "Slots are subject to capacity availability. ... once your
# commitment purchase is successful, your capacity is guaranteed" (what depends on supply is the purchase, not the capacity)
_GUARANTEED = Folded(r"\b(?:capacity|gpus?|accelerators?|nodes?|instances?|slots?|reservations?)\s+(?:is|are|will\s+be|remains?)\s+(?:fully\s+)?guaranteed\b")
_BACK = Folded(r"\W{0,3}(?:this|that|it|they|these|those|such\s+\w+)\s+(?:is|are|will|may|remains?|stays?)\b")  # a sentence about the one before
_RECEIVES = Folded(r"\b(?:shall|will|must|['’]ll)\s+(?:\w+\s+)?(?:receive|have|get|obtain|access|be\s+(?:given|granted|provided|allocated|offered))\b")
_COUNTED_AS = Folded(r"\b(?:count\w*|treat\w*|consider\w*|regard\w*|deem\w*|mark\w*|report\w*|show\w*)\s+(?:(?!(?:is|are|was|were)\b)\w+\s+)?$")  # not a noun: "the final count is whatever ..."


@check("clusterlint.rules.params:LearnedPhrases")
def subject_to_availability(review, params):
    from clusterlint.contracts.obligations import read_at

    pattern, contract, who = phrase_pattern(params.phrases), review.contract, clauses.parties_of(review)
    reserved = None
    for item in texts(contract):
        if item.kind != "operative" or not _CAPACITY.search(item.text):
            continue  # no capacity, nothing made to depend on stock (and one cheap scan before the long phrase list)
        for match, sentence, learned in candidates(pattern, item.text, "CON005", params.learned, SUPPLY_WORDS):
            if _NOT_BEFORE.search(item.text, max(0, match.start() - 50), match.start()):
                continue  # "these GPUs are not subject to availability"
            if _COUNTED_AS.search(item.text, max(0, match.start() - 30), match.start()):
                continue  # a status, not a condition on supply: "if it answers pings we count it as available"
            if learned is not None and _FIRM.search(sentence) and not _CONDITIONAL.search(sentence):
                continue  # the learned reading's anchor in a sentence that says supply is firm: "stock is held in the warehouse"
            if quoted(item.text, match):
                continue  # the words named, not used: "no more 'subject to availability' language on them"
            span = sentence_span(item.text, match.start())
            previous = sentence_span(item.text, max(0, span[0] - 1))[0], span[0]  # the sentence before: "... spot instances. This is subject to ..."
            if _NOT_CAPACITY.search(sentence) or _BACK.match(sentence) and _NOT_CAPACITY.search(item.text, *previous) \
                    or not (_CAPACITY.search(sentence) or _CAPACITY.search(item.text, *previous)):
                continue  # "as is and as available" warranty boilerplate, documentation, spot/on-demand: not reserved capacity
                # (the capacity may be named in the sentence before: "... approved the 48 nodes. The last 16 are contingent on ...")
            if _BEYOND_RESERVED.search(sentence) or _GUARANTEED.search(item.text):
                continue  # capacity on top of the reservation it names may fairly depend on availability
            before = span[0], match.start()
            if _EXTRA_CAPACITY.search(item.text, *before):
                if reserved is None:
                    reserved = any(_RESERVATION.search(t.text) for t in texts(contract) if t.kind == "operative")
                if reserved:
                    continue  # what it qualifies is capacity on top of a firm reservation: that may fairly depend on availability
            reading = read_at(item.text, match.start(), who)
            if reading.obligor == "customer" and reading.modality == "obligation" and not _RECEIVES.search(sentence):
                continue  # the customer's own duty ("Customer will provide rack space", "return the spares, subject to courier slots"),
                # not what it is to receive ("You will receive 64 reserved GPUs, subject to availability")
            how = "" if learned is None else f", confirmed by the learned reading ({learned.describe()})"
            yield anchored(review, item, match, f"{item.label} is {reading.describe()} that makes capacity {words(match)!r}{how}: "
                           "the vendor may never provide it; reserve the accelerators by count and date", reading, learned)
            break

