"""What a clause is, from its words: a recital, a definition or an operative term; and the one
grammar of clause numbers ("1.2", "(a)", "Section 4", "Article IV") that readers strip first."""

from __future__ import annotations

import re

from clusterlint.contracts.folded import Folded
NUMBER_PREFIX = Folded(
    r"^\s*(?:(?:section|clause|article|§{1,2})\s*)?(?:\d+(?:\.\d+)*(?:\([a-z0-9]{1,4}\))*[.)]?|\([a-z0-9]{1,4}\))\s+"
    r"|^\s*article\s+[ivxlc]{1,6}[.:]?\s+",
)
_DEFINITION = re.compile(
    # whitespace between the term and its verb is bounded ({0,3}): unbounded runs on both sides of an
    # optional item made a line of spaces cost quadratic time
    # a term holds no verb: "Credits are the exclusive means of redress" is no definition of "means"
    r"^[\W_]{0,3}[\"“'‘]?[A-Z](?:(?!\b(?i:is|are|be|shall|will|was|were)\s)[\w\s/-]){0,60}?[\"”'’]?[*_]{0,2}\s{0,3}(?:\([^)]{0,40}\)\s{0,3})?,?\s{0,3}"
    r"(?i:means|shall\s+mean|has\s+the\s+meaning|refers\s+to|is\s+defined\s+as)\b"  # "DOWNTIME MEANS ..." too
    r"|^[\W_]{0,3}[\"“'‘][A-Z][\w\s/-]{0,60}?[\"”'’][*_]{0,2}\s{0,3}(?:\([^)]{0,40}\)\s{0,3})?,?\s{0,3}(?:is|are|shall\s+be)\s+deemed\b"
    r"|^(?i:in\s+this\s+(?:agreement|schedule|sla|contract|section)\b[^.]{0,80}\bmeans?\b)",
)
_RECITAL = Folded(r"^[\W_]*(?:whereas\b|recitals?\b|background\b|the\s+parties\s+(?:wish|desire|intend))")


def kind_of(text: str) -> str:
    body = NUMBER_PREFIX.sub("", text, count=1)
    if _RECITAL.match(body):
        return "recital"
    if _DEFINITION.match(body):
        return "definition"
    return "operative"
