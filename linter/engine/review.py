"""Run rules over reviews: load, validate, check, attach places, score.

A review is one linted file: its documents plus the workload given with `--workload`. The engine
reports everything it finds and every rule it could not run (with the reason); what is shown is
decided later by the caller (fail-on, formats).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import NamedTuple

from clusterlint.model import catalog
from clusterlint.model.findings import Finding, Related, dotted
from clusterlint.readers.loader import Document, LoadedFile, Problem, display
from clusterlint.engine.registry import DOCUMENT_CHECK, Rule, RuleError, builtin_rules
from clusterlint.engine.selection import ALWAYS_ON
from clusterlint.engine.scoring import area_of, finding_score, scorecard


class Skip(Exception):
    """Raised by a check that cannot run on this review; the message says why."""


class PartSkip(NamedTuple):
    """Yielded by a check that cannot judge one part of a review (a pool whose accelerator the catalog
    does not know): the engine records the reason as a skip and keeps the check's other findings."""

    reason: str


class ParamError(Exception):
    """Raised by a check whose param cannot apply to the document (a bound in the wrong unit);
    the engine names the rule file and line."""

    def __init__(self, param: str, message: str):
        super().__init__(message)
        self.param = param


class Hit:
    """What a check yields: a place (document kind + spec path) and a message; `offset` is a
    character of the path's text (the words the finding is about) and `length` how many characters
    those words take. A plain class with slots, as findings.Finding: one is made per finding, and a
    dataclass costs start-up to define."""

    __slots__ = ("kind", "path", "message", "severity", "evidence", "key", "offset", "length")

    def __init__(self, kind: str, path: tuple, message: str, severity: str | None = None, evidence: tuple = (), key: bool = False,
                 offset: int | None = None, length: int = 0):
        self.kind, self.path, self.message, self.severity = kind, path, message, severity
        self.evidence, self.key, self.offset, self.length = evidence, key, offset, length

    def __repr__(self) -> str:
        return f"Hit({', '.join(f'{name}={getattr(self, name)!r}' for name in self.__slots__)})"


def check(params_cls):
    """Declare the pydantic model that validates a check's params: the class itself (plugins), or a
    reference "module:Class" to it (the built-in checks: see `clusterlint.rules.params`)."""

    def mark(fn):
        fn.Params = params_cls
        return fn

    return mark


@dataclass(eq=False)  # compared by identity, as Options
class Review:
    """The typed documents a check sees, and where each came from."""

    cluster: object = None
    contract: object = None
    workload: object = None
    docs: dict = field(default_factory=dict)  # kind -> Document
    rules: object = None  # the rules in force (id -> Rule): the sizing model reads its assumptions from their params
    evidence: object = None  # evidence.Evidence from delivered nodes (clusterlint accept), else None
    config: dict = field(default_factory=dict)  # the configuration's values (parties, contract-kind); {} for defaults
    known: dict = field(default_factory=dict, repr=False)  # id(accelerator) -> (it, its facts): `facts` works each out once a review

    def hit(self, kind: str, path, message: str, **kw) -> Hit:
        """A finding at `path`; figures an `instance:` filled near it are added to its evidence."""
        doc = self.docs.get(kind)
        if doc is not None and doc.figures:
            from clusterlint.model.instances import evidence

            kw["evidence"] = tuple(kw.get("evidence", ())) + evidence(doc, tuple(path))
        return Hit(kind, tuple(path), message, **kw)

    def hit_words(self, kind: str, path, match, message: str) -> Hit:
        """A hit on the words a regex `match` found in the text at `path`: the finding points at them."""
        return Hit(kind, tuple(path), message, offset=match.start(), length=match.end() - match.start())

    def facts(self, pool) -> catalog.AcceleratorFacts:
        """Facts for a pool's accelerator: the catalog's, with the figures the spec gives in their
        place (cited "spec"); skips the rule when the model is unknown and the spec gives none."""
        acc = pool.accelerator
        if id(acc) not in self.known:
            self.known[id(acc)] = acc, catalog.for_accelerator(acc)
        facts = self.known[id(acc)][1]
        if facts is None:
            raise Skip(f"accelerator {pool.accelerator.model!r} is not in the catalog (see SPEC004)")
        return facts


class Skipped(NamedTuple):
    rule: str
    reason: str
    file: str

    def as_json(self) -> dict:
        return {"rule": self.rule, "reason": self.reason, "file": self.file}


