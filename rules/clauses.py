"""Reading contract language: which texts are promises, and what a promise states.

The CON rules share this vocabulary. A contract's texts are its clauses plus the free-text terms
of a structured Contract (`delivery.late_remedy`, `sla.credits`, ...). Each text has a kind:

- a *definition* says what a word means ("'Downtime' means ...", or any paragraph under a
  Definitions heading); it promises nothing, so effort and availability words in it are not
  flagged (the operative clause that uses the defined term is);
- a *recital* says why the parties sign ("WHEREAS ...", a Background heading); also no promise;
- everything else is *operative*.

A firm obligation states a date or a number with a unit, and a remedy when it is missed: the
parts that `parts()` finds and the messages name when they are absent.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from clusterlint.contracts.folded import Folded
from clusterlint.contracts.sentences import per_sentence, spans
from clusterlint.contracts.kinds import NUMBER_PREFIX, kind_of  # noqa: F401  (kind_of: re-exported for the rules)
from clusterlint.contracts.texts import Text, texts  # noqa: F401  (re-exported for the rules)

GAP = r"[\s*_]+"  # between words: spaces, line breaks, Markdown emphasis


def _gaps(phrase: str) -> str:
    """A phrase's spaces (outside [...] classes) as GAP."""
    out, in_class, escaped = [], False, False
    for char in phrase.strip():
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == "[":
            in_class = True
        elif char == "]":
            in_class = False
        elif char == " " and not in_class:
            char = GAP
        out.append(char)
    return "".join(out)


def phrase_pattern(phrases) -> Folded:
    """One case-insensitive pattern for a list of phrases; a space in a phrase matches any gap. When
    every phrase starts with a letter, a look-ahead for one lets the scan pass over runs of spaces,
    digits and punctuation in one step instead of trying every phrase at each of their characters."""
    return _phrase_pattern(tuple(phrases))


@lru_cache(maxsize=64)  # a rule's pattern is asked for on every review
def _phrase_pattern(phrases: tuple) -> Folded:
    alternatives = [_gaps(p) for p in phrases]
    from clusterlint._generated.builtin_data import PHRASE_STARTS_WITH_LETTER as known  # the built-in phrases', worked out once

    letter = r"(?=[^\W\d_])" if all(known[a] if a in known else _starts_with_letter(a) for a in alternatives) else ""
    return Folded(letter + _joined(alternatives))


def _starts_with_letter(alternative: str) -> bool:
    from clusterlint.engine.backtracking import starts_with_letter

    return starts_with_letter(alternative)


def _joined(alternatives: list[str]) -> str:
    """The phrases as one alternation, each a whole word or hyphenated compound (Markdown's underscores may wrap it: "_try_")."""
    return r"(?<![^\W_])(?<!-)(?:" + "|".join(alternatives) + r")(?![\w-])"


_GLOBAL_FLAGS = re.compile(r"\(\?[aiLmsux]+\)")  # (?i) and the like; a scoped (?i:...) has a colon


def check_phrases(value: list[str]) -> None:
    """Refuse a phrase list that does not compile, alone or together, or that can take more than
    linear time on long text (ValueError with the reason)."""
    for phrase in value:
        try:
            re.compile(phrase)
        except re.error as exc:
            raise ValueError(f"phrase {phrase!r} is not a valid regular expression: {exc}") from None
        if _GLOBAL_FLAGS.search(phrase):  # joined with the others it would sit mid-pattern (an error since Python 3.11)
            raise ValueError(f"phrase {phrase!r} sets flags for the whole pattern; the phrases are joined into one and matched "
                             f"ignoring case already: write (?i:...) to scope a flag to the phrase")
    if not value:
        raise ValueError("name at least one phrase")
    from clusterlint.engine.backtracking import problem

    try:
        combined = re.compile(_joined([_gaps(p) for p in value]), re.IGNORECASE)  # phrases that compile alone can clash together (a flag mid-pattern)
    except re.error as exc:
        raise ValueError(f"the phrases do not compile together: {exc}") from None
    for phrase in value:
        reason = problem(_gaps(phrase), ignore_case=True)
        if reason:
            raise ValueError(f"phrase {phrase!r} can take exponential or polynomial time on long text ({reason}); rewrite it")
    reason = problem(combined.pattern, ignore_case=True)
    if reason:
        raise ValueError(f"the phrases together can take exponential or polynomial time on long text ({reason}); rewrite them")


