"""DLV025-DLV026 case by case: the collect manifest (clusterlint's own format, from a real collect run
on a machine without GPU tools, tests/evidence/collect/) and real outputs (tests/evidence/public/,
sources in SOURCE.md; edits named in each case): the rule, the quote line and column, the severity,
the exact message and the evidence file and line, for each gate; collect's manifest from real runs."""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest

from conftest import ROOT, run_cli
from test_accept_cases import PUBLIC, _hits, _run

MANIFEST = (ROOT / "tests" / "evidence" / "collect" / "collect-manifest-vm.txt").read_text()  # docker found, the rest not installed
SCONTROL = (PUBLIC / "scontrol-show-config-healthcheck.txt").read_text()  # HealthCheckProgram = /usr/sbin/nhc at line 6
NHC = (ROOT / "tests" / "fixtures" / "DLV026" / "bad-evidence" / "node-1" / "healthcheck-nhc-conf.txt").read_text()
NHC_DCGM = (ROOT / "tests" / "fixtures" / "DLV026" / "good-evidence" / "node-1" / "healthcheck-nhc-conf.txt").read_text()
TWO = ROOT / "tests" / "evidence" / "two-nodes"

# containers: docker column 18, enroot 26, pyxis 34 (line 12); tools: lmod 13, hpc-sdk 19, nsight-compute 28, dcgm 44 (line 13)
STACK = ("  software:\n    orchestrator: slurm\n    containers: [docker, enroot, pyxis]\n"
         "    tools: [lmod, hpc-sdk, nsight-compute, dcgm]\n")
ONLY = "  software:\n    orchestrator: slurm\n    containers: [%s]\n    tools: [%s]\n"  # line 12 column 18, line 13 column 13


def _line(text: str, start: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if line.startswith(start))


def _cite(text: str, start: str) -> str:
    return f"collect-manifest.txt:{_line(text, start)}"


def _without(text: str, start: str) -> str:
    return "".join(line for line in text.splitlines(True) if not line.startswith(start))


@pytest.mark.parametrize("files, extra, expected", [
    # the real manifest: docker answers (docker --version), every other promised tool is not installed on the machine
    ({"collect-manifest.txt": MANIFEST}, STACK, [
        (12, 26, "warning", "node node-1: the quoted enroot is not installed (collect tried enroot version)", [_cite(MANIFEST, "not-installed enroot")]),
        (12, 34, "warning", "node node-1: the quoted pyxis is not installed (collect tried srun --help)", [_cite(MANIFEST, "not-installed pyxis")]),
        (13, 13, "warning", "node node-1: the quoted lmod is not installed (collect tried test -x $LMOD_CMD)", [_cite(MANIFEST, "not-installed lmod")]),
        (13, 19, "warning", "node node-1: the quoted hpc-sdk is not installed (collect tried test -x /opt/nvidia/hpc_sdk/*/*/compilers/bin/nvc)",
         [_cite(MANIFEST, "not-installed hpc-sdk")]),
        (13, 28, "warning", "node node-1: the quoted nsight-compute is not installed (collect tried /usr/local/cuda/bin/ncu --version)",
         [_cite(MANIFEST, "not-installed ncu")]),
        (13, 44, "warning", "node node-1: the quoted dcgm is not installed (collect tried dcgmi diag -r 1 -j)", [_cite(MANIFEST, "not-installed dcgmi")]),
    ]),
    # installed but not answering (edited status): failed, timed out
    ({"collect-manifest.txt": MANIFEST.replace("not-installed enroot", "failed enroot")}, ONLY % ("enroot", ""),
     [(12, 18, "warning", "node node-1: the quoted enroot did not answer (enroot version failed)", [_cite(MANIFEST, "not-installed enroot")])]),
    ({"collect-manifest.txt": MANIFEST.replace("not-installed enroot", "timed-out enroot")}, ONLY % ("enroot", ""),
     [(12, 18, "warning", "node node-1: the quoted enroot did not answer (enroot version timed out)",
       [_cite(MANIFEST, "not-installed enroot")])]),
    # docker: one of its two tries answering is enough (docker version failed here: no daemon reachable, docker --version answered)
    ({"collect-manifest.txt": MANIFEST}, ONLY % ("docker", ""), []),
    # no manifest: the real docker version and dcgmi -v outputs show both installed; nothing shows enroot
    ({"docker.txt": PUBLIC / "docker-version-28.3.3.txt", "dcgmi.txt": PUBLIC / "dcgmi-v-3.3.5.txt"}, ONLY % ("docker, enroot", "dcgm"),
     [(12, 26, "warning", "the quoted enroot on node node-1 is not evidenced: no collect manifest line for enroot (enroot version) among the evidence files", [])]),
    ({"dcgmi.txt": PUBLIC / "dcgmi-v-3.3.5.txt"}, ONLY % ("docker", ""),
     [(12, 18, "warning", "the quoted docker on node node-1 is not evidenced: no collect manifest line for docker (docker --version) or docker version "
       "output among the evidence files", [])]),
    # a manifest without the tool's line (an older collect): not evidenced, never passed
    ({"collect-manifest.txt": _without(MANIFEST, "not-installed pyxis")}, ONLY % ("pyxis", ""),
     [(12, 18, "warning", "the quoted pyxis on node node-1 is not evidenced: no collect manifest line for pyxis (srun --help) among the evidence files", [])]),
])
def test_dlv025(tmp_path, files, extra, expected):
    assert _hits(_run(tmp_path, files, extra=extra), "DLV025") == expected


