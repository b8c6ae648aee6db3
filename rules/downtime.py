"""CON007: downtime defined so narrowly that a failed accelerator is not down, anchored in the
connectivity words that measure it or the exclusion that leaves degradation out."""

from __future__ import annotations

import re
from functools import cache

from clusterlint.contracts.folded import Folded
from clusterlint.contracts.sentences import per_sentence, sentence_at, sentence_span
from clusterlint.engine.review import check
from clusterlint.rules import clauses
from clusterlint.rules.anchors import anchored, words
from clusterlint.rules.clauses import texts
from clusterlint.rules.sole_remedy import CREDIT


_DOWNTIME = Folded(r"(?=[^\W_])\b(?:downtime|uptime|unavailab\w*|availability|not\s+available|outages?|down|offline|(?:failure|outage|fault)\s+time|service\s+stops?|stoppages?|failures?|inaccessib\w*|(?:deemed|considered(?:\s+as)?|treated\s+as|regarded\s+as|counts?\s+as|counted\s+as)\s+(?:available|up)|(?<=\bis\s)available|(?<=\bare\s)available|(?<=[\x22“])(?:available|up)(?=[\x22”])|(?<=\*\*)(?:available|up)(?=\*\*)"
                   r"|(?:service\s+)?(?:interrupt(?:ed|ions?)|disrupt(?:ed|ions?))|error\s+conditions?|(?:error|availability|uptime)\s+slis?)\b")
# the customer's own connection, a condition on its side, not the measure: "..., if there is an Internet connection",
# "with your internet connection", "the Customer's network access"
_CUSTOMER_SIDE = Folded(r"(?:\b(?:if|when|where|whenever|provided|as\s+long\s+as|with)\s+(?:there\s+is\s+)?(?:an?|a\s+(?:working|stable|functioning))\s+"
                        r"|\b(?:customer['’]s|your|their|its\s+own|user['’]s|users['’])\s+(?:own\s+)?)(?:internet\s+|network\s+)?$")
# a sentence defining a severity level or downtime that is planned or left out, not what down means: '"P1 Issue" means any Issue
# in which the Service is ... unavailable from multiple ISPs', '"Customer Planned Downtime" means downtime ... specified ... by Customer'
_OTHER_TERM = Folded(r"\W{0,4}(?:\d{1,3}(?:\.\d{1,3}){0,3}\.?\s+\W{0,4})?(?:(?:p|sev(?:erity)?\s*|priority\s*|severity\s+level\s+)[0-4](?:\s+[a-z]+)?"
                     r"|(?:[a-z]+\s+)?(?:planned|scheduled|excluded|maintenance|emergency)\s+(?:downtime|minutes|maintenance|windows?|outages?))\W{0,4}\s*(?::|means\b|is\b|shall\s+mean\b)")
# the customer's requests are the service's measure, not a condition on the customer's side ("Customer's requests ... resulting in an error")
_REQUESTS = Folded(r"\b(?:requests?|calls?|transactions?|quer(?:y|ies)|operations?)\b")
# an error rate defined as the measure: "we calculate the service-error rate as 1 - (count of errors / count of requests)"
_ERROR_RATE_AS = Folded(r"\b(?:service[\s-]|request[\s-]|api[\s-])?error[\s-]rates?\s+(?:as|=|is\s+(?:calculated|defined|measured)|means)\b")
# the failed unit downtime is counted in, or the error rate, defined: '"Failed Transactions" is the set of all requests ... that ...
# do not return a Success Code', "Missed Tick: A Tick ... that did not result in a Successful Run", '"Error Rate Percentage" means
# the percentage ... of Valid Requests that result in a response with a 500 ... HTTP Status' (a definition that measures downtime)
_FAILED_UNIT = Folded(r"\W{0,4}(?:\d{1,3}(?:\.\d{1,3}){0,3}\.?\s+\W{0,4})?(?:(?:(?:missed|failed|unsuccessful|errored|dropped|successful)\s+[a-z]+(?:\s+[a-z]+)?"
                      r"|(?:[a-z]+\s+)?error\s+rates?(?:\s+percentage)?)\W{0,4}\s*(?::|means\b|is\b|are\b|refers\b|shall\s+mean\b)"
                      r"|(?:errors|failures)\s+(?:that\s+)?(?:are\s+)?(?:recorded|counted|measured|tracked)\s+against\s+(?:the|this|our)\s+(?:sla|slo|uptime|availability)\b)")