@lru_cache(maxsize=1)
def _builtin_phrase_lists() -> frozenset:
    from clusterlint._generated.builtin_data import RULES

    return frozenset(tuple(rule["params"]["phrases"]) for rule in RULES.values() if "phrases" in (rule.get("params") or {}))


def checked_phrases(value: list[str]) -> list[str]:
    """A phrase list as a rule's params take it (`clusterlint.rules.params.LearnedPhrases`): ValueError
    when `check_phrases` refuses it; the built-in lists are checked by the tests, not on every run."""
    if tuple(value) not in _builtin_phrase_lists():
        check_phrases(value)
    return value


def candidates(pattern: re.Pattern, text: str, rule: str, threshold: float | None, anchor: re.Pattern):
    """(match, sentence, learned) for the rule's words in each sentence of `text`: the first match of
    `pattern` in each sentence (learned is None) when it matches anywhere in the text; else, where
    the learned reading is on, each sentence it confirms that holds the rule's `anchor` words,
    `match` on those words."""
    found = False
    for match, sentence in per_sentence(pattern, text):
        found = True
        yield match, sentence, None
    if not found:
        yield from learned(text, rule, threshold, anchor)


def learned(text: str, rule: str, threshold: float | None, anchor: re.Pattern):
    """(match, sentence, learned) for each sentence of `text` that holds the rule's `anchor` words
    (the words its documentation names) and that the learned reading takes for `rule` (none when
    `threshold` is None), `match` on the anchor words: no anchor, no finding, so the learned
    reading confirms what the words name and never raises a finding on its own."""
    if threshold is None:
        return
    from clusterlint.contracts import clause_model

    own = NUMBER_PREFIX.match(text)  # the clause's own number is no word of it
    for start, end in spans(text):
        match = anchor.search(text, start, end)
        if match is None:
            continue
        reading = clause_model.read(rule, text[own.end() : end] if own and start == 0 else text[start:end], threshold)
        if reading is not None:
            yield match, text[start:end], reading


_MONTH = r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
# a count of days in digits, words or both: "30", "thirty", "thirty (30)"
_COUNT = (r"(?:(?:[a-z-]+\s+\()?\d+\)?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fourteen|fifteen|twenty"
          r"|thirty|forty-five|forty|sixty|ninety)")
DATE = Folded(
    r"(?=[^\W_]|-)(?:"  # every alternative starts with a letter, a digit or a hyphen: a run of spaces or punctuation is passed in one step
    r"\b\d{4}-\d{2}-\d{2}\b"
    rf"|\b{_MONTH}\.?\s+\d{{1,2}}(?:st|nd|rd|th)?\b(?:,?\s+\d{{4}})?"
    rf"|\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH}\b"
    r"|\b\d{1,2}/\d{1,2}/\d{2,4}\b"
    rf"|\bwithin\s+{_COUNT}\s+(?:business\s+|calendar\s+|working\s+)?(?:days?|weeks?|months?)\b"
    rf"|\b{_COUNT}\s+(?:business\s+|calendar\s+|working\s+)?(?:days?|weeks?|months?)\s+(?:after|from|of|following)\b"
    r"|\bQ[1-4]\s+\d{4}\b)",
)
MEASURE = Folded(
    r"(?<![\w.,])\d+(?:[.,]\d+)*\s?(?:%|percent\b|per\s?cent\b|[kMGTP]i?B(?:/s|ps)?\b|[kMGT]b(?:ps|/s|it/s)\b|[TP]?FLOPS\b"
    r"|hours?\b|hrs?\b|h\b|minutes?\b|mins?\b|seconds?\b|ms\b|µs\b|us\b|days?\b|weeks?\b"
    r"|(?:GPU|accelerator|node|server|instance)s?\b|kW\b|MW\b|USD\b|EUR\b|GBP\b)"
    r"|[$€£]\s?\d",
)
REMEDY = Folded(
    r"(?=[^\W_])(?:\b(?:service\s+)?credits?\b|\brefund\w*|\brebate\w*|\bliquidated\s+damages\b|\bpenalt(?:y|ies)\b|\b(?:delay|late[\s-]delivery)\s+(?:payments?|damages)\b"
    r"|\bterminat(?:e|es|ion)\b|\bcancel\w*|\bfees?\s+(?:reduction|suspension|waiver|abatement)\b"
    r"|\b(?:reduc|waiv|suspend|abat)\w*\b[^.;]{0,40}\b(?:fees?|charges?|payments?|invoices?|price)\b"
    r"|\bnot\s+(?:be\s+)?(?:charged|invoiced|billed)\b|\bfree\s+of\s+charge\b|\bat\s+no\s+(?:extra\s+|additional\s+)?(?:charge|cost)\b|\bcompensat\w*"
    r"|\bdeduct\w*\b[^.;]{0,40}\b(?:price|fees?|charges?|payments?|invoices?)\b)",
)
# a clause's own number: "4.2", "1.2(a)(iii)", "Section 13.5(a)", "§ 5.2", "Article VII.", "(a)"
class Parts(NamedTuple):
    date: bool
    measure: bool
    remedy: bool

    @property
    def firm(self) -> bool:
        """A hard commitment: something checkable (a date or a figure) and a remedy when missed."""
        return self.remedy and (self.date or self.measure)

    def describe(self) -> str:
        """'it has a date but no number with a unit and no remedy' and the like."""
        names = (("a date", self.date), ("a number with a unit", self.measure), ("a remedy for the customer", self.remedy))
        has = [n for n, present in names if present]
        lacks = [n.replace("a ", "no ", 1) for n, present in names if not present]
        if not has:
            return f"it has {and_list(lacks)}"
        return f"it has {and_list(has)} but {and_list(lacks)}"


