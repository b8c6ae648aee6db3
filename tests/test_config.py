"""Configuration: discovery, keys, precedence (CLI > config file > pyproject > defaults), errors."""

from __future__ import annotations

import json
import shutil

import jsonschema
import pytest
import yaml

from clusterlint.config.model import json_schema

from conftest import FIXTURES, ROOT, run_cli

QUOTE = FIXTURES / "NET003" / "bad.yaml"  # NET003 warning on line 19, CST001 info on line 7


@pytest.fixture
def repo(tmp_path, monkeypatch):
    """A folder of quotes to run clusterlint in; its parents hold no configuration."""
    (tmp_path / "quotes").mkdir()
    shutil.copy(QUOTE, tmp_path / "quotes" / "q.yaml")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def findings(*args) -> list[tuple]:
    code, out, err = run_cli("check", "--format", "json", *args)
    assert code in (0, 1), err
    return [(f["rule"], f["severity"], f["line"]) for f in json.loads(out)["findings"]]


def rules_of(*args) -> set:
    return {rule for rule, _, _ in findings(*args)}


def test_defaults_without_configuration(repo):
    assert findings("quotes/q.yaml") == [("CST001", "info", 7), ("NET003", "warning", 19)]


def test_yaml_config_found_by_walking_up_from_the_file(repo):
    (repo / ".clusterlint.yaml").write_text("ignore: [NET003]\n")
    assert rules_of("quotes/q.yaml") == {"CST001"}


def test_yml_spelling_is_found_too(repo):
    (repo / "quotes" / ".clusterlint.yml").write_text("ignore: [CST]\n")
    assert rules_of("quotes/q.yaml") == {"NET003"}


def test_nearest_configuration_wins(repo):
    (repo / ".clusterlint.yaml").write_text("ignore: [NET003]\n")
    (repo / "quotes" / ".clusterlint.yaml").write_text("ignore: [CST001]\n")
    assert rules_of("quotes/q.yaml") == {"NET003"}


def test_pyproject_table_is_used_when_no_yaml_config(repo):
    (repo / "pyproject.toml").write_text('[project]\nname = "x"\n\n[tool.clusterlint]\nignore = ["NET003"]\n')
    assert rules_of("quotes/q.yaml") == {"CST001"}


def test_pyproject_without_the_table_is_passed_over(repo):
    (repo / ".clusterlint.yaml").write_text("ignore: [NET003]\n")
    (repo / "quotes" / "pyproject.toml").write_text('[project]\nname = "x"\n')
    assert rules_of("quotes/q.yaml") == {"CST001"}


def test_precedence_cli_over_config_file_over_pyproject_over_defaults(repo):
    assert findings("quotes/q.yaml")[1] == ("NET003", "warning", 19)  # default severity
    (repo / "pyproject.toml").write_text('[tool.clusterlint.severity]\nNET003 = "info"\n')
    assert findings("quotes/q.yaml")[1] == ("NET003", "info", 19)  # pyproject over defaults
    (repo / ".clusterlint.yaml").write_text("severity: {NET003: error}\n")
    assert findings("quotes/q.yaml")[1] == ("NET003", "error", 19)  # config file over pyproject (same folder)
    assert findings("quotes/q.yaml", "--severity", "NET003=warning")[1] == ("NET003", "warning", 19)  # flags over files


def test_config_flag_names_one_file_and_isolated_ignores_all(repo):
    (repo / ".clusterlint.yaml").write_text("ignore: [NET003]\n")
    (repo / "other.yaml").write_text("ignore: [CST001]\n")
    assert rules_of("quotes/q.yaml", "--config", "other.yaml") == {"NET003"}
    assert rules_of("quotes/q.yaml", "--isolated") == {"CST001", "NET003"}
    code, _, err = run_cli("check", "quotes/q.yaml", "--config", "other.yaml", "--isolated")
    assert code == 2 and "--config and --isolated cannot be used together" in err


@pytest.mark.parametrize("config, expected", [
    ("select: [NET]\n", {"NET003"}),
    ("select: [ALL]\nignore: [NET]\n", {"CST001"}),
    ("select: [CST001]\nextend-select: [NET003]\n", {"CST001", "NET003"}),
    ("ignore: [NET]\nselect: [NET003, CST]\n", {"CST001", "NET003"}),  # an id is more specific than an area
    ("select: [NET003]\nignore: [NET003]\n", set()),  # at equal specificity ignore wins
])
def test_select_ignore_extend_select(repo, config, expected):
    (repo / ".clusterlint.yaml").write_text(config)
    assert rules_of("quotes/q.yaml") == expected