# an uptime promised as a share of time: "accessible over the internet 100% of the time"
_UPTIME_FIGURE = Folded(r"\b\d{1,3}(?:\.\d+)?\s?%\s+of\s+the\s+time\b")
# or as the share promised for the connectivity words right before it: "you will have Virtual Machine Connectivity of at least 98%"
_PERCENT = r"\s+(?:of\s+)?(?:at\s+least\s+|not\s+less\s+than\s+|a\s+minimum\s+of\s+)?\d{1,3}(?:\.\d+)?\s?%"
_SHARE_OF_IT = Folded(_PERCENT)
_CONNECTIVITY_SHARE = Folded(r"\b(?:connectivity|reachability|accessibility)" + _PERCENT)
_CONNECTIVITY_WORDS = (
    r"(?=[^\W_])(?:"  # every alternative starts with a letter or digit: a run of spaces or punctuation is passed in one step
    r"\b(?:(?:external|network|internet)\s+)?connectiv(?:ity|eness)\b|\bconnect(?:ion)?s?\b|\bdisconnect\w*|\breachab\w*|\bunreachable\b|\b(?:in)?accessib\w*|\b(?:can|could|be)\s+(?:be\s+)?reached\b"
    r"|\b(?:cannot|can\s+not|can['’]t|could\s*n[o']t|unable\s+to|inability\s+to|not\s+able\s+to|fails?\s+to|failure\s+to)\s+(?:be\s+)?(?:access(?:ed)?|connect(?:ed)?|log\s?in|log\s+in|sign\s+in|reach(?:ed)?|hit|communicate|ssh|"
    r"(?:pass|carry|route|send|receive|exchange)\s+(?:\w+\s+)?(?:traffic|packets|data)|logged\s+in(?:to)?|(?:open|establish|initiate|make)\s+(?:a|an)\s+(?:\w+\s+)?(?:session|connection)|launch|start|create|provision)\b"
    r"|\b(?:no|loss\s+of|lacks?|without)\s+(?:external\s+|remote\s+)?(?:network\s+|internet\s+)?access(?:ibility)?\b|\b(?:network|internet)\s+(?:traffic|requests|access|paths?)\b"
    # "can send or receive packets", "can neither log in to it nor reach", "could be contacted", "our probes lose contact"
    r"|\b(?:send|receive|transmit)\s+(?:or\s+(?:send|receive|transmit)\s+)?(?:network\s+|ip\s+)?(?:packets|traffic)\b|\bneither\s+(?:log\s?in|connect|reach|access|ssh)\w*|\bnor\s+reach\w*"
    r"|\b(?:be|been)\s+contacted\b|\blos(?:e|es|t|ing)\s+contact\b|\bhttps?\s+(?:\d{3}\s+)?(?:response|status|code)\b|\b(?:fibre|fiber)\s+(?:paths?|links?|routes?)\b"
    r"|\b(?:respond\w*|answers?|answering|replies|reply)\s+(?:to\s+)?(?:\w+\s+){0,2}?(?:requests|pings?|probes|commands|queries)|\bping(?:s|ed|ing|able)?\b|\b(?:stops?|stopped|ceases?|fails?)\s+(?:to\s+)?(?:respond|answer)\w*|(?:\bnot|n['’]t|\bno\s+longer)\s+(?:respond|answer)\w*|\bno\s+response\b|\bunresponsive\b"
    r"|\bimpossib\w*\s+(?:of\s+|to\s+)?(?:access|connect|reach|communicat|log)\w*|\bcommunicat(?:ion|ing|e)\b[^.;]{0,40}?\bimpossible\b"
    r"|\b(?:answers?|responds?|replies)\s+(?:on|at|via)\s+(?:its\s+|the\s+|a\s+)?(?:public\s+|private\s+)?(?:network\s+)?(?:ip|address|endpoint|port|interface)\b"
    # the answer as the measure: "a call that returns an error", "requests ... resulting in an error", "will serve Customer Content"
    r"|\b(?:returns?|returning|result(?:s|ing|ed)?\s+in)\s+(?:an?\s+)?(?:server\s+|internal\s+)?errors?\b|\bserv(?:e|es|ing)\s+(?:customer\s+|your\s+|the\s+)?content\b"
    r"|\breturns?\s+(?:a\s+)?(?:valid\s+|successful\s+)?response|\b(?:no|zero)\s+(?:network\s+)?(?:packets|traffic)\b"
    r"|\b(?:able|possible)\s+to\s+(?:access|connect|reach|log\s?in|(?:open|establish)\s+(?:a|an)\s+(?:\w+\s+)?(?:session|connection))|\buplinks?\b|\bcross[\s-]?connects?\b|\bip\s+transit\b"
    r"|\b(?:drops?|dropped|falls?|fell|goes|went)\s+off\s+(?:the\s+)?network\b|\bcan\s+(?:still\s+)?(?:log\s?in|ssh|connect|access|reach)\b"
    r"|\bheartbeats?\b|\btim(?:e|es|ed|ing)\s+out\b|\btimeouts?\b"
    # API errors as the measure: "returns server errors to all API calls", "answers every request with an error"
    r"|\b(?:server|service|5xx|http|api|grpc)\s+errors?\b|\bgrpc\s+status\b|\berror\s+rates?\b|\brequests?\s+(?:that\s+)?fail\w*|\b(?:failed|unsuccessful)\s+(?:[\w-]+\s+)?(?:requests?|transactions?|calls?|operations?|queries|probes?|pings?)\b|\b(?:error|success)\s+codes?\b"
    # scheduled operations that did not start as the measure: "Downtime: Calculated as Missed Ticks / Monthly Ticks"
    r"|\bmissed\s+(?:[\w-]+\s+)?(?:ticks?|runs?|executions?|heartbeats?|checks?|probes?|pings?|polls?)\b|\b(?:requests?|calls?)\b[^.;]{0,40}?\b(?:errors?|timeouts?|time\s+out)\b"
    r"|\bsuccessful(?:ly\s+(?:processed|answered|served))?\s+(?:\w+\s+){0,2}?(?:requests?|calls?|transactions)\b|\b(?:requests?|calls?)\s+that\s+(?:are|were)\s+(?:not\s+)?successful\b|\b(?:did|does|do)\s+not\s+result\s+in\s+a\s+successful\s+[a-z]+"
    # unavailable by way of the network: "the instance is not available over the network", "unavailable via all its IP addresses"
    r"|\b(?:unavailable|not\s+available|no\s+longer\s+available)\s+(?:via|over|through|from)\s+(?:the\s+|any\s+(?:of\s+)?|all\s+(?:of\s+)?)?(?:its\s+|their\s+)?"
    r"(?:public\s+|external\s+|private\s+)?(?:network|internet|ip\s+address(?:es)?|ips?)\b"
    # reading and writing by clients as the measure: "two or more DB Hosts ... for reading or writing via supported clients"
    r"|\b(?:available\s+|unavailable\s+|accessible\s+)?for\s+(?:reading|writing)(?:\s+(?:and|or|and/or)\s+(?:reading|writing))?\s+(?:via|by|through|from)\b"
    # the server's error code as the measure: "returns an error with code 500", "a 5xx response"
    r"|\b(?:codes?|status|errors?|responses?)\s+(?:with\s+(?:an?\s+)?)?(?:(?:code|status)\s+)?(?:5\d\d|5xx)\b|\b5xx\b"
    # the service's own operations failing as the measure: "the database cannot perform read and write operations", "unable to
    # execute queries", "write requests fail" (a failed request by another name)
    r"|\b(?:cannot|can\s+not|can['’]t|unable\s+to|inability\s+to|impossib\w*(?:\s+of|\s+to)?|not\s+able\s+to|not\s+possible\s+to|fails?\s+to|failure\s+to)\s+(?:read|writ|perform|execut|process|complet|serv)\w*\s+"
    r"(?:\w+\s+){0,3}?(?:operations?|quer(?:y|ies)|requests?|transactions?|writes|reads|i/o|data)\b"
    r"|\b(?:read|write|i/o)(?:\s+(?:and|or|/)\s+(?:read|write))?\s+(?:operations?|requests?|quer(?:y|ies))\s+(?:fail\w*|(?:are|is)\s+(?:impossible|rejected|refused))"
    # the answer's status as the measure: "a status code lower than 500 was not successfully returned"
    r"|\b(?:https?\s+)?status\s+codes?\b[^.;]{0,60}?\b(?:not\s+)?successfully\s+(?:returned|served|answered)\b)"
)


