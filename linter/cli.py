"""Command line: parse options, call the library, map outcomes to exit codes.

Exit codes: 0 no findings at or above --fail-on; 1 such findings; 2 clusterlint could not do its
job (usage error, missing file, broken rule file, internal error).
"""

from __future__ import annotations

import os
import sys

import click

from . import __version__

from .reporters import FORMATS
FAIL_ON = ("error", "warning", "info", "never")


def _fail(message: str) -> None:
    click.echo(f"clusterlint: error: {message}", err=True)
    sys.exit(2)


class Group(click.Group):
    """Turns every unexpected exception into a one-line error and exit 2 (tracebacks with --debug)."""

    def invoke(self, ctx):
        from .registry import RuleError
        from .run import UsageError

        try:
            return super().invoke(ctx)
        except (UsageError, RuleError) as exc:
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


@main.command()
@click.argument("paths", nargs=-1, required=True)
@click.option("--workload", "-w", metavar="FILE", help="A Workload spec applied to every review.")
@click.option("--contract", "-c", metavar="FILE", help="A contract (YAML, .txt, .md or .pdf) applied to every review.")
@click.option("--format", "formats", multiple=True, type=click.Choice(("auto",) + FORMATS), default=("auto",), show_default=True,
              help="Output format; repeat it to write several (auto: github inside GitHub Actions, else text).")
@click.option("--output", "-o", "outputs", multiple=True, metavar="FILE",
              help="Write the n-th --format to FILE; formats without an --output print to standard output.")
@click.option("--fail-on", type=click.Choice(FAIL_ON), default="error", show_default=True, help="Lowest severity that makes the exit code 1.")
@click.option("--min-score", type=click.FloatRange(0, 100), metavar="SCORE", help="Exit 1 when a review scores below SCORE (0-100).")
@click.option("--skip-non-specs", is_flag=True, help="List YAML files that hold no clusterlint document instead of linting them (for pre-commit hooks).")
@click.option("--color/--no-color", default=None, help="Colour the text output (default: only on a terminal, never with NO_COLOR).")
def check(paths, workload, contract, formats, outputs, fail_on, min_score, skip_non_specs, color):
    """Lint cluster, contract and workload specs (files, directories, or - for stdin)."""
    from .findings import RANK
    from .reporters import render
    from .run import Options, check as run_check

    if len(outputs) > len(formats):
        _fail(f"{len(outputs)} --output for {len(formats)} --format: give one format per output file")
    if len(formats) - len(outputs) > 1:
        _fail("only one format can print to standard output: give --output FILE for the others")
    report = run_check(Options(paths=paths, workload=workload, contract=contract, skip_non_specs=skip_non_specs))
    for fmt, path in zip(formats, outputs):
        try:
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(render(fmt, report))
        except OSError as exc:
            _fail(f"{path}: cannot write ({exc.strerror})")
    for fmt in formats[len(outputs):]:
        if color is None:
            color = sys.stdout.isatty() and not os.environ.get("NO_COLOR")
        click.echo(render(fmt, report, color=color), nl=False, color=color)
    threshold = RANK[fail_on]
    failed = any(RANK[f.severity] >= threshold for f in report.findings)
    below = min_score is not None and any(card["score"] < min_score for card in report.scorecards().values())
    sys.exit(1 if failed or below else 0)


