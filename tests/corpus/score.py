"""Precision and recall of the phrase rules on the labelled clause corpus (clauses.yaml).

Each clause is reviewed alone, as the only clause of a contract, by the real rule with its
default params. Prints one line per rule and exits 1 if any rule is under the target.

    python tests/corpus/score.py [--target 0.9] [-v]
"""

from __future__ import annotations

import argparse
import pathlib
import sys

import yaml

from clusterlint.engine import Review
from clusterlint.models import Contract
from clusterlint.registry import builtin_rules

CORPUS = pathlib.Path(__file__).with_name("clauses.yaml")
RULES = ("CON001", "CON005", "CON006", "CON007")


def fired(text: str, kind: str | None) -> set[str]:
    clause = {"ref": "1", "text": text, **({"kind": kind} if kind else {})}
    contract = Contract(apiVersion="clusterlint/v1", kind="Contract", metadata={"name": "corpus"}, spec={"clauses": [clause]})
    review = Review(contract=contract)
    rules = builtin_rules()
    return {rule_id for rule_id in RULES if list(rules[rule_id].function(review, rules[rule_id].settings))}


def score() -> tuple[dict, list]:
    entries = yaml.safe_load(CORPUS.read_text(encoding="utf-8"))["clauses"]
    counts = {rule: {"tp": 0, "fp": 0, "fn": 0, "labelled": 0} for rule in RULES}
    misses = []
    for entry in entries:
        got, want = fired(entry["text"], entry.get("kind")), set(entry["expect"])
        for rule in RULES:
            c = counts[rule]
            c["labelled"] += rule in want
            c["tp"] += rule in got and rule in want
            c["fp"] += rule in got and rule not in want
            c["fn"] += rule in want and rule not in got
        if got != want:
            misses.append((entry["text"], sorted(want), sorted(got)))
    for c in counts.values():
        c["precision"] = c["tp"] / (c["tp"] + c["fp"]) if c["tp"] + c["fp"] else 1.0
        c["recall"] = c["tp"] / (c["tp"] + c["fn"]) if c["tp"] + c["fn"] else 1.0
    return counts, misses


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", type=float, default=0.9)
    parser.add_argument("-v", "--verbose", action="store_true", help="print the clauses the rules got wrong")
    args = parser.parse_args()
    counts, misses = score()
    total = len(yaml.safe_load(CORPUS.read_text(encoding="utf-8"))["clauses"])
    print(f"{total} labelled clauses in {CORPUS.name}")
    for rule, c in counts.items():
        print(f"{rule}: precision {c['precision']:.2f}  recall {c['recall']:.2f}  (tp {c['tp']}, fp {c['fp']}, fn {c['fn']}, {c['labelled']} positives)")
    if args.verbose:
        for text, want, got in misses:
            print(f"  expected {want or 'none'}, got {got or 'none'}: {text}")
    return 0 if all(c["precision"] >= args.target and c["recall"] >= args.target for c in counts.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