@cache
def _connectivity() -> re.Pattern:
    """The connectivity wording, compiled on first use: only a text with one of its anchor words needs it."""
    return re.compile(_CONNECTIVITY_WORDS, re.IGNORECASE)


# every match of the connectivity wording holds one of these words (its anchor): a text without any is passed over with a
# few substring tests instead of the long pattern's scan (a clause that never speaks of connectivity)
_CONNECTIVITY_ANCHORS = (
    "connect", "reach", "access", "cannot", "can not", "can't", "can’t", "could", "unable", "inability", "not able", "fail", "network", "internet",
    "packet", "traffic", "neither", "contact", "http", "fib", "request", "ping", "probe", "respon", "answer", "repl", "impossib",
    "log in", "login", "session", "uplink", "transit", "heartbeat", "time out", "times out", "timed out", "timing out", "timeout",
    "error", "call", "transaction", "ssh", "status", "success", "missed", "operation", "quer", "read", "write", "i/o", "code", "5xx", "available", "result", "return", "content",
)


def _may_speak_of_connectivity(text: str) -> bool:
    lowered = " ".join(text.lower().split())
    return any(word in lowered for word in _CONNECTIVITY_ANCHORS)


# what narrows downtime, the words the learned reading needs in a sentence before it may confirm it (its anchor)
NARROWING_WORDS = Folded(
    r"(?=[^\W_])\b(?:(?:in)?accessib\w*|access\w*|connect\w*|(?:un)?reach\w*|(?:un|not\s+)available\s+to\s+(?:the\s+)?(?:customer|you|users?)|respon\w*|ping\w*|requests?|errors?|attainab\w*|answer\w*"
    r"|repl(?:y|ies|ied)|probes?|health\w*|sessions?|consoles?|returns?|icmp|heartbeats?|tunnels?|establish\w*"
    r"|all\s+(?:of\s+)?(?:the\s+|its\s+)?(?:users|customers|instances|nodes|regions)|log\s?(?:in|on)|network)\b",
)
_NAMED = re.compile(r"[A-Z][a-z]+\s+[A-Z][a-z]")  # a capitalised defined term: "Excluded Minutes"
# an exclusion of a defined term ("excluding any Excluded Minutes", "excludes Scheduled Maintenance"): what it leaves out is
# defined elsewhere, where the rule reads it; the word alone does not say degradation is left out
_EXCLUDES_NAMED = re.compile(r"(?:exclud\w*|(?:does|do|shall|will)\s+not\s+(?:include|count))\s+(?:any\s+|all\s+|the\s+)?[A-Z][a-z]+\s+[A-Z][a-z]")
_DEGRADED = Folded(
    r"\bdegrad\w*|\bperformance\b|\bthroughput\b|\bbandwidth\b|\bunhealthy\b|\bhealth[\s-]*checks?\b|\bhealthy\b|\bthrottl\w*|\bdiag(?:s|nostics?)?\b|\bburn[\s-]?in\b|\bdcgm\b"
    r"|\bfall\w*\s+off\s+the\s+bus\b|\bbelow\s+(?:its\s+|the\s+|their\s+)?(?:rated|committed|specified|advertised|nominal|benchmark\w*)\b"
    r"|\bperform\w*\s+below\b|\bbelow\s+spec\w*|\bout\s+of\s+service\b|\becc\b|\bxid\b|\b(?:gpu|accelerator|nic|fabric|interconnect|nvlink|infiniband)s?\b[^.;]{0,60}\b(?:fail\w*|fault\w*|error\w*|impair\w*|lost|hang\w*|hung|drop\w*|slow\w*|missing|absent|reduced)",
)
# what a narrow definition leaves out of downtime: degraded hardware, partial outages, single instances
# a sentence that counts partial outages with full ones ("full or partial system outage") leaves none out
_FULL_OR_PARTIAL = Folded(r"\b(?:full|complete|total)\s+or\s+partial\b|\bpartial\s+or\s+(?:full|complete|total)\b")
_PARTIAL = Folded(
    r"\bpartial\w*(?!\s+(?:minutes?|hours?|seconds?|intervals?|days?|months?|billing|periods?\s+of\s+less))|\b(?:individual|single|one\s+or\s+more|some\s+but\s+not\s+all)\s+(?:\w+\s+)?(?:gpus?|accelerators?|instances?|nodes?|servers?|links?|components?)\b"
    r"|\breduced\b|\bslow\w*",
)
_LEAVES_OUT = Folded(
    r"\b(?:does|do|shall|will)\s+not\s+(?:include|cover|count|constitute|amount\s+to|extend\s+to)\b"
    r"|\b(?:is|are)\s+not\s+(?:(?:counted|treated|regarded)\s+as\s+|considered\s+)?(?:downtime|unavailab\w*|an?\s+outage|outages|down)\b"
    # "the following events shall in no circumstances be considered as an Unavailability Period: ..."
    r"|\b(?:shall|will|do(?:es)?|are|is)\s+(?:not|never|in\s+no\s+(?:circumstances?|event|case))\s+(?:be\s+)?(?:considered|counted|treated|deemed|regarded)\s+(?:as\s+)?(?:an?\s+|the\s+)?(?:downtime|unavailab\w*|outages?)\b"
    r"|\bexclud(?:es?|ed|ing)\b|\bnot\s+count(?:ed)?\b|,\s+not\s+(?:downtime|an?\s+outage|unavailab\w*)\b",
)
# downtime counted only when most of the service is down: "an interruption that affects more than 50% of users"
_SHARE = Folded(
    r"\b(?:affect\w*|impact\w*|experienced\s+by|for)\s+(?:a\s+majority\s+of|the\s+majority\s+of|most\s+(?:of\s+)?|more\s+than\s+(?:half|\d{1,3}\s?%|\d{1,3}\s+percent)\s+of"
    r"|at\s+least\s+(?:half|\d{1,3}\s?%|\d{1,3}\s+percent)\s+of|over\s+(?:half|\d{1,3}\s?%)\s+of|all\s+(?:of\s+)?)\s*(?:the\s+)?(?:customer['’]s\s+|your\s+|its\s+)?"
    # one word may qualify them: "affects more than 50% of Active Users", "of public users"
    r"(?:end\s+|active\s+|public\s+|signed-in\s+|paying\s+|unique\s+)?(?:users|customers|instances|nodes|servers|accounts|regions|requests|seats)\b"
    # the share as a condition: 'Our site is "unavailable" if more than 10% of public users are experiencing issues'
    r"|\b(?:if|when|whenever|once|where)\s+(?:more\s+than|at\s+least|over)\s+(?:half|\d{1,3}\s?%|\d{1,3}\s+percent)\s+of\s+(?:the\s+)?(?:[a-z-]+\s+)?"
    r"(?:users|customers|instances|nodes|servers|accounts|regions|seats)\s+(?:are\s+|is\s+)?(?:experienc\w*|affected|impacted|unable|cannot|down)\b"
    # or when the whole of it is down: "during which the entire cluster is unavailable", "complete service unavailability",
    # "100% packet loss to our network"
    r"|\b(?:entire|whole|complete)\s+(?:[\w-]+\s+){0,3}?(?:cluster|service|platform|system|deployment|region|network)\s+(?:is\s+|being\s+|was\s+)?"
    r"(?:unavailable|down|inaccessible|unreachable|offline)\b|\b(?:complete|total)\s+(?:service\s+|system\s+)?(?:unavailability|outage|loss\s+of\s+service)\b"
    r"|\b100\s?%\s+packet\s+loss\b"
    # several units in different zones down at once: "two or more DB Hosts placed in different Availability Zones"
    r"|\b(?:two|three|four|five|\d{1,2})\s+(?:or|and)\s+more\s+(?:[\w-]+\s+){0,2}?(?:hosts|nodes|replicas|instances|servers|disks|vms)\b"
    r"[^.;]{0,80}?\bdifferent\s+(?:availability\s+)?(?:zones|regions|data\s*cent(?:er|re)s)\b"
    # every unit of it down at once: "when all hosts of the cluster are unavailable", "all of its replicas are unreachable"
    r"|\ball\s+(?:of\s+)?(?:the\s+|its\s+|their\s+)?(?:hosts|nodes|replicas|instances|servers|(?:availability\s+)?zones|regions|virtual\s+machines|vms|disks|shards)\b"
    r"(?:\s+(?:of|in)\s+(?:the\s+|a\s+|its\s+)?[\w-]+)?\s+(?:are|were|become|becomes|being)\s+(?:simultaneously\s+|both\s+)?(?:unavailable|down|inaccessible|unreachable|offline)\b",
)
_CAUSED = Folded(r"\b(?:caused\s+by|due\s+to|because|b/c|resulting\s+from|attributable\s+to|arising\s+from)\b")
# what ties downtime to the connectivity words that measure it: "Downtime means / occurs when / is any
# period in which ... unreachable" (downtime first), "Loss of access ... counts as Downtime" (after)
_MEASURED_BY = Folded(
    r"\b(?:means?|meaning|refers?\s+to|in\s+(?:the\s+)?case|when|whenever|if|while|where|during\s+which|in\s+which|unless|only|requires?|as|periods?|minutes?|intervals?"
    r"|once|starts?|begins?|determined|measur\w*|calculated|assessed|based\s+on|indicat\w*|includes?|covers?|consists?|comprises?|intended|understood|times?)\b|[:=—–|]|\b(?:is|are)\s+(?:any|every)\b"
    r"|\b(?:is|are)\s+(?:the\s+|an?\s+)?(?:absence|lack|loss)\s+of\b",
)
_MEASURES = Folded(
    r"\b(?:constitut\w*|count\w*|treated|deemed|regarded|considered|amounts?\s+to|means|results?\s+in|leads?\s+to)\b"
    r"|\b(?:is|are)\s+(?:not\s+)?(?:in\s+)?(?:an?\s+|the\s+)?$"
    r"|^\s*\((?:the\s+|an?\s+)?[\x22“']?$",  # the words named as it: "... has no external accessibility (the “Downtime”)"
)