@main.command()
@click.argument("quotes", nargs=-1)
@click.option("--workload", "-w", metavar="FILE", required=True, help="The Workload to size and time.")
@click.option("--contract", "-c", metavar="FILE", help="A contract applied to every quote (its price and availability).")
@click.option("--accelerator", "-a", metavar="ID", help="Size for this catalog accelerator only.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def estimate(quotes, workload, contract, accelerator, fmt):
    """Accelerators a workload needs (no QUOTES), or time, cost, deadline and budget on each quote."""
    import json as json_module

    from . import estimate as est
    from .reporters import compare as out
    from .run import Options, check as run_check

    if not quotes:
        model = _workload_model(workload)
        try:
            rows, formulas = est.sizing(model, accelerator)
        except ValueError as exc:
            _fail(str(exc))
        click.echo(json_module.dumps({"formulas": formulas, "accelerators": rows}, indent=2) + "\n" if fmt == "json"
                   else out.sizing_text(rows, formulas), nl=False)
        return
    report = run_check(Options(paths=quotes, workload=workload, contract=contract))
    estimates = [est.quote(r.reviews[0], r.file) for r in report.results if r.reviews and r.reviews[0].cluster is not None]
    if not estimates:
        _fail("no valid Cluster among the quotes (run clusterlint check on them)")
    if fmt == "json":
        click.echo(json_module.dumps([{"file": e.file, "name": e.name, "lines": {k: v.as_json() for k, v in e.lines.items()},
                                       "notes": e.notes} for e in estimates], indent=2))
    else:
        click.echo("\n".join(out.estimate_text(e) for e in estimates), nl=False)


def _workload_model(path: str):
    from .run import Options, check as run_check

    report = run_check(Options(paths=(path,)))
    found = [r.reviews[0].workload for r in report.results if r.reviews and r.reviews[0].workload is not None]
    if not found:
        _fail(f"{path}: no valid Workload document (clusterlint check {path} says why)")
    return found[0]


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
    from . import estimate as est
    from .reporters import compare as out
    from .run import Options, check as run_check

    report = run_check(Options(paths=quotes, workload=workload, contract=contract))
    rows = est.compare(report, rank_by)
    if not rows:
        _fail("no valid Cluster among the quotes (run clusterlint check on them)")
    if fmt == "html":
        from .reporters.html import render_comparison

        text = render_comparison(rows, report, rank_by)
    else:
        text = {"text": out.text, "markdown": out.markdown, "json": out.as_json}[fmt](rows, rank_by)
    if output:
        try:
            with open(output, "w", encoding="utf-8") as handle:
                handle.write(text)
        except OSError as exc:
            _fail(f"{output}: cannot write ({exc.strerror})")
        click.echo(f"wrote {output}")
    else:
        click.echo(text, nl=False)


@main.command()
@click.argument("kind", required=False, type=click.Choice(["Cluster", "Contract", "Workload"]))
@click.option("--kind", "kind_opt", type=click.Choice(["Cluster", "Contract", "Workload"]), help="Same as KIND.")
@click.option("--write", "out_dir", metavar="DIR", help="Write every kind's schema into DIR (the repo's schemas/).")
def schema(kind, kind_opt, out_dir):
    """Print the JSON Schema of a document kind, or write them all with --write."""
    from .models import KINDS
    from .schema import dumps, file_name, generate

    kind = kind or kind_opt
    if out_dir:
        os.makedirs(out_dir, exist_ok=True)
        for name in ([kind] if kind else KINDS):
            target = os.path.join(out_dir, file_name(name))
            with open(target, "w", encoding="utf-8") as handle:
                handle.write(dumps(generate(name)))
            click.echo(f"wrote {target}")
        return
    if not kind:
        _fail("name a kind (Cluster, Contract or Workload) or use --write DIR")
    click.echo(dumps(generate(kind)), nl=False)


@main.command()
@click.argument("file", required=False)
@click.option("--kind", type=click.Choice(["Cluster", "Contract", "Workload"]), default="Cluster", show_default=True)
@click.option("--force", is_flag=True, help="Overwrite FILE if it exists.")
def init(file, kind, force):
    """Write a commented starter spec (default FILE: cluster.yaml, contract.yaml or workload.yaml; - for stdout).

    Its first line points YAML language servers (VS Code, Neovim) at the kind's JSON Schema, so
    editors complete and validate as you type.
    """
    from importlib import resources

    text = resources.files("clusterlint").joinpath("data", f"starter-{kind.lower()}.yaml").read_text(encoding="utf-8")
    file = file or f"{kind.lower()}.yaml"
    if file == "-":
        click.echo(text, nl=False)
        return
    if os.path.exists(file) and not force:
        _fail(f"{file} exists; use --force to overwrite it")
    with open(file, "w", encoding="utf-8") as handle:
        handle.write(text)
    click.echo(f"wrote {file} (a {kind}); lint it with: clusterlint check {file}")


@main.command(name="catalog")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def catalog_cmd(fmt):
    """List the accelerator catalog with the source of each figure."""
    from . import catalog
    from .reporters import docs

    click.echo(docs.catalog_json(catalog.load()) if fmt == "json" else docs.catalog_text(catalog.load()), nl=False)


@main.command()
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]), default="text", show_default=True)
def rules(fmt):
    """List every rule: id, name, severity, area and summary."""
    from .registry import builtin_rules
    from .reporters import docs

    render = {"text": docs.rules_text, "json": docs.rules_json, "markdown": docs.rules_markdown}[fmt]
    click.echo(render(builtin_rules()), nl=False)


@main.command()
@click.argument("rule_id")
def rule(rule_id):
    """Print the full documentation of one rule (e.g. clusterlint rule NET003)."""
    from .registry import builtin_rules
    from .reporters import docs

    rules_by_id = builtin_rules()
    found = rules_by_id.get(rule_id.upper()) or next((r for r in rules_by_id.values() if r.name == rule_id), None)
    if found is None:
        import difflib

        close = difflib.get_close_matches(rule_id.upper(), list(rules_by_id), n=1)
        _fail(f"no rule {rule_id!r}" + (f" (did you mean {close[0]!r}?)" if close else "") + "; see clusterlint rules")
    click.echo(docs.rule_text(found), nl=False)
