"""Answers kept between runs in the user's cache folder: `$XDG_CACHE_HOME/clusterlint`, else
`~/.cache/clusterlint`.

Each entry is a JSON file holding the key it was written for; a reader compares the key and works
the answer out again when it differs. A cache that cannot be read or written is simply not used,
and an entry is written whole or not at all (to a file of its own, then renamed), whatever runs
beside it.
"""

from __future__ import annotations

import os
import sys


def path(name: str) -> str | None:
    """Where the entry `name` (a file name, or a path below the folder) is kept; None when there is no
    such folder: a relative XDG_CACHE_HOME is ignored, as the XDG specification says, and without a
    home folder there is no cache (never a `~` folder made in the working directory)."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "clusterlint", name) if os.path.isabs(base) else None


def load(name: str) -> dict | None:
    """The entry's data, or None when there is none or it cannot be read."""
    import json  # not at import: `regex_cache` asks for its path before it serves json's patterns

    where = path(name)
    if where is None:
        return None
    try:
        with open(where, encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def save(name: str, data: dict) -> None:
    """Write the entry (silently not, when the folder cannot be written)."""
    import json

    target = path(name)
    if target is not None:
        write(target, json.dumps(data).encode("utf-8"))


def write(target: str, data: bytes) -> None:
    """Write `data` to the file `target` whole or not at all (to a file of its own, then renamed),
    making its folder; silently not, when it cannot be written."""
    try:
        os.makedirs(os.path.dirname(target), exist_ok=True)
        partial = f"{target}.{os.getpid()}"
        with open(partial, "wb") as handle:
            handle.write(data)
        os.replace(partial, target)
    except OSError:
        pass


def installation() -> list:
    """The import path with each folder's modification time: installing, upgrading or removing a
    distribution adds or removes its `.dist-info` folder, which changes the time of the folder that
    holds it, and another virtual environment or PYTHONPATH is another list. `sys.path[0]` (the
    script's or the working folder) is left out: it changes all the time and holds no installs."""
    key = []
    for folder in sys.path[1:]:
        try:
            key.append([folder, os.stat(folder or ".").st_mtime_ns])
        except OSError:
            key.append([folder, None])
    return key