_EXCLUDED = Folded(r"\b(?:does\s+not|shall\s+not|will\s+not|won['’]t|doesn['’]t)\s+include\b|\bexclud(?:es?|ed|ing)\b|\bnot\s+count(?:ed)?\b")


def _excluded(text: str, at: int) -> bool:
    """Whether the connectivity words at `at` are what downtime leaves out ("Downtime does not include
    periods in which the instance is unreachable because of ..."): an exclusion between the last
    mention of downtime before them and them, or just before that mention."""
    lo = max(0, at - 200)
    last = None
    for last in _DOWNTIME.finditer(text, lo, at):
        pass
    # or an exclusion just before that mention: "Calculation of uptime will not include unavailability due to: ... internet connectivity"
    return last is not None and bool(_EXCLUDED.search(text, last.end(), at) or _EXCLUDED.search(text, max(lo, last.start() - 30), last.start()))


def _measures_downtime(text: str, match: re.Match) -> bool:
    """Whether the connectivity words `match` are what a mention of downtime in their sentence is
    measured by: "Downtime occurs when ... unreachable", not "During an outage, Customer may connect
    to another region" or "Provider shall restore connectivity after an outage"."""
    unit = _FAILED_UNIT.match(text, sentence_span(text, match.start())[0])
    if unit is not None and match.start() >= unit.end() or _ERROR_RATE_AS.match(text, match.start()):
        return True  # the definition of the failed unit downtime is counted in (its words, not its name), or of the error rate
    for mention in _DOWNTIME.finditer(text, max(0, match.start() - 200), match.start()):  # any mention before, in the sentence
        if not _SENTENCE_END.search(text, mention.end(), match.start()) and (
                _MEASURED_BY.search(text, mention.end(), match.start()) or _DEFINING.search(text, max(0, mention.start() - 60), mention.start())):
            return True  # "Downtime means ...", "It will be understood by interruption ... the impossibility of accessing"
        if _IS.fullmatch(text, mention.end(), match.start()) and _TERM_FIRST.fullmatch(text, sentence_span(text, mention.start())[0], mention.start()):
            return True  # the words right after the term that opens the sentence: "Unavailability is the impossibility of executing queries"
        if not _SENTENCE_END.search(text, mention.end(), match.start()) and _INABILITY.match(match.group(0)) \
                and _DURING.search(text, max(0, mention.start() - 30), mention.start()):
            return True  # what cannot be done during it describes it: "During the service downtime, you cannot perform any operations"
    if _SHARE_OF_IT.match(text, match.end()):
        return True  # the connectivity is what is promised as a share: "Virtual Machine Connectivity of at least 98%"
    figure = _UPTIME_FIGURE.search(text, match.end(), match.end() + 60)
    if figure is not None and not _SENTENCE_END.search(text, match.end(), figure.start()):
        return True  # the uptime promised is the connectivity: "accessible over the internet 100% of the time"
    after = _DOWNTIME.search(text, match.end(), match.end() + 120)
    if after is None or _SENTENCE_END.search(text, match.end(), after.start()):
        return False
    between = text[match.end() : after.start()]
    return bool(_MEASURES.search(between)) and not _NOT_COUNTED.search(between) and not _PEOPLE_AWAY.search(between)
    # "..., which is not counted as Downtime": left out, not the measure; "(if other staff are not available)": people