@pytest.mark.parametrize("extra", ["", "  software: {orchestrator: slurm, containers: [], tools: []}\n"])
def test_dlv025_runs_only_for_a_promise(tmp_path, extra):
    report = _run(tmp_path, {"collect-manifest.txt": MANIFEST}, extra=extra)
    assert [s["reason"] for s in report["skipped"] if s["rule"] == "DLV025"] == [
        "the quote promises no container runtime or tool (software.containers, software.tools)"]


@pytest.mark.parametrize("text, line, column, message", [
    (MANIFEST.replace("manifest 1", "manifest 2"), 1, 32, "manifest format '2' is not one this clusterlint reads (1)"),
    (MANIFEST.replace("not-installed enroot", "missing enroot"), _line(MANIFEST, "not-installed enroot"), 1,
     "status 'missing' is not one of found, not-installed, failed, timed-out, not-readable"),
    (MANIFEST.replace("not-installed enroot - enroot version", "not-installed enroot"), _line(MANIFEST, "not-installed enroot"), 21,
     "a manifest line needs a status, a name, a file and a command"),
])
def test_an_unreadable_manifest_is_dlv009_and_judges_nothing(tmp_path, text, line, column, message):
    report = _run(tmp_path, {"collect-manifest.txt": text}, extra=ONLY % ("enroot", ""))
    [finding] = [f for f in report["findings"] if f["rule"] == "DLV009"]
    assert finding["message"].endswith("collect-manifest output cannot be read: " + message)
    assert finding["evidence"][0].split(": ", 1)[0].endswith(f"collect-manifest.txt:{line}:{column}")
    assert [h[3] for h in _hits(report, "DLV025")] == [
        "the quoted enroot on node node-1 is not evidenced: no collect manifest line for enroot (enroot version) among the evidence files"]


DCGM_AT = ONLY % ("", "dcgm")  # dcgm: line 13, column 13
WIRED = ("node node-1: the HealthCheckProgram /usr/sbin/nhc runs no DCGM check (/etc/nhc/nhc.conf names no dcgmi, dcgm or nv-hostengine): "
         "a GPU that fails DCGM's health watches is not drained")


@pytest.mark.parametrize("files, expected", [
    # NHC's configuration without a DCGM check (its comment names DCGM, which runs nothing)
    ({"scontrol.txt": SCONTROL, "nhc.txt": NHC},
     [(13, 13, "warning", WIRED, ["scontrol.txt:6", "nhc.txt:1"])]),
    # a check line running dcgmi diag -r 1
    ({"scontrol.txt": SCONTROL, "nhc.txt": NHC_DCGM}, []),
])
def test_dlv026(tmp_path, files, expected):
    assert _hits(_run(tmp_path, files, extra=DCGM_AT), "DLV026") == expected


@pytest.mark.parametrize("files, extra, reason", [
    ({"scontrol.txt": SCONTROL, "nhc.txt": NHC}, ONLY % ("", "lmod"), "the quote does not promise DCGM (software.tools)"),
    ({"scontrol.txt": SCONTROL}, DCGM_AT,
     "no scontrol show config with a copy of its HealthCheckProgram among the evidence files (clusterlint collect copies it)"),
])
def test_dlv026_skips(tmp_path, files, extra, reason):
    report = _run(tmp_path, files, extra=extra)
    assert [s["reason"] for s in report["skipped"] if s["rule"] == "DLV026"] == [reason]


# ---------------------------------------------------------------- collect's manifest, from real runs


def _stub(folder, name, body="exit 0"):
    path = folder / name
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(0o755)
    return path


def _collect(tmp_path, bin_folder=None, env=None):
    tmp_path.mkdir(parents=True, exist_ok=True)
    script = tmp_path / "collect.sh"
    assert run_cli("collect", "-o", str(script))[0] == 0
    environment = {**os.environ, **(env or {})}
    if bin_folder is not None:
        environment["PATH"] = f"{bin_folder}:{environment['PATH']}"
    result = subprocess.run(["sh", str(script), str(tmp_path / "evidence")], capture_output=True, text=True, cwd=tmp_path, env=environment)
    assert result.returncode == 0, result.stderr
    [node] = (tmp_path / "evidence").iterdir()
    return node / "collect-manifest.txt"


