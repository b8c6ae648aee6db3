"""The phrase rules meet their precision and recall target on the labelled clause corpus."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

CORPUS = Path(__file__).parent / "corpus"
sys.path.insert(0, str(CORPUS))

import score  # noqa: E402


def test_corpus_is_large_enough_and_covers_each_rule():
    counts, _ = score.score()
    assert sum(1 for _ in score.yaml.safe_load(score.CORPUS.read_text(encoding="utf-8"))["clauses"]) >= 40
    assert all(c["labelled"] >= 4 for c in counts.values())


def test_precision_and_recall_at_least_target():
    counts, misses = score.score()
    assert {rule: (c["precision"] >= 0.9, c["recall"] >= 0.9) for rule, c in counts.items()} == {r: (True, True) for r in score.RULES}, misses


def test_script_prints_the_figures():
    out = subprocess.run([sys.executable, str(CORPUS / "score.py")], capture_output=True, text=True, check=True).stdout
    assert "CON001: precision " in out and "CON007: precision " in out
