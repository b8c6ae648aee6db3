"""JSON Schemas generated from the models: `clusterlint schema` and the files in `schemas/`.

Every quantity (a property the models mark with `x-unit`) also gets what editors show instead of
a regular expression (the keywords the YAML language server and VS Code read): `errorMessage` for
a bare number, `patternErrorMessage` for a wrong unit, `markdownDescription` with an example.
"""

from __future__ import annotations

import json

from clusterlint.model.base import KINDS, SCHEMA_BASE


def file_name(kind: str) -> str:
    return f"{kind.lower()}.schema.json"


SCHEMAS = (*KINDS, "Config")  # the document kinds, and the configuration file


def generate(kind: str) -> dict:
    if kind == "Config":
        from clusterlint.config.model import json_schema

        return json_schema()
    model = KINDS[kind]
    body = _for_editors(model.model_json_schema(mode="validation"))
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_BASE + file_name(kind),
        **body,
        "title": f"clusterlint {kind}",
        "description": f"{(model.__doc__ or '').strip()} A clusterlint/v1 {kind} document.",
    }


def dumps(schema: dict) -> str:
    return json.dumps(schema, indent=2, sort_keys=False, ensure_ascii=False) + "\n"


def _for_editors(node):
    """The schema with the editor messages added to every quantity (see the module docstring).

    An optional quantity, `anyOf: [quantity, null]`, becomes one schema of type string or null (the
    same values): editors merge the branches' type errors into "Expected string | null" and lose
    the message otherwise. Its `default: null` goes: an annotation only, and yaml-language-server's
    completion fails on a string property with a null default.
    """
    if isinstance(node, list):
        return [_for_editors(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _for_editors(value) for key, value in node.items()}
    branches = out.get("anyOf", ())
    if len(branches) == 2 and {"type": "null"} in branches:
        quantity = next(b for b in branches if b != {"type": "null"})
        if "x-unit" in quantity and "pattern" in quantity:
            rest = {key: value for key, value in out.items() if key != "anyOf" and (key, value) != ("default", None)}
            out = {**quantity, **rest, "type": ["string", "null"]}
            out.pop("markdownDescription")
    if "x-unit" in out:
        from clusterlint.model.units import KIND_HINTS

        hint = KIND_HINTS[out["x-unit"]]
        message = f"write a unit: {hint}"
        out.setdefault("markdownDescription", f"{out.get('description', '')}\n\nWrite {hint}.".strip())
        for holder in (out, *out.get("anyOf", ())):
            if "pattern" in holder:  # the string form: a number (type) or a wrong unit (pattern) gets the message
                holder.setdefault("errorMessage", message)
                holder.setdefault("patternErrorMessage", message)
    return out