_SENTENCE_END = re.compile(r"(?:[.;!]|\?(?!\s*A:))(?:\s|$)")  # an FAQ's "...? A: ..." goes on
_LEADING_IF = Folded(r"\W{0,3}(?:\d{1,3}(?:\.\d{1,3}){0,3}\.?\s+)?(?:if|where|when|whenever|in\s+the\s+event\s+that)\b[^,;]{0,200},")


def _credit_trigger(text: str, match: re.Match) -> bool:
    """Whether the connectivity words `match` sit in a leading condition whose main clause grants a
    credit ("If the Instances are unreachable for more than 43 minutes, you will receive a credit"):
    the credit's trigger is the SLA's definition of downtime."""
    start, end = sentence_span(text, match.start())
    condition = _LEADING_IF.match(text, start)
    return condition is not None and match.end() <= condition.end() and bool(CREDIT.search(text, condition.end(), end))
_IS = re.compile(r"\W{0,3}\s*(?:is|are)\s+(?:the\s+|an?\s+)?", re.IGNORECASE)
_TERM_FIRST = re.compile(r"[\W\d]{0,8}(?:(?:The|An?)\s+)?(?:[A-Z][\w-]*\s+){0,3}")  # the sentence opens with the term: "VM Unavailability"
_DURING = Folded(r"\b(?:during|throughout|for\s+the\s+duration\s+of)\s+(?:the\s+|an?\s+|any\s+|such\s+)?(?:[\w-]+\s+)?$")
_INABILITY = Folded(r"(?:cannot|can\s+not|can['’]t|unable|inability|impossib|not\s+able|not\s+possible|no\s+|fail)")
_DEFINING = Folded(r"\b(?:understood|defined|deemed|considered|regarded)\s+(?:by|as)\b")
_NOT_COUNTED = Folded(r"\bnot\b|n['’]t\b")
# people who are not available, not the service: "... responding to requests (if other devops staff are not available)"
_PEOPLE_AWAY = Folded(r"\b(?:staff|personnel|engineers?|team|members|people|someone|anyone|on-?call|persons?|employees|agents?)\s+(?:is|are)\s+$")
# a capitalised word after a capitalised word: a name ("Management Console"), not the narrowing word
_IN_A_NAME = re.compile(r"\b[A-Z][a-z]+\s+[A-Z][a-z]+$")
_THINGS = ("console", "consoles", "network", "session", "sessions", "tunnel", "tunnels")  # narrowing words that can end a product's name
_ANY_ERROR = Folded(r"\b(?:an?|any)\s+$")  # before "error": any error counts as down, no narrow measure ("works with an error")


