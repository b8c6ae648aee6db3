"""Configuration: merge the defaults, a configuration file and the command line into the settings
for each linted file.

`config_discovery` finds the file that applies to a folder, `config_reading` reads it with
positions, `rule_selection` turns selectors into the rules that run and `globs` matches
per-file-ignores. `--config FILE` names one configuration for every file and `--isolated` uses
none. Paths in a configuration are relative to its folder. The command line wins over the file,
which wins over the defaults.
"""

from __future__ import annotations

import os
import re

from clusterlint.config.discovery import discover
from clusterlint.config.reading import ConfigError, FileConfig, read
from clusterlint.config.globs import glob_matches, glob_pattern
from clusterlint.engine.registry import AREAS, DOCUMENT_CHECK, add_rule
from clusterlint.engine.selection import ALWAYS_ON, most_specific, select

DEFAULTS = {"select": ["ALL"], "extend-select": [], "ignore": [], "severity": {}, "params": {}, "per-file-ignores": {},
            "workload": None, "contract": None, "fail-on": "error", "min-score": None, "rules": [], "plugins": [], "baseline": None,
            "exclude": [".git", ".hg", ".svn", ".venv", "venv", ".tox", ".nox", ".mypy_cache", ".pytest_cache", ".ruff_cache",
                        "__pycache__", "node_modules", "build", "dist"],
            "extend-exclude": [], "max-findings-per-rule": 100,
            "parties": None, "contract-kind": None}
PATH_KEYS = ("workload", "contract", "baseline")
COMMAND_LINE = "command line"


# ------------------------------------------------------------------ the effective settings


class Settings:
    """The effective configuration for the files of one folder (or of --config / --isolated).

    A plain class (as is `FileConfig`): a dataclass's methods are generated and compiled each time
    its class is defined, on every start-up.
    """

    def __init__(self, file: str | None, values: dict, origins: dict, layers: list, rules: dict, base: str = ""):
        self.file = file  # the configuration file, None for defaults only
        self.values = values
        self.origins = origins  # key -> "default", "file:line:col" or "command line"
        self.layers = layers  # (select, extend-select, ignore) per layer, defaults first
        self.rules = rules  # every known rule, with this configuration's severities and params
        self.base = base
        self._by_file: dict = {}

    def rules_for(self, path: str) -> dict:
        """The rules that run on `path`: selected, less its per-file ignores."""
        ignored = ()
        if self.values["per-file-ignores"]:
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
    from clusterlint.engine.registry import RuleError, builtin_rules, plugin_rules, user_rules

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
    try:
        plugged = plugin_rules(values["plugins"])
    except RuleError as exc:
        raise ConfigError(f"{config.where('plugins') if config else 'plugins'}: {exc}") from None
    for extra in (plugged, user_rules(values["rules"])):
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
            glob_pattern(pattern)
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
            rule = rule.replace(severity=forced or rule.severity, forced_severity=forced or "", params={**rule.params, **(params or {})},
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
