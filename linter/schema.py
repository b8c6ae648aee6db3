"""JSON Schemas generated from the models: `clusterlint schema` and the files in `schemas/`."""

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
    body = model.model_json_schema(mode="validation")
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_BASE + file_name(kind),
        **body,
        "title": f"clusterlint {kind}",
        "description": f"{(model.__doc__ or '').strip()} A clusterlint/v1 {kind} document.",
    }


def dumps(schema: dict) -> str:
    return json.dumps(schema, indent=2, sort_keys=False, ensure_ascii=False) + "\n"
