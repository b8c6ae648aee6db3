"""The generated `clusterlint._generated.builtin_data` holds exactly what the rule files and catalogs say.

The YAML files are the source people edit; a check reads the generated module (no YAML parsing of
rule files at start-up). A stale module would make the tool run rules that differ from their files.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from clusterlint._generated import builtin_data
from clusterlint.model import catalog, instances
from clusterlint.engine import registry
from clusterlint.engine.registry import builtin_rules

ROOT = Path(__file__).resolve().parents[1]


def _yaml(path: Path):
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def test_generated_module_is_up_to_date():
    run = subprocess.run([sys.executable, str(ROOT / "tools" / "generate_data.py"), "--check"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


def test_every_rule_file_is_in_the_module_with_its_data():
    files = sorted((ROOT / "rules").glob("*.yaml"))
    assert list(builtin_data.RULES) == [p.name for p in files]
    for path in files:
        assert builtin_data.RULES[path.name] == _yaml(path), path.name


def test_catalogs_are_the_yaml_files():
    assert builtin_data.ACCELERATORS == _yaml(ROOT / "linter" / "data" / "accelerators.yaml")
    assert builtin_data.INSTANCES == _yaml(ROOT / "linter" / "data" / "instances.yaml")
    assert set(catalog.load()) == set(builtin_data.ACCELERATORS["accelerators"])
    assert set(instances.load()) == set(builtin_data.INSTANCES["instances"])


def test_rules_read_from_the_module_are_the_rule_files():
    rules = builtin_rules()
    assert [r.file for r in rules.values()] == sorted(f"rules/{p.name}" for p in (ROOT / "rules").glob("*.yaml"))
    net003 = _yaml(ROOT / "rules" / "NET003-low-inter-node-bandwidth.yaml")
    assert rules["NET003"].params == net003["params"]
    assert rules["NET003"].why == net003["why"].strip()


def test_a_plain_check_parses_no_rule_file_and_reads_no_distribution_metadata(tmp_path):
    code = ("import sys, yaml\n"
            "calls = []\n"
            "real = yaml.load\n"
            "yaml.load = lambda *a, **k: calls.append(1) or real(*a, **k)\n"
            "import importlib.metadata as md\n"
            "scans = []\n"
            "md.entry_points = lambda *a, **k: scans.append(1) or []\n"
            "md.distributions = lambda *a, **k: scans.append(1) or []\n"
            "from clusterlint.cli import main\n"
            "try:\n"
            "    main(['check', 'specs/gcp-a3-highgpu-8g.yaml', '--workload', 'specs/llama70b-pretrain.yaml', '--isolated'])\n"
            "except SystemExit:\n"
            "    pass\n"
            "print('yaml.load calls', len(calls), 'metadata scans', len(scans), file=sys.stderr)\n")
    env = {**os.environ, "HOME": str(tmp_path / "nowhere"), "XDG_CACHE_HOME": str(tmp_path / "nowhere")}
    env.pop("PYDANTIC_DISABLE_PLUGINS", None)
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env)
    assert "yaml.load calls 0 metadata scans 0" in run.stderr, run.stderr  # no plugin configured: no entry point scanned
    assert not (tmp_path / "nowhere").exists()  # and nothing is written to a cache


def test_no_plugin_is_scanned_or_imported_unless_configured():
    assert registry.plugin_rules() == {}
    assert registry.plugin_entry_points(()) == []


def test_a_configured_plugin_that_is_not_installed_is_an_error():
    with pytest.raises(registry.RuleError, match="no installed plugin 'nosuch'"):
        registry.plugin_entry_points(("nosuch",))
