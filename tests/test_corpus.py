"""The phrase rules on the labelled clause corpus: the issue's target (precision and recall of at
least 0.90 per phrase rule) where a split meets it, and no slide below the measured reading where
it does not yet (blind-2, set aside before any tuning on its batch)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from pathlib import Path

CORPUS = Path(__file__).parent / "corpus"
sys.path.insert(0, str(CORPUS))

import score  # noqa: E402

TARGET = 0.9
# blind-2's (precision, recall) per rule after the rules were tuned on the tuning split (README.md
# gives this and its first reading): a floor, not the target, which blind-2 does not meet yet
BLIND_2_FLOOR = {"CON001": (1.0, 0.85), "CON005": (0.83, 0.91), "CON006": (1.0, 0.80), "CON007": (1.0, 0.70)}


def test_corpus_is_large_enough_and_the_blind_splits_are_over_a_quarter():
    sizes = {split: len(score.load(split)) for split in score.SPLITS}
    assert sum(sizes.values()) >= 420
    assert sizes["blind"] >= 110 and sizes["blind-2"] >= 75
    assert sizes["blind"] + sizes["blind-2"] >= sum(sizes.values()) / 4
    for split in score.SPLITS:
        counts, _, _ = score.score(split)
        assert all(c["labelled"] >= 4 for c in counts.values()), split


def test_every_new_clause_is_labelled_in_full():
    for split in ("blind", "blind-2"):
        for entry, _ in score.load(split):
            assert entry["obligor"] in ("vendor", "customer", "both", "none"), entry
            assert set(entry["expect"]) <= set(score.RULES), entry


@pytest.mark.parametrize("split", ["tuning", "blind"])
def test_precision_and_recall_at_least_target(split):
    counts, misses, _ = score.score(split)
    assert {rule: (c["precision"] >= TARGET, c["recall"] >= TARGET) for rule, c in counts.items()} == {r: (True, True) for r in score.RULES}, misses


def test_blind_2_does_not_fall_below_its_reading():
    counts, _, _ = score.score("blind-2")  # its misses are not printed: nothing is tuned on them
    assert {rule: (round(c["precision"], 2) >= BLIND_2_FLOOR[rule][0], round(c["recall"], 2) >= BLIND_2_FLOOR[rule][1])
            for rule, c in counts.items()} == {r: (True, True) for r in score.RULES}


@pytest.mark.parametrize("split", ["blind", "blind-2"])
def test_obligor_and_modality_read_on_most_of_a_blind_split(split):
    _, _, read = score.score(split)
    assert read["labelled"] == len(score.load(split))
    assert read["obligor"] >= 0.85 * read["labelled"] and read["modality"] >= 0.9 * read["labelled"], len(read["wrong"])


def test_script_prints_the_figures_of_each_split_and_fails_when_one_misses_the_target():
    proc = subprocess.run([sys.executable, str(CORPUS / "score.py")], capture_output=True, text=True)
    for split in score.SPLITS:
        assert f"{split} split: {len(score.load(split))} labelled clauses" in proc.stdout
    assert proc.stdout.count("CON007: precision ") == 3
    met = all(c["precision"] >= TARGET and c["recall"] >= TARGET for split in score.SPLITS for c in score.score(split)[0].values())
    assert proc.returncode == (0 if met else 1), proc.stderr
