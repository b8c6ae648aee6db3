"""Who promises what: the obligor, the modality and the polarity of a contract sentence.

A contracts reviewer reads "Provider will use reasonable efforts" and "Customer shall not attempt
to" differently: the first is the vendor's (weak) promise, the second the customer's prohibition.
This module makes that reading for the contract rules, deterministically and with words a finding
can quote:

- the **parties**: the vendor ("Provider", "Vendor", "Supplier", "Licensor", we/us/our, and the
  names the document gives it: `Northwind Compute ("Provider")`) and the customer ("Customer",
  "Client", "Licensee", "Buyer", "Users", you/your, and its defined names); the user can add names
  in the contract's `parties:` (or the configuration's `parties:`);
- the **modal** that governs some words: the last modal verb before them in their sentence
  ("shall", "will", "must", "agrees to/that", "undertakes to" = obligation; "may", "can" =
  permission; "shall not", "may not", "must not", "agrees not to", "cannot", "Neither party shall"
  = prohibition; "strives/aims/endeavours/attempts/targets to", "our goal is to" with no modal =
  aspiration; none = description), unless the words sit in a leading condition ("If you attempt to
  ..., we may ..."); a sentence's main clause is read without the modals of a trailing condition
  ("X is down if users cannot log in") or of what a disclaimer does not promise ("does not warrant
  that the Service will ..."), and a proviso or a list item ending in ";" is a condition;
- the **obligor**: the party named at the head of that modal's subject ("Customer will ...",
  "Your account ...", "Either party may ..." = both; with no modal, the subject before the verb:
  "Credits are Customer's sole remedy" names none), the agent of a passive ("... will be answered
  by Provider's engineers"), or the vendor for a passive with no agent ("Orbit Labs' capacity will
  be made available"; not a deeming, "shall be deemed").

Every step is a bounded regular expression or a scan of the sentence: time is linear in the text.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from clusterlint.contracts.folded import Folded
from clusterlint.contracts.kinds import kind_of
from clusterlint.contracts.memo import last_document
from clusterlint.contracts.sentences import sentence_span

VENDOR_WORDS = ("provider", "vendor", "supplier", "seller", "licensor", "lessor", "contractor", "we", "us", "our", "ours",
                "centre", "center", "operator", "distributor")  # the operator of an HPC service or a data centre ("the Centre will allocate ...")
CUSTOMER_WORDS = ("customer", "client", "licensee", "buyer", "purchaser", "lessee", "subscriber", "user", "users", "you", "your", "yours",
                  "allocation holder", "allocation holders", "principal investigator", "principal investigators", "researcher", "researchers",
                  "project", "projects", "project lead", "project leads",  # HPC allocations
                  "authority", "government", "department", "orderer", "reseller")  # the buyer in public-sector contracts ("the Contractor" is the vendor)
_BOTH = Folded(r"\b(?:either|each|both|neither)\s+(?:of\s+the\s+)?(?:contracting\s+)?part(?:y|ies)\b|\bboth\s+(?:sides|teams)\b|\bthe\s+parties\b")

_MODAL = Folded(
    r"\b(?P<neg>shall\s+not|will\s+not|must\s+not|may\s+not|can\s*not|cannot|won['’]t|shan['’]t|mustn['’]t|(?:do(?:es)?\s+)?not,?\s+(?:to\s+)?(?:attempt|try)|don['’]t\s+(?:attempt|try)|"
    r"agrees?\s+not\s+to|undertakes?\s+not\s+to|(?:is|are)\s+(?:not\s+permitted|prohibited)\s+(?:to|from))\b"
    r"|\b(?P<must>shall|will|['’]ll|must|agrees?\s+(?:to|that)|undertakes?\s+to|commits?\s+to|(?:engages?|obliges?|binds?)\s+itself\s+to|(?:is|are)\s+required\s+to|guarantees?)\b"
    r"|\b(?P<may>may|can|(?:is|are)\s+entitled\s+to|ha(?:s|ve)\s+the\s+right\s+to)\b"
    r"|\b(?P<aim>strives?|aims?|endeavou?rs|attempts|tries|targets?|seeks?|hopes?|intends?|expects?|aspires?|(?:is|are|['’]re)\s+(?:striving|aiming|endeavou?ring|trying|attempting|seeking|hoping|targeting)|(?:goal|aim|objective)\s+is)\b"
    r"(?=\s+to\b|\s+\d|\s+(?:a|an|the|for)\b)",
)
_MODALITY = {"neg": "prohibition", "must": "obligation", "may": "permission", "aim": "aspiration"}
# a leading condition: "If you attempt to exceed your quota, we may ..."
_ITEM_MARK = r"\(?(?:[a-z]{1,2}|[ivx]{1,5}|\d{1,2})\)"  # a list item's mark: "(b)", "iii)", "(2)"
_CONDITION = Folded(r"^\W{0,3}(?:(?:\d{1,3}(?:\.\d{1,3}){0,3}|" + _ITEM_MARK + r")\.?\s+)?"  # after the clause's own number
                        r"(?:if|where|when|whenever|unless|provided\s+that|in\s+the\s+event\s+that)\b[^,;]{0,200}")
_PASSIVE_AGENT = Folded(r"\s+(?:\w+\s+){0,2}?be\s+(?:\w+(?:ed|en|t)|made|done|paid|held|kept|sent|drawn|shown|sold|set)\b[^.;]{0,40}?\bby\s+")
_THE = Folded(r"(?:the\s+)?")
_PASSIVE = Folded(r"\s+be\s+(?!(?:deemed|considered|treated|construed|regarded)\b)(?:made\s+available|(?:made\s+)?\w+(?:ed|en|t)|made|done|held|kept|sent|paid|drawn|shown|sold|set)\b")  # "will be provisioned", no agent named
# (an "and" before a new subject starts a clause: "..., it will notify Provider ... and the parties will seek to resolve")
_CLAUSE_BREAK = re.compile(r"[;:]|,\s+(?:and|but|or|which|who|failing\s+which|in\s+which\s+case|whereupon)\s"
                           r"|\b(?:and|but)\s+(?=(?:the\s+)?[A-Z]|(?:the|both)\s+parties\b|(?:each|either|neither)\s+party\b)|,\s+(?=[A-Z])")


# the verb that ends a sentence's subject when no modal governs it
_VERB = Folded(r"\b(?:is|are|was|were|do|does|did|has|have|constitutes?|represents?|means|counts)\b")
_EXPLETIVE = Folded(r"(?:\S{1,12}\s+)?\W{0,3}(?:it|there|this)\s+")  # after the clause's own number, if any
# a main clause's verb, then a subordinate clause before any modal: "X is unavailable if users cannot ..."
_SUBORDINATE = Folded(r"\b(?:is|are|was|were)\b[^,;]{0,80}?\b(?:if|when|whenever|while|unless|in\s+which|during\s+which)\b")
# a disclaimer: what follows it is what is not promised
_DISCLAIMER = Folded(r"\b(?:does|do|did)\s+not\s+(?:guarantee|warrant|represent|promise)\b|\bmakes?\s+no\s+(?:warrant|guarantee|representation|promise)")
# a clause that is only a condition: a proviso, or a list item that ends a list's line
_PROVISO = Folded(r"^\W{0,3}provided\s+(?:always\s+)?that\b|^\W{0,3}\([a-z0-9]{1,4}\)\s[^.]{0,300}[;,](?:\s*(?:and|or))?\s*$")


PASSIVE = "a passive: the vendor performs"  # the subject read for a passive that names no agent
_REACH = 400  # characters of a sentence read on each side of the words: a subject and its modal sit closer
# how far back a list item's lead-in is looked for: over the earlier items of a long run-in list ("Customer will not (and will
# not allow anyone else to): (i) reverse engineer ...; (ii) ...; ... (v) attempt to defeat ..." puts 400 characters between)
_LIST_REACH = 4 * _REACH


class Parties(NamedTuple):
    """The names each party goes by, lower-case, and one pattern that finds any of them."""

    vendor: frozenset
    customer: frozenset

    @property
    def pattern(self) -> re.Pattern:
        return _party_pattern(self.vendor, self.customer)

    def party(self, name: str) -> str:
        key = " ".join(name.lower().split()).removesuffix("'s").removesuffix("’s").rstrip("'’")
        return "vendor" if key in self.vendor else "customer" if key in self.customer else "none"


@lru_cache(maxsize=64)
def _party_pattern(vendor: frozenset, customer: frozenset) -> re.Pattern:
    names = sorted(vendor | customer, key=lambda n: (-len(n), n))  # longest first; the same text every run (a set's order is not)
    return re.compile(r"(?<![\w-])(?:" + "|".join(r"\s+".join(map(re.escape, n.split())) for n in names) + r")(?:['’]s|(?<=s)['’](?=\s))?(?![\w-])", re.IGNORECASE)


# `Northwind Compute Ltd ("Provider")`, `University of Northfield (the "Customer")`: a name and the role it is given
_DEFINED_AS = re.compile(
    r"(?P<name>[A-Z][\w&.-]{0,40}(?:[ \t,]{1,2}(?:(?:of|for|and)[ \t]{1,2})?[A-Z][\w&.-]{0,40}){0,4})[ \t]{0,3}\((?:the[ \t]{1,3})?[\"“'‘](?P<role>[A-Za-z]{2,20})[\"”'’]",
)


@last_document
def parties(contract, extra: dict | None = None) -> Parties:
    """The parties of `contract`: the usual role words, the names its own text defines, and the
    names the user gave (`spec.parties`, then `extra` from the configuration)."""
    vendor, customer = set(VENDOR_WORDS), set(CUSTOMER_WORDS)
    short: dict[str, set] = {"vendor": set(), "customer": set()}  # the forms names are shortened to

    def add(side: str, name: str) -> None:
        full = " ".join(name.split()).strip(", ").lower()
        (vendor if side == "vendor" else customer).add(full)
        short[side].update(_short_forms(full))

    for clause in contract.spec.clauses:
        for match in _DEFINED_AS.finditer(clause.text):
            role = match.group("role").lower()
            side = "vendor" if role in vendor else "customer" if role in customer else None
            if side is not None:
                add(side, match.group("name"))
    subject = _usual_subject(contract, vendor | customer)
    if subject:
        vendor.add(subject)
    for given in (getattr(contract.spec, "parties", None), extra):
        if given is None:
            continue
        names = given if isinstance(given, dict) else given.model_dump()
        for side in ("vendor", "customer"):
            for name in names.get(side) or ():
                add(side, name)
    shared = short["vendor"] & short["customer"]  # a short form of both parties' names names neither
    vendor |= short["vendor"] - shared - customer
    customer |= short["customer"] - shared
    return Parties(frozenset(vendor), frozenset(customer - vendor))


_LEGAL_FORM = Folded(r"(?<![\s,])[\s,]+(?:ltd|limited|inc|incorporated|llc|llp|plc|gmbh|ag|sa|s\.a|bv|b\.v|nv|pty|corp|corporation|co)\.?$")
_OF_PLACE = Folded(r"^(?:the\s+)?([a-z][\w-]+)\s+of\s+\S")
# first words that are no name of their own: "University of ...", "National ...", "Global ..."
_GENERIC_FIRST = {"university", "college", "institute", "national", "international", "global", "united", "general", "first", "american",
                  "british", "european", "royal", "state", "city", "county", "north", "south", "east", "west", "northern", "southern",
                  "eastern", "western", "central", "advanced", "applied", "digital", "data", "cloud", "compute", "computing", "research"}
_ORG_NOUN = re.compile(r"\s(university|college|institute|laboratory|council|trust|agency|hospital|foundation|centre|center|bank|school)$")


def _short_forms(full: str) -> set[str]:
    """The forms a contract shortens a party's name (lower-case) to: without its legal form ("kestrel
    compute ltd" -> "kestrel compute"), its first word when that is a name of its own ("kestrel"),
    and, for "university of northfield" or "northfell university", "the university"."""
    bare = _LEGAL_FORM.sub("", full)
    forms = {bare}
    first = bare.split()[0] if len(bare.split()) > 1 else ""
    if len(first) >= 4 and first.isalpha() and first not in _GENERIC_FIRST and not _NOT_A_NAME.match(first):
        forms.add(first)
    head = _OF_PLACE.match(full) or _ORG_NOUN.search(full)
    if head:
        forms.add(f"the {head.group(1)}")
    return forms - {full, ""}


# a capitalised name right before a modal: "Nimbus will", "Northwind Compute shall"
_NAMED_SUBJECT = re.compile(r"\b([A-Z][\w&-]{1,30}(?:[ \t][A-Z][\w&-]{1,30}){0,2})[ \t]+(?:shall|will|must|may|agrees|undertakes)\b")
_NOT_A_NAME = re.compile(r"(?i:the|this|these|that|those|each|any|all|such|no|if|where|when|service|services|agreement|terms|order|fees?|customer)\b")


def _usual_subject(contract, known: set) -> str | None:
    """The name the document uses most often as the subject of a modal, when it is no known party
    and is used at least twice: the vendor's own paper is mostly about what the vendor does."""
    counts: dict[str, int] = {}
    for clause in contract.spec.clauses:
        for match in _NAMED_SUBJECT.finditer(clause.text):
            name = " ".join(match.group(1).split()).lower()
            if name not in known and not _NOT_A_NAME.match(name):
                counts[name] = counts.get(name, 0) + 1
    best = max(counts.items(), key=lambda kv: (kv[1], kv[0]), default=None)
    return best[0] if best and best[1] >= 2 else None


