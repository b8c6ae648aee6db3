"""Rules as data: one YAML file per rule, validated at load, its check resolved on use.

Three places hold rules: the built-in package `clusterlint.rules`, the user's rule files (the
configuration's `rules:`), and installed plugins (packages that register a folder of rule files
under the entry-point group `clusterlint.rules`). All use the same YAML shape; user and plugin
rules may leave out the documentation fields, and must use an id prefix of their own.
"""

from __future__ import annotations

import os
import re
import sys
from functools import cached_property, lru_cache
from importlib import import_module

AREAS = ("SPEC", "ACC", "NET", "STO", "CPU", "REL", "SW", "LCK", "CON", "CST", "UNI", "SUP", "DLV", "SEC")
KINDS = ("Cluster", "Contract", "Workload", "Evidence")  # Evidence: files from delivered nodes, given only to accept
DOCUMENT_CHECK = "document"  # SPEC and SUP rules: raised while reading a file, not by a check
ENTRY_POINTS = "clusterlint.rules"
GENERIC = {"threshold": "threshold", "required": "required", "one-of": "one_of", "none-of": "none_of", "pattern": "pattern", "ratio": "ratio"}
DEFAULT_WEIGHT = 10  # a user rule without `weight` costs what a typical built-in rule costs

RULE_ID = re.compile(r"^[A-Z]{2,8}[0-9]{3}$")
CHECK_REF = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_]\w*$")
REQUIRED = ("id", "name", "area", "severity", "weight", "check", "needs", "summary", "why", "fix", "sources", "examples")
USER_REQUIRED = ("id", "name", "severity", "check", "needs", "summary")
OPTIONAL = ("params",)


class RuleError(Exception):
    """A rule file is broken: names the file, line and field."""


class Rule:
    """One rule, read-only once made; `replace` gives a copy with some fields changed.

    A plain class, not a dataclass: defining a frozen dataclass of 18 fields generates and compiles
    its methods on every start-up (about 9 M instructions of each check).
    """

    FIELDS = ("id", "name", "area", "severity", "weight", "check", "needs", "summary", "why", "fix", "sources", "examples",
              "params", "file", "positions", "origin", "params_from", "forced_severity")

    def __init__(self, id: str, name: str, area: str, severity: str, weight: float, check: str, needs: tuple, summary: str,
                 why: str, fix: str, sources: tuple, examples: dict, params: dict, file: str, positions: dict | None = None,
                 origin: str = "built-in", params_from: str = "", forced_severity: str = ""):
        vars(self).update(
            id=id, name=name, area=area, severity=severity, weight=weight, check=check, needs=needs, summary=summary, why=why,
            fix=fix, sources=sources, examples=examples, params=params, file=file,
            positions={} if positions is None else positions,  # field path -> (line, col) in `file`
            origin=origin,  # built-in, the user's rule file, or "plugin NAME"
            params_from=params_from,  # where overriding params were written (configuration), for their errors
            forced_severity=forced_severity,  # a configured severity: it replaces the one a check gives a finding
        )

    def __setattr__(self, name, value):
        raise AttributeError(f"a Rule is read-only: cannot set {name!r} (use replace)")

    def __delattr__(self, name):
        raise AttributeError(f"a Rule is read-only: cannot delete {name!r}")

    def __repr__(self) -> str:
        return f"Rule({self.id!r}, origin={self.origin!r}, file={self.file!r})"

    def replace(self, **changes) -> Rule:
        """A copy with `changes`; what the copy works out (its function, its settings) is worked out again."""
        return Rule(**{**{name: getattr(self, name) for name in self.FIELDS}, **changes})

    def where(self, *path) -> str:
        """`file:line:col` of a field of the rule file (or of the nearest written parent)."""
        from clusterlint.readers.loader import nearest

        line, col = self.positions.get(nearest(self.positions, path), (0, 0))
        return f"{self.file}:{line}:{col}" if line else self.file

    @cached_property
    def function(self):
        """The check function, imported on first use (a user module from beside its rule file)."""
        module_name, _, attr = self.check.partition(":")
        folder = os.path.dirname(os.path.abspath(self.file)) if self.origin == "user" else None
        if folder:
            sys.path.insert(0, folder)
        try:
            return getattr(import_module(module_name), attr)
        except (ImportError, AttributeError) as exc:
            raise RuleError(f"{self.where('check')}: check: cannot import {self.check!r} ({exc})") from None
        finally:
            if folder:
                sys.path.remove(folder)

    @cached_property
    def settings(self):
        """The rule's params validated by the check's `Params` model (a read-only mapping for a user
        check without one). A built-in check names its model by reference: well-formed params are
        taken by the model's generated plain class, and only params in doubt reach pydantic, which
        decides and words the error (see `clusterlint.model.fast`)."""
        ref = getattr(self.function, "Params", None)
        if ref is None:
            from types import MappingProxyType

            return MappingProxyType(dict(self.params))
        if isinstance(ref, str):
            from clusterlint._generated.fast_params import PARAMS
            from clusterlint.model.fast import validate

            plain = PARAMS.get(ref)
            settled = validate(plain, dict(self.params)) if plain is not None else None
            if settled is not None:
                return settled
        return self._validated(self.params_model)

    @property
    def params_model(self):
        """The pydantic model of the check's params (None for a user check without one)."""
        ref = getattr(self.function, "Params", None)
        if isinstance(ref, str):
            module_name, _, attr = ref.partition(":")
            return getattr(import_module(module_name), attr)
        return ref

    def _validated(self, params_cls):
        from pydantic import ValidationError

        try:
            return params_cls(**self.params)
        except ValidationError as exc:
            first = exc.errors(include_url=False)[0]
            loc = tuple(str(p) for p in first["loc"])
            at = self.params_from or self.where("params", *loc)
            raise RuleError(f"{at}: {self.id} params.{'.'.join(loc) or '(all)'}: {first['msg']}") from None


