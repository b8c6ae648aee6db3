"""Where users run clusterlint: the real pre-commit running our hook, and the GitHub Action's step."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
import yaml

from conftest import ROOT, SPECS

BIN = Path(sys.executable).parent
FLAWED = (SPECS / "budget-pcie-nfs.yaml").read_text(encoding="utf-8")
FIXED = (SPECS / "dgx-h100-superpod.yaml").read_text(encoding="utf-8")


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True,
                   env={**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
                        "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"})


def _pre_commit_available() -> str | None:
    if shutil.which("git") is None:
        return "git is not installed"
    if not (ROOT / ".git").exists():
        return "the checkout is not a git repository, so pre-commit try-repo cannot clone it"
    try:
        import pre_commit  # noqa: F401
    except ImportError:
        return "pre-commit is not installed (pip install '.[test]')"
    return None


@pytest.mark.skipif(_pre_commit_available() is not None, reason=str(_pre_commit_available()))
def test_pre_commit_runs_the_hook_and_blocks_a_flawed_quote(tmp_path):
    repo = tmp_path / "quotes"
    repo.mkdir()
    _git(repo, "init", "-q")
    (repo / "quote.yaml").write_text(FLAWED, encoding="utf-8")
    (repo / "ci.yaml").write_text("on: push\n", encoding="utf-8")  # not a spec: passed over
    _git(repo, "add", ".")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "cache"), "NO_COLOR": "1"}
    command = [sys.executable, "-m", "pre_commit", "try-repo", str(ROOT), "clusterlint", "--all-files"]
    failed = subprocess.run(command, cwd=repo, env=env, capture_output=True, text=True, timeout=600)
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "quote.yaml:16:43: CPU001 [error]" in failed.stdout
    assert "Not linted (1 file with no clusterlint document): ci.yaml" in failed.stdout
    (repo / "quote.yaml").write_text(FIXED, encoding="utf-8")
    _git(repo, "add", ".")
    passed = subprocess.run(command, cwd=repo, env=env, capture_output=True, text=True, timeout=600)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "clusterlint" in passed.stdout and "Passed" in passed.stdout


def test_hooks_file_declares_the_hooks():
    hooks = {h["id"]: h for h in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))}
    assert set(hooks) == {"clusterlint", "clusterlint-strict"}
    assert all(h["pass_filenames"] and h["language"] == "python" and h["entry"].startswith("clusterlint check") for h in hooks.values())
    assert "--fail-on warning" in hooks["clusterlint-strict"]["entry"]


# ---------------------------------------------------------------- GitHub Action


ACTION = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))


def test_action_validates_against_the_github_actions_schema():
    result = subprocess.run([str(BIN / "check-jsonschema"), "--builtin-schema", "vendor.github-actions", str(ROOT / "action.yml")],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_action_declares_its_inputs_and_outputs():
    assert set(ACTION["inputs"]) >= {"paths", "workload", "contract", "config", "fail-on", "min-score", "sarif-file", "version"}
    assert set(ACTION["outputs"]) == {"score", "findings"}
    assert ACTION["runs"]["using"] == "composite"


def _run_step(tmp_path: Path, **inputs) -> tuple[subprocess.CompletedProcess, Path, Path, Path]:
    step = next(s for s in ACTION["runs"]["steps"] if s.get("id") == "check")
    env_names = {name: expr for name, expr in step["env"].items()}
    env = dict(os.environ)
    env.pop("GITHUB_STEP_SUMMARY", None)
    for name, expr in env_names.items():
        key = expr.removeprefix("${{ inputs.").removesuffix(" }}")
        env[name] = inputs.get(key.replace("-", "_"), ACTION["inputs"][key].get("default", ""))
    output, summary, sarif = tmp_path / "output", tmp_path / "summary.md", tmp_path / inputs.get("sarif_file", "clusterlint.sarif")
    env.update(GITHUB_OUTPUT=str(output), GITHUB_STEP_SUMMARY=str(summary), GITHUB_ACTIONS="true", PATH=f"{BIN}{os.pathsep}{env['PATH']}")
    result = subprocess.run(["bash", "-c", step["run"]], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    return result, output, summary, sarif


def test_action_step_writes_annotations_summary_sarif_and_outputs(tmp_path):
    sarif_file = tmp_path / "out.sarif"
    result, output, summary, sarif = _run_step(tmp_path, paths="specs/budget-pcie-nfs.yaml specs/gcp-a3-highgpu-8g.yaml",
                                               workload="specs/llama70b-pretrain.yaml", sarif_file=str(sarif_file))
    assert result.returncode == 1, result.stderr
    assert "::error file=specs/budget-pcie-nfs.yaml,line=16,col=43,title=CPU001 too-few-cpu-cores::" in result.stdout
    assert summary.read_text(encoding="utf-8").startswith("# clusterlint review")
    document = json.loads(sarif_file.read_text(encoding="utf-8"))
    schema = json.loads((ROOT / "tests" / "vendor" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
    jsonschema.Draft4Validator(schema).validate(document)
    outputs = dict(line.split("=", 1) for line in output.read_text(encoding="utf-8").splitlines())
    assert outputs == {"score": "62.5", "findings": str(len(document["runs"][0]["results"]))}


def test_action_step_passes_a_good_quote_and_honours_min_score(tmp_path):
    result, output, _, _ = _run_step(tmp_path, paths="specs/dgx-h100-superpod.yaml", workload="specs/llama70b-pretrain.yaml",
                                     sarif_file=str(tmp_path / "a.sarif"))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "score=100\n" in output.read_text(encoding="utf-8")
    result, _, _, _ = _run_step(tmp_path, paths="specs/aws-p5-48xlarge.yaml", workload="specs/llama70b-pretrain.yaml",
                                fail_on="never", min_score="90", sarif_file=str(tmp_path / "b.sarif"))
    assert result.returncode == 1


def test_action_step_passes_the_config_input(tmp_path):
    result, output, _, sarif = _run_step(tmp_path, paths="specs/budget-pcie-nfs.yaml", config="specs/policies/acme-gpu-policy.yaml",
                                         sarif_file=str(tmp_path / "c.sarif"))
    assert result.returncode == 1, result.stderr
    assert "title=ACME002 no-nfs::" in result.stdout  # the policy's own rules ran, with its workload
    results = json.loads(sarif.read_text(encoding="utf-8"))["runs"][0]["results"]
    assert {r["ruleId"] for r in results} >= {"ACME001", "ACME002", "CST001"}
