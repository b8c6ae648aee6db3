"""`clusterlint init` modelines that resolve offline, multi-document specs, and `schema --write` errors."""

from __future__ import annotations

import json

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
    second = lines.index("---")
    assert lines[0] == "# yaml-language-server: $schema=schemas/cluster.schema.json"
    assert lines[second + 1] == "# yaml-language-server: $schema=schemas/workload.schema.json"
    report = check_json(str(quote))
    assert report["summary"]["error"] == 0
    assert (tmp_path / "schemas" / "workload.schema.json").is_file()


def test_append_needs_an_existing_file(tmp_path):
    code, _, err = run_cli("init", "--append", str(tmp_path / "none.yaml"))
    assert code == 2
    assert err == f"clusterlint: error: {tmp_path / 'none.yaml'}: --append needs an existing file\n"


def test_init_into_a_missing_folder_is_a_clear_error(tmp_path):
    code, _, err = run_cli("init", str(tmp_path / "missing" / "q.yaml"))
    assert code == 2
    assert err == f"clusterlint: error: {tmp_path / 'missing'}: no such folder; create it first (clusterlint init does not create folders)\n"
    assert not (tmp_path / "missing").exists()


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
