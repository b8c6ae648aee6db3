"""Applying inline suppressions: silence the findings they cover and report the comments themselves.

The comments are read by `clusterlint.policy.comments`. They are findings themselves: SUP001
when a reason is missing, SUP002 when a comment silences nothing (an unknown rule, a rule that
cannot be silenced, or a rule that ran and found nothing there), SUP003 when a `clusterlint:`
comment is not a suppression at all. A suppression of a rule that did not run on the file (not
selected, or skipped) is not reported as unused: nothing can be said about it.
"""

from __future__ import annotations

from dataclasses import dataclass

from clusterlint.engine.selection import ALWAYS_ON
from clusterlint.engine.review import new_finding
from clusterlint.engine.registry import RULE_ID


def _unsuppressible(rule_id: str) -> bool:
    """Documents that were never reviewed, and the comments' own findings."""
    return rule_id in ALWAYS_ON or rule_id.startswith("SUP")


@dataclass(frozen=True)
class Suppressed:
    """A finding not counted: silenced in the file (inSource) or present in the baseline (external)."""

    finding: object
    kind: str  # SARIF's suppression kinds: inSource, external
    justification: str
    line: int = 0  # where the suppression is written (inSource)

    def as_json(self) -> dict:
        return {**self.finding.as_json(), "suppression": {"kind": self.kind, "justification": self.justification,
                                                          **({"line": self.line} if self.line else {})}}


def silence(result, suppressions) -> None:
    """Move the findings the suppressions cover from `result.findings` to `result.suppressed`."""
    active = []
    for finding in result.findings:
        match = None if _unsuppressible(finding.rule) else next((s for s in suppressions if s.covers(finding)), None)
        if match is None:
            active.append(finding)
            continue
        match.used.add(finding.rule)
        result.suppressed.append(Suppressed(finding, "inSource", match.reason or "(no reason given)", match.line))
    result.findings = active


def apply(result, suppressions, malformed, rules: dict, known: dict) -> None:
    """Move the findings a suppression covers from `result.findings` to `result.suppressed` and add
    the SUP findings of the comments themselves (when selected). `rules` ran on the file; `known` is
    every rule there is."""
    silence(result, suppressions)
    active = result.findings
    skipped = {s.rule for s in result.skipped}
    comments = []
    for s in suppressions:
        place = "in this file" if s.file_wide else f"on line {s.target}" if s.target else "on the line after it (there is none)"
        for rule_id in s.ids:
            if not s.reason:
                comments.append(("SUP001", rule_id, s, f"suppression of {rule_id} gives no reason; write it after the brackets: "
                                              f"clusterlint: {'ignore-file' if s.file_wide else 'ignore'}[{rule_id}] why it is accepted"))
            if rule_id in s.used:
                continue
            if not RULE_ID.match(rule_id) or rule_id not in known:
                import difflib

                close = difflib.get_close_matches(rule_id, list(known), n=1)
                comments.append(("SUP002", rule_id, s, f"suppression names unknown rule {rule_id!r}" + (f" (did you mean {close[0]!r}?)" if close else "")))
            elif _unsuppressible(rule_id):
                comments.append(("SUP002", rule_id, s, f"{rule_id} cannot be suppressed: fix the file (or the comment) instead"))
            elif rule_id in rules and rule_id not in skipped:
                comments.append(("SUP002", rule_id, s, f"unused suppression: no {rule_id} finding {place}"))
    for s in malformed:
        comments.append(("SUP003", "", s, f"not a suppression: {s.text!r}; write clusterlint: ignore[ID, ...] reason, or ignore-file[ID, ...] reason"))
    for rule_id, subject, s, message in comments:
        if rule_id in rules:
            active.append(new_finding(rules[rule_id], result.file, s.line, s.column, (), message, page=s.page, identity=(f"comment {subject}", s.text)))
    result.findings = active