def parse_rule(data, file: str, positions: dict | None = None, origin: str = "built-in", keys: dict | None = None) -> Rule:
    """Validate one rule file's data (the rule schema) and build the Rule.

    Built-in rules carry all their documentation; user and plugin rules (`origin` other than
    built-in) need only what runs them, take `area` from their id, and must not use a built-in prefix.
    """
    positions, keys = positions or {}, keys or {}

    def _fail(field: str, message: str, at_key: bool = False):
        """Stop at a field: at its key (unknown, missing) or at its value (wrong)."""
        path = (field,) if field in (data if isinstance(data, dict) else {}) else ()
        line, col = (keys if at_key else positions).get(path) or positions.get(path, (0, 0))
        raise RuleError(f"{file}:{line}:{col}: {field}: {message}" if line else f"{file}: {field}: {message}")

    user = origin != "built-in"
    required = USER_REQUIRED if user else REQUIRED
    if not isinstance(data, dict):
        _fail("document", "a rule file is a mapping")
    for key in data:
        if key not in REQUIRED and key not in OPTIONAL:
            import difflib

            close = difflib.get_close_matches(str(key), REQUIRED + OPTIONAL, n=1)
            _fail(key, f"unknown field{f' (did you mean {close[0]!r}?)' if close else ''}; expected one of {', '.join(REQUIRED + OPTIONAL)}", at_key=True)
    for key in required:
        if key not in data:
            _fail(key, "required field is missing")
    if not isinstance(data["id"], str) or not RULE_ID.match(data["id"]):
        _fail("id", f"expected an id like NET001, found {data['id']!r}")
    prefix = data["id"].rstrip("0123456789")
    if user:
        if prefix in AREAS or prefix == "ALL":
            _fail("id", f"{data['id']} uses the built-in prefix {prefix}; give your rules a prefix of your own, such as ORG")
        data = {"area": prefix, "weight": DEFAULT_WEIGHT, "why": data["summary"], "fix": data["summary"], "sources": ["(none given)"],
                "examples": {"bad": "", "good": ""}, **data}
    if data["area"] not in AREAS and not (isinstance(data["area"], str) and data["id"].startswith(data["area"])):
        _fail("area", f"expected one of {', '.join(AREAS)}, found {data['area']!r}")
    if not data["id"].startswith(data["area"]):
        _fail("id", f"{data['id']!r} does not start with its area {data['area']!r}")
    if data["severity"] not in ("error", "warning", "info"):
        _fail("severity", f"expected error, warning or info, found {data['severity']!r}")
    if isinstance(data["weight"], bool) or not isinstance(data["weight"], (int, float)) or not 0 <= data["weight"] <= 100:
        _fail("weight", f"expected a number from 0 to 100, found {data['weight']!r}")
    check = data["check"]
    if check in GENERIC:
        check = f"clusterlint.rules.generic:{GENERIC[check]}"
    elif check != DOCUMENT_CHECK and not (isinstance(check, str) and CHECK_REF.match(check)):
        _fail("check", f"expected module:function or one of {', '.join(GENERIC)}, found {check!r}")
    if not isinstance(data["needs"], list) or any(k not in KINDS for k in data["needs"]):
        _fail("needs", f"expected a list of {', '.join(KINDS)}, found {data['needs']!r}")
    for key in ("name", "summary", "why", "fix"):
        if not isinstance(data[key], str) or not data[key].strip():
            _fail(key, "expected non-empty text")
    if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", data["name"]):
        _fail("name", f"expected a kebab-case name, found {data['name']!r}")
    if not isinstance(data["sources"], list) or not data["sources"] or not all(isinstance(s, str) and s for s in data["sources"]):
        _fail("sources", "expected a non-empty list of citations")
    examples = data["examples"]
    if not isinstance(examples, dict) or set(examples) != {"bad", "good"} or not all(isinstance(v, str) for v in examples.values()):
        _fail("examples", "expected a mapping with text under bad and good")
    params = data.get("params") or {}
    if not isinstance(params, dict):
        _fail("params", "expected a mapping of parameter values")
    if check.startswith("clusterlint.rules.generic:") and "document" not in params:
        if len(data["needs"]) != 1:
            _fail("params", "a generic check needs params.document (Cluster, Contract or Workload) when needs lists several kinds")
        params = {"document": data["needs"][0], **params}
    return Rule(
        id=data["id"], name=data["name"], area=data["area"], severity=data["severity"], weight=float(data["weight"]),
        check=check, needs=tuple(data["needs"]), summary=data["summary"].strip(), why=data["why"].strip(),
        fix=data["fix"].strip(), sources=tuple(data["sources"]), examples=examples, params=params, file=file,
        positions=positions, origin=origin,
    )


