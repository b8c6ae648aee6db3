"""Command line: parse options, call the library, map outcomes to exit codes.

Exit codes: 0 no findings at or above --fail-on; 1 such findings; 2 clusterlint could not do its
job (usage error, missing file, broken rule file, internal error). Each command lives in the module
named for its concern; importing them registers them on the group.
"""

from clusterlint.cli.base import main
from clusterlint.cli import accept, check, docs, estimate  # noqa: F401  (registers the commands)

__all__ = ["main"]
