"""What a release publishes: one version, an sdist and a wheel that build offline and pass twine check."""

from __future__ import annotations

import subprocess
import sys
import zipfile

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

import clusterlint

from conftest import ROOT


def test_the_version_is_written_once():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert "version" not in project and "version" in project["dynamic"]
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert "## [Unreleased]" in changelog


def test_sdist_and_wheel_build_offline_and_pass_twine_check(tmp_path):
    out = tmp_path / "dist"
    build = subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(ROOT)],
                           capture_output=True, text=True)
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-3000:]
    version = clusterlint.__version__
    wheel, sdist = out / f"clusterlint-{version}-py3-none-any.whl", out / f"clusterlint-{version}.tar.gz"
    assert wheel.is_file() and sdist.is_file()
    names = zipfile.ZipFile(wheel).namelist()
    packages = [p.parent.relative_to(ROOT / "linter") for p in (ROOT / "linter").rglob("__init__.py")]
    for package in packages:  # every package by concern is listed in pyproject.toml's packages
        assert f"clusterlint/{package.as_posix()}/__init__.py".replace("/./", "/") in names, package
    for shipped in ("clusterlint/data/starter-cluster.yaml", "clusterlint/rules/NET003-low-inter-node-bandwidth.yaml",
                    "clusterlint/schemas/cluster.schema.json", "clusterlint/_generated/builtin_data.py"):
        assert shipped in names
    twine = subprocess.run([sys.executable, "-m", "twine", "check", "--strict", str(wheel), str(sdist)], capture_output=True, text=True)
    assert twine.returncode == 0, twine.stdout + twine.stderr
