"""`clusterlint init` modelines that resolve offline, multi-document specs, and `schema --write` errors."""

from __future__ import annotations

import json

import pytest

from conftest import check_json, run_cli


def test_modeline_is_relative_to_the_file_and_the_copy_lies_at_the_repository_root(tmp_path, monkeypatch):
    (tmp_path / ".git").mkdir()
    (tmp_path / "quotes" / "2027").mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "quotes")
    code, out, err = run_cli("init", "2027/acme.yaml")
    assert code == 0
    assert f"wrote {tmp_path / 'schemas' / 'cluster.schema.json'} (the schema your editor reads" in err  # outside the cwd: absolute
    lines = (tmp_path / "quotes" / "2027" / "acme.yaml").read_text(encoding="utf-8").splitlines()
    assert lines[0] == "# yaml-language-server: $schema=../../schemas/cluster.schema.json"
    assert (tmp_path / "schemas" / "cluster.schema.json").is_file()


def test_an_existing_copy_is_kept(tmp_path):
    (tmp_path / "schemas").mkdir()
    mine = tmp_path / "schemas" / "cluster.schema.json"
    mine.write_text("{}\n", encoding="utf-8")
    assert run_cli("init", str(tmp_path / "q.yaml"))[0] == 0
    assert mine.read_text(encoding="utf-8") == "{}\n"


def test_schema_url_for_hosted_schemas_writes_no_copy(tmp_path):
    code, _, _ = run_cli("init", "--kind", "Workload", "--schema-url", "https://schemas.example.org/clusterlint/", str(tmp_path / "w.yaml"))
    assert code == 0
    first = (tmp_path / "w.yaml").read_text(encoding="utf-8").splitlines()[0]
    assert first == "# yaml-language-server: $schema=https://schemas.example.org/clusterlint/workload.schema.json"
    assert not (tmp_path / "schemas").exists()


def test_append_adds_a_second_document_with_its_own_modeline(tmp_path):
    quote = tmp_path / "quote.yaml"
    assert run_cli("init", str(quote))[0] == 0
    code, out, _ = run_cli("init", "--kind", "Workload", "--append", str(quote))
    assert code == 0 and f"added to {quote} (a Workload)" in out
    lines = quote.read_text(encoding="utf-8").splitlines()
    second = [i for i, line in enumerate(lines) if line == "---"][1]  # the first starts the quote's document, after its comments
    assert lines[0] == "# yaml-language-server: $schema=schemas/cluster.schema.json"
    assert lines[second + 1] == "# yaml-language-server: $schema=schemas/workload.schema.json"
    report = check_json(str(quote))
    assert report["summary"]["error"] == 0
    assert (tmp_path / "schemas" / "workload.schema.json").is_file()


def test_append_needs_an_existing_file(tmp_path):
    code, _, err = run_cli("init", "--append", str(tmp_path / "none.yaml"))
    assert code == 2
    assert err == f"clusterlint: error: {tmp_path / 'none.yaml'}: --append needs an existing file\n"


def test_init_creates_missing_folders_and_names_the_file_it_wrote(tmp_path, monkeypatch):
    (tmp_path / ".git").mkdir()
    monkeypatch.chdir(tmp_path)
    code, out, _ = run_cli("init", "quotes/2027/x.yaml")
    assert code == 0 and out == "wrote quotes/2027/x.yaml (a Cluster); lint it with: clusterlint check quotes/2027/x.yaml\n"
    lines = (tmp_path / "quotes" / "2027" / "x.yaml").read_text(encoding="utf-8").splitlines()
    assert lines[0] == "# yaml-language-server: $schema=../../schemas/cluster.schema.json"
    assert "#   clusterlint check quotes/2027/x.yaml" in lines
    assert not [line for line in lines if "cluster.yaml" in line.split("--workload")[0]]  # not the default name
    code, _, _ = run_cli("init", "--kind", "Workload", "runs/w.yaml")
    assert code == 0
    assert "#   clusterlint check cluster.yaml --workload \\\n#     runs/w.yaml\n" in (tmp_path / "runs" / "w.yaml").read_text(encoding="utf-8")


def test_init_under_a_file_is_a_clear_error(tmp_path):
    (tmp_path / "f").write_text("", encoding="utf-8")
    code, _, err = run_cli("init", str(tmp_path / "f" / "q.yaml"))
    assert code == 2
    assert err.startswith(f"clusterlint: error: {tmp_path / 'f'}: cannot create the folder (")


@pytest.mark.parametrize("kind", ["Cluster", "Contract", "Workload"])
def test_starters_pass_yamllint_default_rules(tmp_path, monkeypatch, kind):
    from yamllint import linter
    from yamllint.config import YamlLintConfig

    monkeypatch.chdir(tmp_path)
    target = tmp_path / "quotes" / "2027" / f"{kind.lower()}-northwind-q1.yaml"
    assert run_cli("init", "--kind", kind, str(target.relative_to(tmp_path)))[0] == 0
    problems = list(linter.run(target.read_text(encoding="utf-8"), YamlLintConfig("extends: default")))
    assert [(p.line, p.rule, p.level) for p in problems] == []


def test_appended_document_passes_yamllint_with_one_document_start(tmp_path, monkeypatch):
    from yamllint import linter
    from yamllint.config import YamlLintConfig

    monkeypatch.chdir(tmp_path)
    quote = tmp_path / "quote.yaml"
    assert run_cli("init", "quote.yaml")[0] == 0
    assert run_cli("init", "--kind", "Workload", "--append", "quote.yaml")[0] == 0
    text = quote.read_text(encoding="utf-8")
    assert text.count("\n---\n") == 2
    assert list(linter.run(text, YamlLintConfig("extends: default"))) == []


def test_schema_write_onto_a_file_is_a_clear_error(tmp_path):
    target = tmp_path / "schemas"
    target.write_text("mine\n", encoding="utf-8")
    code, _, err = run_cli("schema", "--write", str(target))
    assert code == 2
    assert err == f"clusterlint: error: {target}: not a folder (--write takes the folder the schemas go into)\n"
    assert target.read_text(encoding="utf-8") == "mine\n"


def test_schema_write_under_a_file_is_a_clear_error(tmp_path):
    (tmp_path / "f").write_text("", encoding="utf-8")
    code, _, err = run_cli("schema", "--write", str(tmp_path / "f" / "schemas"))
    assert code == 2
    assert err.startswith(f"clusterlint: error: {tmp_path / 'f' / 'schemas'}: cannot write (")


def _quantities(node, out):
    if isinstance(node, dict):
        if "pattern" in node and node.get("format") != "date":
            out.append(node)
        for value in node.values():
            _quantities(value, out)
    elif isinstance(node, list):
        for value in node:
            _quantities(value, out)
    return out


def test_every_unit_pattern_has_a_human_message_and_an_example():
    for kind in ("Cluster", "Contract", "Workload"):
        schema = json.loads(run_cli("schema", kind)[1])
        found = _quantities(schema, [])
        assert found, kind
        for node in found:
            assert node["patternErrorMessage"].startswith("write a unit: "), node
            assert node["errorMessage"] == node["patternErrorMessage"]
            assert ", e.g. " in node["markdownDescription"]
    nic = json.loads(run_cli("schema", "Cluster")[1])["$defs"]["InterNode"]["properties"]["nic_speed"]
    assert nic["patternErrorMessage"] == "write a unit: a rate, e.g. 400Gbps (bits per second) or 50GB/s (bytes per second)"
