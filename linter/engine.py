"""Run rules over reviews: load, validate, check, attach places, score.

A review is one linted file: its documents plus the workload given with `--workload`. The engine
reports everything it finds and every rule it could not run (with the reason); what is shown is
decided later by the caller (fail-on, formats).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import catalog
from .findings import Finding, dotted, fingerprint
from .loader import Document, LoadedFile, Problem
from .registry import DOCUMENT_CHECK, Rule, RuleError, builtin_rules
from .scoring import finding_score
from .sentences import sentence_at


class Skip(Exception):
    """Raised by a check that cannot run on this review; the message says why."""


class ParamError(Exception):
    """Raised by a check whose param cannot apply to the document (a bound in the wrong unit);
    the engine names the rule file and line."""

    def __init__(self, param: str, message: str):
        super().__init__(message)
        self.param = param


@dataclass(frozen=True)
class Hit:
    """What a check yields: a place (document kind + spec path) and a message."""

    kind: str
    path: tuple
    message: str
    severity: str | None = None
    evidence: tuple = ()
    key: bool = False
    offset: int | None = None  # a character of the path's text: the words the finding is about
    length: int = 0  # how many characters those words take


def check(params_cls):
    """Declare the pydantic model that validates a check's params."""

    def mark(fn):
        fn.Params = params_cls
        return fn

    return mark


@dataclass
class Review:
    """The typed documents a check sees, and where each came from."""

    cluster: object = None
    contract: object = None
    workload: object = None
    docs: dict = field(default_factory=dict)  # kind -> Document
    evidence: object = None  # evidence.Evidence from delivered nodes (clusterlint accept), else None

    def hit(self, kind: str, path, message: str, **kw) -> Hit:
        return Hit(kind, tuple(path), message, **kw)

    def hit_words(self, kind: str, path, match, message: str) -> Hit:
        """A hit on the words a regex `match` found in the text at `path`: the finding points at them."""
        return Hit(kind, tuple(path), message, offset=match.start(), length=match.end() - match.start())

    def facts(self, pool) -> catalog.AcceleratorFacts:
        """Catalog facts for a pool's accelerator; skips the rule when the model is unknown."""
        facts = catalog.lookup(pool.accelerator.model)
        if facts is None:
            raise Skip(f"accelerator {pool.accelerator.model!r} is not in the catalog (see SPEC004)")
        return facts


@dataclass
class Skipped:
    rule: str
    reason: str
    file: str

    def as_json(self) -> dict:
        return {"rule": self.rule, "reason": self.reason, "file": self.file}


@dataclass
class FileResult:
    """Everything clusterlint learned about one file."""

    file: str
    lines: list
    findings: list = field(default_factory=list)
    skipped: list = field(default_factory=list)
    pages: list | None = None  # a PDF's lines page by page
    reviews: list = field(default_factory=list)  # the Reviews the rules ran on (for estimates)
    suppressed: list = field(default_factory=list)  # Suppressed findings (inline or baseline), not counted
    settings: object = None  # the configuration that applied (fail-on, min-score)


def new_finding(rule: Rule, doc_file: str, line: int, col: int, path, message: str, severity: str | None = None, evidence=(),
             page=0, length=0, identity: tuple | None = None) -> Finding:
    """`identity` is (where, offending value) for the fingerprint; by default the path and the message."""
    severity = rule.forced_severity or severity or rule.severity
    where = dotted(path)
    return Finding(
        file=doc_file, line=line, column=col, rule=rule.id, message=message, name=rule.name, severity=severity,
        score=finding_score(rule.weight, severity), path=where, evidence=tuple(evidence), page=page, length=length,
        fingerprint=fingerprint(rule.id, *(identity or (where, message))),
    )


def problem_finding(problem: Problem, file: str, rules: dict | None = None) -> Finding | None:
    """The finding of a loading problem, under `rules` (None when its rule is not selected)."""
    rule = (builtin_rules() if rules is None else rules).get(problem.rule)
    return rule and new_finding(rule, file, problem.line, problem.column, problem.path, problem.message)


