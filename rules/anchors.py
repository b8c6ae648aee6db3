"""No anchor, no finding: what every phrase rule's finding points at and says it read.

A contract rule fires only on the words its documentation names (the effort qualifier, the
availability condition, the exclusive-remedy wording, the downtime exclusion), and its finding's
span is those words. The learned reading (`clusterlint.contracts.clause_model`) may only confirm a
sentence that holds such words: it never raises a finding on its own. Every finding's evidence
names the anchor words, the party and the modality read.
"""

from __future__ import annotations

import re


def quoted(text: str, match: re.Match) -> bool:
    """Whether the words `match` found are named in quotes, not used: '"reasonable endeavours" shall be
    construed as ...', "no more 'subject to availability' language"."""
    return match.start() > 0 and text[match.start() - 1] in "\"'‘“"


def words(match: re.Match) -> str:
    """The anchor words as a message quotes them: one space between words."""
    return " ".join(match.group(0).split())


def anchored(review, item, match: re.Match, message: str, reading=None, learned=None):
    """The finding on the anchor words `match` of `item`, its evidence the anchor words, the party
    and the modality read (`reading`, else read at the anchor) and, where the learned reading
    confirmed the sentence, its score and strongest words."""
    from clusterlint.contracts.obligations import read_at
    from clusterlint.rules.clauses import parties_of

    if reading is None:
        reading = read_at(item.text, match.start(), parties_of(review))
    hit = review.hit_words("Contract", item.path, match, message)
    hit.evidence = (*hit.evidence, f"anchor: {words(match)!r} (characters {match.start()}-{match.end()} of {item.label})", *reading.as_evidence())
    if learned is not None:
        from clusterlint.contracts import clause_model

        hit.evidence = (*hit.evidence, *learned.as_evidence(clause_model.trained_on()))
    return hit
