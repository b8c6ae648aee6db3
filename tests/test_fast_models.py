"""The plain objects of well-formed documents (`clusterlint.model.fast`, generated into
`clusterlint._generated.fast_models` from the pydantic models) are what pydantic would build.

Proved three ways: every spec, gallery spec and fixture gives byte-identical JSON output through
the plain path and through pydantic alone; every document's plain objects equal pydantic's, field
by field, type for type, with the same fields set and derived values; and over generated documents
(valid specs with values swapped for awkward ones) the plain path accepts only what pydantic
accepts, and builds the same thing.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings, strategies as st

from clusterlint._generated import fast_models
from clusterlint.cli import main
from clusterlint.model import fast
from clusterlint.model.base import model
from clusterlint.readers import prose
from clusterlint.readers.file_kinds import is_prose
from clusterlint.readers.loader import load_bytes

ROOT = Path(__file__).resolve().parents[1]
SPECS = sorted(p for p in (ROOT / "specs").glob("*.*") if p.suffix in (".yaml", ".md", ".txt")) + sorted((ROOT / "specs" / "gallery").glob("*"))
FIXTURES = sorted((ROOT / "tests" / "fixtures").rglob("*.yaml"))
FILES = [str(p.relative_to(ROOT)) for p in SPECS + FIXTURES]


def _documents(path: str):
    data = (ROOT / path).read_bytes()
    loaded = prose.load(data, path) if is_prose(path) else load_bytes(data, path)
    return [d for d in loaded.documents if isinstance(d.data, dict) and d.data.get("kind") in ("Cluster", "Contract", "Workload")]


def _expanded(doc):
    from clusterlint.model.instances import expand

    if doc.kind == "Cluster":
        expand(doc)
    return doc.data


def same(plain, typed, where="document") -> None:
    """Assert a plain object equals a pydantic model: values, types, fields set, derived values."""
    if hasattr(type(typed), "model_fields"):
        assert type(plain).__name__ == type(typed).__name__, where
        assert plain.model_fields_set == typed.model_fields_set, where
        assert list(plain.model_fields) == list(type(typed).model_fields), where
        for name in type(typed).model_fields:
            same(getattr(plain, name), getattr(typed, name), f"{where}.{name}")
        derived = [k for k in type(typed).__mro__ if k.__module__ == "clusterlint.model.derived"]
        for name in {name for k in derived for name, value in vars(k).items() if isinstance(value, property)}:
            same(getattr(plain, name), getattr(typed, name), f"{where}.{name}")
        assert plain.model_dump() == typed.model_dump(), where
        return
    assert type(plain) is type(typed), f"{where}: {type(plain).__name__} != {type(typed).__name__}"
    if isinstance(typed, list):
        assert len(plain) == len(typed), where
        for i, (a, b) in enumerate(zip(plain, typed)):
            same(a, b, f"{where}[{i}]")
    elif isinstance(typed, dict):
        assert list(plain) == list(typed), where
        for key in typed:
            same(plain[key], typed[key], f"{where}.{key}")
    else:
        assert plain == typed, where


def test_generated_module_is_up_to_date():
    run = subprocess.run([sys.executable, str(ROOT / "tools" / "generate_models.py"), "--check"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


@pytest.mark.parametrize("path", FILES)
def test_plain_objects_are_the_pydantic_models(path):
    for doc in _documents(path):
        data = _expanded(doc)
        plain = fast.validate(fast_models.plain(doc.kind), data)
        try:
            typed = model(doc.kind).model_validate(data)
        except ValueError:
            assert plain is None, f"{path}: the plain path accepts a document pydantic refuses"
            continue
        assert plain is not None, f"{path}: a valid {doc.kind} goes to pydantic"
        same(plain, typed)


def _check(files, monkeypatch=None) -> dict:
    result = CliRunner().invoke(main, ["check", "--isolated", "--format", "json", *files])
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.output)


def test_every_spec_and_fixture_reports_the_same_through_both_paths(monkeypatch):
    monkeypatch.chdir(ROOT)
    plain = _check(FILES)
    monkeypatch.setattr(fast, "validate", lambda cls, data: None)  # every document through pydantic
    typed = _check(FILES)
    assert json.dumps(plain, sort_keys=True) == json.dumps(typed, sort_keys=True)


def test_a_quote_is_validated_without_pydantic():
    code = ("import sys; from clusterlint.readers.loader import load_bytes; from clusterlint.model.validate import validate\n"
            f"doc = load_bytes(open({str(ROOT / 'specs' / 'aws-p5-instance.yaml')!r}, 'rb').read(), 'q').documents[0]\n"
            "typed, problems = validate(doc); assert typed is not None and not problems\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pydantic', 'pydantic_core')))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "[]"


def test_logic_written_on_a_pydantic_model_stops_the_generator():
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import generate_models
    finally:
        sys.path.remove(str(ROOT / "tools"))
    from pydantic import field_validator

    from clusterlint.model.base import Strict

    class Sneaky(Strict):
        size: int

        @field_validator("size")
        @classmethod
        def _double(cls, value):
            return value * 2

    with pytest.raises(generate_models.Unknown, match="derived"):
        generate_models._class(Sneaky, [])


def test_new_modules_stay_under_400_lines():
    for path in ("linter/model/fast.py", "linter/model/derived.py", "linter/model/validate.py", "tools/generate_models.py"):
        assert len((ROOT / path).read_text(encoding="utf-8").splitlines()) < 400, path


AWKWARD = st.sampled_from([
    None, True, False, 0, 1, -1, 4, 4.0, 2.5, 2**63, 1e308, float("inf"), float("nan"), "", "x", "4", "80GB", "80 GB", "400Gbps",
    "50GB/s", "99.5%", "2h", "3 months", "70B", "2.10 USD", "0.05 USD/GB", "2026-02-30", "2026-03-31", "nvme", "infiniband",
    "nvswitch", "object", "lustre", "slurm", "operative", "sev1", "bf16", "training", 3, [], [{}], {}, {"x": 1}, ["datasets"],
    {"model": "H100-SXM", "count": 8}, {"cores_per_socket": 56}, {"vcpus": 208, "cores_per_socket": 8},
])


def _paths(value, prefix=()):
    """Every place inside a document: mappings' keys and list items."""
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, prefix + (key,))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _paths(item, prefix + (i,))