class Reading(NamedTuple):
    """How some words of a sentence read: who is bound, how, and the words that say so."""

    obligor: str  # vendor | customer | both | none
    modality: str  # obligation | permission | prohibition | aspiration | description | condition
    subject: str  # the words read as the obligor ("Provider", "you"); "" when none
    modal: str  # the modal words read ("shall not", "may"); "" when none

    @property
    def pair(self) -> tuple[str, str]:
        return self.obligor, self.modality

    def describe(self) -> str:
        """'a vendor obligation ("Provider" + "will")' and the like, for messages."""
        who = {"vendor": "vendor", "customer": "customer", "both": "mutual", "none": "unattributed"}[self.obligor]
        words = " + ".join(f'"{w}"' for w in (self.subject, self.modal) if w)
        return f"{'an' if who[0] in 'aeiou' else 'a'} {who} {self.modality}" + (f" ({words})" if words else "")

    def as_evidence(self) -> tuple[str, ...]:
        return (f"obligor: {self.obligor}" + (f" (read from {self.subject!r})" if self.subject else ""),
                f"modality: {self.modality}" + (f" (read from {self.modal!r})" if self.modal else ""))


def read_at(text: str, offset: int, who: Parties) -> Reading:
    """The reading of the words at `offset` of `text`, from the sentence that holds them."""
    start, end = sentence_span(text, offset)
    start, end = max(start, offset - _REACH), min(end, offset + _REACH)  # bounded: linear however long the sentence
    sentence = text[start:end]
    at = offset - start
    condition = _CONDITION.match(sentence)
    governing = previous = None
    modals = _modals_through(sentence, at)
    for match in modals:
        if match.start() > at:
            break
        previous, governing = governing, match
    # with none at or before `at`, the first modal found is where a search from `at` stops: the scan
    # from the sentence's start tried every place before it
    after = modals[0] if governing is None and modals else None
    if condition and (at < condition.end() and "," in sentence[condition.end() : condition.end() + 1]
                      or governing is None and after):
        # in a leading condition: "If you attempt to ..., we may", "If the Supplier fails, despite using
        # reasonable endeavours, to deliver ..., the University may" (no modal before the words, one after)
        subject = _subject(sentence, condition.start() + 3, at, who)
        return Reading(subject[0], "condition", subject[1], "")
    if governing is not None and governing.lastgroup == "aim" and previous is not None \
            and previous.end() >= _clause_start(sentence, governing.start()):
        governing = previous  # "will strive to": the modal, not the verb it governs
    if governing is None:
        if after is not None and after.lastgroup == "must" and not _CLAUSE_BREAK.search(sentence, at, after.start()) \
                and (_PASSIVE.match(sentence, after.end()) or _PASSIVE_AGENT.match(sentence, after.end())):
            governing = after  # the words are the subject of a passive: "Every reasonable effort will be made to ..."
    lead_in = _lead_in(text, start) if governing is None and _LIST_ITEM.match(sentence) else -1
    if lead_in != -1:
        return read_at(text, lead_in, who)  # "(b) use reasonable endeavours ..." is read with "The University shall:"
    if governing is None:
        head = _VERB.search(sentence, 0, max(at, 60))  # the subject ends at the verb: "Credits are Customer's sole remedy"
        if head and _EXPLETIVE.fullmatch(sentence[: head.start()]):
            head = None  # "It is Customer's duty to ...": the party comes after the verb
        obligor, subject = _subject(sentence, 0, head.start() if head else max(at, 60), who)
        return Reading(obligor, "description", subject, "")
    return _governed(sentence, governing, who)