def and_list(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def parts(text: str, who=None) -> Parts:
    """What a text states: a date, a figure, a remedy that favours the customer (`who`: the parties)."""
    if who is not None:
        remedy = any(favours_customer(text, m, who) for m in REMEDY.finditer(text))
    else:
        remedy = bool(REMEDY.search(text))
    own = NUMBER_PREFIX.match(text)  # the clause's own number ("1.1 Nodes ...") is no figure
    body = own.end() if own else 0
    return Parts(found(DATE, text, body), found(MEASURE, text, body), remedy)


@lru_cache(maxsize=16384)
def found(pattern: re.Pattern, text: str, pos: int = 0) -> bool:
    """Whether `pattern` matches in `text` from `pos`, remembered: several rules ask it of each clause."""
    return pattern.search(text, pos) is not None


_VENDOR_RIGHT = Folded(r"terminat|suspend|cancel")
_NO_REMEDY = Folded(r"\b(?:no|not|without|nor)\s+(?:any\s+)?$")
_PAYS = Folded(r"\bpa(?:y|ys|id)\b")


def favours_customer(text: str, match: re.Match, who) -> bool:
    """Whether the remedy words `match` give the customer something: a termination or suspension
    right only when the customer (or either party) holds it ("Provider may terminate your instances"
    is the vendor's remedy, not the buyer's); a credit, refund or damages unless the vendor merely
    may grant it or the customer is the one who pays."""
    from clusterlint.contracts.obligations import read_at

    if _NO_REMEDY.search(text, max(0, match.start() - 20), match.start()):
        return False  # "no compensation is foreseen", "without any credit"
    reading = read_at(text, match.start(), who)
    if _VENDOR_RIGHT.match(match.group(0)):
        return reading.obligor in ("customer", "both")
    if reading.obligor == "vendor" and reading.modality == "permission":
        return False
    return not (reading.obligor == "customer" and reading.modality == "obligation" and _PAYS.search(text))


def parties_of(review):
    """The parties of the review's contract: its own and the configuration's (see `clusterlint.contracts.obligations`)."""
    from clusterlint.contracts.obligations import parties

    return parties(review.contract, review.config.get("parties"))



def first(contract, pattern: re.Pattern, kinds=("operative",)):
    """The first contract text of one of `kinds` in which `pattern` matches: (Text, match) or None."""
    for item in texts(contract):
        if item.kind in kinds:
            match = pattern.search(item.text)
            if match:
                return item, match
    return None


def sentences_with(contract, *patterns: re.Pattern, kinds=("operative",)):
    """(Text, match of the first pattern) for each sentence in which every pattern matches."""
    for item in texts(contract):
        if item.kind not in kinds or not all(found(p, item.text) for p in patterns):
            continue  # a text that lacks what one pattern needs has no sentence with all of them (the first, often the rarer, first)
        for match, sentence in per_sentence(patterns[0], item.text):
            if all(p.search(sentence) for p in patterns[1:]):
                yield item, match
                break
