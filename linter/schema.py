"""JSON Schemas generated from the models: `clusterlint schema` and the files in `schemas/`.

Every quantity (a property the models mark with `x-unit`) also gets what editors show instead of
a regular expression (the keywords the YAML language server and VS Code read): `errorMessage` for
a bare number, `patternErrorMessage` for a wrong unit, `markdownDescription` with an example.
"""

from __future__ import annotations

import json

from .models import KINDS, SCHEMA_BASE


def file_name(kind: str) -> str:
    return f"{kind.lower()}.schema.json"


SCHEMAS = (*KINDS, "Config")  # the document kinds, and the configuration file


def generate(kind: str) -> dict:
    if kind == "Config":
        from .config_model import json_schema

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
    """The schema with the editor messages added to every quantity (see the module docstring)."""
    if isinstance(node, list):
        return [_for_editors(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _for_editors(value) for key, value in node.items()}
    if "x-unit" in out:
        from .units import KIND_HINTS

        message = f"write a unit: {KIND_HINTS[out['x-unit']]}"
        out.setdefault("markdownDescription", f"{out.get('description', '')}\n\nWrite {KIND_HINTS[out['x-unit']]}.".strip())
        for holder in (out, *out.get("anyOf", ())):
            if "pattern" in holder:  # the string form: a number (type) or a wrong unit (pattern) gets the message
                holder.setdefault("errorMessage", message)
                holder.setdefault("patternErrorMessage", message)
    return out