@dataclass(eq=False)  # compared by identity, as Options
class FileResult:
    """Everything clusterlint learned about one file."""

    file: str
    lines: list
    findings: list = field(default_factory=list)
    skips: dict = field(default_factory=dict)  # (rule id, reason) -> None: each rule that did not run and why, once, in rule order
    judged: set = field(default_factory=set)  # the areas (NET, CON, ...) in which at least one rule ran to its end
    pages: list | None = None  # a PDF's lines page by page
    reviews: list = field(default_factory=list)  # the Reviews the rules ran on (for estimates)
    suppressed: list = field(default_factory=list)  # Suppressed findings (inline or baseline), not counted
    elsewhere: list = field(default_factory=list)  # findings about the shared documents alone, located in them
    blocked: str = ""  # why the review could not happen although the file loaded (a broken --workload)

    def card(self) -> dict:
        """This file's scorecard: score, grade, and a subscore for each area a rule judged."""
        return scorecard(self.findings, self.not_reviewed(), self.judged)

    def not_reviewed(self) -> str:
        """Why this file was not reviewed ("" when it was): its first finding of a rule that means
        a document was not read, or a shared document it depends on that was not."""
        first = min((f for f in self.findings if f.rule in ALWAYS_ON), default=None)
        if first is not None:
            return f"{first.file}:{first.line}:{first.column}: {first.rule} {first.message}"
        return self.blocked
    settings: object = None  # the configuration that applied (fail-on, min-score)

    @property
    def skipped(self) -> list[Skipped]:
        """The rules that did not run on this file, with why (`skips` as Skipped records)."""
        return [Skipped(rule, reason, self.file) for rule, reason in self.skips]


def new_finding(rule: Rule, doc_file: str, line: int, col: int, path, message: str, severity: str | None = None, evidence=(),
             page=0, length=0, identity: tuple | None = None, related: tuple = (), where: str | None = None) -> Finding:
    """`identity` is (where, offending value) for the fingerprint; by default the path and the message.
    `where` is `dotted(path)` when the caller has it already."""
    severity = rule.forced_severity or severity or rule.severity
    if where is None:
        where = dotted(path)
    return Finding(
        file=doc_file, line=line, column=col, rule=rule.id, message=message, name=rule.name, severity=severity,
        score=finding_score(rule.weight, severity), path=where, evidence=tuple(evidence), page=page, length=length,
        identity=(rule.id, *(identity or (where, message))), related=related,
    )


def problem_finding(problem: Problem, file: str, rules: dict | None = None) -> Finding | None:
    """The finding of a loading problem, under `rules` (None when its rule is not selected)."""
    rule = (builtin_rules() if rules is None else rules).get(problem.rule)
    return rule and new_finding(rule, file, problem.line, problem.column, problem.path, problem.message)


def typed_documents(loaded: LoadedFile, result: FileResult, rules: dict | None = None) -> list[tuple[Document, object]]:
    """Validate each document of a loaded file; problems become findings in `result`."""
    from clusterlint.model.validate import validate

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
              evidence=None, config: dict | None = None) -> None:
    """Run every review rule over the typed documents of one file, plus the shared documents
    (--workload, --contract: kind -> (Document, model)) the file does not hold itself.

    `invalid` says that some of the file's documents failed validation, so a rule skipped for a
    missing kind says why the kind is missing. Rules that need Evidence run only when `evidence` is
    given (clusterlint accept); a plain check does not run them at all. `config` is the
    configuration's values, for the rules that read a key of it (`parties`, `contract-kind`).
    """
    rules = builtin_rules() if rules is None else rules
    result.judged.add("SPEC")  # the documents were read and validated: the SPEC checks ran on them
    for review in reviews(typed, shared):
        plan = _plan(rules, frozenset(review.docs), evidence is not None, invalid)
        review.rules = rules
        result.reviews.append(review)
        review.evidence = evidence
        review.config = config or {}
        skips = result.skips
        for rule, skip in plan:
            if skip:
                skips.setdefault(skip)
                continue
            hits = []
            try:
                for item in rule.function(review, rule.settings):
                    if isinstance(item, PartSkip):
                        _skip(result, rule, item.reason)
                    else:
                        hits.append(item)
                result.judged.add(area_of(rule.id))  # it ran to its end: its area was judged
            except Skip as exc:  # findings already made stand: not knowing the rest never withdraws them
                _skip(result, rule, str(exc))
            except ParamError as exc:
                at = rule.params_from or rule.where("params", exc.param)
                raise RuleError(f"{at}: {rule.id} params.{exc.param}: {exc}") from None
            except RuleError:
                raise
            except Exception as exc:
                if rule.origin == "built-in" or rule.check.startswith("clusterlint."):
                    raise  # clusterlint's own code: an internal error, reported as one
                raise RuleError(_blame(rule, exc)) from None
            for hit in hits:
                _record(result, rule, review, hit)


