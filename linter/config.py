"""Configuration: find it, read it with positions, validate it, merge it with the command line.

Discovery walks up from each linted file's folder: the first folder holding `.clusterlint.yaml`
(or `.clusterlint.yml`), or a `pyproject.toml` with a `[tool.clusterlint]` table, gives the
configuration; in one folder the YAML file wins over pyproject.toml. `--config FILE` names one
configuration for every file and `--isolated` uses none. Paths in a configuration are relative
to its folder. The command line wins over the file, which wins over the defaults.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field, replace
from functools import lru_cache

from .loader import display, load_bytes, nearest, read_file
from .registry import AREAS, DOCUMENT_CHECK, add_rule

NAMES = (".clusterlint.yaml", ".clusterlint.yml")
DEFAULTS = {"select": ["ALL"], "extend-select": [], "ignore": [], "severity": {}, "params": {}, "per-file-ignores": {},
            "workload": None, "contract": None, "fail-on": "error", "min-score": None, "rules": [], "baseline": None,
            "exclude": [".git", ".hg", ".svn", ".venv", "venv", ".tox", ".nox", ".mypy_cache", ".pytest_cache", ".ruff_cache",
                        "__pycache__", "node_modules", "build", "dist"],
            "extend-exclude": [], "max-findings-per-rule": 100,
            "parties": None, "contract-kind": None}
PATH_KEYS = ("workload", "contract", "baseline")
ALWAYS_ON = {"SPEC001": "a file that does not load", "SPEC002": "an invalid document", "SPEC005": "a quantity without a unit"}
_TOOL_TABLE = re.compile(rb"^\s*\[\s*tool\s*\.\s*clusterlint\s*[\].]", re.MULTILINE)
COMMAND_LINE = "command line"


class ConfigError(Exception):
    """A configuration is wrong: the message names the file, line and column of each problem."""


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


# ------------------------------------------------------------------ reading


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
    from pydantic import ValidationError

    from .config_model import Config
    from .validate import message

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


@dataclass
class FileConfig:
    path: str
    base: str  # relative paths in the file are relative to this folder
    values: dict
    positions: dict  # path -> (line, col) of each value, for errors
    keys: dict  # path -> (line, col) of each key, for `clusterlint config`

    def where(self, *loc) -> str:
        return _where(self.path, self.positions, loc)

    def origin(self, key: str) -> str:
        return _where(self.path, self.keys, (key,))


# ------------------------------------------------------------------ selecting


def _specificity(selector: str) -> int:
    return 0 if selector == "ALL" else 2 if selector[-1].isdigit() else 1


def matches(selector: str, rule_id: str) -> bool:
    return selector == "ALL" or selector == rule_id or selector == rule_id.rstrip("0123456789")


def most_specific(rule_id: str, choices) -> object:
    """The value of the most specific (selector, value) pair matching `rule_id` (an id over an
    area over ALL; a later pair wins a tie), or None when none matches."""
    best = None
    for selector, value in choices:
        if matches(selector, rule_id) and (best is None or _specificity(selector) >= best[0]):
            best = (_specificity(selector), value)
    return best and best[1]


def select(rule_ids, layers) -> set:
    """The ids enabled by layers of (select or None, extend-select, ignore), applied in order.

    Within a layer the most specific matching selector decides (an id over an area over ALL), and
    at equal specificity ignore wins; a rule no selector of a layer names keeps its state, unless
    the layer has a `select`, which starts from nothing (as in ruff).
    """
    enabled: set = set()
    for chosen, extend, ignore in layers:
        base = set() if chosen is not None else enabled
        choices = [(s, True) for s in list(chosen or []) + list(extend)] + [(s, False) for s in ignore]  # ignore last: it wins ties
        decided = {rule_id: most_specific(rule_id, choices) for rule_id in rule_ids}
        enabled = {rule_id for rule_id, on in decided.items() if on or (on is None and rule_id in base)}
    return enabled | (set(ALWAYS_ON) & set(rule_ids))


@lru_cache(maxsize=1024)  # the same few patterns, for every file of a folder
def _glob(pattern: str) -> re.Pattern:
    """A glob as a regex: * and ? stay inside a folder, ** crosses folders, [..] is a class."""
    out, i = "", 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out, i = out + "(?:.*/)?", i + 3
        elif pattern.startswith("**", i):
            out, i = out + ".*", i + 2
        elif pattern[i] == "*":
            out, i = out + "[^/]*", i + 1
        elif pattern[i] == "?":
            out, i = out + "[^/]", i + 1
        elif pattern[i] == "[" and "]" in pattern[i + 1 :]:
            end = pattern.index("]", i + 1)
            out, i = out + "[" + pattern[i + 1 : end].replace("!", "^", 1) + "]", end + 1
        else:
            out, i = out + re.escape(pattern[i]), i + 1
    return re.compile(out + r"\Z")


def glob_matches(pattern: str, relative: str) -> bool:
    """A pattern with no / matches a file's name in any folder; one with / matches from the base."""
    relative = relative.replace(os.sep, "/")
    target = relative if "/" in pattern else relative.rsplit("/", 1)[-1]
    while pattern.startswith("./"):  # a prefix, not the characters . and / (./.venv/** keeps its dot)
        pattern = pattern[2:]
    return bool(_glob(pattern).match(target))


