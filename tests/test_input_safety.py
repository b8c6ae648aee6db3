"""Inputs a user (or an attacker) can write: non-regular files, empty documents, unreadable
scalars, broken configurations and baselines. Each gives a finding or a positioned exit-2 error."""

from __future__ import annotations

import os
import time

import pytest

from clusterlint.config.globs import glob_matches
from clusterlint.readers.loader import load_text

from conftest import SPECS, run_cli

SPEC = str(SPECS / "aws-p5-48xlarge.yaml")


@pytest.mark.parametrize("option", [None, "--workload", "--baseline", "--config"])
def test_a_fifo_is_refused_not_waited_on(tmp_path, option):
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    args = ["check", str(fifo)] if option is None else ["check", SPEC, option, str(fifo)]
    code, out, err = run_cli(*args)
    assert code == 2
    assert f"{fifo}: cannot read" in err and "(not a regular file: it is a named pipe (FIFO))" in err


@pytest.mark.parametrize("option", [None, "--workload", "--baseline"])
def test_a_symlink_to_dev_zero_is_refused(tmp_path, option):
    link = tmp_path / "zero.yaml"
    link.symlink_to("/dev/zero")
    args = ["check", str(link)] if option is None else ["check", SPEC, option, str(link)]
    code, _, err = run_cli(*args)
    assert code == 2
    assert "(not a regular file: it is a device)" in err


def test_a_directory_given_as_a_rule_file_is_refused(tmp_path):
    (tmp_path / "rules.yaml").mkdir()
    (tmp_path / ".clusterlint.yaml").write_text("rules: [rules.yaml/]\n")
    code, _, err = run_cli("check", SPEC, "--config", str(tmp_path / ".clusterlint.yaml"))
    assert code == 2 and "internal error" not in err


@pytest.mark.parametrize("text", ["", "   \n\n", "# only a comment\n"])
def test_a_file_without_documents_is_a_finding(tmp_path, text):
    path = tmp_path / "empty.yaml"
    path.write_text(text)
    code, out, _ = run_cli("check", "--no-color", str(path))
    assert code == 1
    assert f"{path}:1:1: SPEC001 [error] the file holds no YAML document (it is empty or only comments): nothing to review" in out


def test_empty_stdin_is_a_finding():
    code, out, _ = run_cli("check", "--no-color", "-", input="")
    assert code == 1
    assert "<stdin>:1:1: SPEC001 [error] the file holds no YAML document" in out


def test_a_trailing_document_separator_is_skipped():
    text = (SPECS / "aws-p5-48xlarge.yaml").read_text()
    plain, trailing = load_text(text, "a.yaml"), load_text(text + "---\n", "a.yaml")
    assert [d.data for d in trailing.documents] == [d.data for d in plain.documents]
    assert trailing.problems == plain.problems


@pytest.mark.parametrize("text, position, message", [
    ("a: 2024-02-30\n", (1, 4), "'2024-02-30' cannot be read as timestamp: day is out of range for month"),
    ('a:\n  b: !!int "0xZZ"\n', (2, 6), "'0xZZ' cannot be read as int: not a YAML 1.2 integer (such as 42, -7, 0o17 or 0x1F)"),
])
def test_unconstructible_scalars_are_spec001_at_their_position(text, position, message):
    loaded = load_text(text, "f.yaml")
    assert [(p.rule, p.message, (p.line, p.column)) for p in loaded.problems] == [("SPEC001", message, position)]


def test_alias_budget_is_per_file_not_per_document():
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i-1}"] * 10) + "]" for i in range(1, 4)]
    # one document: its mapping, 4 keys, and lists of 11, 111, 1,111 and 11,111 nodes = 12,349, under the limit alone
    document = "\n".join(lines) + "\n"
    assert load_text(document, "one.yaml").problems == []
    start = time.perf_counter()
    loaded = load_text("---\n".join([document] * 40), "bombs.yaml")
    assert time.perf_counter() - start < 5
    assert [p.rule for p in loaded.problems] == ["SPEC001"]
    assert loaded.problems[0].message == "file expands to more than 100000 nodes (YAML alias bomb?)"
    assert len(loaded.documents) == 8  # 8 x 12,349 = 98,792 fit; the ninth spends the budget; the rest are not read


@pytest.mark.parametrize("value", ["nan", "inf", "-inf"])
def test_min_score_must_be_a_finite_number(value):
    code, _, err = run_cli("check", SPEC, "--min-score", value)
    assert code == 2
    assert "Invalid value for '--min-score'" in err


def test_contract_null_in_the_configuration_is_the_default(tmp_path):
    config = tmp_path / ".clusterlint.yaml"
    config.write_text("contract: null\nworkload: null\nselect:\nfail-on: ~\n")
    code, out, err = run_cli("check", SPEC, "--config", str(config))
    assert code == 1 and "internal error" not in err
    assert "CON003" in out