@lru_cache(maxsize=65536)  # each rule reads every sentence of a large contract, one rule after the other
def _governed(sentence: str, governing: re.Match, who: Parties) -> Reading:
    """The reading of the words of `sentence` that the modal `governing` governs."""
    condition = _CONDITION.match(sentence)
    kind = governing.lastgroup
    lead = condition.end() if condition and governing.start() > condition.end() else 0  # after "If you ...,"
    obligor, subject = _subject(sentence, max(lead, _clause_start(sentence, governing.start(), who)), governing.start(), who)
    agent = _PASSIVE_AGENT.match(sentence, governing.end())
    if agent:
        named = who.pattern.match(sentence, agent.end()) or who.pattern.match(sentence, _THE.match(sentence, agent.end()).end())
        if named:
            obligor, subject = who.party(named.group(0)), named.group(0)
    elif (obligor == "none" or subject.endswith(("'", "’", "'s", "’s")) or subject.lower() in ("your", "our", "their")) \
            and kind == "must" and _PASSIVE.match(sentence, governing.end()):
        obligor, subject = "vendor", PASSIVE  # "Orbit Labs' capacity will be supplied"
    if kind == "must" and subject.lower().startswith("neither"):
        kind = "neg"  # "Neither party shall ...": a prohibition on both
    return Reading(obligor, _MODALITY[kind], subject, " ".join(governing.group(0).split()))


