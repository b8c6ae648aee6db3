"""`clusterlint estimate` and `compare`: the purchase decision."""

from __future__ import annotations

import sys

import click

from clusterlint.cli.base import _fail, main
from clusterlint.cli.options import _cli_values, _write


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
