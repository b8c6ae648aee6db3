"""Options shared by several commands, and writing outputs without touching inputs."""

from __future__ import annotations

import os
import sys

import click

from clusterlint.reporters import FORMATS
from clusterlint.cli.base import FAIL_ON, Score, _fail


def _pairs(values, flag: str) -> list[tuple[str, str]]:
    out = []
    for value in values:
        name, sep, rest = value.partition("=")
        if not sep or not name.strip() or not rest.strip():
            _fail(f"{flag} {value!r}: expected NAME=VALUE")
        out.append((name.strip(), rest.strip()))
    return out


def _param_value(flag: str, value: str):
    """VALUE of --param read as a configuration file reads it (YAML 1.2, plain data only); a value
    that is not, or is several documents, is exit 2 with the line and column in VALUE."""
    from clusterlint.readers.loader import load_text

    loaded = load_text(value, "VALUE")
    if loaded.problems:
        p = loaded.problems[0]
        _fail(f"{flag}: VALUE is not plain YAML data (VALUE:{p.line}:{p.column}: {p.message})")
    if len(loaded.documents) != 1:
        _fail(f"{flag}: VALUE holds {len(loaded.documents)} YAML documents, expected one")
    return loaded.documents[0].data


def _selectors(values) -> list[str] | None:
    return [s.strip() for v in values for s in v.split(",") if s.strip()] or None


def _cli_values(workload=None, contract=None, fail_on=None, min_score=None, select=(), extend_select=(), ignore=(), severity=(),
                param=(), per_file_ignores=(), rules=(), baseline=None, exclude=(), extend_exclude=(), max_findings_per_rule=None,
                **_) -> dict:
    """The configuration keys given as flags (they win over configuration files)."""
    params: dict = {}
    for name, value in _pairs(param, "--param"):
        rule_id, dot, key = name.partition(".")
        if not dot or not key:
            _fail(f"--param {name}={value}: expected RULE.param=VALUE, e.g. STO002.min_ratio=1.3")
        params.setdefault(rule_id, {})[key] = _param_value(f"--param {name}={value}", value)
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
    inputs = report.inputs
    if outputs and report.evidence is not None:  # accept: every evidence file read, hard links to them included
        inputs = {**dict.fromkeys(report.evidence.read, "an evidence file"), **inputs}
    for path in outputs:
        _refuse_input(path, inputs)
    report.show_suppressed = show_suppressed
    for fmt, path in zip(formats, outputs):
        _write(path, render(fmt, report))
    for fmt in formats[len(outputs):]:
        if color is None:
            color = sys.stdout.isatty() and not os.environ.get("NO_COLOR")
        click.echo(render(fmt, report, color=color), nl=False, color=color)
    sys.exit(1 if report.failed() else 0)


def _refuse_input(path: str, inputs: dict) -> None:
    """Exit 2 before an output overwrites a file this run read (a spec, the workload, the configuration,
    standard input redirected from the file): the same real path, or the same file under another name."""
    what = inputs.get(os.path.realpath(path)) or _same_file(path, inputs)
    if what:
        _fail(f"{path}: refusing to overwrite {what} with the output; choose another file")


def _same_file(path: str, inputs: dict) -> str | None:
    """What `path` was read as when it is an input by identity (device and inode): standard input
    (`check - -o FILE < FILE`), or a hard link to an input."""
    try:
        out = os.stat(path)
    except OSError:  # not there (yet): not an input
        return None
    names = [("-", None)] if "-" in inputs else []
    if out.st_nlink > 1:  # another name of the same file: only a hard link escapes the real-path test
        names += [(name, name) for name in inputs if name != "-"]
    for key, name in names:
        try:
            st = os.fstat(0) if name is None else os.stat(name)
        except OSError:
            continue
        if (st.st_dev, st.st_ino) == (out.st_dev, out.st_ino):
            return inputs[key]
    return None


def _write(path: str, text: str) -> None:
    try:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
    except OSError as exc:
        _fail(f"{path}: cannot write ({exc.strerror})")


def write_regular(path: str, text: str) -> None:
    """Write `text` to `path` as a regular file (created when missing). A FIFO, a device or a socket
    there is refused, never waited on: opening does not block (O_NONBLOCK) and what it opened is
    checked before it is truncated. Raises OSError (the caller names the file)."""
    import stat

    refused = OSError(0, "a FIFO, device or socket, not a regular file", path)
    try:
        mode = os.stat(path).st_mode
    except OSError:  # missing (created below), or a reason open gives too
        mode = stat.S_IFREG
    if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):  # a folder: open says "Is a directory"
        raise refused
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0), 0o666)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # swapped in since the test above
            raise refused
        os.ftruncate(fd, 0)
        handle.write(text)


def _known_rules(config_file, isolated) -> dict:
    """Every rule there is here: built-in, installed plugins', and the configuration's own."""
    from clusterlint.config.settings import Resolver

    return Resolver({}, config_file, isolated).for_path(".").rules


_ISOLATED = click.option("--isolated", is_flag=True, help="Built-in and plugin rules only: no configuration file.")


_CONFIG = click.option("--config", "config_file", metavar="FILE", help="Take user rules (and severities) from this configuration.")