def _leaves_out_degradation(item):
    """The first sentence of `item` that takes degraded hardware or partial outages out of downtime
    ("Downtime does not include degraded performance", "Slow GPUs do not constitute Downtime"): the
    match of its exclusion, or None. An exclusion for a cause ("... caused by Customer's software")
    is fair."""
    for match, sentence in per_sentence(_LEAVES_OUT, item.text):
        if _DOWNTIME.search(sentence) and (_DEGRADED.search(sentence) or _PARTIAL.search(sentence)) and not _CAUSED.search(sentence):
            return match
    for match, sentence in per_sentence(_SHARE, item.text):
        # downtime named beside the share, not only inside it: "Complete outage to primary region" defines nothing
        if _DOWNTIME.search(sentence.replace(match.group(0), " ")) and not _EXCLUDED.search(sentence) and not _FULL_OR_PARTIAL.search(sentence):
            return match  # "An Outage is an interruption that affects a majority of users": a partial outage is none
    return None


# a heading that is the term a clause defines: "## Definition of a single Virtual Machine Unavailability", "1.2. Downtime"
_HEAD_TERM = Folded(r"\W*(?:\d{1,3}(?:\.\d{1,3}){0,3}\.?\s+)?(?:definition\s+of\s+(?:an?\s+|the\s+)?)?(?:[\w-]+\s+){0,5}?"
                    r"(?:downtime|unavailability|outage|down\s+time)(?:\s+definition)?(?:\s*\{[^}]*\})?\W*")
