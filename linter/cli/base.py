"""The command group: exit codes, one-line errors, the version."""

from __future__ import annotations

import os
import sys

import click

from clusterlint import __version__


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


class Group(click.Group):
    """Turns every unexpected exception into a one-line error and exit 2 (tracebacks with --debug)."""

    def invoke(self, ctx):
        # pydantic's documented switch: clusterlint's own models use no validation hooks, and looking
        # for them reads every installed distribution's metadata (over 10 ms of each start-up)
        os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
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