# ------------------------------------------------------------------ the effective settings


@dataclass
class Settings:
    """The effective configuration for the files of one folder (or of --config / --isolated)."""

    file: str | None  # the configuration file, None for defaults only
    values: dict
    origins: dict  # key -> "default", "file:line:col" or "command line"
    layers: list  # (select, extend-select, ignore) per layer, defaults first
    rules: dict  # every known rule, with this configuration's severities and params
    base: str = ""
    _by_file: dict = field(default_factory=dict, repr=False)

    def rules_for(self, path: str) -> dict:
        """The rules that run on `path`: selected, less its per-file ignores."""
        relative = os.path.relpath(os.path.abspath(path), self.base) if path != "-" else "-"
        ignored = tuple(sorted({s for pattern, sels in self.values["per-file-ignores"].items() if glob_matches(pattern, relative) for s in sels}))
        if ignored not in self._by_file:
            layers = self.layers + ([(None, [], list(ignored))] if ignored else [])
            enabled = select(list(self.rules), layers)
            self._by_file[ignored] = {k: r for k, r in self.rules.items() if k in enabled}
        return self._by_file[ignored]



def _check_selectors(selectors, known: set, where, what: str = "rule or area") -> list[str]:
    """Problems for selectors that name nothing; `where(i)` says where the i-th is written."""
    import difflib

    problems = []
    for i, selector in enumerate(selectors):
        if selector == "ALL" or selector in known:
            continue
        close = difflib.get_close_matches(str(selector), sorted(known), n=1, cutoff=0.6)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        problems.append(f"{where(i)}: unknown {what} {selector!r}{hint}; see clusterlint rules")
    return problems


def _rule_ids(rules: dict) -> set:
    return set(rules) | set(AREAS) | {r.area for r in rules.values()}


