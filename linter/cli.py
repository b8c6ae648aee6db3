"""Command line: parse options, call the library, map outcomes to exit codes.

Exit codes: 0 no findings at or above --fail-on; 1 such findings; 2 clusterlint could not do its
job (usage error, missing file, broken rule file, internal error).
"""

from __future__ import annotations

import os
import sys

from clusterlint import __version__, regex_cache

regex_cache.install()  # before click, PyYAML and pydantic define their patterns

import click  # noqa: E402

from clusterlint.reporters import FORMATS  # noqa: E402

FAIL_ON = ("error", "warning", "info", "never")


def _fail(message: str) -> None:
    click.echo(f"clusterlint: error: {message}", err=True)
    sys.exit(2)


class Score(click.FloatRange):
    """A score from 0 to 100: a number (nan and inf are not, though float() reads them)."""

    def __init__(self):
        super().__init__(0, 100)

    def convert(self, value, param, ctx):
        import math

        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a number from 0 to 100", param, ctx)
        return number


def _no_pydantic_plugins() -> None:
    """Give pydantic an empty list of plugins, unless PYDANTIC_DISABLE_PLUGINS says otherwise.

    When it builds its first model, pydantic looks for plugins (hooks that observe validation) by
    importing `importlib.metadata` and reading the metadata of every installed distribution: over
    10 ms of each check's start-up, which a pre-commit hook or an editor pays on every run. The
    command line validates clusterlint's own documents and has no use for such hooks. Where the
    variable is set, pydantic's own switch decides. Any other name of pydantic's loader module is
    passed on to the real one.
    """
    import types

    name = "pydantic.plugin._loader"
    if os.environ.get("PYDANTIC_DISABLE_PLUGINS") is not None or name in sys.modules:
        return
    stub = types.ModuleType(name)
    stub.get_plugins = lambda: ()

    def _real(attr):
        if attr.startswith("__"):
            raise AttributeError(attr)  # the import system asking what kind of module this is
        del sys.modules[name]
        import importlib

        return getattr(importlib.import_module(name), attr)

    stub.__getattr__ = _real
    sys.modules[name] = stub


class Group(click.Group):
    """Turns every unexpected exception into a one-line error and exit 2 (tracebacks with --debug)."""

    def invoke(self, ctx):
        _no_pydantic_plugins()
        from clusterlint.config.settings import ConfigError
        from clusterlint.engine.registry import RuleError
        from clusterlint.check import UsageError

        try:
            return super().invoke(ctx)
        except (UsageError, RuleError, ConfigError) as exc:
            _fail(str(exc))
        except (click.exceptions.Exit, click.ClickException, click.exceptions.Abort, SystemExit):
            raise
        except BrokenPipeError:
            sys.exit(1)
        except Exception as exc:  # the last line of defence: no traceback reaches the user
            if ctx.params.get("debug") or os.environ.get("CLUSTERLINT_DEBUG"):
                raise
            _fail(f"internal error: {type(exc).__name__}: {exc} (run with --debug for the traceback, and please report it)")


@click.group(cls=Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="clusterlint")
@click.option("--debug", is_flag=True, help="Show Python tracebacks for internal errors.")
def main(debug):
    """Lint GPU cluster quotes, contracts and workloads before you sign."""


def _pairs(values, flag: str) -> list[tuple[str, str]]:
    out = []
    for value in values:
        name, sep, rest = value.partition("=")
        if not sep or not name.strip() or not rest.strip():
            _fail(f"{flag} {value!r}: expected NAME=VALUE")
        out.append((name.strip(), rest.strip()))
    return out


def _selectors(values) -> list[str] | None:
    return [s.strip() for v in values for s in v.split(",") if s.strip()] or None


