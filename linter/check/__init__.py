"""`clusterlint check`: find the files, review each one, collect the results or stream them to a format."""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass, field

from clusterlint.check.discovery import UsageError, _is_clusterlint, discover  # noqa: F401  (UsageError: the command line's name for it)
from clusterlint.engine.review import FileResult, run_rules, typed_documents
from clusterlint.engine.scoring import scorecard
from clusterlint.model.findings import RANK
from clusterlint.readers.file_kinds import YAML_SUFFIXES, is_prose
from clusterlint.readers.loader import (
    Problem,
    display,
    load_bytes,
    read_file,
    read_stream,
)

_DIRECTIVE = re.compile(r"clusterlint\s*:")  # what every suppression comment contains



@dataclass(eq=False)  # compared by identity: a dataclass's __eq__ costs start-up and nothing compares options
class Options:
    paths: tuple = ()
    cli: dict = field(default_factory=dict)  # configuration keys given on the command line (they win)
    config: str | None = None  # --config FILE: one configuration for every file
    isolated: bool = False  # --isolated: defaults only
    skip_non_specs: bool = False  # YAML files without a clusterlint document are listed, not linted
    use_baseline: bool = True  # False while writing a baseline: record everything found
    evidence: object = None  # evidence.Evidence for clusterlint accept: runs the rules that need it
    buffers: dict = field(default_factory=dict)  # path -> bytes read instead of the file (an editor's unsaved text)
    keep_reviews: bool = True  # False: drop each file's typed documents once reviewed (check needs only findings)
    inline_suppressions: bool = True  # False (accept): comments in the documents silence nothing; Report.ignored lists what they cover


@dataclass(eq=False)
class Report:
    results: list = field(default_factory=list)  # FileResult per reviewed file
    not_specs: list = field(default_factory=list)  # YAML files passed over by --skip-non-specs
    rules: dict = field(default_factory=dict)  # every rule that ran on some file, by id (for SARIF)
    show_suppressed: bool = False  # list suppressed findings in text output
    read: dict = field(default_factory=dict)  # each file read, as named -> what it was read as (see `inputs`)
    show_skipped: bool = False  # list the skipped rules of each file in text output (else a count per file)
    evidence: object = None  # evidence.Evidence read by clusterlint accept (for its per-node table)
    ignored: list = field(default_factory=list)  # Suppressed an inline comment covers, not applied (inline_suppressions=False)

    @property
    def inputs(self) -> dict:
        """Real path -> what it was read as: the files an output must not overwrite. Worked out when
        asked (an output file is named), not for every file read."""
        real: dict = {}
        folders: dict = {}  # a folder's real path, worked out once for all the files in it
        for name, what in self.read.items():
            real.setdefault(name if name == "-" else _realpath(name, folders), what)  # "-": standard input
        return real

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
        return {r.file: r.card() for r in self.results}

    def failed(self) -> bool:
        """Exit 1: some file failed (see `failed`)."""
        return any(failed(r) for r in self.results)


def _realpath(name: str, folders: dict) -> str:
    """os.path.realpath(name), with the real path of its folder taken from `folders` (and kept
    there): a name that is not a link is its folder's real path and its own name. A name with a
    `..` in it goes to realpath whole (after a link, `..` is the link target's parent)."""
    if ".." in name.split(os.sep) or os.path.islink(name):
        return os.path.realpath(name)
    folder, base = os.path.split(os.path.abspath(name))
    if folder not in folders:
        folders[folder] = os.path.realpath(folder)
    return os.path.join(folders[folder], base)


def failed(result: FileResult) -> bool:
    """A finding at or above the file's fail-on, or a review below its min-score."""
    if result.settings:
        values = result.settings.values
    else:
        from clusterlint.config.settings import DEFAULTS

        values = DEFAULTS
    if any(RANK[f.severity] >= RANK[values["fail-on"]] for f in result.findings):
        return True
    return values["min-score"] is not None and bool(result.not_reviewed() or scorecard(result.findings)["score"] < values["min-score"])


def _read(path: str, buffers=None) -> bytes:
    if path == "-":
        return read_stream(sys.stdin.buffer)
    if buffers and path in buffers:
        return buffers[path]
    try:
        return read_file(path)
    except OSError as exc:
        raise UsageError(f"{path}: cannot read ({exc.strerror})") from None


def _load(path: str, name: str, rules: dict, buffers=None):
    """Read, parse and validate the file at `path`, whose findings carry `name` (see `_name`)."""
    data = _read(path, buffers)
    prose = is_prose(path)
    if prose:
        from clusterlint.readers import prose as prose_reader

        loaded = prose_reader.load(data, name)
    else:
        loaded = load_bytes(data, name)
        if not loaded.documents and not loaded.problems:
            loaded.problems.append(Problem("SPEC001", "the file holds no YAML document (it is empty or only comments): nothing to review", 1, 1))
    result = FileResult(name, loaded.lines, pages=loaded.pages)
    typed = typed_documents(loaded, result, rules)
    return result, typed, len(typed) < len(loaded.documents) or bool(loaded.problems), loaded


