"""`clusterlint estimate` and `compare`: the purchase decision."""

from __future__ import annotations

import sys

import click

from clusterlint.cli.base import _fail, main
from clusterlint.cli.options import _cli_values, _write


@main.command()
@click.argument("quotes", nargs=-1)
@click.option("--workload", "-w", metavar="FILE", required=True, help="The Workload to size and time.")
@click.option("--contract", "-c", "contracts", metavar="[QUOTE=]FILE", multiple=True,
              help="FILE: the contract of every quote that holds none; QUOTE=FILE: the contract of QUOTE (repeatable).")
@click.option("--accelerator", "-a", metavar="ID", help="Size for this catalog accelerator only.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def estimate(quotes, workload, contracts, accelerator, fmt):
    """Accelerators a workload needs (no QUOTES), or time, cost, deadline and budget on each quote."""
    import json as json_module

    from clusterlint.estimate import quotes as est
    from clusterlint.reporters import compare as out

    if not quotes:
        model, rules = _workload_model(workload)
        try:
            rows, formulas = est.sizing(model, accelerator, rules)
        except ValueError as exc:
            _fail(str(exc))
        click.echo(json_module.dumps({"formulas": formulas, "accelerators": rows}, indent=2) + "\n" if fmt == "json"
                   else out.sizing_text(rows, formulas), nl=False)
        return
    entries, unreviewed = _paired(quotes, workload, contracts)
    estimates = [est.quote(result.reviews[0], result.file) for _, result, _ in entries]
    if not estimates:
        _not_reviewed(unreviewed)
        _fail("no valid Cluster among the quotes (run clusterlint check on them)")
    if fmt == "json":
        click.echo(json_module.dumps([{"file": e.file, "name": e.name, "lines": {k: v.as_json() for k, v in e.lines.items()},
                                       "notes": e.notes} for e in estimates], indent=2))
    else:
        click.echo("\n".join(out.estimate_text(e) for e in estimates), nl=False)
    _not_reviewed(unreviewed)


def _pairs(quotes, contracts) -> dict:
    """Quote path -> its contract file (None: the quote's own, or none). `QUOTE=FILE` wins; else the contract
    the quote names (`metadata.contract`, relative to the quote); else `FILE`, for every quote that names none.
    A QUOTE that is not among the quotes is a usage error."""
    import os

    default, named = None, {}
    for value in contracts:
        left, sep, right = value.partition("=")
        if sep and left and right and not os.path.exists(value):
            matches = [q for q in quotes if os.path.abspath(q) == os.path.abspath(left)]
            if not matches:
                _fail(f"--contract {value}: {left} is not one of the quotes ({', '.join(quotes)})")
            named[matches[0]] = right
        elif default is not None:
            _fail(f"--contract {value}: a second contract for every quote (pair it with its quote: QUOTE={value})")
        else:
            default = value
    from clusterlint.config.named_contract import named_contract

    try:
        return {q: named.get(q) or named_contract(q) or default for q in quotes}
    except ValueError as exc:
        _fail(str(exc))


class _Results:
    """The results of every per-contract check, as one report's `results` (for the HTML comparison)."""

    def __init__(self, entries):
        self.results = [result for _, result, _ in entries]


def _paired(quotes, workload: str, contracts) -> tuple[list, list[str]]:
    """Check each quote with its own contract (quotes sharing one are checked together): (report, result,
    the contract's result or None) per quote that can be sized, in the order given, and the 'not reviewed' lines."""
    import os

    from clusterlint.check import Options, check as run_check

    groups: dict = {}
    for quote, contract in _pairs(quotes, contracts).items():
        groups.setdefault(contract, []).append(quote)
    found, unreviewed = {}, []
    for contract, paths in groups.items():
        report = run_check(Options(paths=tuple(paths), cli=_cli_values(workload=workload, contract=contract)))
        results, skipped = _estimable(report, workload, contract)
        unreviewed += skipped
        paper = contract and next((r for r in report.results if os.path.abspath(r.file) == os.path.abspath(contract)), None)
        for result in results:
            found[os.path.abspath(result.file)] = (report, result, paper or None)
    entries = [found[os.path.abspath(q)] for q in dict.fromkeys(quotes) if os.path.abspath(q) in found]
    entries += [e for key, e in found.items() if e not in entries]  # a folder given as a quote: its files, in the order found
    return entries, unreviewed


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
@click.option("--contract", "-c", "contracts", metavar="[QUOTE=]FILE", multiple=True,
              help="FILE: the contract of every quote that holds none; QUOTE=FILE: the contract of QUOTE (repeatable).")
@click.option("--rank-by", type=click.Choice(["fit", "time", "cost", "score"]), default="fit", show_default=True,
              help="fit: meets deadline and budget first, then cheapest, fastest, best score.")
@click.option("--format", "fmt", type=click.Choice(["text", "markdown", "json", "html"]), default="text", show_default=True)
@click.option("--output", "-o", metavar="FILE", help="Write the comparison to FILE instead of standard output.")
def compare(quotes, workload, contracts, rank_by, fmt, output):
    """Compare quotes side by side on one workload: score, network, storage, time, cost; ranked."""
    from clusterlint.estimate import quotes as est
    from clusterlint.reporters import compare as out

    entries, unreviewed = _paired(quotes, workload, contracts)
    rows = est.compare(entries, rank_by)
    if not rows:
        _not_reviewed(unreviewed)
        _fail("no valid Cluster among the quotes (run clusterlint check on them)")
    if fmt == "html":
        from clusterlint.reporters.html import render_comparison

        text = render_comparison(rows, _Results(entries), rank_by)
    else:
        text = {"text": out.text, "markdown": out.markdown, "json": out.as_json}[fmt](rows, rank_by)
    if output:
        _write(output, text)
        click.echo(f"wrote {output}")
    else:
        click.echo(text, nl=False)
    _not_reviewed(unreviewed)