@lru_cache(maxsize=65536)  # each rule reads every sentence of a large contract, one rule after the other
def _scan(sentence: str) -> list:
    return [[], _MODAL.finditer(sentence)]  # the modals found so far, and the scan that finds more (None at the end)


def _modals_through(sentence: str, at: int) -> list:
    """The modals of `sentence` in order, through the first that starts after `at` when there is one:
    the scan goes no further than asked, and what it found is kept for the next word read in the
    same sentence."""
    state = _scan(sentence)
    found = state[0]
    while state[1] is not None and (not found or found[-1].start() <= at):
        match = next(state[1], None)
        if match is None:
            state[1] = None
        else:
            found.append(match)
    return found


def read(text: str, who: Parties) -> Reading:
    """The reading of a sentence's main clause (after a leading condition): a modal that sits in a
    trailing subordinate clause ("the Platform is unavailable if users cannot log in") is not its."""
    condition = _CONDITION.match(text)
    start = condition.end() + 1 if condition and text[condition.end() : condition.end() + 1] == "," else 0
    first = _MODAL.search(text, start)
    if first is not None and (_SUBORDINATE.search(text[start : first.start()]) or _DISCLAIMER.search(text, start, first.end())):
        first = None  # "X is down if users cannot ...", "Provider does not warrant that the Service will ..."
    if first is None and _PROVISO.match(text):
        return Reading("none", "condition", "", "")  # "provided that ...;", "(b) the change is reasonable;"
    return read_at(text, first.start() if first else start, who)