# and the clause's first words define it: "This means ...", "Loss of external connectivity ...", "No response to ..."
_OPENS_DEFINITION = Folded(r"\W{0,3}(?:(?:this|it)\s+(?:means|is\s+defined\s+as|refers\s+to)\b|(?:means|defined\s+as)\b"
                           r"|(?:loss|lack|absence|inability|impossibility)\s+(?:of|to)\b|no\s+)")


def _defined_in_heading(review, item) -> int:
    """Where the sentence ends that defines the term the clause's heading names ("1.2. Downtime" over "This means ...: all
    requests fail."), or 0: that sentence is measured as if the term opened it."""
    if item.path[:2] != ("spec", "clauses"):
        return 0
    section = review.contract.spec.clauses[item.path[2]].section
    if not section or not _HEAD_TERM.fullmatch(section) or not _OPENS_DEFINITION.match(item.text) or _DOWNTIME.search(sentence_at(item.text, 0)):
        return 0
    return sentence_span(item.text, 0)[1]


def _names_downtime(text: str) -> bool:
    """Whether `text` speaks of downtime: a word for it, an uptime figure ("100% of the time", "Connectivity of at least 98%"), or
    the definition of the failed unit or the error rate it is counted in."""
    return bool(_DOWNTIME.search(text) or _UPTIME_FIGURE.search(text) or _FAILED_UNIT.match(text) or _ERROR_RATE_AS.search(text)
                or _CONNECTIVITY_SHARE.search(text))


