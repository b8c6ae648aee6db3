"""`clusterlint accept` and `collect`: the delivered nodes against the quote and contract."""

from __future__ import annotations

import click

from clusterlint.cli.base import main
from clusterlint.cli.options import _check_formats, _cli_values, _emit, _write, config_options, output_options


@main.command()
@click.argument("quote")
@click.option("--evidence", "-e", "evidence_paths", multiple=True, required=True, metavar="PATH",
              help="Evidence from the delivered nodes: a folder of node folders (each named by its host), one node's folder, or files naming their host.")
@config_options
@output_options
def accept(quote, evidence_paths, config_file, isolated, formats, outputs, show_suppressed, color, **flags):
    """Check the delivered nodes' evidence against the QUOTE (and --contract): DLV findings point at the promise and name the evidence.

    The delivery rules run unless --select says otherwise; inline suppression comments in the quote or
    contract do not apply (only the buyer's configuration and baseline do). Exit 1 unless accepted."""
    import os
    import sys

    from clusterlint.acceptance import verdict, walker
    from clusterlint.check import Options, check as run_check
    from clusterlint.cli.base import _fail
    from clusterlint.reporters import render

    _check_formats(formats, outputs)
    if not flags.get("select"):
        flags["select"] = ("DLV",)
    found = walker.load(evidence_paths)
    for path in outputs:
        if os.path.realpath(path) in found.read:
            _fail(f"{path}: refusing to overwrite an evidence file with the output; choose another file")
    report = run_check(Options(paths=(quote,), cli=_cli_values(**flags), config=config_file, isolated=isolated, evidence=found,
                                    inline_suppressions=False))
    report.evidence = found
    report.verdict = verdict.judge(report)

    def render_accept(fmt, report, color=False):
        if fmt in ("markdown", "html"):
            from clusterlint.reporters import acceptance

            return acceptance.render(fmt, report)
        return render(fmt, report, color=color)

    try:
        _emit(report, formats, outputs, show_suppressed, color, render_accept)
    except SystemExit as done:
        code = done.code
    click.echo(f"clusterlint accept: {report.verdict.line()}", err=True)
    sys.exit(code if code not in (0, None) else 0 if report.verdict.accepted else 1)


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