_LIST_ITEM = Folded(r"\W{0,2}" + _ITEM_MARK + r"\s")
_LEAD_IN = Folded(r":\s*" + _ITEM_MARK + r"\s[^.:!?]*$")  # a first item, no sentence end after it


def _lead_in(text: str, start: int) -> int:
    """Where the lead-in of the list item at `start` ends (its colon: "The University shall: (a) ...;
    (b) ..."), when only earlier items of the same list sit between them; -1 when there is none."""
    colon = text.rfind(":", max(0, start - _LIST_REACH), start)
    if colon == -1 or not _LEAD_IN.match(text[colon:start]):
        return -1
    return colon


def _clause_start(sentence: str, end: int, who: Parties | None = None) -> int:
    """Where the clause that ends at `end` begins: after the last break before it (bounded look-back).
    With `who`, an "and" between two party names joins subjects and starts no clause ("Customer and
    Provider will jointly ...")."""
    lo = max(0, end - 200)
    start = lo
    for match in _CLAUSE_BREAK.finditer(sentence, lo, end):
        if who is not None and match.group(0).startswith(("and", "And")) and _joins_parties(sentence, match, who):
            continue
        start = match.end()
    return start


def _joins_parties(sentence: str, match: re.Match, who: Parties) -> bool:
    before = who.pattern.search(sentence, max(0, match.start() - 60), match.start())
    return (before is not None and not sentence[before.end() : match.start()].strip()
            and who.pattern.match(sentence, _THE.match(sentence, match.end()).end()) is not None)