def _comments(result: FileResult, loaded) -> tuple[list, list]:
    """The suppression comments of a file, and its malformed clusterlint comments."""
    pages = loaded.pages or [loaded.lines]
    if not any(_DIRECTIVE.search("\n".join(lines)) for lines in pages):
        return [], []  # most files have no clusterlint comment: skip loading the suppression module
    from clusterlint.policy import comments as suppression_comments

    prose = is_prose(result.file)
    return suppression_comments.parse(pages, prose, suppression_comments.clause_lines(loaded.documents) if prose else {}, result.file)


def _suppress(result: FileResult, comments: tuple, rules: dict, known: dict, ignored: list | None = None) -> None:
    """Apply a file's comments; with `ignored` (inline suppressions off) only list in it the findings they cover."""
    found, malformed = comments
    if ignored is not None and found:
        from types import SimpleNamespace

        from clusterlint.policy import suppressions

        scratch = SimpleNamespace(findings=result.findings, suppressed=ignored)  # silence() on a scratch: the findings stay
        suppressions.silence(scratch, found)
    elif found or malformed:
        from clusterlint.policy import suppressions

        suppressions.apply(result, found, malformed, rules, known)


class _Shared:
    """Documents given with --workload / --contract (or the configuration's workload / contract),
    each loaded once; their own problems are reported once, and so is each finding about them alone."""

    def __init__(self, inline: bool = True):
        self.ignored = None if inline else []  # inline suppressions off: what the comments cover, listed, not applied
        self.loaded: dict = {}  # absolute path -> (item, invalid)
        self.results: dict = {}  # display name -> (FileResult, comments, settings)
        self.elsewhere: dict = {}  # findings about them alone, each once, in the order first found
        self.judged: set = set()  # the areas judged in the reviews that read them

    def get(self, path: str | None, kind: str, settings):
        if not path:
            return None, False
        key = os.path.abspath(path)
        if key not in self.loaded:
            if not os.path.exists(path):
                raise UsageError(f"{display(path)}: no such file (given as the {kind.lower()} in {settings.origins[kind.lower()]})")
            result, typed, invalid, loaded = _load(path, _name(path), settings.rules_for(path))
            found = [item for item in typed if item[0].kind == kind]
            if not found and not invalid:
                raise UsageError(f"{path}: holds no {kind} document")
            result.settings = settings
            self.results[result.file] = (result, _comments(result, loaded), settings)
            self.loaded[key] = (found[0] if found else None), not found
        return self.loaded[key]

    def silence(self, result: FileResult, settings) -> None:
        """Apply the comments of the shared documents to a quote's findings that name their lines."""
        for kind in ("workload", "contract"):
            path = settings.values[kind]
            found = path and self.results[display(path)][1][0]
            if found:
                from clusterlint.policy import suppressions

                suppressions.silence(result, found) if self.ignored is None else _suppress(result, (found, []), {}, {}, self.ignored)

    def blocked(self, settings) -> str:
        """Why a review that uses the configured workload or contract cannot happen: one of them did not load."""
        for kind in ("workload", "contract"):
            path = settings.values[kind]
            if path and self.loaded[os.path.abspath(path)][1]:
                return f"the {kind} {display(path)} was not reviewed (see its findings)"
        return ""

    def finish(self, checked: set, use_baseline: bool, baselines: dict) -> list:
        """The result of each shared file that has findings, reported once: its loading problems and
        the findings of rules that read only shared documents (found once per quote, kept once). A
        shared file also checked as a path (its name in `checked`) already holds them."""
        out = []
        for name, (result, comments, settings) in self.results.items():
            if name in checked:
                continue
            seen = set(result.findings)
            result.findings += [f for f in self.elsewhere if f.file == name and f not in seen]
            result.judged |= self.judged
            _suppress(result, comments, settings.rules_for(name), settings.rules, self.ignored)
            if not result.findings:
                continue
            if settings.values["baseline"] and use_baseline:
                _apply_baseline(result, settings.values["baseline"], baselines)
            out.append(result)
        return out