_PLANS: dict = {}  # id(rules) -> (rules, {(kinds, evidence given, invalid): plan}); rule sets are few and kept


def _plan(rules: dict, kinds: frozenset, with_evidence: bool, invalid: bool) -> list:
    """What `run_rules` does with each rule, in order, on a review of `kinds`: (rule, None) runs it,
    (rule, (rule id, reason)) skips it. Worked out once per rule set and kinds, not per file."""
    held, plans = _PLANS.get(id(rules), (None, None))
    if held is not rules:
        if len(_PLANS) >= 16:
            _PLANS.clear()
        plans = {}
        _PLANS[id(rules)] = (rules, plans)
    key = (kinds, with_evidence, invalid)
    if key not in plans:
        plan = []
        for rule in rules.values():
            if rule.check == DOCUMENT_CHECK or ("Evidence" in rule.needs and not with_evidence):
                continue
            missing = [k for k in rule.needs if k not in kinds and k != "Evidence"]
            reason = ""
            if missing:
                reason = f"needs {' and '.join(missing)} document{'s' if len(missing) > 1 else ''}"
                if invalid:
                    reason += " (invalid documents are not reviewed)"
            plan.append((rule, (rule.id, reason) if reason else None))
        plans[key] = plan
    return plans[key]


def _record(result: FileResult, rule: Rule, review: Review, hit: Hit) -> None:
    """Place a hit. A hit in the file's own document is a finding there. A hit in a shared document
    (--workload, --contract) is one of two things: when the rule reads only shared documents it is
    about them alone and goes to `result.elsewhere` (reported once, in that file); when the rule
    also reads a document of this file it is caused by this quote together with the shared one, so
    it belongs to this file (at the quote's name), names the shared line as a related place, and its
    fingerprint holds the quote and the message (which carries the computed figures), so a baseline
    keeps one entry per quote and a changed figure is reported again."""
    doc = review.docs[hit.kind]
    line, col = doc.locate(hit.path, key=hit.key, offset=hit.offset)
    page = doc.page(hit.path, hit.offset)
    value = doc.value(hit.path)
    where = dotted(hit.path)
    if hit.offset is not None and isinstance(value, str):  # words in a clause: keyed by their sentence, not its index
        from clusterlint.contracts.sentences import sentence_at

        identity = (sentence_at(value, hit.offset), value[hit.offset : hit.offset + hit.length])
    else:
        identity = (where, hit.message if value is None else value)
    args = (hit.path, hit.message, hit.severity, hit.evidence)
    if doc.file == result.file:
        result.findings.append(new_finding(rule, doc.file, line, col, *args, page, hit.length, identity, where=where))
        return
    own = next((review.docs[k] for k in rule.needs if review.docs[k].file == result.file), None)
    if own is None:
        result.elsewhere.append(new_finding(rule, doc.file, line, col, *args, page, hit.length, identity, where=where))
        return
    anchor = ("metadata", "name")
    at_line, at_col = own.locate(anchor)
    where = f"{hit.kind} {dotted(hit.path)}"
    related = (Related(doc.file, line, col, f"{hit.kind.lower()} {dotted(hit.path)}", page),)
    result.findings.append(new_finding(rule, own.file, at_line, at_col, *args, own.page(anchor, None),
                                       identity=(where, (own.name, hit.message)), related=related))


def _blame(rule: Rule, exc: Exception) -> str:
    """A user or plugin check that failed: its rule file's `check:` line, and the check's own line."""
    import traceback

    frames = [f for f in traceback.extract_tb(exc.__traceback__) if not f.filename.startswith(os.path.dirname(os.path.dirname(__file__)))]
    inside = f" at {display(frames[-1].filename)}:{frames[-1].lineno}" if frames else ""
    return f"{rule.where('check')}: check: {rule.check} failed{inside} ({type(exc).__name__}: {exc}); fix the check or remove the rule"


def _skip(result: FileResult, rule: Rule, reason: str) -> None:
    result.skips.setdefault((rule.id, reason))
