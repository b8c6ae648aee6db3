"""Reading one configuration file, YAML or pyproject.toml's [tool.clusterlint], with the line and
column of every key and value, and validating it against the configuration model."""

from __future__ import annotations

import os
import re

from clusterlint.readers.loader import display, load_bytes, nearest, read_file


class ConfigError(Exception):
    """A configuration is wrong: the message names the file, line and column of each problem."""


def _read_yaml(path: str, data: bytes):
    loaded = load_bytes(data, display(path))
    if loaded.problems:
        p = loaded.problems[0]
        raise ConfigError(f"{display(path)}:{p.line}:{p.column}: {p.message}")
    if not loaded.documents:
        return {}, {}, {}
    if len(loaded.documents) > 1:
        raise ConfigError(f"{display(path)}: a configuration file holds one YAML document, found {len(loaded.documents)}")
    doc = loaded.documents[0]
    if not isinstance(doc.data, dict):
        raise ConfigError(f"{display(path)}:1:1: expected a mapping of configuration keys")
    return doc.data, doc.positions, doc.key_positions


_TOML_KEY = re.compile(r'\s*("(?:[^"\\]|\\.)*"|\'[^\']*\'|[A-Za-z0-9_-]+)\s*')


def _toml_keys(text: str) -> tuple[list[str], int] | None:
    """The dotted key at the start of `text` and where it ends, or None."""
    keys, pos = [], 0
    while True:
        match = _TOML_KEY.match(text, pos)
        if not match:
            return None
        keys.append(match.group(1).strip("\"'"))
        pos = match.end()
        if text[pos : pos + 1] != ".":
            return keys, pos
        pos += 1


def _toml_positions(lines: list[str]) -> dict:
    """Where each key of [tool.clusterlint] is written: a path -> (line, column) map.

    tomllib keeps no positions, so this reads the lines again: table headers, `key = value`
    lines (dotted keys too) and the items of arrays written one per line. It is only used to
    point at problems; the values themselves come from tomllib.
    """
    positions: dict = {}
    table: tuple | None = None
    array: tuple | None = None
    item = 0
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if array is not None:
            if stripped.startswith("]"):
                array = None
            elif stripped and not stripped.startswith("#"):
                positions.setdefault(array + (item,), (number, len(line) - len(line.lstrip()) + 1))
                item += 1
            continue
        if stripped.startswith("["):
            found = _toml_keys(stripped.strip("[] \t"))
            keys = tuple(found[0]) if found else ()
            table = keys[2:] if keys[:2] == ("tool", "clusterlint") else None
            if table is not None:
                positions.setdefault(table, (number, 1))
            continue
        if table is None or not stripped or stripped.startswith("#"):
            continue
        found = _toml_keys(line)
        if not found or line[found[1] : found[1] + 1] != "=":
            continue
        keys, end = found
        path = table + tuple(keys)
        value_col = end + 1 + len(line[end + 1 :]) - len(line[end + 1 :].lstrip()) + 1
        positions.setdefault(path, (number, len(line) - len(line.lstrip()) + 1))
        value = line[value_col - 1 :].split("#")[0].rstrip()
        if value.startswith("[") and "]" not in value:
            array, item = path, 0
        elif value.startswith("["):  # a one-line array: every item on this line
            for i in range(value.count(",") + 1):
                positions.setdefault(path + (i,), (number, value_col))
    return positions


def _read_toml(path: str, data: bytes):
    try:
        import tomllib
    except ImportError:  # Python 3.10
        import tomli as tomllib
    try:
        text = data.decode("utf-8")
        document = tomllib.loads(text)
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{display(path)}: invalid TOML: {exc}") from None
    tool = document.get("tool", {})
    if not isinstance(tool, dict):
        raise ConfigError(f"{display(path)}: `tool` must be a table ([tool.clusterlint]), not a {type(tool).__name__}")
    section = tool.get("clusterlint", {})
    if not isinstance(section, dict):
        raise ConfigError(f"{display(path)}: [tool.clusterlint] must be a table")
    positions = _toml_positions(text.splitlines())
    return section, positions, positions


def read(path: str) -> "FileConfig":
    """Read and validate one configuration file (YAML, or pyproject.toml's [tool.clusterlint])."""
    try:
        data = read_file(path)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read configuration ({exc.strerror})") from None
    values, positions, keys = _read_toml(path, data) if path.endswith(".toml") else _read_yaml(path, data)
    from clusterlint._generated.fast_models import plain
    from clusterlint.model.fast import validate

    if validate(plain("Config"), values) is not None:  # well-formed: no pydantic (model.fast)
        return FileConfig(path, os.path.dirname(os.path.abspath(path)), values, positions, keys)
    from pydantic import ValidationError

    from clusterlint.config.model import Config
    from clusterlint.model.validate import message

    try:
        Config.model_validate(values)
    except ValidationError as exc:
        problems = []
        for error in exc.errors(include_url=False):
            _, text, at_key = message(error, Config)
            loc = tuple(p for p in error["loc"] if p != "[key]")
            at = keys if at_key or "[key]" in error["loc"] else positions
            problems.append(f"{_where(path, at, loc)}: {text}")
        raise ConfigError("\n".join(problems)) from None
    return FileConfig(path, os.path.dirname(os.path.abspath(path)), values, positions, keys)


def _where(path: str, positions: dict, loc: tuple) -> str:
    line, col = positions.get(nearest(positions, loc), (1, 1))
    return f"{display(path)}:{line}:{col}"


class FileConfig:
    """One configuration file as read: its values, and where each key and value is written."""

    def __init__(self, path: str, base: str, values: dict, positions: dict, keys: dict):
        self.path = path
        self.base = base  # relative paths in the file are relative to this folder
        self.values = values
        self.positions = positions  # path -> (line, col) of each value, for errors
        self.keys = keys  # path -> (line, col) of each key, for `clusterlint config`

    def where(self, *loc) -> str:
        return _where(self.path, self.positions, loc)

    def origin(self, key: str) -> str:
        return _where(self.path, self.keys, (key,))