def test_cli_select_replaces_and_cli_ignore_adds(repo):
    (repo / ".clusterlint.yaml").write_text("select: [NET]\n")
    assert rules_of("quotes/q.yaml", "--select", "CST") == {"CST001"}
    assert rules_of("quotes/q.yaml", "--extend-select", "CST001") == {"CST001", "NET003"}
    assert rules_of("quotes/q.yaml", "--extend-select", "CST001", "--ignore", "NET003") == {"CST001"}


def test_severity_override_changes_the_score(repo):
    code, out, _ = run_cli("check", "--format", "json", "quotes/q.yaml", "--severity", "NET=error")
    report = json.loads(out)
    net = next(f for f in report["findings"] if f["rule"] == "NET003")
    assert (net["severity"], net["score"], report["score"]["score"], code) == ("error", 15.0, 85.0, 1)


def test_params_override_from_file_and_flag(repo):
    shutil.copy(FIXTURES / "STO002" / "good.yaml", repo / "quotes" / "storage.yaml")
    assert "STO002" not in rules_of("quotes/storage.yaml")
    (repo / ".clusterlint.yaml").write_text("params:\n  STO002: {min_ratio: 100}\n")
    assert ("STO002", "error", 26) in findings("quotes/storage.yaml")
    assert "STO002" not in rules_of("quotes/storage.yaml", "--param", "STO002.min_ratio=1.25")  # the flag wins


def test_per_file_ignores_by_glob(repo):
    shutil.copy(QUOTE, repo / "quotes" / "legacy-q.yaml")
    (repo / ".clusterlint.yaml").write_text('per-file-ignores:\n  "quotes/legacy-*.yaml": [NET003]\n')
    code, out, _ = run_cli("check", "--format", "json", "quotes")
    by_file = {(f["file"], f["rule"]) for f in json.loads(out)["findings"]}
    assert ("quotes/q.yaml", "NET003") in by_file and ("quotes/legacy-q.yaml", "NET003") not in by_file
    assert rules_of("quotes/legacy-q.yaml", "--isolated", "--per-file-ignores", "legacy-*.yaml=NET003,CST001") == set()


def test_workload_key_is_relative_to_the_config_file(repo):
    cluster = yaml.safe_load_all(QUOTE.read_text())
    docs = list(cluster)
    (repo / "quotes" / "cluster.yaml").write_text(yaml.safe_dump(docs[0], sort_keys=False))
    (repo / "jobs").mkdir()
    (repo / "jobs" / "w.yaml").write_text(yaml.safe_dump(docs[1], sort_keys=False))
    assert "CST001" not in rules_of("quotes/cluster.yaml")  # no workload: the time estimate is skipped
    (repo / "quotes" / ".clusterlint.yaml").write_text("workload: ../jobs/w.yaml\n")
    assert "CST001" in rules_of("quotes/cluster.yaml")


def test_fail_on_and_min_score_keys(repo):
    assert run_cli("check", "quotes/q.yaml")[0] == 0  # a warning does not fail by default
    (repo / ".clusterlint.yaml").write_text("fail-on: warning\n")
    assert run_cli("check", "quotes/q.yaml")[0] == 1
    assert run_cli("check", "quotes/q.yaml", "--fail-on", "never")[0] == 0
    (repo / ".clusterlint.yaml").write_text("min-score: 95\n")  # the review scores 92.5
    assert run_cli("check", "quotes/q.yaml")[0] == 1
    assert run_cli("check", "quotes/q.yaml", "--min-score", "90")[0] == 0


