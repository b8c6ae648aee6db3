"""Train the learned reading of the phrase rules (`clusterlint.contracts.clause_model`) on the tuning split.

    python tools/train_clause_model.py          # writes linter/data/clause_model.json
    python tools/train_clause_model.py --lofo   # leave-one-file-out precision and recall, per threshold

The model learns only from the tuning split of tests/corpus (never a blind split). `--lofo` holds
out each tuning file in turn (each was written by a different writer in a different sitting), trains
on the rest and scores the held-out file: that is how the rules' `learned` defaults were
chosen, without looking at a blind split. tests/test_clause_model.py fails when the shipped weights
are not what this script makes from today's corpus.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "corpus"))

import score  # noqa: E402

from clusterlint.contracts import clause_model  # noqa: E402

RULES = score.RULES
SCALE = 1000  # weights are shipped as whole thousandths: sums of them are exact in any order
MIN_COUNT = 2  # a word or pair in fewer training clauses than this is not learned: it cannot generalise
THRESHOLDS = (0.0, 0.5, 1.0, 1.5, 2.0)  # a score below 0 is worse than even odds: never a default


def corpus_digest() -> str:
    digest = hashlib.sha256()
    for path in score.SPLITS["tuning"]:
        digest.update(path.read_bytes())
    return digest.hexdigest()


def rows_of(paths) -> list[tuple[list[str], set]]:
    out = []
    for path in paths:
        score.SPLITS["_one"] = (path,)
        for entry, parties in score.load("_one"):
            text = " ".join(c.text for c in score.contract_of(entry, parties).spec.clauses)  # PDF lines read as the rules read them
            out.append((clause_model.features(text), set(entry["expect"])))
    score.SPLITS.pop("_one", None)
    return out


def fit(rows) -> dict:
    """Bias and weights per rule (in RULES order) over the features in at least MIN_COUNT clauses."""
    counts = Counter(f for feats, _ in rows for f in feats)
    vocabulary = frozenset(f for f, n in counts.items() if n >= MIN_COUNT)
    rows = [(feats & vocabulary, want) for feats, want in rows]
    fitted = [clause_model.train([(f, rule in want) for f, want in rows]) for rule in RULES]
    weights = {f: [round(w.get(f, 0.0) * SCALE) for w, _ in fitted] for f in sorted(vocabulary)}
    return {"rules": list(RULES), "scale": SCALE, "bias": [round(b * SCALE) for _, b in fitted],
            "weights": {f: w for f, w in weights.items() if any(w)}}


def build() -> dict:
    rows = rows_of(score.SPLITS["tuning"])
    return {"clauses": len(rows), "corpus_sha256": corpus_digest(), "min_count": MIN_COUNT, **fit(rows)}


def lofo() -> None:
    paths = score.SPLITS["tuning"]
    per_file = {path: rows_of([path]) for path in paths}
    counts = {rule: {t: [0, 0, 0] for t in THRESHOLDS} for rule in RULES}
    for held in paths:
        model = fit([row for path in paths if path != held for row in per_file[path]])
        for feats, want in per_file[held]:
            for i, rule in enumerate(RULES):
                z = (model["bias"][i] + sum(model["weights"][f][i] for f in feats if f in model["weights"])) / SCALE
                for t, c in counts[rule].items():
                    c[0] += z > t and rule in want
                    c[1] += z > t and rule not in want
                    c[2] += z <= t and rule in want
    for rule, by in counts.items():
        for t, (tp, fp, fn) in by.items():
            print(f"{rule} threshold {t:+.1f}: precision {tp / max(1, tp + fp):.2f} recall {tp / max(1, tp + fn):.2f} (tp {tp}, fp {fp}, fn {fn})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lofo", action="store_true", help="print leave-one-file-out precision and recall instead of writing")
    if parser.parse_args().lofo:
        lofo()
        return 0
    clause_model.MODEL.write_text(json.dumps(build(), sort_keys=True, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {clause_model.MODEL.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
