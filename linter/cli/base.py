"""The command group: exit codes, one-line errors, the version."""

from __future__ import annotations

import os
import sys

from clusterlint import __version__, regex_cache

regex_cache.install()  # before click, PyYAML and pydantic define their patterns

import click  # noqa: E402


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
