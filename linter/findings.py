"""What a check reports and what the user sees."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from operator import attrgetter
from typing import NamedTuple

SEVERITIES = ("error", "warning", "info")
RANK = {"error": 3, "warning": 2, "info": 1, "never": 99}


@dataclass(order=True, unsafe_hash=True, slots=True)
class Finding:
    """One finding, ordered by place then rule; equality includes the message.

    Not changed once made, but not frozen either: a frozen dataclass's __init__ sets each field
    through object.__setattr__, three times the cost of a plain one, and a run makes a finding
    (and a Hit) for every file. `unsafe_hash` hashes the compared fields, as
    frozen does. The same holds for Hit. Slots, not a
    dict per finding: cheaper to make and to keep (a long contract has tens of thousands).

    `line` and `column` count from 1; in a PDF they count from the top of `page` (0: not paged).
    """

    file: str
    page: int = field(default=0, kw_only=True)
    line: int
    column: int
    rule: str
    message: str
    name: str = ""
    severity: str = "error"
    score: float = 0.0
    path: str = ""
    evidence: tuple = field(default=(), compare=False)
    length: int = field(default=0, compare=False)  # characters of the offending words, when known
    fingerprint: str = field(default="", compare=False)  # stable across line shifts: see fingerprint()
    related: tuple = field(default=(), compare=False)  # Related places: the workload or contract line a quote's finding reads

    def as_json(self) -> dict:
        return {
            "rule": self.rule,
            "name": self.name,
            "severity": self.severity,
            "score": self.score,
            "message": self.message,
            "file": self.file,
            **({"page": self.page} if self.page else {}),
            "line": self.line,
            "column": self.column,
            "path": self.path,
            "evidence": list(self.evidence),
            "fingerprint": self.fingerprint,
            **({"related": [r.as_json() for r in self.related]} if self.related else {}),
        }


# The fields a Finding's order compares, in its order: sorted(findings, key=ORDER) is sorted(findings),
# with one tuple made per finding instead of two per comparison.
ORDER = attrgetter("file", "page", "line", "column", "rule", "message", "name", "severity", "score", "path")


class Related(NamedTuple):
    """Another place a finding depends on: for a quote's finding caused together with the workload
    or contract given with --workload / --contract, the line of that document it reads."""

    file: str
    line: int
    column: int
    message: str
    page: int = 0

    def as_json(self) -> dict:
        return {"file": self.file, **({"page": self.page} if self.page else {}), "line": self.line, "column": self.column,
                "message": self.message}


def fingerprint(rule: str, where: str, value) -> str:
    """A finding's identity within its file that survives edits elsewhere in it: its rule, spec path
    (or for words in a clause, the sentence they sit in) and the offending value, never its line.
    The file is not part of it, so it does not change with the directory clusterlint runs from;
    baselines and SARIF pair it with the file."""
    return _digest(f"{rule}\0{where}\0{value!r}")


@lru_cache(maxsize=4096)
def _digest(text: str) -> str:
    """The first 24 hex digits of the SHA-256 of `text`: kept for the findings that repeat from file
    to file (quotes of one offering), not worked out again for each."""
    import hashlib

    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:24]


def dotted(path) -> str:
    """spec.node_pools[0].count from ("spec", "node_pools", 0, "count")."""
    out = ""
    for part in path:
        if type(part) is str:  # most parts: a key
            out = f"{out}.{part}" if out else part
        else:
            out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out