SEEDS = [(doc.kind, _expanded(doc)) for path in FILES[:40] for doc in _documents(path)]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SEEDS), st.data())
def test_the_plain_path_accepts_only_what_pydantic_accepts_and_builds_the_same(seed, data):
    kind, document = seed
    document = copy.deepcopy(document)
    for _ in range(data.draw(st.integers(1, 3))):
        places = [p for p in _paths(document) if p]
        path = data.draw(st.sampled_from(places))
        parent = document
        for part in path[:-1]:
            parent = parent[part]
        value = copy.deepcopy(data.draw(AWKWARD))  # a fresh copy: the same list or mapping drawn twice must not nest in itself
        if isinstance(parent, dict) and data.draw(st.booleans()):
            if data.draw(st.booleans()):
                parent.pop(path[-1], None)
            else:
                parent[data.draw(st.sampled_from(["count", "name", "memory", "tiers", "extra_key", "posix_mount", "nodes"]))] = value
        else:
            parent[path[-1]] = value
    plain = fast.validate(fast_models.plain(kind), document)
    try:
        typed = model(kind).model_validate(document)
    except ValueError:
        assert plain is None, "the plain path accepts a document pydantic refuses"
        return
    if plain is not None:
        same(plain, typed)


CONFIGS = st.fixed_dictionaries({}, optional={
    "select": st.one_of(st.none(), st.lists(st.sampled_from(["NET", "ALL", "NET003", 3, ""]), max_size=2)),
    "extend-select": st.sampled_from([[], ["STO"], "STO", None]),
    "severity": st.sampled_from([{}, {"NET003": "error"}, {"NET003": "fatal"}, {3: "info"}]),
    "params": st.sampled_from([{}, {"STO002": {"min_ratio": 1.3}}, {"STO002": 1.3}, []]),
    "per-file-ignores": st.sampled_from([{}, {"specs/*": ["NET"]}, {"": ["NET"]}, {"a": "NET"}]),
    "fail-on": st.sampled_from(["error", "never", "fatal", None, True]),
    "min-score": st.sampled_from([0, 50, 100, 100.5, -1, True, "50", None]),
    "max-findings-per-rule": st.sampled_from([0, 10, -1, True, 2.0, None]),
    "parties": st.sampled_from([{"vendor": ["Acme"]}, {"vendor": "Acme"}, {"other": []}, None]),
    "contract-kind": st.sampled_from(["terms", "memo", None]),
    "unknown-key": st.just(1),
})


@settings(max_examples=200, deadline=None)
@given(CONFIGS)
def test_the_plain_path_accepts_only_configurations_pydantic_accepts(values):
    from clusterlint.config.model import Config

    plain = fast.validate(fast_models.plain("Config"), values)
    try:
        typed = Config.model_validate(values)
    except ValueError:
        assert plain is None
        return
    if plain is not None:
        same(plain, typed)
