"""The phrase rules meet their precision and recall target on the labelled clause corpus."""

from __future__ import annotations

import subprocess
import sys

import pytest
from pathlib import Path

CORPUS = Path(__file__).parent / "corpus"
sys.path.insert(0, str(CORPUS))

import score  # noqa: E402


def test_corpus_is_large_enough_and_covers_each_rule():
    sizes = {split: len(score.load(split)[0]) for split in score.SPLITS}
    assert sizes["blind"] >= 110 and sizes["blind"] >= sum(sizes.values()) / 4
    for split in score.SPLITS:
        counts, _, _ = score.score(split)
        assert all(c["labelled"] >= 4 for c in counts.values()), split


@pytest.mark.parametrize("split", ["tuning", "blind"])
def test_precision_and_recall_at_least_target(split):
    counts, misses, _ = score.score(split)
    assert {rule: (c["precision"] >= 0.9, c["recall"] >= 0.9) for rule, c in counts.items()} == {r: (True, True) for r in score.RULES}, misses


def test_obligor_and_modality_read_on_most_of_the_blind_split():
    _, _, read = score.score("blind")
    assert read["labelled"] >= 110
    assert read["obligor"] >= 0.85 * read["labelled"] and read["modality"] >= 0.9 * read["labelled"], read["wrong"]


def test_script_prints_the_figures():
    out = subprocess.run([sys.executable, str(CORPUS / "score.py")], capture_output=True, text=True, check=True).stdout
    assert "CON001: precision " in out and "CON007: precision " in out