def _cli_values(workload=None, contract=None, fail_on=None, min_score=None, select=(), extend_select=(), ignore=(), severity=(),
                param=(), per_file_ignores=(), rules=(), baseline=None, exclude=(), extend_exclude=(), max_findings_per_rule=None,
                **_) -> dict:
    """The configuration keys given as flags (they win over configuration files)."""
    import yaml

    params: dict = {}
    for name, value in _pairs(param, "--param"):
        rule_id, dot, key = name.partition(".")
        if not dot or not key:
            _fail(f"--param {name}={value}: expected RULE.param=VALUE, e.g. STO002.min_ratio=1.3")
        try:
            params.setdefault(rule_id, {})[key] = yaml.safe_load(value)
        except yaml.YAMLError as exc:
            _fail(f"--param {name}={value}: VALUE is not YAML ({getattr(exc, 'problem', None) or exc})")
    levels = {}
    for name, level in _pairs(severity, "--severity"):
        if level not in ("error", "warning", "info"):
            _fail(f"--severity {name}={level}: expected error, warning or info")
        levels[name] = level
    values = {
        "workload": workload, "contract": contract, "fail-on": fail_on, "min-score": min_score, "select": _selectors(select),
        "extend-select": _selectors(extend_select), "ignore": _selectors(ignore), "severity": levels, "params": params,
        "per-file-ignores": {glob: _selectors([ids]) for glob, ids in _pairs(per_file_ignores, "--per-file-ignores")},
        "rules": list(rules) or None, "baseline": baseline, "exclude": list(exclude) or None,
        "extend-exclude": list(extend_exclude), "max-findings-per-rule": max_findings_per_rule,
    }
    return {k: v for k, v in values.items() if v not in (None, {}, [])}


def config_options(fn):
    """The flags that mirror configuration keys, shared by check and config."""
    options = [
        click.option("--config", "config_file", metavar="FILE", help="Use this configuration file for every file (no discovery)."),
        click.option("--isolated", is_flag=True, help="Ignore every configuration file: defaults and flags only."),
        click.option("--select", multiple=True, metavar="IDS", help="Rules to run: ids, area prefixes or ALL, comma-separated (replaces select)."),
        click.option("--extend-select", multiple=True, metavar="IDS", help="Rules to run on top of select."),
        click.option("--ignore", multiple=True, metavar="IDS", help="Rules not to run (adds to ignore)."),
        click.option("--severity", multiple=True, metavar="ID=LEVEL", help="Severity of a rule or area: error, warning or info."),
        click.option("--param", multiple=True, metavar="ID.NAME=VALUE", help="A rule parameter, e.g. STO002.min_ratio=1.3 (VALUE is read as YAML)."),
        click.option("--per-file-ignores", multiple=True, metavar="GLOB=IDS", help="Rules not to run on files matching GLOB."),
        click.option("--rules", multiple=True, metavar="PATH", help="User rule file or folder (replaces rules)."),
        click.option("--workload", "-w", metavar="FILE", help="A Workload spec applied to every review."),
        click.option("--contract", "-c", metavar="FILE", help="A contract (YAML, .txt, .md or .pdf) applied to every review."),
        click.option("--fail-on", type=click.Choice(FAIL_ON), help="Lowest severity that makes the exit code 1 (default: error)."),
        click.option("--min-score", type=Score(), metavar="SCORE", help="Exit 1 when a review scores below SCORE (0-100)."),
        click.option("--baseline", metavar="FILE", help="Report only findings not in this baseline file."),
        click.option("--exclude", multiple=True, metavar="GLOB", help="Paths a directory check skips, gitignore-style (replaces exclude and its defaults)."),
        click.option("--extend-exclude", multiple=True, metavar="GLOB", help="Paths a directory check skips, on top of exclude."),
        click.option("--max-findings-per-rule", type=click.IntRange(0), metavar="N",
                     help="Findings of one rule listed per file (default 100, 0: all); the rest are counted. Scores count them all."),
    ]
    for option in reversed(options):
        fn = option(fn)
    return fn


def output_options(fn):
    """--format, --output, --show-suppressed and --color, shared by check and accept."""
    options = [
        click.option("--format", "formats", multiple=True, type=click.Choice(("auto",) + FORMATS), default=("auto",), show_default=True,
                     help="Output format; repeat it to write several (auto: github inside GitHub Actions, else text)."),
        click.option("--output", "-o", "outputs", multiple=True, metavar="FILE",
                     help="Write the n-th --format to FILE; formats without an --output print to standard output."),
        click.option("--show-suppressed", is_flag=True, help="List the findings silenced by comments or the baseline, with their reasons."),
        click.option("--color/--no-color", default=None, help="Colour the text output (default: only on a terminal, never with NO_COLOR)."),
    ]
    for option in reversed(options):
        fn = option(fn)
    return fn