def resolve(config: FileConfig | None, cli: dict) -> Settings:
    """Merge defaults, a configuration file and the command line; validate selectors, severities
    and params against the rules that exist (built-in, the configuration's, and plugins')."""
    from .registry import builtin_rules, plugin_rules, user_rules

    file_values = {k: v for k, v in config.values.items() if v is not None} if config else {}  # `key: null` is the default, written out
    values, origins = dict(DEFAULTS), {k: "default" for k in DEFAULTS}
    for key, value in file_values.items():
        if key in PATH_KEYS:
            value = os.path.normpath(os.path.join(config.base, value))
        elif key == "rules":
            value = [os.path.normpath(os.path.join(config.base, v)) for v in value]
        values[key], origins[key] = value, config.origin(key)
    for key in ("select", "fail-on", "min-score", "workload", "contract", "rules", "baseline", "exclude", "max-findings-per-rule"):
        if cli.get(key) is not None:
            values[key], origins[key] = cli[key], COMMAND_LINE
    for key in ("extend-select", "ignore", "severity", "params", "per-file-ignores", "extend-exclude"):  # flags add to these
        if not cli.get(key):
            continue
        if isinstance(cli[key], list):
            values[key] = list(values[key]) + cli[key]
        else:
            values[key] = {**values[key], **{name: {**values[key].get(name, {}), **value} if key == "params" else value
                                             for name, value in cli[key].items()}}
        origins[key] = COMMAND_LINE if origins[key] == "default" else f"{origins[key]} + {COMMAND_LINE}"

    missing = [f"{config.where('rules', i) if cli.get('rules') is None and config else '--rules'}: rules: no such rule file or folder: {path}"
               for i, path in enumerate(values["rules"]) if not os.path.exists(path)]
    if missing:
        raise ConfigError("\n".join(missing))
    rules = dict(builtin_rules())
    for extra in (plugin_rules(), user_rules(values["rules"])):
        for rule in extra.values():
            add_rule(rules, rule)
    known = _rule_ids(rules)

    def in_file(key):
        return lambda *loc: f"{config.where(key, *loc)}: {key}"

    def flag(name):
        return lambda *_: f"--{name}"

    problems = []
    for key in ("select", "extend-select", "ignore"):
        problems += _check_selectors(file_values.get(key, []), known, in_file(key))
        problems += _check_selectors(cli.get(key) or [], known, flag(key))
    for pattern, selectors in file_values.get("per-file-ignores", {}).items():
        problems += _check_selectors(selectors, known, lambda i, p=pattern: f"{config.where('per-file-ignores', p, i)}: per-file-ignores")
    for selectors in (cli.get("per-file-ignores") or {}).values():
        problems += _check_selectors(selectors, known, flag("per-file-ignores"))
    for pattern in values["per-file-ignores"]:
        try:
            _glob(pattern)
        except re.error as exc:
            written = pattern in file_values.get("per-file-ignores", {}) and pattern not in (cli.get("per-file-ignores") or {})
            where = f"{config.where('per-file-ignores', pattern)}: per-file-ignores" if written else "--per-file-ignores"
            problems.append(f"{where}: {pattern!r} is not a valid glob ({exc.msg})")
    for selectors, where in ((file_values.get("ignore", []), in_file("ignore")), (cli.get("ignore") or [], flag("ignore"))):
        problems += [f"{where(i)}: {s} cannot be ignored: {ALWAYS_ON[s]} cannot be reviewed, so ignoring it would pass the file unread"
                     for i, s in enumerate(selectors) if s in ALWAYS_ON]
    for name in values["severity"]:
        written = name in file_values.get("severity", {}) and name not in (cli.get("severity") or {})
        problems += _check_selectors([name], known, (lambda *_: f"{config.where('severity', name)}: severity") if written else flag("severity"))
    for rule_id in values["params"]:
        written = rule_id in file_values.get("params", {}) and rule_id not in (cli.get("params") or {})
        where = (lambda *_: f"{config.where('params', rule_id)}: params") if written else flag("param")
        problems += _check_selectors([rule_id], set(rules), where, "rule")
        if rule_id in rules and rules[rule_id].check == DOCUMENT_CHECK:
            problems.append(f"{where()}: {rule_id} has no params (it is raised while reading files)")
    if problems:
        raise ConfigError("\n".join(problems))

    effective = {}
    for rule_id, rule in rules.items():
        forced = most_specific(rule_id, values["severity"].items())
        params = values["params"].get(rule_id)
        if forced or params:
            from_cli = rule_id in (cli.get("params") or {})
            where = f"--param {rule_id}" if from_cli else config.where("params", rule_id) if params else ""
            rule = replace(rule, severity=forced or rule.severity, forced_severity=forced or "", params={**rule.params, **(params or {})},
                           params_from=where)
            if params:
                rule.settings  # validated now, so a wrong param names the configuration line before any file is read
        effective[rule_id] = rule
    layers = [(["ALL"], [], [])]
    if config:
        layers.append((file_values.get("select"), file_values.get("extend-select", []), file_values.get("ignore", [])))
    layers.append((cli.get("select"), cli.get("extend-select") or [], cli.get("ignore") or []))
    base = config.base if config else os.getcwd()
    return Settings(config.path if config else None, values, origins, layers, effective, base)


class Resolver:
    """Settings per linted file: discovered per folder, or one for all with --config / --isolated."""

    def __init__(self, cli: dict, config: str | None = None, isolated: bool = False):
        if config and isolated:
            raise ConfigError("--config and --isolated cannot be used together")
        if config and not os.path.exists(config):
            raise ConfigError(f"{config}: no such configuration file")
        self.cli, self.fixed, self.isolated = cli, config, isolated
        self._settings: dict = {}
        self._found: dict = {}

    def for_path(self, path: str) -> Settings:
        if self.isolated:
            source = None
        elif self.fixed:
            source = os.path.abspath(self.fixed)
        else:
            folder = os.getcwd() if path == "-" else path if os.path.isdir(path) else os.path.dirname(os.path.abspath(path))
            source = discover(folder, self._found)
        if source not in self._settings:
            self._settings[source] = resolve(read(source) if source else None, self.cli)
        return self._settings[source]