_AND = Folded(r"\s+(?:and|&)\s+(?:the\s+)?")
_OBJECT_OF = Folded(r"\b(?:by|to|of|for|with|from)\s+(?:the\s+)?$")  # "payable to Provider": not its subject
_ONE_OF = Folded(r"\b(?:any|an?|each|every|such|the\s+purported)\s+(?:purported\s+)?\w+\s+$")  # "each Customer account"


def _subject(sentence: str, start: int, end: int, who: Parties) -> tuple[str, str]:
    """(party, words) named at the head of sentence[start:end]: the first party name or 'either party'."""
    window = sentence[start:end]
    comma = window.rfind(",")
    if comma != -1 and who.pattern.search(window, comma):
        window = window[comma + 1 :]  # after a parenthetical: "..., and provided that you have paid, we will"
    both = _BOTH.search(window)
    named = who.pattern.search(window)
    if both and (named is None or both.start() <= named.start()):
        return "both", " ".join(both.group(0).split())
    if named is None or named.start() > 60:
        return "none", ""
    other = _AND.match(window, named.end())
    partner = other and who.pattern.match(window, other.end())
    if partner and {who.party(named.group(0)), who.party(partner.group(0))} == {"vendor", "customer"}:
        return "both", " ".join(window[named.start() : partner.end()].split())  # "Customer and Provider will jointly ..."
    head = window[: named.start()]
    if _OBJECT_OF.search(head) or _ONE_OF.search(head):
        return "none", ""
    return who.party(named.group(0)), " ".join(named.group(0).split())


_NOUN = Folded(r"(?:\b(?:any|an|a|each|every|such|no|the|its|their|his|her|purported|\d+|one|two|three|four|five|several|multiple|repeated)|\w['’]s)\s+(?:(?:other|further|purported|such|successive|consecutive)\s+)?$")
_PREDICATE = Folded(r"\b(?:is|are|be|been|being|was|were)\s+(?:(?!\w+ing\s)\w+\s+)?$")  # "is commercially reasonable", not "will be using reasonable efforts"


def is_noun_or_predicate(text: str, offset: int) -> str | None:
    """'a noun' when the words at `offset` are used as a noun ("any attempt to assign"), 'a condition'
    when they are a predicate adjective ("(i) is commercially reasonable"), else None."""
    before = text[max(0, offset - 30) : offset]
    if _NOUN.search(before):
        return "a noun"
    if _PREDICATE.search(before):
        return "a condition"
    return None


def analyse(contract, extra: dict | None = None) -> list[Reading]:
    """The reading of each clause's main clause (a definition or recital reads as itself)."""
    who = parties(contract, extra)
    out = []
    for clause in contract.spec.clauses:
        kind = clause.kind or kind_of(clause.text)
        out.append(Reading("none", kind, "", "") if kind != "operative" else read(clause.text, who))
    return out