@main.command()
@click.argument("paths", nargs=-1, required=True)
@config_options
@output_options
@click.option("--show-skipped", is_flag=True, help="List the rules that could not run on each file, with the reason (default: a count per file).")
@click.option("--write-baseline", metavar="FILE", help="Record every current finding in FILE (then --baseline FILE reports only new ones).")
@click.option("--skip-non-specs", is_flag=True, help="List YAML files that hold no clusterlint document instead of linting them (for pre-commit hooks).")
def check(paths, config_file, isolated, formats, outputs, show_suppressed, show_skipped, write_baseline, skip_non_specs, color, **flags):
    """Lint cluster, contract and workload specs (files, directories, or - for stdin)."""
    from clusterlint.reporters import STREAMS, render, resolve
    from clusterlint.check import Options, check as run_check

    _check_formats(formats, outputs)
    options = Options(paths=paths, cli=_cli_values(**flags), config=config_file, isolated=isolated, skip_non_specs=skip_non_specs,
                      use_baseline=not write_baseline, keep_reviews=False)
    if not write_baseline and len(formats) == 1 and resolve(formats[0]) in STREAMS:
        _stream(options, resolve(formats[0]), show_suppressed, show_skipped, color, outputs[0] if outputs else None)
    report = run_check(options)
    if write_baseline:
        from clusterlint.policy import baseline

        _refuse_input(write_baseline, {k: v for k, v in report.inputs.items() if v != "the baseline"})

        findings = report.findings
        _write(write_baseline, baseline.dumps(findings, write_baseline))
        click.echo(f"wrote {write_baseline}: {len(findings)} finding{'' if len(findings) == 1 else 's'} recorded; "
                   f"check with --baseline {write_baseline} to see only new ones", err=True)
        sys.exit(0)
    report.show_skipped = show_skipped
    _emit(report, formats, outputs, show_suppressed, color, render)


def _stream(options, fmt: str, show_suppressed: bool, show_skipped: bool, color, output: str | None = None) -> None:
    """Write each file's part of the output as soon as the file is reviewed (text, github, jsonl, to
    standard output or to one --output file), keeping only what the summary needs; exit 1 when a file
    fails. The output file is opened once every input is known (and refused when it is one of them),
    so a configuration, shared-document or baseline error leaves it as it was."""
    from clusterlint.reporters import open_stream
    from clusterlint.check import check as run_check

    if output is not None:
        with _OutputFile(output) as out:
            sink = open_stream(fmt, out.write, show_suppressed, show_skipped, False)
            start = sink.start

            def start_writing(report, late=()):
                _refuse_input(output, report.inputs)
                out.open()
                start(report, late)

            sink.start = start_writing
            run_check(options, sink)
        sys.exit(1 if sink.failed else 0)
    if color is None:
        color = sys.stdout.isatty() and not os.environ.get("NO_COLOR")

    def write(text: str) -> None:
        if text:
            click.echo(text, nl=False, color=color)
            sys.stdout.flush()

    sink = open_stream(fmt, write, show_suppressed, show_skipped, color)
    run_check(options, sink)
    sys.exit(1 if sink.failed else 0)


class _OutputFile:
    """An --output file written part by part; a failure to write is exit 2 with the file's name."""

    def __init__(self, path: str):
        self.path, self.handle = path, None

    def open(self) -> None:
        try:
            self.handle = open(self.path, "w", encoding="utf-8")
        except OSError as exc:
            _fail(f"{self.path}: cannot write ({exc.strerror})")

    def write(self, text: str) -> None:
        try:
            self.handle.write(text)
        except OSError as exc:
            _fail(f"{self.path}: cannot write ({exc.strerror})")

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        if self.handle is not None:
            try:
                self.handle.close()
            except OSError as error:
                _fail(f"{self.path}: cannot write ({error.strerror})")


def _check_formats(formats, outputs) -> None:
    if len(outputs) > len(formats):
        _fail(f"{len(outputs)} --output for {len(formats)} --format: give one format per output file")
    if len(formats) - len(outputs) > 1:
        _fail("only one format can print to standard output: give --output FILE for the others")