def check(options: Options, sink=None) -> Report:
    """Review every file the options name. Without a `sink`, each file's result goes into the
    report's `results`, in the order the files were found. With one, the report keeps none: the
    files are reviewed in the order their names sort (the order text output lists findings in) and
    each result goes to `sink.add(result, index, last)` once reviewed: `index` is its place in the
    found order (the shared --workload / --contract documents with findings come last), `last` says
    that no later result has its name. Before the first review, once every file's configuration,
    shared documents and baseline have loaded, `sink.start(report, late)` is called (`late`: the
    names of the shared documents whose results come at the end); after the last, `sink.finish()`."""
    from clusterlint.config.settings import Resolver

    report = Report()
    shared_docs = _Shared(options.inline_suppressions)
    baselines: dict = {}
    plan = _plan(options, Resolver(options.cli, options.config, options.isolated), report, shared_docs, baselines)
    order = [(_name(path), index, path, settings) for index, (path, settings) in enumerate(plan)]
    checked = {name for name, *_ in order if name in shared_docs.results}
    if sink is not None:
        order.sort(key=lambda item: item[0])
        sink.start(report, set(shared_docs.results) - checked)
    for position, (name, index, path, settings) in enumerate(order):
        result = _review(path, name, settings, options, shared_docs, baselines)
        if sink is None:
            report.results.append(result)
        else:
            sink.add(result, index, position + 1 == len(order) or order[position + 1][0] != name)
    for index, result in enumerate(shared_docs.finish(checked, options.use_baseline, baselines), len(plan)):
        if sink is None:
            report.results.append(result)
        else:
            sink.add(result, index, True)
    if sink is not None:
        sink.finish()
    report.ignored = sorted(shared_docs.ignored or [], key=lambda s: s.finding)
    return report


def _plan(options: Options, resolver, report: Report, shared_docs: _Shared, baselines: dict) -> list:
    """(path, settings) of each file to review, in the order found. Every file's configuration,
    shared documents and baseline load here, so that a broken one stops the run before any output;
    the report learns the rules that run, the files passed over and the files read."""
    plan = []
    for path in discover(options.paths, resolver, options.buffers):
        if options.skip_non_specs and path.endswith(YAML_SUFFIXES) and not _is_clusterlint(path):
            report.not_specs.append(display(path))
            continue
        try:
            from clusterlint.config.named_contract import with_named_contract

            settings = with_named_contract(resolver.for_path(path), path)  # a quote's metadata.contract, when none is given
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        report.rules.update(settings.rules_for(path))
        shared_docs.get(settings.values["workload"], "Workload", settings)
        shared_docs.get(settings.values["contract"], "Contract", settings)
        _note_inputs(report, settings, path)
        if settings.values["baseline"] and options.use_baseline:
            _baseline(settings.values["baseline"], baselines)
        plan.append((path, settings))
    return plan


def _name(path: str) -> str:
    """The name a file's findings carry."""
    return "<stdin>" if path == "-" else display(path)


def _review(path: str, name: str, settings, options: Options, shared_docs: _Shared, baselines: dict) -> FileResult:
    rules = settings.rules_for(path)
    workload, bad_workload = shared_docs.get(settings.values["workload"], "Workload", settings)
    contract, bad_contract = shared_docs.get(settings.values["contract"], "Contract", settings)
    shared = {kind: item for kind, item in (("Workload", workload), ("Contract", contract)) if item}
    result, typed, invalid, loaded = _load(path, name, rules, options.buffers)
    run_rules(result, typed, shared, invalid or bad_workload or bad_contract, rules, options.evidence, settings.values)
    result.blocked = shared_docs.blocked(settings)
    for f in result.elsewhere:
        shared_docs.elsewhere.setdefault(f, None)
    if shared:
        shared_docs.judged |= result.judged
    _suppress(result, _comments(result, loaded), rules, settings.rules, shared_docs.ignored)
    shared_docs.silence(result, settings)
    result.settings = settings
    baseline = settings.values["baseline"]
    if baseline and options.use_baseline:
        _apply_baseline(result, baseline, baselines)
    if not options.keep_reviews:
        _shed(result)
    return result


def _shed(result: FileResult) -> None:
    """Keep of a reviewed file only what a report prints, so that memory does not grow with the
    number of files: its typed documents go, and its text too when no finding quotes it."""
    result.reviews, result.elsewhere = [], []
    if not result.findings and not result.suppressed:
        result.lines, result.pages = [], None


def _note_inputs(report: Report, settings, path: str) -> None:
    values = settings.values
    named = [(path, "a file being linted"), (values["workload"], "the workload"), (values["contract"], "the contract"),
             (settings.file, "the configuration"), (values["baseline"], "the baseline")]
    named += [(rule, "a rule file") for rule in values["rules"]]
    for name, what in named:
        if name:
            report.read.setdefault(name, "standard input" if name == "-" else what)


def _baseline(path: str, cache: dict):
    """The baseline file at `path`, read once."""
    from clusterlint.policy import baseline

    if path not in cache:
        try:
            cache[path] = baseline.load(path)
        except baseline.BaselineError as exc:
            raise UsageError(str(exc)) from None
    return cache[path]


def _apply_baseline(result: FileResult, path: str, cache: dict) -> None:
    from clusterlint.policy import baseline
    from clusterlint.policy.suppressions import Suppressed

    new, known = baseline.split(result.findings, _baseline(path, cache), path)
    result.findings = new
    result.suppressed.extend(Suppressed(f, "external", f"in the baseline {display(path)}") for f in known)
