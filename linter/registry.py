"""Rules as data: one YAML file per rule, validated at load, its check resolved on use."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property, lru_cache
from importlib import import_module, resources

AREAS = ("SPEC", "ACC", "NET", "STO", "CPU", "REL", "SW", "LCK", "CON", "CST", "UNI")
KINDS = ("Cluster", "Contract", "Workload")
DOCUMENT_CHECK = "document"  # SPEC rules: raised by the loader and validator, not by a check

RULE_ID = re.compile(r"^[A-Z]{2,8}[0-9]{3}$")
CHECK_REF = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_]\w*$")
REQUIRED = ("id", "name", "area", "severity", "weight", "check", "needs", "summary", "why", "fix", "sources", "examples")
OPTIONAL = ("params",)


class RuleError(Exception):
    """A rule file is broken: names the file and the field."""


@dataclass(frozen=True)
class Rule:
    id: str
    name: str
    area: str
    severity: str
    weight: float
    check: str
    needs: tuple
    summary: str
    why: str
    fix: str
    sources: tuple
    examples: dict
    params: dict
    file: str

    @cached_property
    def function(self):
        """The check function, imported on first use; its `Params` model validates `params`."""
        module_name, _, attr = self.check.partition(":")
        try:
            fn = getattr(import_module(module_name), attr)
        except (ImportError, AttributeError) as exc:
            raise RuleError(f"{self.file}: check: cannot import {self.check!r} ({exc})") from None
        return fn

    @cached_property
    def settings(self):
        """The rule's params validated by the check's pydantic `Params` model."""
        from pydantic import ValidationError

        params_cls = getattr(self.function, "Params", None)
        if params_cls is None:
            raise RuleError(f"{self.file}: check: {self.check!r} has no Params model")
        try:
            return params_cls(**self.params)
        except ValidationError as exc:
            first = exc.errors(include_url=False)[0]
            where = ".".join(str(p) for p in first["loc"])
            raise RuleError(f"{self.file}: params.{where}: {first['msg']}") from None


def _fail(file: str, field: str, message: str):
    raise RuleError(f"{file}: {field}: {message}")


def parse_rule(data, file: str) -> Rule:
    """Validate one rule file's data (the rule schema) and build the Rule."""
    if not isinstance(data, dict):
        _fail(file, "document", "a rule file is a mapping")
    for key in data:
        if key not in REQUIRED and key not in OPTIONAL:
            _fail(file, key, f"unknown field; expected one of {', '.join(REQUIRED + OPTIONAL)}")
    for key in REQUIRED:
        if key not in data:
            _fail(file, key, "required field is missing")
    if not isinstance(data["id"], str) or not RULE_ID.match(data["id"]):
        _fail(file, "id", f"expected an id like NET001, found {data['id']!r}")
    if data["area"] not in AREAS and not (isinstance(data["area"], str) and data["id"].startswith(data["area"])):
        _fail(file, "area", f"expected one of {', '.join(AREAS)}, found {data['area']!r}")
    if not data["id"].startswith(data["area"]):
        _fail(file, "id", f"{data['id']!r} does not start with its area {data['area']!r}")
    if data["severity"] not in ("error", "warning", "info"):
        _fail(file, "severity", f"expected error, warning or info, found {data['severity']!r}")
    if isinstance(data["weight"], bool) or not isinstance(data["weight"], (int, float)) or not 0 <= data["weight"] <= 100:
        _fail(file, "weight", f"expected a number from 0 to 100, found {data['weight']!r}")
    if data["check"] != DOCUMENT_CHECK and not (isinstance(data["check"], str) and CHECK_REF.match(data["check"])):
        _fail(file, "check", f"expected module:function, found {data['check']!r}")
    if not isinstance(data["needs"], list) or any(k not in KINDS for k in data["needs"]):
        _fail(file, "needs", f"expected a list of {', '.join(KINDS)}, found {data['needs']!r}")
    for key in ("name", "summary", "why", "fix"):
        if not isinstance(data[key], str) or not data[key].strip():
            _fail(file, key, "expected non-empty text")
    if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", data["name"]):
        _fail(file, "name", f"expected a kebab-case name, found {data['name']!r}")
    if not isinstance(data["sources"], list) or not data["sources"] or not all(isinstance(s, str) and s for s in data["sources"]):
        _fail(file, "sources", "expected a non-empty list of citations")
    examples = data["examples"]
    if not isinstance(examples, dict) or set(examples) != {"bad", "good"} or not all(isinstance(v, str) for v in examples.values()):
        _fail(file, "examples", "expected a mapping with text under bad and good")
    params = data.get("params") or {}
    if not isinstance(params, dict):
        _fail(file, "params", "expected a mapping of parameter values")
    return Rule(
        id=data["id"], name=data["name"], area=data["area"], severity=data["severity"], weight=float(data["weight"]),
        check=data["check"], needs=tuple(data["needs"]), summary=data["summary"].strip(), why=data["why"].strip(),
        fix=data["fix"].strip(), sources=tuple(data["sources"]), examples=examples, params=params, file=file,
    )


@lru_cache(maxsize=1)
def builtin_rules() -> dict[str, Rule]:
    """Every rule shipped in `clusterlint.rules`, by id, in id order."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    rules = {}
    folder = resources.files("clusterlint.rules")
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".yaml"):
            continue
        file = f"rules/{entry.name}"
        try:
            data = yaml.load(entry.read_text(encoding="utf-8"), Loader=loader)
        except yaml.YAMLError as exc:
            raise RuleError(f"{file}: invalid YAML: {exc}") from None
        rule = parse_rule(data, file)
        if not entry.name.startswith(f"{rule.id}-{rule.name}."):
            raise RuleError(f"{file}: id: file name must be {rule.id}-{rule.name}.yaml")
        if rule.id in rules:
            raise RuleError(f"{file}: id: {rule.id} is already defined in {rules[rule.id].file}")
        rules[rule.id] = rule
    return dict(sorted(rules.items()))
