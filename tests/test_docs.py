"""Docs come from the same data the engine runs on, and nothing is left undocumented."""

from __future__ import annotations

import pytest

from clusterlint.model.catalog import DTYPES, load
from clusterlint.engine.registry import RuleError, builtin_rules, parse_rule
from clusterlint.reporters.docs import rules_markdown

from conftest import FIXTURES, ROOT


def test_rules_page_is_fresh():
    committed = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert committed == rules_markdown(builtin_rules()), "run: clusterlint rules --format markdown > docs/rules.md"


@pytest.mark.parametrize("rule_id", sorted(builtin_rules()))
def test_rule_is_documented_with_fixtures(rule_id):
    rule = builtin_rules()[rule_id]
    for section in (rule.summary, rule.why, rule.fix, rule.examples["bad"], rule.examples["good"]):
        assert section.strip()
    assert rule.sources
    assert (FIXTURES / rule_id / "bad.yaml").exists() and (FIXTURES / rule_id / "good.yaml").exists()
    if rule.check != "document":
        assert rule.settings is not None  # params validate against the check's Params model


def test_catalog_has_every_required_accelerator_with_sources():
    catalog = load()
    required = {"A100-SXM-40GB", "A100-SXM-80GB", "H100-SXM", "H100-PCIe", "H100-NVL", "H200", "B200", "GB200", "MI250X", "MI300X",
                "MI325X", "Gaudi2", "Gaudi3", "TPU-v5e", "TPU-v5p", "Trainium1", "Trainium2", "L40S",
                # issue 14
                "A100-PCIe-40GB", "A100-PCIe-80GB", "A100-SXM-64GB", "V100-SXM2-16GB", "V100-SXM2-32GB", "V100-PCIe-16GB",
                "V100-PCIe-32GB", "T4", "L4", "RTX-4090", "RTX-PRO-6000", "GH200-96GB", "GH200-141GB", "H200-NVL", "B300", "GB300",
                "MI250X-GCD", "MI300A", "MI350X", "MI355X", "TPU-v4", "TPU-v6e"}
    assert required <= set(catalog)
    # Parts whose dense bf16 rate is unknown (no public source found) or unsupported (Volta, Turing): null, never guessed.
    no_bf16 = {"A100-SXM-64GB", "V100-SXM2-16GB", "V100-SXM2-32GB", "V100-PCIe-16GB", "V100-PCIe-32GB", "T4", "RTX-PRO-6000",
               "H200-NVL", "MI300A", "MI350X"}
    assert {i for i, f in catalog.items() if not f.tflops["bf16"]} == no_bf16
    for facts in catalog.values():
        assert set(facts.sources) == {"compute", "memory", "intra_node", "availability"}
        assert all(url.startswith("https://") for url in facts.sources.values())
        assert set(facts.tflops) == set(DTYPES) and facts.memory is not None


@pytest.mark.parametrize("field, value, message", [
    ("severity", "fatal", "rules/x.yaml: severity: expected error, warning or info, found 'fatal'"),
    ("check", "not a ref", "rules/x.yaml: check: expected module:function or one of threshold, required, one-of, none-of, pattern, ratio, found 'not a ref'"),
    ("nonsense", 1, "rules/x.yaml: nonsense: unknown field"),
])
def test_broken_rule_file_names_file_and_field(field, value, message):
    data = {"id": "NET001", "name": "n", "area": "NET", "severity": "error", "weight": 1, "check": "a:b", "needs": [],
            "summary": "s", "why": "w", "fix": "f", "sources": ["x"], "examples": {"bad": "", "good": ""}, field: value}
    with pytest.raises(RuleError) as info:
        parse_rule(data, "rules/x.yaml")
    assert str(info.value).startswith(message)


# ---------------------------------------------------------------- the README and the docs site


def _generate_docs():
    import importlib.util

    spec = importlib.util.spec_from_file_location("generate_docs", ROOT / "tools" / "generate_docs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_rule_pages_are_fresh():
    assert _generate_docs().stale() == [], "run: python tools/generate_docs.py"


def test_rule_pages_cover_every_rule_and_link_from_the_index():
    pages = _generate_docs().pages()
    index = pages[ROOT / "docs" / "rules" / "index.md"]
    for rule_id in builtin_rules():
        assert pages[ROOT / "docs" / "rules" / f"{rule_id}.md"].startswith(f"# {rule_id} ")
        assert f"]({rule_id}.md)" in index


def test_readme_fits_on_a_page_and_links_to_pages_that_exist():
    import re

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 200
    links = re.findall(r"\]\((docs/[^)#]+)", readme)
    assert links and all((ROOT / link).is_file() for link in links), links


def _quickstart() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("## Quickstart", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    return [line for line in block.splitlines() if line.strip() and not line.startswith("#")]


def test_quickstart_is_two_commands_and_ci_runs_its_test_command():
    install, tests = _quickstart()
    assert install.startswith("python3 -m venv .venv && ") and " clusterlint check specs/" in install
    assert tests.startswith("python3 -m venv .venv && ") and tests.endswith("pip install '.[test]' && python -m pytest")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "grep -m1 -x \"python3 -m venv .venv && . .venv/bin/activate && pip install '.\\[test\\]' && python -m pytest\" README.md" in ci


def test_docs_site_builds_strictly(tmp_path):
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "-d", str(tmp_path / "site")],
                          cwd=ROOT, capture_output=True, text=True, env={**__import__("os").environ, "NO_MKDOCS_2_WARNING": "1"})
    assert done.returncode == 0, done.stdout + done.stderr
    assert (tmp_path / "site" / "rules" / "NET003" / "index.html").is_file()
    spec_page = (tmp_path / "site" / "spec-format" / "index.html").read_text(encoding="utf-8")
    assert "forge-h100-64-nodes" in spec_page  # the full examples are included from specs/
