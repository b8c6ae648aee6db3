"""Finding the configuration: walk up from a linted file's folder.

The first folder holding `.clusterlint.yaml` (or `.clusterlint.yml`), or a `pyproject.toml` with a
`[tool.clusterlint]` table, gives the configuration; in one folder the YAML file wins over
pyproject.toml.
"""

from __future__ import annotations

import os
import re

from clusterlint.readers.loader import read_file

NAMES = (".clusterlint.yaml", ".clusterlint.yml")
_TOOL_TABLE = re.compile(rb"^\s*\[\s*tool\s*\.\s*clusterlint\s*[\].]", re.MULTILINE)


def discover(folder: str, cache: dict | None = None) -> str | None:
    """The configuration file that applies to files in `folder`, or None (`cache`: folder -> answer)."""
    folder = os.path.abspath(folder)
    cache = {} if cache is None else cache
    if folder not in cache:
        cache[folder] = _here(folder)
        if cache[folder] is None:
            parent = os.path.dirname(folder)
            cache[folder] = None if parent == folder else discover(parent, cache)
    return cache[folder]


def _here(folder: str) -> str | None:
    for name in NAMES:
        path = os.path.join(folder, name)
        if os.path.isfile(path):
            return path
    pyproject = os.path.join(folder, "pyproject.toml")
    if os.path.isfile(pyproject):
        try:
            if _TOOL_TABLE.search(read_file(pyproject)):
                return pyproject
        except OSError:
            pass
    return None