@lru_cache(maxsize=1)
def builtin_rules() -> dict[str, Rule]:
    """Every rule shipped in `clusterlint.rules`, by id, in id order (read from the rule files' data
    in `clusterlint._generated.builtin_data`, generated from them by tools/generate_data.py)."""
    from clusterlint._generated.builtin_data import RULES

    rules = {}
    for name, data in RULES.items():
        file = f"rules/{name}"
        rule = parse_rule(data, file)
        if not name.startswith(f"{rule.id}-{rule.name}."):
            raise RuleError(f"{file}: id: file name must be {rule.id}-{rule.name}.yaml")
        if rule.id in rules:
            raise RuleError(f"{file}: id: {rule.id} is already defined in {rules[rule.id].file}")
        rules[rule.id] = rule
    return dict(sorted(rules.items()))


def add_rule(rules: dict, rule: Rule) -> None:
    """Add `rule` to `rules` by id; a second rule with the same id names both places."""
    if rule.id in rules:
        raise RuleError(f"{rule.where('id')}: id: {rule.id} is already defined in {rules[rule.id].where('id')}")
    rules[rule.id] = rule


def read_rule_file(path: str, origin: str, data: bytes | None = None) -> Rule:
    """One user or plugin rule file, with the line and column of each field for its errors."""
    from clusterlint.readers.loader import load_bytes, read_file

    if data is None:
        try:
            data = read_file(path)
        except OSError as exc:
            raise RuleError(f"{path}: cannot read rule file ({exc.strerror})") from None
    loaded = load_bytes(data, path)
    if loaded.problems:
        problem = loaded.problems[0]
        raise RuleError(f"{path}:{problem.line}:{problem.column}: {problem.message}")
    if len(loaded.documents) != 1:
        raise RuleError(f"{path}: a rule file holds exactly one YAML document, found {len(loaded.documents)}")
    doc = loaded.documents[0]
    return parse_rule(doc.data, path, doc.positions, origin, doc.key_positions)


def user_rules(paths) -> dict[str, Rule]:
    """The rules in user rule files and folders (folders: every .yaml/.yml below, in name order)."""
    from clusterlint.readers.loader import display

    rules: dict[str, Rule] = {}
    for path in paths:
        if os.path.isdir(path):
            files = sorted(os.path.join(root, name) for root, dirs, names in os.walk(path) for name in names
                           if name.endswith((".yaml", ".yml")) and not any(p.startswith(".") for p in os.path.relpath(root, path).split(os.sep) if p != "."))
            if not files:
                raise RuleError(f"{path}: no rule files (.yaml, .yml) in this folder")
        else:
            files = [path]  # the configuration has checked that it exists
        for file in files:
            add_rule(rules, read_rule_file(display(file), "user"))
    return rules


def plugin_rules(names=()) -> dict[str, Rule]:
    """Rules of the installed plugins the configuration names: each entry point of group
    `clusterlint.rules` names a package whose .yaml files are rule files (their checks live in the
    plugin's own modules)."""
    return _plugin_rules(tuple(names))


@lru_cache(maxsize=8)
def _plugin_rules(names: tuple) -> dict[str, Rule]:
    rules: dict[str, Rule] = {}
    for name, value in plugin_entry_points(names):
        from importlib import resources  # with tempfile, shutil and random: only where a plugin is installed

        try:
            module, _, attr = value.partition(":")
            package = import_module(module.strip())
            for part in filter(None, attr.strip().split(".")):
                package = getattr(package, part)
            folder = resources.files(package)
        except Exception as exc:  # a broken plugin must say which one it is
            raise RuleError(f"plugin {name} ({value}): cannot load ({type(exc).__name__}: {exc})") from None
        for entry in sorted(folder.iterdir(), key=lambda e: e.name):
            if entry.name.endswith((".yaml", ".yml")):
                add_rule(rules, read_rule_file(str(entry), f"plugin {name}", entry.read_bytes()))
    return rules


def plugin_entry_points(names) -> list[tuple[str, str]]:
    """(name, value) of the installed `clusterlint.rules` entry points the configuration names
    (`plugins:`), by name. Nothing is scanned or imported when it names none; a name with no entry
    point is an error, not a silent skip."""
    if not names:
        return []
    from importlib.metadata import entry_points

    found = {ep.name: ep.value for ep in entry_points(group=ENTRY_POINTS) if ep.name in names}
    missing = [name for name in names if name not in found]
    if missing:
        raise RuleError(f"no installed plugin {', '.join(map(repr, missing))} (entry point group {ENTRY_POINTS})")
    return sorted(found.items())
