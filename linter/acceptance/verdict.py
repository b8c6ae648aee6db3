"""The acceptance verdict, which only the buyer can soften.

Inline suppression comments are the writer's: in a quote or contract the vendor wrote, they would let
the other party silence a shortfall, so `accept` runs the check with inline suppressions off (each
comment that covers a finding is listed) and applies only the buyer's configuration (ignore,
severity) and baseline.
Every error or warning left blocks acceptance: a shortfall, a quoted node or figure without readable
evidence, evidence that cannot be read or that contradicts itself, and a quote that did not load."""

from __future__ import annotations

from dataclasses import dataclass, field

BLOCKING = ("error", "warning")


@dataclass
class Verdict:
    accepted: bool
    blocking: list  # findings
    suppressed: list  # Suppressed by the buyer's configuration or baseline
    ignored_comments: list = field(default_factory=list)  # Suppressed the writer's inline comments asked for, not applied
    reason: str = ""  # why there is no verdict to accept on (no node evidenced, DLV001 did not run)

    def line(self) -> str:
        counts = {s: sum(1 for f in self.blocking if f.severity == s) for s in BLOCKING}
        parts = ", ".join(f"{n} {s}{'s' if n != 1 else ''}" for s, n in counts.items() if n)
        quieted = f"; {len(self.suppressed)} suppressed by the buyer's configuration or baseline" if self.suppressed else ""
        ignored = f"; {len(self.ignored_comments)} inline suppression{'s' if len(self.ignored_comments) != 1 else ''} in the documents ignored" \
            if self.ignored_comments else ""
        if self.accepted:
            return f"accepted: no blocking finding{quieted}{ignored}"
        n = len(self.blocking)
        why = f"{n} blocking finding{'s' if n != 1 else ''} ({parts})" if n else self.reason
        if n and self.reason:
            why += f"; {self.reason}"
        return f"not accepted: {why}{quieted}{ignored}"


def judge(report) -> Verdict:
    blocking = [f for f in report.findings if f.severity in BLOCKING]
    reason = ""
    evidence = report.evidence
    if evidence is None or not any(node.files for node in evidence.nodes.values()):
        reason = "no node's evidence could be read"
    elif any(s.rule == "DLV001" for s in report.skipped):
        reason = "the accelerators were not checked (see the skipped DLV001)"
    return Verdict(not blocking and not reason, blocking, report.suppressed, report.ignored, reason)
