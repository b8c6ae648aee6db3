"""`clusterlint check`: find the files, review each one, collect the results."""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass, field

from .engine import FileResult, run_rules, typed_documents
from .loader import load_bytes
from .prose import is_prose
from .scoring import scorecard

YAML_SUFFIXES = (".yaml", ".yml")
_CLUSTERLINT_DOC = re.compile(rb"^apiVersion:[ \t]*[\"']?clusterlint/", re.MULTILINE)


class UsageError(Exception):
    """The tool cannot do its job (missing file, nothing to lint): exit 2."""


@dataclass
class Options:
    paths: tuple = ()
    workload: str | None = None
    contract: str | None = None  # a Contract (YAML, text, Markdown or PDF) applied to every review
    skip_non_specs: bool = False  # YAML files without a clusterlint document are listed, not linted


@dataclass
class Report:
    results: list = field(default_factory=list)  # FileResult per reviewed file
    not_specs: list = field(default_factory=list)  # YAML files passed over by --skip-non-specs

    @property
    def findings(self) -> list:
        return sorted(f for r in self.results for f in r.findings)

    @property
    def skipped(self) -> list:
        return [s for r in self.results for s in r.skipped]

    def scorecards(self) -> dict:
        return {r.file: scorecard(r.findings) for r in self.results}


def _display(path: str) -> str:
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


def discover(paths) -> list[str]:
    """Expand the command line's paths: files as given, directories into their clusterlint YAML."""
    files: list[str] = []
    for path in paths:
        if path == "-":
            files.append("-")
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


def _read(path: str) -> tuple[str, bytes]:
    if path == "-":
        return "<stdin>", sys.stdin.buffer.read()
    try:
        with open(path, "rb") as handle:
            return _display(path), handle.read()
    except OSError as exc:
        raise UsageError(f"{path}: cannot read ({exc.strerror})") from None


def _load(path: str):
    name, data = _read(path)
    if is_prose(path):
        from . import prose

        loaded = prose.load(data, name)
    else:
        loaded = load_bytes(data, name)
    result = FileResult(name, loaded.lines, pages=loaded.pages)
    typed = typed_documents(loaded, result)
    return result, typed, len(typed) < len(loaded.documents) or bool(loaded.problems)


def _shared(report: Report, path: str | None, kind: str):
    """The document of `kind` in a file given with --workload or --contract (its load problems are reported)."""
    if not path:
        return None, False
    result, typed, invalid = _load(path)
    found = [item for item in typed if item[0].kind == kind]
    if not found and not invalid:
        raise UsageError(f"{path}: holds no {kind} document")
    if result.findings:
        report.results.append(result)
    return (found[0] if found else None), not found


def check(options: Options) -> Report:
    report = Report()
    workload, bad_workload = _shared(report, options.workload, "Workload")
    contract, bad_contract = _shared(report, options.contract, "Contract")
    shared = {kind: item for kind, item in (("Workload", workload), ("Contract", contract)) if item}
    for path in discover(options.paths):
        if options.skip_non_specs and path.endswith(YAML_SUFFIXES) and not _is_clusterlint(path):
            report.not_specs.append(_display(path))
            continue
        result, typed, invalid = _load(path)
        run_rules(result, typed, shared, invalid or bad_workload or bad_contract)
        report.results.append(result)
    return report
