"""Configuration files that validated, kept between runs so that a check need not validate the same
file again (reading TOML and building the configuration model's schema cost about a tenth of a
quote's check).

One entry per configuration file (`configs/<hash of its absolute path>.json` in the user's cache
folder, see `user_cache`) holds what reading it gave (values, and where each key and value is
written) under a key: the SHA-256 of the file's bytes, how it was read (YAML or TOML), the Python
version, the modification time and size of each of clusterlint's own modules, and the import path
with its folders' times (a pydantic upgrade). Any change to the file or to the code that reads and
validates it misses, and the file is read and validated as if there were no cache. Only files that
validated are kept: a file with a problem is read and reported on every run.
"""

from __future__ import annotations

import hashlib
import os
import sys

from clusterlint import user_cache

_PACKAGE = os.path.dirname(os.path.abspath(__file__))


def _code() -> list:
    """(name, modification time, size) of each module of the package: the model, the readers."""
    code = []
    for name in sorted(os.listdir(_PACKAGE)):
        if name.endswith(".py"):
            try:
                stat = os.stat(os.path.join(_PACKAGE, name))
            except OSError:
                continue
            code.append([name, stat.st_mtime_ns, stat.st_size])
    return code


def _entry(path: str) -> str:
    return f"configs/{hashlib.sha256(os.path.abspath(path).encode('utf-8', 'surrogatepass')).hexdigest()[:32]}.json"


def key(data: bytes, reader: str) -> str:
    """The key a reading of `data` is kept under: a digest of everything it depends on."""
    parts = [hashlib.sha256(data).hexdigest(), reader, sys.version, _code(), user_cache.installation()]
    return hashlib.sha256(repr(parts).encode("utf-8", "surrogatepass")).hexdigest()


def _positions(found: dict) -> list:
    return [[list(path), line, column] for path, (line, column) in found.items()]


def _read_positions(saved: list) -> dict:
    return {tuple(path): (line, column) for path, line, column in saved}


def get(path: str, file_key: str):
    """(values, positions, key positions) kept for `path` under `file_key`, or None."""
    saved = user_cache.load(_entry(path))
    try:
        if saved is None or saved["key"] != file_key or not isinstance(saved["values"], dict):
            return None
        return saved["values"], _read_positions(saved["positions"]), _read_positions(saved["keys"])
    except (KeyError, TypeError, ValueError):
        return None


def put(path: str, file_key: str, values: dict, positions: dict, keys: dict) -> None:
    """Keep a validated file's reading, when JSON gives it back exactly (a TOML date would not)."""
    import json

    entry = {"key": file_key, "values": values, "positions": _positions(positions), "keys": _positions(keys)}
    try:
        back = json.loads(json.dumps(entry))
    except (TypeError, ValueError):
        return
    if repr((back["values"], _read_positions(back["positions"]), _read_positions(back["keys"]))) != repr((values, positions, keys)):
        return
    user_cache.save(_entry(path), entry)
