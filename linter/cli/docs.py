"""`clusterlint rule`, `rules`, `catalog`, `schema` and `init`."""

from __future__ import annotations

import os

import click

from clusterlint.cli.base import _fail, main
from clusterlint.cli.options import _CONFIG, _ISOLATED, _known_rules, write_regular


@main.command()
@click.argument("kind", required=False, type=click.Choice(["Cluster", "Contract", "Workload", "Config"]))
@click.option("--kind", "kind_opt", type=click.Choice(["Cluster", "Contract", "Workload", "Config"]), help="Same as KIND.")
@click.option("--write", "out_dir", metavar="DIR", help="Write every schema into DIR (the repo's schemas/).")
def schema(kind, kind_opt, out_dir):
    """Print the JSON Schema of a document kind (or of the configuration file), or write them all with --write."""
    from clusterlint.config.schema import SCHEMAS as KINDS, dumps, generate

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
    from clusterlint.config.schema import dumps, file_name, generate

    if os.path.exists(out_dir) and not os.path.isdir(out_dir):
        _fail(f"{out_dir}: not a folder (--write takes the folder the schemas go into)")
    written = []
    try:
        os.makedirs(out_dir, exist_ok=True)
        for name in kinds:
            target = os.path.join(out_dir, file_name(name))
            if overwrite or not os.path.lexists(target):
                write_regular(target, dumps(generate(name)))
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
    """Write a commented starter spec (default FILE: cluster.yaml, contract.yaml or workload.yaml; - for stdout),
    creating FILE's folder when it is missing.

    Its first line points YAML language servers (VS Code, Neovim, Helix) at the kind's JSON Schema:
    by default a path relative to FILE to a copy in the repository's schemas/ folder (written when
    absent; refresh it with clusterlint schema --write DIR), or --schema-url for hosted schemas.
    """
    from importlib import resources

    from clusterlint.config.schema import file_name

    file = file or f"{kind.lower()}.yaml"
    where = "." if file == "-" else (os.path.dirname(file) or ".")
    if file != "-" and os.path.exists(file) and not (force or append):
        _fail(f"{file} exists; use --force to overwrite it or --append to add a {kind} document to it")
    if append and (file == "-" or not os.path.isfile(file)):
        _fail(f"{file}: --append needs an existing file")
    if not os.path.isdir(where):
        try:
            os.makedirs(where)
        except OSError as exc:
            _fail(f"{exc.filename or where}: cannot create the folder ({exc.strerror})")
    folder = None
    if schema_url:
        modeline = f"{schema_url.rstrip('/')}/{file_name(kind)}"
    else:
        folder = schema_dir or os.path.join(_repo_root(where), "schemas")
        modeline = os.path.relpath(os.path.join(folder, file_name(kind)), where).replace(os.sep, "/")
    text = resources.files("clusterlint").joinpath("data", f"starter-{kind.lower()}.yaml").read_text(encoding="utf-8")
    text = text.replace("{schema}", modeline, 1).replace("{file}", "FILE" if file == "-" else file.replace(os.sep, "/"), 1)
    if file == "-":
        click.echo(text, nl=False)
    else:  # the spec first: when it cannot be written, nothing is (no schemas/ left behind)
        try:
            if append:
                with open(file, encoding="utf-8") as handle:
                    before = handle.read()
                # one document start, before the modeline, so the language server reads it for this document
                text = before + ("" if before.endswith("\n") or not before else "\n") + "---\n" + text.replace("\n---\n", "\n", 1)
            write_regular(file, text)
        except OSError as exc:
            _fail(f"{file}: cannot write ({exc.strerror})")
        except UnicodeDecodeError:
            _fail(f"{file}: cannot append: it is not UTF-8 text")
    if folder is not None:
        from clusterlint.readers.loader import display

        for target in _write_schemas(folder, [kind], overwrite=False):
            click.echo(f"wrote {display(target)} (the schema your editor reads; refresh it with clusterlint schema --write {display(folder)})", err=True)
    if file != "-":
        click.echo(f"{'added to' if append else 'wrote'} {file} (a {kind}); lint it with: clusterlint check {file}")


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