def _emit(report, formats, outputs, show_suppressed, color, render) -> None:
    """Write each --format (to its --output, or standard output) and exit 1 when the report fails."""
    for path in outputs:
        _refuse_input(path, report.inputs)
    report.show_suppressed = show_suppressed
    for fmt, path in zip(formats, outputs):
        _write(path, render(fmt, report))
    for fmt in formats[len(outputs):]:
        if color is None:
            color = sys.stdout.isatty() and not os.environ.get("NO_COLOR")
        click.echo(render(fmt, report, color=color), nl=False, color=color)
    sys.exit(1 if report.failed() else 0)


def _refuse_input(path: str, inputs: dict) -> None:
    """Exit 2 before an output overwrites a file this run read (a spec, the workload, the configuration)."""
    what = inputs.get(os.path.realpath(path))
    if what:
        _fail(f"{path}: refusing to overwrite {what} with the output; choose another file")


@main.command()
@click.argument("quote")
@click.option("--evidence", "-e", "evidence_paths", multiple=True, required=True, metavar="PATH",
              help="Evidence from the delivered nodes: a folder of node folders (each named by its host), one node's folder, or files naming their host.")
@config_options
@output_options
def accept(quote, evidence_paths, config_file, isolated, formats, outputs, show_suppressed, color, **flags):
    """Check the delivered nodes' evidence against the QUOTE (and --contract): DLV findings point at the promise and name the evidence."""
    from clusterlint.acceptance import evidence
    from clusterlint.reporters import render
    from clusterlint.check import Options, check as run_check

    _check_formats(formats, outputs)
    found = evidence.load(evidence_paths)
    report = run_check(Options(paths=(quote,), cli=_cli_values(**flags), config=config_file, isolated=isolated, evidence=found))
    report.evidence = found

    def render_accept(fmt, report, color=False):
        if fmt in ("markdown", "html"):
            from clusterlint.reporters import acceptance

            return acceptance.render(fmt, report)
        return render(fmt, report, color=color)

    _emit(report, formats, outputs, show_suppressed, color, render_accept)


@main.command()
@click.option("--output", "-o", metavar="FILE", help="Write the script to FILE instead of standard output.")
def collect(output):
    """Print a POSIX sh script that gathers read-only evidence on a node into evidence/$(hostname)/ (it runs no benchmark and changes nothing)."""
    from importlib import resources

    text = resources.files("clusterlint").joinpath("data", "collect.sh").read_text(encoding="utf-8")
    if output:
        _write(output, text)
        click.echo(f"wrote {output}: run it on each node with sh {output}", err=True)
    else:
        click.echo(text, nl=False)


def _write(path: str, text: str) -> None:
    try:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
    except OSError as exc:
        _fail(f"{path}: cannot write ({exc.strerror})")


@main.command(name="config")
@click.argument("path", required=False, default=".")
@config_options
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def config_cmd(path, config_file, isolated, fmt, **flags):
    """Print the configuration that applies to PATH (default: here), and where each value comes from."""
    from clusterlint.config.settings import Resolver
    from clusterlint.reporters import docs

    settings = Resolver(_cli_values(**flags), config_file, isolated).for_path(path)
    click.echo(docs.config_json(settings) if fmt == "json" else docs.config_text(settings), nl=False)