def test_collect_writes_a_manifest_of_every_try(tmp_path):
    lines = _collect(tmp_path).read_text().splitlines()
    assert lines[0] == "# clusterlint collect manifest 1" and lines[1].startswith("# host ") and lines[2] == "# status name file command"
    rows = {(line.split(" ")[1], line.split(" ", 3)[3]): line.split(" ")[0] for line in lines[3:]}
    assert rows[("/proc/meminfo", "cat /proc/meminfo")] == "found"
    assert rows[("lscpu", "lscpu -J")] == "found"
    for tool, command in (("enroot", "enroot version"), ("apptainer", "apptainer --version"), ("dcgmi", "dcgmi -v")):
        if shutil.which(tool) is None:
            assert rows[(tool, command)] == "not-installed"
    if shutil.which("srun") is None:
        assert rows[("pyxis", "srun --help")] == "not-installed"


def test_collect_tells_found_failed_and_pyxis_apart(tmp_path):
    bin_folder = tmp_path / "bin"
    bin_folder.mkdir()
    _stub(bin_folder, "enroot")  # answers
    _stub(bin_folder, "podman", "exit 3")  # installed, fails
    _stub(bin_folder, "srun", "echo '      --container-image=[USER@][REGISTRY#]IMAGE[:TAG]|PATH'")  # the option pyxis adds to srun --help
    lmod = _stub(bin_folder, "lmod-cmd")
    rows = _collect(tmp_path / "run", bin_folder, {"LMOD_CMD": str(lmod)}).read_text().splitlines()
    assert "found enroot - enroot version" in rows
    assert "failed podman - podman --version" in rows
    assert "found pyxis - srun --help | grep -e --container-image" in rows
    assert f"found lmod - test -x {lmod}" in rows
    _stub(bin_folder, "srun", "echo '  -N, --nodes=N'")  # srun without the plugin's options
    rows = _collect(tmp_path / "again", bin_folder).read_text().splitlines()
    assert "not-installed pyxis - srun --help | grep -e --container-image" in rows


def test_collect_copies_the_health_check_program_behind_a_header(tmp_path):
    bin_folder = tmp_path / "bin"
    bin_folder.mkdir()
    program = _stub(tmp_path, "healthcheck.sh", "dcgmi diag -r 1")
    _stub(bin_folder, "scontrol", f"echo 'HealthCheckProgram      = {program}'")
    manifest = _collect(tmp_path / "run", bin_folder)
    copy = (manifest.parent / "healthcheck-program.txt").read_text()
    assert copy.splitlines()[:3] == [f"# clusterlint collect: copy of {program} (HealthCheckProgram)", "#!/bin/sh", "dcgmi diag -r 1"]
    assert f"found {program} healthcheck-program.txt cat {program}" in manifest.read_text().splitlines()


def test_a_delivered_cluster_with_its_promised_stack_is_accepted(tmp_path):
    bin_folder = tmp_path / "bin"
    bin_folder.mkdir()
    _stub(bin_folder, "enroot")
    _stub(bin_folder, "dcgmi", "echo stub")  # run() counts a tool that printed nothing as failed
    _stub(bin_folder, "srun", "echo '      --container-image=[USER@][REGISTRY#]IMAGE[:TAG]|PATH'")
    manifest = _collect(tmp_path / "run", bin_folder, {"LMOD_CMD": str(_stub(bin_folder, "lmod-cmd"))})
    evidence = tmp_path / "ev"
    for node in ("gpu-a", "gpu-b"):  # gpu-a's real captures stand for both nodes (test_accept_hostile), with the run's manifest
        shutil.copytree(TWO / "evidence" / "gpu-a", evidence / node)
        shutil.copy(manifest, evidence / node)
    shutil.copy(TWO / "evidence" / "all_reduce_perf.txt", evidence)
    quote = tmp_path / "quote.yaml"
    quote.write_text((TWO / "quote.yaml").read_text().replace("nic_speed: 400Gbps", "nic_speed: 200Gbps")
                     .replace("root_access: true}", "root_access: true, containers: [enroot, pyxis], tools: [lmod, dcgm]}"))
    code, out, err = run_cli("accept", str(quote), "-e", str(evidence), "--format", "json")
    report = json.loads(out)
    assert [f for f in report["findings"] if f["severity"] in ("error", "warning")] == []
    assert code == 0 and "clusterlint accept: accepted: no blocking finding" in err