@pytest.mark.parametrize("config, message", [
    ("selct: [NET]\n", ".clusterlint.yaml:1:1: document: unknown key 'selct' (did you mean 'select'?)"),
    ("ignore: [NET03]\n", ".clusterlint.yaml:1:10: ignore: unknown rule or area 'NET03' (did you mean 'NET003'?); see clusterlint rules"),
    ("fail-on: sometimes\n", ".clusterlint.yaml:1:10: fail-on: expected one of 'error', 'warning', 'info' or 'never', found 'sometimes'"),
    ("min-score: 120\n", ".clusterlint.yaml:1:12: min-score: expected less than or equal to 100, found 120"),
    ("params:\n  STO002: {min_ratio: 0.5}\n", ".clusterlint.yaml:2:3: STO002 params.min_ratio: Input should be greater than or equal to 1"),
    ("params:\n  STO02: {min_ratio: 2}\n", ".clusterlint.yaml:2:3: params: unknown rule 'STO02' (did you mean 'STO002'?); see clusterlint rules"),
    ("severity:\n  NET003: fatal\n", ".clusterlint.yaml:2:11: severity.NET003: expected one of 'error', 'warning' or 'info', found 'fatal'"),
    ("ignore: [SPEC002]\n", ".clusterlint.yaml:1:10: ignore: SPEC002 cannot be ignored: an invalid document cannot be reviewed, so ignoring it would pass the file unread"),
    ("rules: [policy/]\n", ".clusterlint.yaml:1:9: rules: no such rule file or folder: {repo}/policy"),
    ("ignore: [NET003\n", ".clusterlint.yaml:1:16: invalid YAML: while parsing a flow sequence: did not find expected ',' or ']'"),
])
def test_configuration_errors_name_file_line_and_column(repo, config, message):
    (repo / ".clusterlint.yaml").write_text(config)
    code, out, err = run_cli("check", "quotes/q.yaml")
    assert code == 2 and out == ""
    assert err == f"clusterlint: error: {message.format(repo=repo)}\n"


def test_pyproject_errors_name_the_line(repo):
    (repo / "pyproject.toml").write_text('[project]\nname = "x"\n\n[tool.clusterlint]\nfail-on = "warning"\nextend-select = [\n  "CST",\n  "NETT",\n]\n')
    code, _, err = run_cli("check", "quotes/q.yaml")
    assert code == 2
    assert err == "clusterlint: error: pyproject.toml:8:3: extend-select: unknown rule or area 'NETT' (did you mean 'NET'?); see clusterlint rules\n"


def test_param_flag_value_that_is_not_yaml_is_a_usage_error(repo):
    code, _, err = run_cli("check", "quotes/q.yaml", "--param", "STO002.min_ratio=[")
    assert (code, err) == (2, "clusterlint: error: --param STO002.min_ratio=[: VALUE is not plain YAML data "
                           "(VALUE:1:2: invalid YAML: while parsing a flow node: did not find expected node content)\n")


def test_cli_selector_errors_name_the_flag(repo):
    code, _, err = run_cli("check", "quotes/q.yaml", "--select", "NET03")
    assert (code, err) == (2, "clusterlint: error: --select: unknown rule or area 'NET03' (did you mean 'NET003'?); see clusterlint rules\n")


def test_config_command_prints_values_and_origins(repo):
    (repo / ".clusterlint.yaml").write_text("ignore: [UNI002]\nfail-on: warning\n")
    code, out, _ = run_cli("config", "quotes", "--min-score", "80")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "# configuration file: .clusterlint.yaml"
    assert any(line.startswith('ignore: ["UNI002"]') and line.endswith("# .clusterlint.yaml:1:1") for line in lines)
    assert any(line.startswith('fail-on: "warning"') and line.endswith("# .clusterlint.yaml:2:1") for line in lines)
    assert any(line.startswith("min-score: 80.0") and line.endswith("# command line") for line in lines)
    assert any(line.startswith('select: ["ALL"]') and line.endswith("# default") for line in lines)
    assert yaml.safe_load(out)["ignore"] == ["UNI002"]  # the printout is a usable configuration
    _, out, _ = run_cli("config", "quotes", "--ignore", "CST001")
    assert any(line.startswith('ignore: ["UNI002", "CST001"]') and line.endswith("# .clusterlint.yaml:1:1 + command line") for line in out.splitlines())
    data = json.loads(run_cli("config", "quotes", "--format", "json")[1])
    assert data["values"]["fail-on"] == {"value": "warning", "origin": ".clusterlint.yaml:2:1"}


def test_configuration_schema_is_published_and_agrees(repo):
    schema = json.loads((ROOT / "schemas" / "config.schema.json").read_text())
    assert schema == json_schema()
    validator = jsonschema.Draft202012Validator(schema)
    policy = yaml.safe_load((ROOT / "specs" / "policies" / "acme-gpu-policy.yaml").read_text())
    assert validator.is_valid(policy)
    for bad in ({"selct": ["NET"]}, {"fail-on": "sometimes"}, {"ignore": ["net"]}, {"min-score": 120}):
        assert not validator.is_valid(bad)
        (repo / ".clusterlint.yaml").write_text(yaml.safe_dump(bad))
        assert run_cli("check", "quotes/q.yaml")[0] == 2