def test_a_bad_glob_in_per_file_ignores_is_positioned(tmp_path):
    config = tmp_path / ".clusterlint.yaml"
    config.write_text('per-file-ignores:\n  "[z-a].yaml": [NET001]\n')
    code, _, err = run_cli("check", SPEC, "--config", str(config))
    assert code == 2
    assert f"{config}:2:3: per-file-ignores: '[z-a].yaml' is not a valid glob (bad character range z-a)" in err


def test_tool_that_is_not_a_table_in_pyproject(tmp_path):
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('tool = """\n[tool.clusterlint]\n"""\n')
    code, _, err = run_cli("check", SPEC, "--config", str(pyproject))
    assert code == 2
    assert "pyproject.toml: `tool` must be a table ([tool.clusterlint]), not a str" in err


def test_dot_slash_is_a_prefix_not_a_set_of_characters():
    assert glob_matches("./.venv/*.yaml", ".venv/a.yaml")
    assert not glob_matches("./.venv/*.yaml", "venv/a.yaml")


@pytest.mark.parametrize("text, message", [
    ('{"clusterlint_baseline": true, "findings": []}', "not a clusterlint baseline (format 1)"),
    ("[" * 100_000, "not a clusterlint baseline: "),
    ('{"clusterlint_baseline": 1, "findings": [[]]}', "findings[0]: expected rule, file and fingerprint"),
])
def test_wrongly_shaped_baselines_are_refused(tmp_path, text, message):
    path = tmp_path / "baseline.json"
    path.write_text(text)
    code, _, err = run_cli("check", SPEC, "--baseline", str(path))
    assert code == 2
    assert message in err and "internal error" not in err


@pytest.mark.parametrize("flag", ["-o", "--write-baseline"])
@pytest.mark.parametrize("target, what", [("quote.yaml", "a file being linted"), ("work.yaml", "the workload"),
                                          (".clusterlint.yaml", "the configuration")])
def test_outputs_never_overwrite_an_input(tmp_path, monkeypatch, flag, target, what):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "quote.yaml").write_text((SPECS / "aws-p5-48xlarge.yaml").read_text())
    (tmp_path / "work.yaml").write_text((SPECS / "llama70b-pretrain.yaml").read_text())
    (tmp_path / ".clusterlint.yaml").write_text("workload: work.yaml\n")
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    args = ["check", "quote.yaml", flag, target] + (["--format", "json"] if flag == "-o" else [])
    code, _, err = run_cli(*args)
    assert code == 2
    assert f"clusterlint: error: {target}: refusing to overwrite {what} with the output; choose another file" in err
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_the_inputs_an_output_must_not_overwrite_are_named_by_their_real_paths(tmp_path, monkeypatch):
    """Report.inputs keys every file read by its real path, as os.path.realpath gives it, through a
    linked folder, a linked file and a `..` after a link (whose parent is the link target's)."""
    from clusterlint.check import Report

    real, elsewhere = tmp_path / "real", tmp_path / "elsewhere" / "deep"
    real.mkdir()
    elsewhere.mkdir(parents=True)
    (real / "quote.yaml").write_text("x")
    (tmp_path / "folder-link").symlink_to(real)
    (real / "file-link.yaml").symlink_to(real / "quote.yaml")
    (real / "up").symlink_to(elsewhere)
    (tmp_path / "elsewhere" / "other.yaml").write_text("y")
    monkeypatch.chdir(tmp_path)
    names = ["real/quote.yaml", "folder-link/quote.yaml", "folder-link/file-link.yaml", "real/up/../other.yaml",
             str(tmp_path / "folder-link" / "./quote.yaml"), "real//quote.yaml", "missing/new.yaml", "folder-link/missing.yaml"]
    report = Report(read={name: f"input {i}" for i, name in enumerate(names)})
    expected: dict = {}
    for i, name in enumerate(names):
        expected.setdefault(os.path.realpath(name), f"input {i}")
    assert report.inputs == expected
    assert report.inputs[str((tmp_path / "elsewhere" / "other.yaml").resolve())] == "input 3"


def test_write_baseline_may_rewrite_the_baseline_in_use(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "quote.yaml").write_text((SPECS / "aws-p5-48xlarge.yaml").read_text())
    assert run_cli("check", "quote.yaml", "--write-baseline", "base.json")[0] == 0
    assert run_cli("check", "quote.yaml", "--baseline", "base.json", "--write-baseline", "base.json")[0] == 0