def typed_documents(loaded: LoadedFile, result: FileResult, rules: dict | None = None) -> list[tuple[Document, object]]:
    """Validate each document of a loaded file; problems become findings in `result`."""
    from .validate import validate

    result.findings.extend(f for f in (problem_finding(p, loaded.file, rules) for p in loaded.problems) if f)
    typed = []
    for doc in loaded.documents:
        model, problems = validate(doc)
        result.findings.extend(f for f in (problem_finding(p, loaded.file, rules) for p in problems) if f)
        if model is not None:
            typed.append((doc, model))
    return typed


def reviews(typed: list, shared: dict | None = None) -> list[Review]:
    """One Review per Cluster of a file (or one without a Cluster), with the file's other documents
    and the shared ones (kind -> (Document, model)) the file does not hold itself."""
    by_kind: dict[str, list] = {}
    for doc, model in typed:
        by_kind.setdefault(doc.kind, []).append((doc, model))
    for kind, item in (shared or {}).items():
        by_kind.setdefault(kind, [item])
    base = {kind: items[0] for kind, items in by_kind.items() if kind != "Cluster"}
    out = []
    for cluster in by_kind.get("Cluster") or [None]:
        present = dict(base) if cluster is None else {**base, "Cluster": cluster}
        review = Review(docs={})
        for kind, (doc, model) in present.items():
            setattr(review, kind.lower(), model)
            review.docs[kind] = doc
        out.append(review)
    return out


def run_rules(result: FileResult, typed: list, shared: dict | None = None, invalid: bool = False, rules: dict | None = None,
              evidence=None) -> None:
    """Run every review rule over the typed documents of one file, plus the shared documents
    (--workload, --contract: kind -> (Document, model)) the file does not hold itself.

    `invalid` says that some of the file's documents failed validation, so a rule skipped for a
    missing kind says why the kind is missing. Rules that need Evidence run only when `evidence` is
    given (clusterlint accept); a plain check does not run them at all.
    """
    rules = builtin_rules() if rules is None else rules
    for review in reviews(typed, shared):
        result.reviews.append(review)
        review.evidence = evidence
        for rule in rules.values():
            if rule.check == DOCUMENT_CHECK or ("Evidence" in rule.needs and evidence is None):
                continue
            missing = [k for k in rule.needs if k not in review.docs and k != "Evidence"]
            if missing:
                reason = f"needs {' and '.join(missing)} document{'s' if len(missing) > 1 else ''}"
                if invalid:
                    reason += " (invalid documents are not reviewed)"
                _skip(result, rule, reason)
                continue
            try:
                hits = list(rule.function(review, rule.settings))
            except Skip as exc:
                _skip(result, rule, str(exc))
                continue
            except ParamError as exc:
                at = rule.params_from or rule.where("params", exc.param)
                raise RuleError(f"{at}: {rule.id} params.{exc.param}: {exc}") from None
            for hit in hits:
                doc = review.docs[hit.kind]
                line, col = doc.locate(hit.path, key=hit.key, offset=hit.offset)
                page = doc.page(hit.path, hit.offset)
                value = doc.value(hit.path)
                if hit.offset is not None and isinstance(value, str):  # words in a clause: keyed by their sentence, not its index
                    identity = (sentence_at(value, hit.offset), value[hit.offset : hit.offset + hit.length])
                else:
                    identity = (dotted(hit.path), hit.message if value is None else value)
                result.findings.append(new_finding(rule, doc.file, line, col, hit.path, hit.message, hit.severity, hit.evidence, page, hit.length, identity))


def _skip(result: FileResult, rule: Rule, reason: str) -> None:
    if not any(s.rule == rule.id and s.reason == reason for s in result.skipped):
        result.skipped.append(Skipped(rule.id, reason, result.file))
