"""What a check reports and what the user sees."""

from __future__ import annotations

from functools import lru_cache
from operator import attrgetter
from typing import NamedTuple

SEVERITIES = ("error", "warning", "info")
RANK = {"error": 3, "warning": 2, "info": 1, "never": 99}


class Finding:
    """One finding, ordered by place then rule; equality includes the message.

    Compared, ordered and hashed by `ORDER`'s fields, as a dataclass with order=True and
    unsafe_hash=True would be, but written out: defining such a dataclass costs about 2.5 ms of
    every run's start-up. Not changed once made, but not frozen either: a frozen class sets each
    field through object.__setattr__, three times the cost of a plain one, and a run makes a finding
    (and a Hit) for every file. Slots, not a dict per finding: cheaper to make and to keep (a long
    contract has tens of thousands).

    `line` and `column` count from 1; in a PDF they count from the top of `page` (0: not paged).
    `length`: characters of the offending words, when known; `fingerprint`: stable across line
    shifts (see _fingerprint()), given or worked out on first use from `identity` (rule, where, value):
    a text report never reads it, and hashing loads OpenSSL (about 4 ms of a run); `related`:
    Related places, the workload or contract line a quote's finding reads.
    """

    FIELDS = ("file", "page", "line", "column", "rule", "message", "name", "severity", "score", "path", "evidence", "length",
              "fingerprint", "related")
    __slots__ = tuple(name for name in FIELDS if name != "fingerprint") + ("_fingerprint", "_identity")

    def __init__(self, file: str, line: int, column: int, rule: str, message: str, name: str = "", severity: str = "error",
                 score: float = 0.0, path: str = "", evidence: tuple = (), length: int = 0, fingerprint: str = "",
                 related: tuple = (), *, page: int = 0, identity: tuple | None = None):
        self.file, self.page, self.line, self.column, self.rule, self.message = file, page, line, column, rule, message
        self.name, self.severity, self.score, self.path = name, severity, score, path
        self.evidence, self.length, self._fingerprint, self.related = evidence, length, fingerprint, related
        self._identity = identity

    @property
    def fingerprint(self) -> str:
        if self._identity is not None:
            self._fingerprint, self._identity = _fingerprint(*self._identity), None
        return self._fingerprint

    def __eq__(self, other):
        return ORDER(self) == ORDER(other) if type(other) is Finding else NotImplemented

    def __lt__(self, other):
        return ORDER(self) < ORDER(other) if type(other) is Finding else NotImplemented

    def __le__(self, other):
        return ORDER(self) <= ORDER(other) if type(other) is Finding else NotImplemented

    def __gt__(self, other):
        return ORDER(self) > ORDER(other) if type(other) is Finding else NotImplemented

    def __ge__(self, other):
        return ORDER(self) >= ORDER(other) if type(other) is Finding else NotImplemented

    def __hash__(self):
        return hash(ORDER(self))

    def __repr__(self) -> str:
        return f"Finding({', '.join(f'{name}={getattr(self, name)!r}' for name in self.FIELDS)})"

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


# The fields a Finding is compared, ordered and hashed by, in its order: sorted(findings, key=ORDER) is
# sorted(findings), with one tuple made per finding instead of two per comparison.
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


def _fingerprint(rule: str, where: str, value) -> str:
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