@pytest.mark.parametrize("head", [
    "\ufeffapiVersion: clusterlint/v1\n",
    '{"apiVersion": "clusterlint/v1",\n',
    '{\n  "apiVersion": "clusterlint/v1",\n',
    '"apiVersion": clusterlint/v1\n',
    "apiVersion : clusterlint/v1\n",
    "'apiVersion': 'clusterlint/v1'\n",
    '{"metadata": {"name": "x"}, "apiVersion": "clusterlint/v1",\n',
])
def test_discovery_recognises_every_way_to_write_api_version(tmp_path, head):
    (tmp_path / "spec.yaml").write_bytes((head + "kind: Cluster\n").encode("utf-8"))
    (tmp_path / "other.yaml").write_text("apiVersion: v1\nkind: ConfigMap\n")
    from clusterlint.check import _is_clusterlint, discover

    assert discover([str(tmp_path)]) == [str(tmp_path / "spec.yaml")]
    assert _is_clusterlint(str(tmp_path / "spec.yaml")) and not _is_clusterlint(str(tmp_path / "other.yaml"))


@pytest.mark.parametrize("old, new, position, message", [
    ("memory: 2TiB", "memory: 0GB", "19:15", "spec.node_pools[0].memory: '0GB' is zero"),
    ("nic_speed: 100Gbps", "nic_speed: 0Gbps", "24:61", "spec.network.inter_node.nic_speed: '0Gbps' is zero"),
])
def test_a_zero_quantity_is_a_schema_finding(tmp_path, old, new, position, message):
    spec = tmp_path / "zero.yaml"
    spec.write_text((SPECS / "aws-p5-48xlarge.yaml").read_text().replace(old, new))
    code, out, err = run_cli("check", "--no-color", str(spec), "--workload", str(SPECS / "llama70b-pretrain.yaml"))
    assert code == 1 and "internal error" not in err
    assert f"{spec}:{position}: SPEC002 [error] {message}: state the figure, or leave the key out when there is none" in out


def test_zero_parameters_in_the_workload_is_a_schema_finding(tmp_path):
    workload = tmp_path / "work.yaml"
    workload.write_text((SPECS / "llama70b-pretrain.yaml").read_text().replace("parameters: 70B", "parameters: 0"))
    code, out, err = run_cli("check", "--no-color", SPEC, "--workload", str(workload))
    assert code == 1 and "internal error" not in err
    assert f"{workload}:9:23: SPEC002 [error] spec.model.parameters: '0' is zero: state the figure, or leave the key out when there is none" in out


@pytest.mark.parametrize("text, value", [
    ("0x20", 32), ("10", 10), ("-5", -5), ("+7", 7), ("1.5", 1.5), ("yes", "yes"), ("off", "off"), ("'010'", "010"),
])
def test_scalars_resolve_as_yaml_1_2_core(text, value):
    loaded = load_text(f"a: {text}\n", "f.yaml")
    assert (loaded.documents[0].data, loaded.problems) == ({"a": value}, [])


@pytest.mark.parametrize("text, value, message", [
    ("010", 10, "'010' is the number 10 in YAML 1.2 (JSON Schema, editors) but the number 8 in YAML 1.1: write the number as 10, or quote the text"),
    ("1:30", "1:30", "'1:30' is text in YAML 1.2 (JSON Schema, editors) but the number 90 in YAML 1.1: write the number as 90, or quote the text"),
    ("0o10", 8, "'0o10' is the number 8 in YAML 1.2 (JSON Schema, editors) but text in YAML 1.1: write the number as 8, or quote the text"),
    ("1_000", "1_000", "'1_000' is text in YAML 1.2 (JSON Schema, editors) but the number 1000 in YAML 1.1: write the number as 1000, or quote the text"),
])
def test_forms_yaml_1_1_reads_differently_are_reported_at_their_position(text, value, message):
    loaded = load_text(f"spec:\n  count: {text}\n", "f.yaml")
    assert loaded.documents[0].data == {"spec": {"count": value}}
    assert [(p.rule, p.message, p.line, p.column) for p in loaded.problems] == [("SPEC001", message, 2, 10)]


@pytest.mark.parametrize("first", ["yamllint", "clusterlint"])
def test_a_library_that_changes_pyyamls_resolvers_changes_no_report(first):
    """yamllint's quoted-strings rule appends an int resolver to PyYAML's shared YAML 1.1 table when
    imported; before or after the loader, the YAML 1.1 readings reported stay PyYAML's own."""
    pytest.importorskip("yamllint")
    import subprocess
    import sys

    imports = ["import yamllint.rules.quoted_strings", "from clusterlint.readers.loader import load_text"]
    code = "\n".join(imports if first == "yamllint" else imports[::-1]) + (
        "\nimport yamllint.rules.quoted_strings\n"
        "print([(p.rule, p.line, p.column) for t in ('0o10', '010', '1_000', '1:30') for p in load_text(f'a: {t}\\n', 'f.yaml').problems])\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout == "[('SPEC001', 1, 4), ('SPEC001', 1, 4), ('SPEC001', 1, 4), ('SPEC001', 1, 4)]\n", done.stderr
