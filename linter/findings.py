"""What a check reports and what the user sees."""

from __future__ import annotations

from dataclasses import dataclass, field

SEVERITIES = ("error", "warning", "info")
RANK = {"error": 3, "warning": 2, "info": 1, "never": 99}


@dataclass(frozen=True, order=True)
class Finding:
    """One finding, ordered by place then rule; equality includes the message."""

    file: str
    line: int
    column: int
    rule: str
    message: str
    name: str = ""
    severity: str = "error"
    score: float = 0.0
    path: str = ""
    evidence: tuple = field(default=(), compare=False)

    def as_json(self) -> dict:
        return {
            "rule": self.rule,
            "name": self.name,
            "severity": self.severity,
            "score": self.score,
            "message": self.message,
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "path": self.path,
            "evidence": list(self.evidence),
        }


def dotted(path) -> str:
    """spec.node_pools[0].count from ("spec", "node_pools", 0, "count")."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out
