"""`clusterlint check`, `config` and `server`."""

from __future__ import annotations

import os
import sys

import click

from clusterlint.cli.base import _fail, main
from clusterlint.cli.options import _OutputFile, _check_formats, _cli_values, _emit, _refuse_input, _write, config_options, output_options


@main.command()
@click.argument("paths", nargs=-1)
@config_options
@output_options
@click.option("--show-skipped", is_flag=True, help="List the rules that could not run on each file, with the reason (default: a count per file).")
@click.option("--write-baseline", metavar="FILE", help="Record every current finding in FILE (then --baseline FILE reports only new ones).")
@click.option("--skip-non-specs", is_flag=True, help="List YAML files that hold no clusterlint document instead of linting them (for pre-commit hooks).")
def check(paths, config_file, isolated, formats, outputs, show_suppressed, show_skipped, write_baseline, skip_non_specs, color, **flags):
    """Lint cluster, contract and workload specs (files, directories, or - for stdin; default: the current folder)."""
    from clusterlint.reporters import STREAMS, render, resolve
    from clusterlint.check import Options, check as run_check

    _check_formats(formats, outputs)
    options = Options(paths=paths or (".",), cli=_cli_values(**flags), config=config_file, isolated=isolated, skip_non_specs=skip_non_specs,
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
def server():
    """Run the language server over stdio (needs the lsp extra: pip install 'clusterlint[lsp]')."""
    try:
        from clusterlint.server.lsp import main as serve
    except ImportError as exc:
        _fail(f"the language server needs pygls ({exc}); install it with: pip install 'clusterlint[lsp]'")
    serve()