@main.command()
@click.argument("quotes", nargs=-1)
@click.option("--workload", "-w", metavar="FILE", required=True, help="The Workload to size and time.")
@click.option("--contract", "-c", metavar="FILE", help="A contract applied to every quote (its price and availability).")
@click.option("--accelerator", "-a", metavar="ID", help="Size for this catalog accelerator only.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def estimate(quotes, workload, contract, accelerator, fmt):
    """Accelerators a workload needs (no QUOTES), or time, cost, deadline and budget on each quote."""
    import json as json_module

    from clusterlint.estimate import quotes as est
    from clusterlint.reporters import compare as out
    from clusterlint.check import Options, check as run_check

    if not quotes:
        model, rules = _workload_model(workload)
        try:
            rows, formulas = est.sizing(model, accelerator, rules)
        except ValueError as exc:
            _fail(str(exc))
        click.echo(json_module.dumps({"formulas": formulas, "accelerators": rows}, indent=2) + "\n" if fmt == "json"
                   else out.sizing_text(rows, formulas), nl=False)
        return
    report = run_check(Options(paths=quotes, cli=_cli_values(workload=workload, contract=contract)))
    results, unreviewed = _estimable(report, workload, contract)
    estimates = [est.quote(r.reviews[0], r.file) for r in results]
    if not estimates:
        _not_reviewed(unreviewed)
        _fail("no valid Cluster among the quotes (run clusterlint check on them)")
    if fmt == "json":
        click.echo(json_module.dumps([{"file": e.file, "name": e.name, "lines": {k: v.as_json() for k, v in e.lines.items()},
                                       "notes": e.notes} for e in estimates], indent=2))
    else:
        click.echo("\n".join(out.estimate_text(e) for e in estimates), nl=False)
    _not_reviewed(unreviewed)


def _first_problem(result, kind: str = "Cluster") -> str:
    """file:line:col and message of a result's first error (why it could not be reviewed)."""
    for f in result.findings:
        if f.severity == "error":
            return f"{f.file}:{f.line}:{f.column}: {f.rule} {f.message}"
    return f"{result.file}: holds no valid {kind} document"


def _estimable(report, workload: str, contract: str | None) -> tuple[list, list[str]]:
    """The results estimate and compare can size, and a 'not reviewed: file:line:col reason' line for each
    other quote. A workload that did not load is a positioned error (exit 2): nothing can be sized on it."""
    import os

    wanted = os.path.abspath(workload)
    shared = {wanted, os.path.abspath(contract)} if contract else {wanted}
    for result in report.results:
        if os.path.abspath(result.file) != wanted:
            continue
        # checked as a path, it must hold a Workload; given only with --workload, its result carries its loading
        # problems and the findings about it alone (ACC004 on its assumed MFU), which leave it valid
        if not any(r.workload is not None for r in result.reviews) if result.reviews else result.not_reviewed():
            _fail(f"the workload is not valid, so no quote can be sized: {_first_problem(result, 'Workload')}")
    good, skipped = [], []
    for result in report.results:
        if os.path.abspath(result.file) in shared and not any(r.cluster is not None for r in result.reviews):
            if result.not_reviewed():  # a contract that did not load (its own findings, CON002, leave it sizeable)
                skipped.append(f"not reviewed: {_first_problem(result)}")
            continue
        if result.reviews and result.reviews[0].cluster is not None and result.reviews[0].workload is not None:
            good.append(result)
        else:
            skipped.append(f"not reviewed: {_first_problem(result)}")
    return good, skipped


def _not_reviewed(lines: list[str]) -> None:
    """Name every quote that was not reviewed and exit 2: a comparison that silently lost a quote would mislead."""
    for line in lines:
        click.echo(f"clusterlint: {line}", err=True)
    if lines:
        sys.exit(2)


def _workload_model(path: str):
    """The valid Workload in `path` and the rules configured for it (their params size it)."""
    from clusterlint.check import Options, check as run_check

    report = run_check(Options(paths=(path,)))
    found = [r.reviews[0].workload for r in report.results if r.reviews and r.reviews[0].workload is not None]
    if not found:
        _fail(f"the workload is not valid: {_first_problem(report.results[0], 'Workload')}" if report.results
              else f"{path}: holds no Workload document")
    return found[0], report.rules


@main.command()
@click.argument("quotes", nargs=-1, required=True)
@click.option("--workload", "-w", metavar="FILE", required=True, help="The Workload every quote is judged on.")
@click.option("--contract", "-c", metavar="FILE", help="A contract applied to quotes that hold none.")
@click.option("--rank-by", type=click.Choice(["fit", "time", "cost", "score"]), default="fit", show_default=True,
              help="fit: meets deadline and budget first, then cheapest, fastest, best score.")
@click.option("--format", "fmt", type=click.Choice(["text", "markdown", "json", "html"]), default="text", show_default=True)
@click.option("--output", "-o", metavar="FILE", help="Write the comparison to FILE instead of standard output.")
def compare(quotes, workload, contract, rank_by, fmt, output):
    """Compare quotes side by side on one workload: score, network, storage, time, cost; ranked."""
    from clusterlint.estimate import quotes as est
    from clusterlint.reporters import compare as out
    from clusterlint.check import Options, check as run_check

    report = run_check(Options(paths=quotes, cli=_cli_values(workload=workload, contract=contract)))
    results, unreviewed = _estimable(report, workload, contract)
    rows = est.compare(report, results, rank_by)
    if not rows:
        _not_reviewed(unreviewed)
        _fail("no valid Cluster among the quotes (run clusterlint check on them)")
    if fmt == "html":
        from clusterlint.reporters.html import render_comparison

        text = render_comparison(rows, report, rank_by)
    else:
        text = {"text": out.text, "markdown": out.markdown, "json": out.as_json}[fmt](rows, rank_by)
    if output:
        _write(output, text)
        click.echo(f"wrote {output}")
    else:
        click.echo(text, nl=False)
    _not_reviewed(unreviewed)


@main.command()
@click.argument("kind", required=False, type=click.Choice(["Cluster", "Contract", "Workload", "Config"]))
@click.option("--kind", "kind_opt", type=click.Choice(["Cluster", "Contract", "Workload", "Config"]), help="Same as KIND.")
@click.option("--write", "out_dir", metavar="DIR", help="Write every schema into DIR (the repo's schemas/).")
def schema(kind, kind_opt, out_dir):
    """Print the JSON Schema of a document kind (or of the configuration file), or write them all with --write."""
    from clusterlint.model.schema import SCHEMAS as KINDS, dumps, generate

    kind = kind or kind_opt
    if out_dir:
        for target in _write_schemas(out_dir, [kind] if kind else KINDS, overwrite=True):
            click.echo(f"wrote {target}")
        return
    if not kind:
        _fail("name a kind (Cluster, Contract, Workload or Config) or use --write DIR")
    click.echo(dumps(generate(kind)), nl=False)


def _write_schemas(out_dir: str, kinds, overwrite: bool) -> list[str]:
    """Write the kinds' schemas into `out_dir` (created if missing); without `overwrite`, keep copies there."""
    from clusterlint.model.schema import dumps, file_name, generate

    if os.path.exists(out_dir) and not os.path.isdir(out_dir):
        _fail(f"{out_dir}: not a folder (--write takes the folder the schemas go into)")
    written = []
    try:
        os.makedirs(out_dir, exist_ok=True)
        for name in kinds:
            target = os.path.join(out_dir, file_name(name))
            if overwrite or not os.path.exists(target):
                with open(target, "w", encoding="utf-8") as handle:
                    handle.write(dumps(generate(name)))
                written.append(target)
    except OSError as exc:
        _fail(f"{exc.filename or out_dir}: cannot write ({exc.strerror})")
    return written


def _repo_root(folder: str) -> str:
    """The nearest folder at or above `folder` holding .git; `folder` itself outside a repository."""
    here = os.path.abspath(folder)
    while not os.path.exists(os.path.join(here, ".git")):
        parent = os.path.dirname(here)
        if parent == here:
            return os.path.abspath(folder)
        here = parent
    return here


@main.command()
@click.argument("file", required=False)
@click.option("--kind", type=click.Choice(["Cluster", "Contract", "Workload"]), default="Cluster", show_default=True)
@click.option("--force", is_flag=True, help="Overwrite FILE if it exists.")
@click.option("--append", is_flag=True, help="Add the document to FILE after a --- line (a multi-document spec), with its own modeline.")
@click.option("--schema-dir", metavar="DIR", help="Where the schema copy lives (default: schemas/ at the repository root).")
@click.option("--schema-url", metavar="URL", help="Point the modeline at URL/<kind>.schema.json (hosted schemas) instead of a local copy.")
def init(file, kind, force, append, schema_dir, schema_url):
    """Write a commented starter spec (default FILE: cluster.yaml, contract.yaml or workload.yaml; - for stdout).

    Its first line points YAML language servers (VS Code, Neovim, Helix) at the kind's JSON Schema:
    by default a path relative to FILE to a copy in the repository's schemas/ folder (written when
    absent; refresh it with clusterlint schema --write DIR), or --schema-url for hosted schemas.
    """
    from importlib import resources

    from clusterlint.model.schema import file_name

    file = file or f"{kind.lower()}.yaml"
    where = "." if file == "-" else (os.path.dirname(file) or ".")
    if not os.path.isdir(where):
        _fail(f"{where}: no such folder; create it first (clusterlint init does not create folders)")
    if file != "-" and os.path.exists(file) and not (force or append):
        _fail(f"{file} exists; use --force to overwrite it or --append to add a {kind} document to it")
    if append and (file == "-" or not os.path.isfile(file)):
        _fail(f"{file}: --append needs an existing file")
    if schema_url:
        modeline = f"{schema_url.rstrip('/')}/{file_name(kind)}"
    else:
        folder = schema_dir or os.path.join(_repo_root(where), "schemas")
        from clusterlint.readers.loader import display

        for target in _write_schemas(folder, [kind], overwrite=False):
            click.echo(f"wrote {display(target)} (the schema your editor reads; refresh it with clusterlint schema --write {display(folder)})", err=True)
        modeline = os.path.relpath(os.path.join(folder, file_name(kind)), where).replace(os.sep, "/")
    text = resources.files("clusterlint").joinpath("data", f"starter-{kind.lower()}.yaml").read_text(encoding="utf-8")
    text = text.replace("{schema}", modeline, 1)
    if file == "-":
        click.echo(text, nl=False)
        return
    try:
        if append:
            with open(file, encoding="utf-8") as handle:
                before = handle.read()
            text = before + ("" if before.endswith("\n") or not before else "\n") + "---\n" + text
        with open(file, "w", encoding="utf-8") as handle:
            handle.write(text)
    except OSError as exc:
        _fail(f"{file}: cannot write ({exc.strerror})")
    click.echo(f"{'added to' if append else 'wrote'} {file} (a {kind}); lint it with: clusterlint check {file}")


@main.command()
def server():
    """Run the language server over stdio (needs the lsp extra: pip install 'clusterlint[lsp]')."""
    try:
        from clusterlint.server.lsp import main as serve
    except ImportError as exc:
        _fail(f"the language server needs pygls ({exc}); install it with: pip install 'clusterlint[lsp]'")
    serve()


@main.command(name="catalog")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--instances", is_flag=True, help="List the cloud instance types (`instance:` in a node pool) instead.")
def catalog_cmd(fmt, instances):
    """List the accelerator catalog, or the instance types, with the source of each figure."""
    from clusterlint.reporters import docs

    if instances:
        from clusterlint.model.instances import load

        click.echo(docs.instances_json(load()) if fmt == "json" else docs.instances_text(load()), nl=False)
        return
    from clusterlint.model import catalog

    click.echo(docs.catalog_json(catalog.load()) if fmt == "json" else docs.catalog_text(catalog.load()), nl=False)


def _known_rules(config_file, isolated) -> dict:
    """Every rule there is here: built-in, installed plugins', and the configuration's own."""
    from clusterlint.config.settings import Resolver

    return Resolver({}, config_file, isolated).for_path(".").rules


_ISOLATED = click.option("--isolated", is_flag=True, help="Built-in and plugin rules only: no configuration file.")
_CONFIG = click.option("--config", "config_file", metavar="FILE", help="Take user rules (and severities) from this configuration.")


@main.command()
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]), default="text", show_default=True)
@_CONFIG
@_ISOLATED
def rules(fmt, config_file, isolated):
    """List every rule: id, name, severity, area and summary (with the configuration's own rules)."""
    from clusterlint.reporters import docs

    render = {"text": docs.rules_text, "json": docs.rules_json, "markdown": docs.rules_markdown}[fmt]
    click.echo(render(_known_rules(config_file, isolated)), nl=False)


@main.command()
@click.argument("rule_id")
@_CONFIG
@_ISOLATED
def rule(rule_id, config_file, isolated):
    """Print the full documentation of one rule (e.g. clusterlint rule NET003)."""
    from clusterlint.reporters import docs

    rules_by_id = _known_rules(config_file, isolated)
    found = rules_by_id.get(rule_id.upper()) or next((r for r in rules_by_id.values() if r.name == rule_id), None)
    if found is None:
        import difflib

        close = difflib.get_close_matches(rule_id.upper(), list(rules_by_id), n=1)
        _fail(f"no rule {rule_id!r}" + (f" (did you mean {close[0]!r}?)" if close else "") + "; see clusterlint rules")
    click.echo(docs.rule_text(found), nl=False)
