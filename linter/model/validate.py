"""Validate loaded documents against their kind's model: SPEC002 / SPEC005 problems at the node.

The pydantic models (`model.cluster`, `model.contract`, `model.workload`) generate the published
JSON Schemas (`schemas/`), and the tests prove that a document is valid under the schema exactly
when it is valid here. A well-formed document is built as the plain objects generated from those
models (`model.fast`), without importing pydantic; any other goes to pydantic, which words its
problems (or accepts it with a coercion the plain checks leave to it).
"""

from __future__ import annotations

from clusterlint.model.findings import dotted
from clusterlint.readers.loader import Document, Problem

KIND_NAMES = ("Cluster", "Contract", "Workload")


def _did_you_mean(word: str, choices) -> str:
    import difflib

    close = difflib.get_close_matches(str(word), [str(c) for c in choices], n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _fields_at(model_cls, loc: tuple):
    """The field names allowed at `loc` inside `model_cls`, following nested models."""
    from typing import get_args, get_origin

    from pydantic import BaseModel

    current = model_cls
    for part in loc:
        if isinstance(part, int):
            continue
        fields = {f.alias or name: f for name, f in current.model_fields.items()} if isinstance(current, type) and issubclass(current, BaseModel) else {}
        field = fields.get(part)
        if field is None:
            return []
        annotation = field.annotation
        while get_origin(annotation) is not None and not (isinstance(annotation, type) and issubclass(annotation, BaseModel)):
            candidates = [a for a in get_args(annotation) if isinstance(a, type) and issubclass(a, BaseModel)]
            annotation = candidates[0] if candidates else None
            if annotation is None:
                return []
        current = annotation
    return [f.alias or name for name, f in current.model_fields.items()] if isinstance(current, type) and issubclass(current, BaseModel) else []


def _describe(value) -> str:
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "nothing (null)"
    return repr(value)


def message(error: dict, model_cls) -> tuple[str, str, bool]:
    """(rule, message, point-at-key) for one pydantic error."""
    loc = tuple(p for p in error["loc"] if p != "[key]")
    field = dotted(loc) or "document"
    kind = error["type"]
    found = _describe(error.get("input"))
    if kind == "missing_unit":
        return "SPEC005", f"{field}: {error['msg']}", False
    if kind == "missing":
        return "SPEC002", f"{field}: required field is missing", False
    if kind == "extra_forbidden":
        allowed = _fields_at(model_cls, loc[:-1])
        return "SPEC002", f"{dotted(loc[:-1]) or 'document'}: unknown key {loc[-1]!r}{_did_you_mean(loc[-1], allowed)}", True
    if kind == "literal_error":
        expected = error.get("ctx", {}).get("expected", "")
        hint = _did_you_mean(error.get("input"), [e.strip(" '") for e in expected.replace(" or ", ",").split(",")]) if isinstance(error.get("input"), str) else ""
        if "[key]" in error["loc"]:
            return "SPEC002", f"{field}: key must be one of {expected}{hint}", True
        return "SPEC002", f"{field}: expected one of {expected}, found {found}{hint}", False
    if kind in ("unit", "cpu_count", "pool_accelerator"):
        return "SPEC002", f"{field}: {error['msg']}", False
    msg = error["msg"]
    msg = msg[0].lower() + msg[1:]
    return "SPEC002", f"{field}: {msg.replace('input should be', 'expected')}, found {found}", False


def _names_instance(data) -> bool:
    pools = data.get("spec", {}).get("node_pools") if isinstance(data.get("spec"), dict) else None
    return isinstance(pools, list) and any(isinstance(p, dict) and ("instance" in p or "system" in p) for p in pools)


def validate(doc: Document):
    """Return (model instance or None, problems) for one document."""
    data = doc.data
    if not isinstance(data, dict):
        line, col = doc.locate(())
        return None, [Problem("SPEC002", f"document: expected a mapping with apiVersion, kind, metadata and spec, found {_describe(data)}", line, col)]
    kind = data.get("kind")
    if kind not in KIND_NAMES:
        path = ("kind",) if "kind" in data else ()
        line, col = doc.locate(path)
        what = f"found {kind!r}{_did_you_mean(kind, KIND_NAMES)}" if "kind" in data else "but it is missing"
        return None, [Problem("SPEC002", f"kind: expected one of 'Cluster', 'Contract' or 'Workload', {what}", line, col, path)]

    if kind == "Cluster" and _names_instance(data):
        from clusterlint.model.instances import expand

        problems = expand(doc)
        if problems:
            return None, problems
    from clusterlint._generated.fast_models import plain as plain_class
    from clusterlint.model.fast import validate as plain

    found = plain(plain_class(kind), data)  # a well-formed document: its plain objects, without pydantic
    if found is not None:
        return found, []
    from pydantic import ValidationError

    from clusterlint.model.base import model

    model_cls = model(kind)
    try:
        return model_cls.model_validate(data), []
    except ValidationError as exc:
        problems = []
        for error in exc.errors(include_url=False):
            rule, text, at_key = message(error, model_cls)
            path = tuple(p for p in error["loc"] if p != "[key]")
            line, col = doc.locate(path, key=at_key or "[key]" in error["loc"])
            problems.append(Problem(rule, text, line, col, path))
        return None, problems
