"""Schemas: generated from the models, committed fresh, and in agreement with the validator."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from clusterlint.readers.loader import load_text
from clusterlint.model.base import KINDS
from clusterlint.config.schema import SCHEMAS, dumps, file_name, generate
from clusterlint.model.validate import validate

from conftest import ROOT, SPECS


@pytest.mark.parametrize("kind", SCHEMAS)
def test_committed_schema_is_fresh(kind):
    committed = (ROOT / "schemas" / file_name(kind)).read_text(encoding="utf-8")
    assert committed == dumps(generate(kind)), "run: clusterlint schema --write schemas"


@pytest.mark.parametrize("kind", SCHEMAS)
def test_schema_is_draft_2020_12_with_help_text(kind):
    schema = generate(kind)
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$id"].endswith(file_name(kind))
    accelerator = generate("Cluster")["$defs"]["Accelerator"]["properties"]["model"]
    assert accelerator["description"]


def _spec_documents():
    docs = []
    for path in sorted(SPECS.glob("*.yaml")) + sorted((ROOT / "tests" / "fixtures").glob("*/good.yaml")):
        docs += [d.data for d in load_text(path.read_text(encoding="utf-8"), path.name).documents]
    return docs


DOCS = _spec_documents()
VALIDATORS = {kind: jsonschema.Draft202012Validator(generate(kind), format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER) for kind in KINDS}

# mutations a user makes: wrong types, bare numbers, typos, negatives, removals
VALUES = st.one_of(st.integers(-5, 10**6), st.floats(allow_nan=False, allow_infinity=False, width=32), st.booleans(), st.none(),
                   st.sampled_from(["80GB", "400Gbps", "400", "8Gb", "70B", "2h", "99.5%", "2.10 USD", "nvme", "lustre", "", "H100-SXM"]),
                   st.lists(st.integers(0, 3), max_size=2), st.dictionaries(st.sampled_from(["x", "count"]), st.integers(0, 3), max_size=1))


def _paths(data, prefix=()):
    yield prefix
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _paths(v, prefix + (i,))


def _mutate(data, path, action, value):
    data = copy.deepcopy(data)
    if not path:
        return data
    parent = data
    for part in path[:-1]:
        parent = parent[part]
    key = path[-1]
    if action == "set":
        parent[key] = value
    elif action == "delete" and isinstance(parent, dict):
        del parent[key]
    elif action == "rename" and isinstance(parent, dict):
        parent[str(key) + "_x"] = parent.pop(key)
    return data


@settings(max_examples=600, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_schema_and_models_agree(data):
    doc = data.draw(st.sampled_from(DOCS))
    path = data.draw(st.sampled_from(list(_paths(doc))))
    mutated = _mutate(doc, path, data.draw(st.sampled_from(["set", "delete", "rename"])), data.draw(VALUES))
    kind = doc["kind"]
    schema_ok = VALIDATORS[kind].is_valid(mutated)
    model_ok = validate(_as_document(mutated))[0] is not None
    assert schema_ok == model_ok, (path, mutated)


def _as_document(data):
    from clusterlint.readers.loader import Document

    return Document("mutated.yaml", 0, json.loads(json.dumps(data, default=str)))


CHECK_JSONSCHEMA = Path(sys.executable).parent / "check-jsonschema"


@pytest.mark.skipif(not CHECK_JSONSCHEMA.exists(), reason="check-jsonschema is not installed (pip install '.[test]')")
def test_external_validator_accepts_every_spec_with_our_schemas(tmp_path):
    """check-jsonschema reads one document per file: each document of each spec goes to its own file."""
    import yaml

    by_kind: dict[str, list] = {}
    for path in sorted(SPECS.glob("*.yaml")):
        for i, data in enumerate(yaml.safe_load_all(path.read_text(encoding="utf-8"))):
            target = tmp_path / f"{path.stem}-{i}.json"
            target.write_text(json.dumps(data, default=str), encoding="utf-8")  # YAML dates are strings to JSON Schema
            by_kind.setdefault(data["kind"], []).append(str(target))
    assert sorted(by_kind) == ["Cluster", "Contract", "Workload"]
    for kind, files in by_kind.items():
        run = subprocess.run([str(CHECK_JSONSCHEMA), "--schemafile", str(ROOT / "schemas" / file_name(kind)), *files], capture_output=True, text=True)
        assert run.returncode == 0, run.stdout + run.stderr
