"""A learned second reading for the phrase rules (CON001, CON005, CON006, CON007).

The phrase rules read a clause by its words and then by who is bound and how (see
`clusterlint.contracts.obligations`). Measured on fresh paper, their patterns miss paraphrases nobody has
shown them. This module adds a second reading where no pattern matches at all: one logistic
regression per rule over the lower-cased words and word pairs of a sentence, trained on the labelled
tuning split of `tests/corpus/` by `tools/train_clause_model.py` and shipped as fixed weights in
`data/clause_model.json`, so a review is deterministic and needs no training or library.

Explained, not opaque: a hit names its score, the rule's threshold and the word pairs that weigh
most for it in the sentence, and the rule still reads the party and the modal and applies its own
exclusions before it reports anything.
"""

from __future__ import annotations

import json
import math
import random
import re
from functools import cache, lru_cache
from pathlib import Path
from typing import NamedTuple

MODEL = Path(__file__).parent.parent / "data" / "clause_model.json"
_TOKEN = re.compile(r"[a-z]+(?:['’][a-z]+)?|\d+")


def features(text: str) -> frozenset[str]:
    """The sentence's words and adjacent word pairs, lower-cased."""
    words = _TOKEN.findall(text.lower())
    return frozenset((*words, *(f"{a} {b}" for a, b in zip(words, words[1:]))))


class Learned(NamedTuple):
    score: float
    threshold: float
    strongest: tuple[str, ...]  # the present features that weigh most for the rule, strongest first

    def describe(self) -> str:
        return ", ".join(repr(f) for f in self.strongest)

    def as_evidence(self, trained_on: int) -> tuple[str, ...]:
        return (f"learned reading: score {self.score:.2f} above the rule's threshold {self.threshold:g} "
                f"(logistic regression over words and word pairs, trained on {trained_on} labelled clauses of tests/corpus)",
                f"strongest words: {self.describe()}")


@cache
def _model() -> dict:
    return json.loads(MODEL.read_text(encoding="utf-8"))


def trained_on() -> int:
    return _model()["clauses"]


@lru_cache(maxsize=65536)  # each rule reads every sentence of a contract in turn: four scores, read once
def _scores(sentence: str) -> tuple[float, ...]:
    """The sentence's score per rule. Weights are whole thousandths, so the sum is exact in any order."""
    model = _model()
    weights = model["weights"]
    present = [weights[f] for f in features(sentence) if f in weights]
    sums = [sum(column) for column in zip(*present)] if present else [0] * len(model["bias"])
    return tuple((bias + total) / model["scale"] for bias, total in zip(model["bias"], sums))


def read(rule: str, sentence: str, threshold: float) -> Learned | None:
    """The learned reading of `sentence` for `rule` when its score is above `threshold`, else None."""
    model = _model()
    i = model["rules"].index(rule)
    score = _scores(sentence)[i]
    if score <= threshold:
        return None
    weights = model["weights"]
    present = sorted((-weights[f][i], f) for f in features(sentence) if f in weights)  # strongest first
    return Learned(round(score, 2), threshold, tuple(f for w, f in present[:3] if w < 0))


def train(rows: list[tuple[frozenset[str], bool]], epochs: int = 12, rate: float = 0.5, l2: float = 1e-4) -> tuple[dict, float]:
    """(weights, bias) of a logistic regression fitted by stochastic gradient descent to `rows` of
    (features, label), in a fixed order from a fixed seed: the same rows give the same weights."""
    weights: dict[str, float] = {}
    bias = 0.0
    order = list(range(len(rows)))
    shuffle = random.Random(0)
    for _ in range(epochs):
        shuffle.shuffle(order)
        for i in order:
            feats, label = rows[i]
            z = bias + math.fsum(weights.get(f, 0.0) for f in feats)
            gradient = 1 / (1 + math.exp(-max(-30.0, min(30.0, z)))) - label
            bias -= rate * gradient
            for f in feats:
                weights[f] = weights.get(f, 0.0) * (1 - rate * l2) - rate * gradient
    return weights, bias
