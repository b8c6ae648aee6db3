"""The learned reading of the phrase rules: shipped weights that are what the trainer makes from
today's tuning split, training that gives the same weights every time, hits that say their score,
threshold and strongest words, the rules' own exclusions, a switch to turn it off, and no load on
a check that reviews no prose."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from clusterlint.contracts import clause_model
from clusterlint.engine.registry import builtin_rules

from conftest import check_json, run_cli

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import train_clause_model  # noqa: E402

CREDITS = ": a long outage earns a few percent of a month's fee and nothing more"
EFFORT = ": it has no date, no number with a unit and no remedy for the customer; an effort promise cannot be enforced"


def _learned(tmp_path, text: str, config: str | None = None) -> list[dict]:
    (tmp_path / "terms.txt").write_text(f"1.1 {text}\n", encoding="utf-8")
    args = [str(tmp_path / "terms.txt")]
    if config is not None:
        (tmp_path / "cfg.yaml").write_text(config, encoding="utf-8")
        args += ["--config", str(tmp_path / "cfg.yaml")]
    return [f for f in check_json(*args)["findings"] if f["rule"] in ("CON001", "CON005", "CON006", "CON007")]


def test_the_shipped_weights_are_what_the_trainer_makes_from_todays_tuning_split():
    shipped = json.loads(clause_model.MODEL.read_text(encoding="utf-8"))
    assert shipped["corpus_sha256"] == train_clause_model.corpus_digest(), "run: python tools/train_clause_model.py"
    assert shipped == json.loads(json.dumps(train_clause_model.build())), "run: python tools/train_clause_model.py"


def test_training_gives_the_same_weights_every_time_and_learns_the_labels():
    rows = [(clause_model.features(text), label) for text, label in [
        ("credits are the only remedy", True), ("credits are not the only remedy", False),
        ("the sole remedy is a credit", True), ("invoices are due in thirty days", False)]]
    first, again = clause_model.train(rows), clause_model.train(rows)
    assert first == again
    weights, bias = first
    def score(text):
        return bias + sum(weights.get(f, 0.0) for f in clause_model.features(text))
    assert score("credits are the only remedy") > 0 > score("invoices are due in thirty days")


def test_features_are_the_words_and_word_pairs():
    assert clause_model.features("Credits ONLY, credits!") == {"credits", "credits only", "only", "only credits"}


@pytest.mark.parametrize("text, rule, message, anchor, strongest", [
    ("Service credits are the one and only thing the Client can claim for an outage.", "CON006",
     "clause 1.1 makes service credits the 'only', confirmed by the learned reading ('credits', 'are the', 'only')" + CREDITS,
     "anchor: 'only' (characters 36-40 of clause 1.1)", "strongest words: 'credits', 'are the', 'only'"),
    ("Provider will try hard to replace a failed GPU quickly.", "CON001",
     "clause 1.1 is a vendor obligation (\"Provider\" + \"will\") that promises only 'try', confirmed by the learned reading "
     "('to replace', 'try', 'will try')" + EFFORT,
     "anchor: 'try' (characters 18-21 of clause 1.1)", "strongest words: 'to replace', 'try', 'will try'"),
])
def test_the_learned_reading_confirms_a_sentence_that_holds_the_rules_words(tmp_path, text, rule, message, anchor, strongest):
    [finding] = _learned(tmp_path, text)
    assert (finding["rule"], finding["message"]) == (rule, message)
    score = clause_model.read(rule, text, -100.0).score
    threshold = builtin_rules()[rule].settings.learned
    assert finding["evidence"][0] == anchor and finding["evidence"][-2:] == [
        f"learned reading: score {score:.2f} above the rule's threshold {threshold:g} (logistic regression over words and "
        f"word pairs, trained on {clause_model.trained_on()} labelled clauses of tests/corpus)", strongest]
    assert score > threshold


@pytest.mark.parametrize("text, rule", [
    ("We will do what we can to replace a failed GPU quickly.", "CON001"),  # no effort words: nothing to point at
    ("We will delete Your Content within 90 days of termination.", "CON001"),
    ("Provider will respond to support tickets within one business day.", "CON001"),
    ("Promotional credits expire twelve months after they are granted.", "CON006"),
])
def test_no_anchor_no_finding_whatever_the_learned_score(tmp_path, text, rule):
    assert [f for f in _learned(tmp_path, text) if f["rule"] == rule] == []


def test_the_learned_reading_keeps_the_rules_exclusions_and_can_be_turned_off(tmp_path):
    refused = "We will not do what we can to replace a failed GPU quickly."  # read as a prohibition, as for a pattern
    assert clause_model.read("CON001", refused, builtin_rules()["CON001"].settings.learned) is not None and _learned(tmp_path, refused) == []
    preserved = "Service credits are the one and only thing the Client can claim, in addition to any other remedy."
    assert clause_model.read("CON006", preserved, builtin_rules()["CON006"].settings.learned) is not None and _learned(tmp_path, preserved) == []
    off = "params:\n  CON006: {learned: null}\n"
    assert _learned(tmp_path, "Service credits are the one and only thing the Client can claim for an outage.", off) == []


def test_a_check_that_reviews_no_prose_never_loads_the_model():
    code = ("import sys\nfrom clusterlint.cli import main\n"
            "try:\n    main(['check', 'specs/gcp-a3-highgpu-8g.yaml', '--workload', 'specs/llama70b-pretrain.yaml', '--isolated'])\n"
            "except SystemExit:\n    pass\n"
            "print('model loaded', 'clusterlint.contracts.clause_model' in sys.modules, file=sys.stderr)\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert "model loaded False" in proc.stderr, proc.stderr


def test_ordinary_contract_text_gives_the_learned_reading_nothing_to_report():
    """tests/corpus/background-msa.md: an MSA of about 390 sentences on payment, IP, data protection,
    liability caps, termination and the like, written fresh with none of the four rules' shapes."""
    findings = check_json(str(ROOT / "tests" / "corpus" / "background-msa.md"))["findings"]
    assert [f["message"] for f in findings if any(e.startswith("learned reading") for e in f.get("evidence") or [])] == []
    # what it lacks, no more: delivery date, performance, replacement time, acceptance test, exit terms,
    # a severity-1 response time, maintenance notice and a health-check duty (REL006, REL007, REL009)
    assert {f["rule"] for f in findings} == {"CON002", "CON003", "REL002", "REL003", "LCK004", "REL006", "REL007", "REL009"}


def test_a_score_equal_to_the_threshold_is_not_reported_and_a_threshold_must_be_finite(tmp_path):
    sentence = "Service credits are the one and only thing the Client can claim for an outage."
    exact = clause_model._scores(sentence)[2]  # CON006's score, unrounded: whole thousandths
    assert clause_model.read("CON006", sentence, exact) is None  # above, not at, the threshold
    assert clause_model.read("CON006", sentence, exact - 0.001).score == round(exact, 2)
    (tmp_path / "terms.txt").write_text(f"1.1 {sentence}\n", encoding="utf-8")
    (tmp_path / "cfg.yaml").write_text("params:\n  CON006: {learned: .nan}\n", encoding="utf-8")
    code, _, err = run_cli("check", str(tmp_path / "terms.txt"), "--config", str(tmp_path / "cfg.yaml"))
    assert (code, err.strip()) == (2, f"clusterlint: error: {tmp_path / 'cfg.yaml'}:2:3: CON006 params.learned: Input should be a finite number")
