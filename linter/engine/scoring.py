"""Points, scores and grades.

A finding costs `weight x factor(severity)` points: errors the full weight, warnings half, and
information nothing (it informs, it does not judge). A review's score is 100 minus the points of
its findings, floored at 0; each area's subscore is the same over that area's findings alone. An
area in which no rule ran (every rule skipped, or none applies to the documents checked) has no
subscore: it was not judged, so it is "not run" (None), never 100.

A review that did not happen has no score: a file with a document that did not load or validate
(SPEC001, SPEC002, SPEC005), or a review that depends on a --workload or --contract that did not,
is "not reviewed". It fails --min-score and is never the best of a comparison or of a run.
"""

from __future__ import annotations

SEVERITY_FACTOR = {"error": 1.0, "warning": 0.5, "info": 0.0}
GRADES = ((90, "A"), (80, "B"), (70, "C"), (60, "D"), (0, "F"))
SCORED_AREAS = ("SPEC", "ACC", "NET", "STO", "CPU", "REL", "SW", "LCK", "CON", "CST", "UNI", "DLV", "SEC")


def finding_score(weight: float, severity: str) -> float:
    return round(weight * SEVERITY_FACTOR[severity], 2)


def grade(score: float) -> str:
    return next(letter for floor, letter in GRADES if score >= floor)


def area_of(rule_id: str) -> str:
    return rule_id.rstrip("0123456789")


_UNTOUCHED = dict.fromkeys(SCORED_AREAS, 100.0)  # every area's subscore before any finding


def scorecard(findings, not_reviewed: str = "", judged=None) -> dict:
    """Score, grade and per-area subscores of one review's findings; without a score or grade (None)
    and with the reason when it was `not_reviewed`. `judged`: the areas in which a rule ran (None: all);
    the others are None unless they have findings."""
    points = sum(f.score for f in findings)
    if not_reviewed:
        return {"score": None, "grade": None, "not_reviewed": not_reviewed, "points": round(points, 2), "areas": {}}
    score = round(max(0.0, 100.0 - points), 2)
    lost: dict = {}
    for f in findings:
        area = area_of(f.rule)
        if area in _UNTOUCHED:
            lost[area] = lost.get(area, 0) + f.score
    areas = dict(_UNTOUCHED) if judged is None else {a: 100.0 if a in judged else None for a in SCORED_AREAS}  # in SCORED_AREAS order
    for area, spent in lost.items():
        areas[area] = round(max(0.0, 100.0 - spent), 2)
    return {"score": score, "grade": grade(score), "points": round(points, 2), "areas": areas}
