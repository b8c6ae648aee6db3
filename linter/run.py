"""`clusterlint check`: find the files, review each one, collect the results."""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass, field

from .engine import FileResult, run_rules, typed_documents
from .loader import display, load_bytes
from .prose import is_prose
from .scoring import scorecard

YAML_SUFFIXES = (".yaml", ".yml")
_DIRECTIVE = re.compile(r"clusterlint\s*:")  # what every suppression comment contains
_CLUSTERLINT_DOC = re.compile(rb"^apiVersion:[ \t]*[\"']?clusterlint/", re.MULTILINE)


class UsageError(Exception):
    """The tool cannot do its job (missing file, nothing to lint): exit 2."""


@dataclass
class Options:
    paths: tuple = ()
    cli: dict = field(default_factory=dict)  # configuration keys given on the command line (they win)
    config: str | None = None  # --config FILE: one configuration for every file
    isolated: bool = False  # --isolated: defaults only
    skip_non_specs: bool = False  # YAML files without a clusterlint document are listed, not linted
    use_baseline: bool = True  # False while writing a baseline: record everything found
    buffers: dict = field(default_factory=dict)  # path -> bytes read instead of the file (an editor's unsaved text)


@dataclass
class Report:
    results: list = field(default_factory=list)  # FileResult per reviewed file
    not_specs: list = field(default_factory=list)  # YAML files passed over by --skip-non-specs
    rules: dict = field(default_factory=dict)  # every rule that ran on some file, by id (for SARIF)
    show_suppressed: bool = False  # list suppressed findings in text output

    @property
    def findings(self) -> list:
        return sorted(f for r in self.results for f in r.findings)

    @property
    def suppressed(self) -> list:
        return sorted((s for r in self.results for s in r.suppressed), key=lambda s: s.finding)

    @property
    def skipped(self) -> list:
        return [s for r in self.results for s in r.skipped]

    def scorecards(self) -> dict:
        return {r.file: scorecard(r.findings) for r in self.results}

    def failed(self) -> bool:
        """Exit 1: a finding at or above its file's fail-on, or a review below its min-score."""
        from .findings import RANK

        for r in self.results:
            values = r.settings.values
            if any(RANK[f.severity] >= RANK[values["fail-on"]] for f in r.findings):
                return True
            if values["min-score"] is not None and scorecard(r.findings)["score"] < values["min-score"]:
                return True
        return False


def discover(paths, buffers=()) -> list[str]:
    """Expand the command line's paths: files as given, directories into their clusterlint YAML."""
    files: list[str] = []
    for path in paths:
        if path == "-" or path in buffers:
            files.append(path)
        elif os.path.isdir(path):
            found = []
            for root, dirs, names in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                for name in sorted(names):
                    full = os.path.join(root, name)
                    if name.endswith(YAML_SUFFIXES) and _is_clusterlint(full):
                        found.append(full)
            if not found:
                raise UsageError(f"{path}: no clusterlint documents found (YAML files with apiVersion: clusterlint/v1)")
            files.extend(found)
        elif os.path.exists(path):
            if not path.endswith(YAML_SUFFIXES) and not is_prose(path):
                raise UsageError(f"{path}: not a spec (.yaml, .yml) or a contract (.txt, .md, .pdf)")
            files.append(path)
        else:
            raise UsageError(f"{path}: no such file or directory")
    return files


def _is_clusterlint(path: str) -> bool:
    try:
        with open(path, "rb") as handle:
            head = handle.read(65536)
    except OSError:
        return False
    return bool(_CLUSTERLINT_DOC.search(head))


def _read(path: str, buffers=None) -> tuple[str, bytes]:
    if path == "-":
        return "<stdin>", sys.stdin.buffer.read()
    if buffers and path in buffers:
        return display(path), buffers[path]
    try:
        with open(path, "rb") as handle:
            return display(path), handle.read()
    except OSError as exc:
        raise UsageError(f"{path}: cannot read ({exc.strerror})") from None


def _load(path: str, rules: dict, buffers=None):
    name, data = _read(path, buffers)
    prose = is_prose(path)
    if prose:
        from . import prose as prose_reader

        loaded = prose_reader.load(data, name)
    else:
        loaded = load_bytes(data, name)
    result = FileResult(name, loaded.lines, pages=loaded.pages)
    typed = typed_documents(loaded, result, rules)
    return result, typed, len(typed) < len(loaded.documents) or bool(loaded.problems), loaded


def _suppress(result: FileResult, loaded, rules: dict, known: dict) -> None:
    pages = loaded.pages or [loaded.lines]
    if not any(_DIRECTIVE.search("\n".join(lines)) for lines in pages):
        return  # most files have no clusterlint comment: skip loading the suppression module
    from . import suppressions

    prose = is_prose(result.file)
    found, malformed = suppressions.parse(pages, prose, suppressions.clause_lines(loaded.documents) if prose else {})
    if found or malformed:
        suppressions.apply(result, found, malformed, rules, known)


class _Shared:
    """Documents given with --workload / --contract (or the configuration's workload / contract),
    each loaded once; their own problems are reported once."""

    def __init__(self, report: Report):
        self.report = report
        self.loaded: dict = {}

    def get(self, path: str | None, kind: str, settings):
        if not path:
            return None, False
        key = os.path.abspath(path)
        if key not in self.loaded:
            if not os.path.exists(path):
                raise UsageError(f"{display(path)}: no such file (given as the {kind.lower()} in {settings.origins[kind.lower()]})")
            result, typed, invalid, _ = _load(path, settings.rules_for(path))
            found = [item for item in typed if item[0].kind == kind]
            if not found and not invalid:
                raise UsageError(f"{path}: holds no {kind} document")
            if result.findings:
                result.settings = settings
                self.report.results.append(result)
            self.loaded[key] = (found[0] if found else None), not found
        return self.loaded[key]


def check(options: Options) -> Report:
    from .config import Resolver

    report = Report()
    resolver = Resolver(options.cli, options.config, options.isolated)
    shared_docs = _Shared(report)
    baselines: dict = {}
    for path in discover(options.paths, options.buffers):
        if options.skip_non_specs and path.endswith(YAML_SUFFIXES) and not _is_clusterlint(path):
            report.not_specs.append(display(path))
            continue
        settings = resolver.for_path(path)
        rules = settings.rules_for(path)
        report.rules.update(rules)
        workload, bad_workload = shared_docs.get(settings.values["workload"], "Workload", settings)
        contract, bad_contract = shared_docs.get(settings.values["contract"], "Contract", settings)
        shared = {kind: item for kind, item in (("Workload", workload), ("Contract", contract)) if item}
        result, typed, invalid, loaded = _load(path, rules, options.buffers)
        run_rules(result, typed, shared, invalid or bad_workload or bad_contract, rules)
        _suppress(result, loaded, rules, settings.rules)
        result.settings = settings
        baseline = settings.values["baseline"]
        if baseline and options.use_baseline:
            _apply_baseline(result, baseline, baselines)
        report.results.append(result)
    return report


def _apply_baseline(result: FileResult, path: str, cache: dict) -> None:
    from . import baseline
    from .suppressions import Suppressed

    if path not in cache:
        try:
            cache[path] = baseline.load(path)
        except baseline.BaselineError as exc:
            raise UsageError(str(exc)) from None
    new, known = baseline.split(result.findings, cache[path], path)
    result.findings = new
    result.suppressed.extend(Suppressed(f, "external", f"in the baseline {display(path)}") for f in known)
