"""The cache of validated configuration files: a hit skips validation, and nothing else changes."""

from __future__ import annotations

import json

import pytest

from clusterlint import config_cache
from clusterlint.config import reading as config_reading
from clusterlint.config.model import Config

from conftest import run_cli


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """An empty cache folder of the test's own, and a working folder without configuration."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    (tmp_path / "work").mkdir()
    monkeypatch.chdir(tmp_path / "work")
    return tmp_path / "cache" / "clusterlint" / "configs"


def entries(cache) -> list:
    return sorted(p.name for p in cache.iterdir()) if cache.is_dir() else []


def no_validation(monkeypatch):
    """From now on, validating a configuration fails the test: only the cache can answer."""

    def fail(*_, **__):
        raise AssertionError("validated again")

    monkeypatch.setattr(Config, "model_validate", fail)


def test_a_valid_file_is_validated_once(cache, monkeypatch):
    with open("c.yaml", "w") as handle:
        handle.write("fail-on: warning\nignore: [NET003]\n")
    first = config_reading.read("c.yaml")
    assert len(entries(cache)) == 1
    no_validation(monkeypatch)
    again = config_reading.read("c.yaml")
    assert (again.values, again.positions, again.keys) == (first.values, first.positions, first.keys)
    assert again.values == {"fail-on": "warning", "ignore": ["NET003"]}
    assert again.where("ignore", 0) == "c.yaml:2:10"
    assert again.origin("ignore") == "c.yaml:2:1"


def test_pyproject_table_is_kept_with_its_positions(cache, monkeypatch):
    with open("pyproject.toml", "w") as handle:
        handle.write('[project]\nname = "x"\n\n[tool.clusterlint]\nextend-exclude = [\n  "tests/",\n  "build/",\n]\nmin-score = 75.0\n')
    first = config_reading.read("pyproject.toml")
    no_validation(monkeypatch)
    again = config_reading.read("pyproject.toml")
    assert again.values == {"extend-exclude": ["tests/", "build/"], "min-score": 75.0}
    assert isinstance(again.values["min-score"], float)
    assert (again.positions, again.keys) == (first.positions, first.keys)
    assert again.where("extend-exclude", 1) == "pyproject.toml:7:3"


def test_editing_the_file_reads_it_again(cache, monkeypatch):
    with open("c.yaml", "w") as handle:
        handle.write("fail-on: warning\n")
    config_reading.read("c.yaml")
    with open("c.yaml", "w") as handle:
        handle.write("fail-on: info\n")
    assert config_reading.read("c.yaml").values == {"fail-on": "info"}
    with open("c.yaml", "w") as handle:
        handle.write("fail-on: sometimes\n")
    with pytest.raises(config_reading.ConfigError) as error:
        config_reading.read("c.yaml")
    assert str(error.value) == "c.yaml:1:10: fail-on: expected one of 'error', 'warning', 'info' or 'never', found 'sometimes'"


def test_an_invalid_file_errors_even_under_a_valid_files_entry(cache):
    with open("good.yaml", "w") as handle:
        handle.write("fail-on: warning\n")
    with open("bad.yaml", "w") as handle:
        handle.write("# a comment\nselct: [NET]\n")
    config_reading.read("good.yaml")
    (good_entry,) = entries(cache)
    bad_entry = config_cache._entry("bad.yaml")  # the bad file's entry holds the good file's reading
    (cache / bad_entry.removeprefix("configs/")).write_bytes((cache / good_entry).read_bytes())
    for _ in range(2):  # and errors are never kept
        with pytest.raises(config_reading.ConfigError) as error:
            config_reading.read("bad.yaml")
        assert str(error.value) == "bad.yaml:2:1: document: unknown key 'selct' (did you mean 'select'?)"
    assert json.loads((cache / good_entry).read_text()) == json.loads((cache / bad_entry.removeprefix("configs/")).read_text())


def test_a_change_of_clusterlint_reads_the_file_again(cache, monkeypatch):
    with open("c.yaml", "w") as handle:
        handle.write("fail-on: warning\n")
    config_reading.read("c.yaml")
    assert "config_model.py" in [name for name, _, _ in config_cache._code()]
    code = config_cache._code()
    monkeypatch.setattr(config_cache, "_code", lambda: [*code, ["config_model.py", 1, 1]])  # an upgraded model
    no_validation(monkeypatch)
    with pytest.raises(AssertionError, match="validated again"):
        config_reading.read("c.yaml")


@pytest.mark.parametrize("garbage", [b"", b"{not json", b"[]", b'{"key": 1}', b"\xff\xfe"])
def test_a_corrupt_entry_is_ignored_and_replaced(cache, garbage):
    with open("c.yaml", "w") as handle:
        handle.write("ignore: [CST]\n")
    config_reading.read("c.yaml")
    (entry,) = entries(cache)
    (cache / entry).write_bytes(garbage)
    assert config_reading.read("c.yaml").values == {"ignore": ["CST"]}
    assert json.loads((cache / entry).read_text())["values"] == {"ignore": ["CST"]}


def test_a_corrupt_entry_under_the_right_key_is_ignored(cache):
    with open("c.yaml", "w") as handle:
        handle.write("ignore: [CST]\n")
    config_reading.read("c.yaml")
    (entry,) = entries(cache)
    saved = json.loads((cache / entry).read_text())
    for broken in ({"values": []}, {"positions": [[1, 2]]}, {"keys": None}):
        (cache / entry).write_text(json.dumps({**saved, **broken}))
        assert config_reading.read("c.yaml").values == {"ignore": ["CST"]}


def test_what_json_cannot_give_back_is_not_kept(cache):
    with open("pyproject.toml", "w") as handle:
        handle.write("[tool.clusterlint]\nparams = {NET003 = {since = 2026-01-01}}\n")
    assert str(config_reading.read("pyproject.toml").values["params"]["NET003"]["since"]) == "2026-01-01"
    assert entries(cache) == []


def test_a_selector_error_names_the_same_place_on_a_hit(cache):
    with open(".clusterlint.yaml", "w") as handle:
        handle.write("fail-on: info\nignore:\n  - CST\n  - NET03\n")
    with open("q.yaml", "w") as handle:
        handle.write("apiVersion: clusterlint/v1\n")
    messages = []
    for _ in range(2):  # a miss, then a hit
        code, _, err = run_cli("check", "q.yaml")
        assert code == 2
        messages.append(err)
    assert len(entries(cache)) == 1
    assert messages[0] == messages[1] == (
        "clusterlint: error: .clusterlint.yaml:4:5: ignore: unknown rule or area 'NET03' (did you mean 'NET003'?); see clusterlint rules\n")


def test_an_unwritable_cache_folder_changes_nothing(tmp_path, monkeypatch):
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "file"))  # a file where the folder would be
    monkeypatch.chdir(tmp_path)
    (tmp_path / "c.yaml").write_text("fail-on: warning\n")
    assert config_reading.read("c.yaml").values == {"fail-on": "warning"}
    assert config_reading.read("c.yaml").values == {"fail-on": "warning"}