@check("clusterlint.rules.params:LearnedParams")
def narrow_downtime_definition(review, params):
    for item in texts(review.contract):
        connected = _may_speak_of_connectivity(item.text)
        if item.kind == "recital" or not (params.learned is not None or connected and _connectivity().search(item.text) or _LEAVES_OUT.search(item.text)
                                          or _SHARE.search(item.text)):
            continue  # a pattern's finding quotes connectivity words or words that leave something out of downtime
        headed = _defined_in_heading(review, item)  # the end of the sentence the heading's term opens, or 0
        if not (headed or _names_downtime(item.text) or CREDIT.search(item.text) and _LEADING_IF.match(item.text)):
            continue  # both readings below need a word for downtime in the text or its heading, or a credit a leading condition earns
        degraded = found = None
        for match in _connectivity().finditer(item.text) if connected else ():  # every match: the first in a sentence may measure nothing
            sentence = sentence_at(item.text, match.start())
            degraded = bool(_DEGRADED.search(item.text)) if degraded is None else degraded  # once per text
            if degraded or _OTHER_TERM.match(sentence) or not _REQUESTS.match(match.group(0)) \
                    and _CUSTOMER_SIDE.search(item.text, max(0, match.start() - 40), match.start()) \
                    or not (match.end() <= headed or _names_downtime(sentence) and not _excluded(item.text, match.start())
                            and _measures_downtime(item.text, match) or _credit_trigger(item.text, match)):
                continue
            found = f"counts downtime only as loss of connectivity ({' '.join(match.group(0).split())!r})"
            break
        else:
            match = _leaves_out_degradation(item)
            if match is not None:
                found = f"leaves degraded hardware and partial outages out of downtime ({' '.join(match.group(0).split())!r})"
        if found:
            yield anchored(review, item, match, f"{item.label} {found}" + _NOT_DOWN)
        else:  # no pattern's reading: the learned one may confirm a sentence about downtime with its narrowing words
            for match, sentence, learned in clauses.learned(item.text, "CON007", params.learned, NARROWING_WORDS):
                if not _DOWNTIME.search(sentence) or _OTHER_TERM.match(sentence) or _excluded(item.text, match.start()) \
                        or _NAMED.match(item.text, match.start()) or _EXCLUDES_NAMED.match(item.text, match.start()) \
                        or match.group(0).lower() in _THINGS and _IN_A_NAME.search(item.text, max(0, match.start() - 30), match.end()) \
                        or match.group(0).lower().startswith("error") and _ANY_ERROR.search(item.text, max(0, match.start() - 8), match.start()):
                    continue  # no downtime in the sentence, or one defining a severity or planned downtime, or the words are left out
                    # of downtime ("will not include unavailability due to: ... internet connectivity problems"), name or exclude a defined
                    # term ("excluding any Excluded Minutes"), are part of a name ("Management Console") or count any error as down ("a
                    # period when Service works with an error")
                yield anchored(review, item, match, f"{item.label} counts downtime only as {words(match)!r}, confirmed by the learned "
                               f"reading ({learned.describe()})" + _NOT_DOWN, learned=learned)
                break


_NOT_DOWN = ": a failed accelerator, a degraded link or a slow fabric is not downtime and earns no credit"
