"""Reproducers of issue 38 outside `accept`: each hostile input gets a clear error or a finding,
never a crash, a hang or an overwritten input."""

from __future__ import annotations

import hashlib
import os
import re
import stat
import subprocess
import sys
import time

import pytest

from clusterlint.model import units
from clusterlint.readers.loader import load_text
from clusterlint.reporters.escape import github_data, html

from conftest import SPECS, run_cli

SPEC = SPECS / "aws-p5-48xlarge.yaml"


def _digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("fmt", ["text", "json", "github"])
def test_check_stdin_to_the_file_stdin_comes_from_is_refused(tmp_path, fmt):
    quote = tmp_path / "q.yaml"
    quote.write_bytes(SPEC.read_bytes())
    before = _digest(quote)
    with open(quote, "rb") as stdin:  # check - -o q.yaml < q.yaml
        done = subprocess.run([sys.executable, "-m", "clusterlint", "check", "-", "--format", fmt, "-o", str(quote)],
                              stdin=stdin, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr == f"clusterlint: error: {quote}: refusing to overwrite standard input with the output; choose another file\n"
    assert _digest(quote) == before


def test_an_output_that_is_a_hard_link_to_an_input_is_refused(tmp_path):
    quote = tmp_path / "q.yaml"
    quote.write_bytes(SPEC.read_bytes())
    (tmp_path / "other-name.yaml").hardlink_to(quote)
    before = _digest(quote)
    code, _, err = run_cli("check", str(quote), "-o", str(tmp_path / "other-name.yaml"))
    assert code == 2 and "refusing to overwrite a file being linted" in err
    code, _, err = run_cli("check", str(quote), "--write-baseline", str(tmp_path / "other-name.yaml"))
    assert code == 2 and _digest(quote) == before


@pytest.mark.parametrize("where", ["folder", "missing/summary.md"])
def test_a_step_summary_that_cannot_be_written_is_a_warning(tmp_path, monkeypatch, where):
    (tmp_path / "folder").mkdir()
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(tmp_path / where))
    done = subprocess.run([sys.executable, "-m", "clusterlint", "check", str(SPEC), "--format", "github"],
                          capture_output=True, text=True, timeout=120)  # a process: its standard error as the job's log has it
    code, out, err = done.returncode, done.stdout, done.stderr
    assert code == 1  # as without the summary: the quote has errors
    assert "::error " in out
    assert f"clusterlint: warning: {tmp_path / where}: cannot write the job summary ($GITHUB_STEP_SUMMARY)" in err
    assert "internal error" not in err


def test_a_5000_digit_number_in_a_baseline_is_a_clear_error(tmp_path):
    baseline = tmp_path / "baseline.json"
    baseline.write_text('{"clusterlint_baseline": 1,\n "findings": [], "n": ' + "9" * 5000 + "}\n")
    code, _, err = run_cli("check", str(SPEC), "--baseline", str(baseline))
    assert (code, err) == (2, f"clusterlint: error: {baseline}:2:23: not a clusterlint baseline: a number of 5,000 digits\n")


@pytest.mark.parametrize("text, message", [
    ("a: !!timestamp x\n", "'x' cannot be read as timestamp: expected a date or a time, such as 2025-01-31 or 2025-01-31T09:30:00Z"),
    ("a: !!bool maybe\n", "'maybe' cannot be read as bool: expected true or false"),
    ("a: !!null x\n", "'x' cannot be read as null: expected null, ~ or nothing"),
])
def test_a_tag_its_text_does_not_fit_is_spec001_at_its_place(text, message):
    assert [(p.rule, p.message, p.line, p.column) for p in load_text(text, "f.yaml").problems] == [("SPEC001", message, 1, 4)]


def test_a_tagged_scalar_in_a_spec_is_a_finding_not_a_crash(tmp_path):
    quote = tmp_path / "q.yaml"
    quote.write_text(SPEC.read_text().replace("name: aws-p5-32-nodes", "name: !!timestamp x", 1))
    code, out, err = run_cli("check", "--no-color", str(quote))
    assert code == 1 and "internal error" not in err
    assert f"{quote}:9:9: SPEC001 [error] 'x' cannot be read as timestamp" in out


@pytest.mark.parametrize("value, says", [
    ("!!float x", "(VALUE:1:1: 'x' cannot be read as float: could not convert string to float: 'x')"),
    ("!!bool maybe", "(VALUE:1:1: 'maybe' cannot be read as bool: expected true or false)"),
    ("[1, !!timestamp x]", "(VALUE:1:5: 'x' cannot be read as timestamp"),
])
def test_a_param_value_that_cannot_be_read_is_a_usage_error_with_its_position(value, says):
    code, _, err = run_cli("check", str(SPEC), "--param", f"NET003.efficiency={value}")
    assert code == 2 and f"clusterlint: error: --param NET003.efficiency={value}: VALUE is not plain YAML data {says}" in err


@pytest.mark.parametrize("text, kind, limit", [
    ("1.7e308EiB", "size", "1e+60 bytes"), ("1.79e308Tbps", "rate", "1e+60 bits per second"), ("1e300 USD", "money", "1e+60 USD"),
    ("1e61", "count", "1e+60"), ("1e307 years", "duration", "1e+60 seconds"), ("1e308%", "percent", "1e+62%"),
])
def test_a_figure_near_the_float_limit_is_out_of_range(text, kind, limit):
    with pytest.raises(units.UnitError) as error:
        units.parse(text, kind)
    assert str(error.value) == f"{text!r} is out of range: over {limit}, far beyond any real figure"


def test_the_largest_figure_in_range_is_read():
    assert units.parse("1e60", "count").value == 1e60
    assert units.parse("1000EB", "size").value == 1e21


def test_a_memory_near_the_float_limit_is_a_finding(tmp_path):
    quote = tmp_path / "q.yaml"
    quote.write_text(SPEC.read_text().replace("memory: 2TiB", "memory: 1.7e308EiB", 1))
    code, out, err = run_cli("check", "--no-color", str(quote))
    assert code == 1 and "internal error" not in err and not re.search(r"\binf\b", out)
    assert "spec.node_pools[0].memory: '1.7e308EiB' is out of range: over 1e+60 bytes" in out


def test_init_leaves_no_schemas_folder_when_the_spec_cannot_be_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".git").mkdir()
    (tmp_path / "cluster.yaml").mkdir()  # the spec's name is taken by a folder
    code, _, err = run_cli("init", "--force", "cluster.yaml")
    assert (code, err) == (2, "clusterlint: error: cluster.yaml: cannot write (Is a directory)\n")
    assert not (tmp_path / "schemas").exists()


def test_a_pdf_whose_page_inflates_to_megabytes_is_refused_fast(tmp_path):
    pytest.importorskip("pypdf")
    import zlib

    from test_pdf_limits import _build

    unit = b"BT /F1 11 Tf 72 760 Td (Provider shall deliver.) Tj ET\n"
    stream = zlib.compress(unit * (4_600_000 // len(unit)), 9)
    data = _build([
        (1, b"<< /Type /Catalog /Pages 2 0 R >>"), (2, b"<< /Type /Pages /Kids [4 0 R] /Count 1 >>"),
        (3, b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"),
        (4, b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R >>"),
        (5, f"<< /Length {len(stream)} /Filter /FlateDecode >>\nstream\n".encode() + stream + b"\nendstream"),
    ])
    assert len(data) < 16_000
    path = tmp_path / "msa.pdf"
    path.write_bytes(data)
    started = time.monotonic()
    code, out, _ = run_cli("check", "--no-color", str(path))
    assert time.monotonic() - started < 3  # was 5 s (27 s on a loaded machine) in the text extractor
    assert code == 1
    assert (f"{path}:1:1: SPEC001 [error] the PDF's page 1 inflates to 4.4 MiB of content (4.4 MiB so far), over the limit of "
            "1 MiB a page and 16 MiB in all: not reviewed (a compression bomb?)") in out


def test_control_characters_are_escaped_in_github_commands_and_html():
    assert github_data("a\x1b[2Jb\r\n::error::x\u202e") == "a\\x1b[2Jb%0D%0A::error::x\\u202e"
    assert html("<b>\x1b[31m\x00\u2066 ok\n\t</b>\ud800") == "&lt;b&gt;\\x1b[31m\\x00\\u2066 ok\n\t&lt;/b&gt;\\ud800"


def test_a_control_character_in_a_spec_does_not_reach_the_github_log(tmp_path):
    quote = tmp_path / "q.yaml"
    quote.write_text(SPEC.read_text().replace("nic_speed: 100Gbps", "nic_speed: \"100\\e[2J\"", 1))
    code, out, _ = run_cli("check", str(quote), "--format", "github")
    assert "\x1b" not in out and "\\x1b[2J" in out


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("args, target", [
    (("init", "--force", "cluster.yaml"), "cluster.yaml"),
    (("schema", "--write", "schemas"), "schemas/cluster.schema.json"),
])
def test_init_and_schema_refuse_a_fifo_instead_of_waiting_on_it(tmp_path, args, target):
    (tmp_path / ".git").mkdir()
    (tmp_path / "schemas").mkdir()
    os.mkfifo(tmp_path / target)  # nobody reads it: opening it to write would block for good
    done = subprocess.run([sys.executable, "-m", "clusterlint", *args], capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert (done.returncode, done.stderr) == (2, f"clusterlint: error: {target}: cannot write (a FIFO, device or socket, not a regular file)\n")
    assert stat.S_ISFIFO(os.lstat(tmp_path / target).st_mode)


PLUGIN_NAMES = ("clusterlint_example", "example", "clusterlint_plugin", "clusterlint_rules")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("args", [
    ("--version",), ("check", "q.yaml"), ("check", "--format", "json", "q.yaml"), ("rules",), ("rule", "NET003"), ("config",),
    ("estimate", "-w", str(SPECS / "llama70b-pretrain.yaml"), "q.yaml"), ("schema", "Cluster"), ("collect",),
])
def test_no_cache_and_no_module_in_the_working_folder_changes_a_command(tmp_path, args):
    """No per-user cache is read or written (a FIFO at ~/.cache/clusterlint would hang a reader), and
    `python -m clusterlint` (the working folder first on sys.path) imports no plugin module from it."""
    home = tmp_path / "home"
    (home / ".cache").mkdir(parents=True)
    os.mkfifo(home / ".cache" / "clusterlint")
    work = tmp_path / "work"
    work.mkdir()
    for name in PLUGIN_NAMES:
        (work / f"{name}.py").write_text(f"open({str(tmp_path / ('IMPORTED-' + name))!r}, 'w').close()\nraise SystemExit(99)\n")
    (work / "q.yaml").write_bytes(SPEC.read_bytes())
    env = {**os.environ, "HOME": str(home), "XDG_CACHE_HOME": ""}
    done = subprocess.run([sys.executable, "-m", "clusterlint", *args], capture_output=True, text=True, cwd=work, env=env, timeout=60)
    assert done.returncode in (0, 1) and "Traceback" not in done.stderr, done.stderr
    assert not list(tmp_path.glob("IMPORTED-*"))
    assert sorted(p.name for p in (home / ".cache").iterdir()) == ["clusterlint"] and stat.S_ISFIFO(os.lstat(home / ".cache" / "clusterlint").st_mode)


@pytest.mark.skipif(sys.platform == "win32", reason="collect.sh is a POSIX sh script")
def test_collect_ends_a_hung_tool_and_names_it(tmp_path):
    script = tmp_path / "collect.sh"
    run_cli("collect", "-o", str(script))
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "nvidia-smi").write_text("#!/bin/sh\nsleep 600\n")  # a hung driver: nvidia-smi never returns
    (bin_dir / "nvidia-smi").chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", "CLUSTERLINT_TIMEOUT": "1"}
    started = time.monotonic()
    done = subprocess.run(["sh", str(script), str(tmp_path / "out")], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300)
    assert time.monotonic() - started < 120
    assert done.returncode == 0, done.stderr
    timed_out = [line for line in done.stderr.splitlines() if line.startswith("clusterlint collect: timed out:")]
    assert timed_out and "nvidia-smi-q.xml" in timed_out[0]


# `accept` reproducers the acceptance tests (tests/test_accept_hostile.py) do not pin
TWO = SPECS.parent / "tests" / "evidence" / "two-nodes"


def _two(tmp_path):
    import shutil

    shutil.copytree(TWO, tmp_path / "two")
    return tmp_path / "two"


def _accepted(two, *args):
    import json

    code, out, err = run_cli("accept", str(two / "quote.yaml"), "-e", str(two / "evidence"), "--format", "json", *args)
    assert code in (0, 1) and "internal error" not in err, err
    return code, [(f["rule"], f["severity"], f["message"]) for f in json.loads(out)["findings"]]


def test_a_link_to_dev_zero_in_a_node_folder_is_named_not_read(tmp_path):
    two = _two(tmp_path)
    os.symlink("/dev/zero", two / "evidence" / "gpu-a" / "zero.txt")
    code, findings = _accepted(two)
    assert code == 1
    assert ("DLV009", "warning", f"evidence {two}/evidence/gpu-a/zero.txt was not read: not a regular file (a FIFO, device or socket): not read") in findings


def test_an_unlistable_node_folder_is_named_and_its_node_not_evidenced(tmp_path, monkeypatch):
    two = _two(tmp_path)
    locked, scandir = str(two / "evidence" / "gpu-b"), os.scandir

    def refusing(path="."):  # as chmod 0 does for a user other than root (the tests may run as root)
        if os.fspath(path) == locked:
            raise PermissionError(13, "Permission denied", locked)
        return scandir(path)

    monkeypatch.setattr(os, "scandir", refusing)
    code, findings = _accepted(two)
    assert code == 1
    assert ("DLV009", "warning", f"evidence {locked} was not read: folder cannot be listed (Permission denied)") in findings
    assert not any(rule == "DLV001" and "gpu-b has" in message for rule, _, message in findings)  # its 7 GPUs were not read: not judged


def _without_gpus(xml: str, keep: int) -> str:
    gpus = list(re.finditer(r"\s*<gpu id=.*?</gpu>", xml, re.DOTALL))
    return (xml[:gpus[keep].start()] + xml[gpus[-1].end():]).replace(f"<attached_gpus>{len(gpus)}</attached_gpus>", f"<attached_gpus>{keep}</attached_gpus>")


@pytest.mark.parametrize("name", ["aa-nvidia-smi-q.xml", "zz-nvidia-smi-q.xml"])
def test_two_nvidia_smi_files_that_disagree_are_a_finding_whichever_sorts_last(tmp_path, name):
    two = _two(tmp_path)
    node = two / "evidence" / "gpu-a"
    (node / name).write_text(_without_gpus((node / "nvidia-smi-q.xml").read_text(), 4))
    code, findings = _accepted(two)
    assert code == 1
    files = sorted([f"{node}/nvidia-smi-q.xml", f"{node}/{name}"])
    counts = {f"{node}/nvidia-smi-q.xml": 8, f"{node}/{name}": 4}
    says = f"node gpu-a evidence disagrees on its accelerator count: {counts[files[0]]} in {files[0]}, {counts[files[1]]} in {files[1]}"
    assert ("DLV010", "warning", says) in findings


def test_nccl_tests_output_without_its_busbw_column_is_not_a_pass(tmp_path):
    two = _two(tmp_path)
    path = two / "evidence" / "all_reduce_perf.txt"
    rows = []
    for line in path.read_text().splitlines():
        if "algbw   busbw" in line:
            line = line.replace("   busbw", "")
        elif line.strip() and not line.startswith("#"):
            cells = line.split()
            del cells[11], cells[7]
            line = "  ".join(cells)
        rows.append(line)
    path.write_text("\n".join(rows) + "\n")
    code, findings = _accepted(two, "-c", str(two / "contract.yaml"))
    assert code == 1
    assert [f for f in findings if f[0] == "DLV004"] == [
        ("DLV004", "warning", ("collective bandwidth (the contract commits 360GB/s (all_reduce_busbw)) is not evidenced: "
                               "no nccl-tests output across nodes among the evidence files"))]
    assert any(rule == "DLV009" and message.endswith("all_reduce_perf.txt was not read: not a recognised command output "
                                                     "(see clusterlint collect for what is read)") for rule, _, message in findings)


def test_control_characters_from_evidence_never_reach_an_acceptance_report(tmp_path):
    two = _two(tmp_path)
    (two / "evidence" / "gpu-b").rename(two / "evidence" / "gpu-b\x1b[2J<b>")
    shown = {}
    for fmt in ("html", "markdown", "github", "text"):
        code, shown[fmt], err = run_cli("accept", str(two / "quote.yaml"), "-e", str(two / "evidence"), "--format", fmt)
        assert code == 1 and "\x1b" not in shown[fmt] + err, fmt
    assert "gpu-b\\x1b[2J&lt;b&gt;" in shown["html"]


def _findmnt(two, body: str) -> None:
    for node in ("gpu-a", "gpu-b"):
        (two / "evidence" / node / "df-T.txt").unlink()
        (two / "evidence" / node / "findmnt.json").write_text('{"filesystems": [{"target": "/lustre", "source": "10.0.0.1@o2ib:/lustre", '
                                                               f'"fstype": "lustre"{body}}}]}}\n')


@pytest.mark.parametrize("body", [', "size": "Infinity"', ', "size": NaN', ', "size": "big"', ', "size": true'])
def test_a_findmnt_size_evidence_cannot_hold_is_unreadable_not_a_pass(tmp_path, body):
    two = _two(tmp_path)
    _findmnt(two, body)
    code, findings = _accepted(two)
    assert code == 1
    assert [f[:2] for f in findings if f[0] in ("DLV007", "DLV009")] == [("DLV009", "warning")] * 2 + [("DLV007", "warning")]


@pytest.mark.parametrize("body, rule", [(', "size": -5', "DLV009"), (', "size": 1e300', "DLV009"), (', "size": 0', "DLV007"), ("", "DLV007")])
def test_a_findmnt_size_that_is_no_size_never_passes_the_quoted_capacity(tmp_path, body, rule):
    # below 0 or past any disk: the file is unreadable; 0 or no size: the quoted capacity is not evidenced
    two = _two(tmp_path)
    _findmnt(two, body)
    code, findings = _accepted(two)
    assert code == 1
    assert (rule, "warning") in [f[:2] for f in findings]
    if rule == "DLV007":
        assert any(message.startswith("the capacity of") and "is not evidenced" in message for r, _, message in findings if r == "DLV007")


def test_accept_o_never_overwrites_an_evidence_file_through_a_hard_link(tmp_path):
    two = _two(tmp_path)
    evidence = two / "evidence" / "gpu-a" / "meminfo.txt"
    (two / "report.md").hardlink_to(evidence)
    before = _digest(evidence)
    code, _, err = run_cli("accept", str(two / "quote.yaml"), "-e", str(two / "evidence"), "--format", "markdown", "-o", str(two / "report.md"))
    assert code == 2 and f"{two / 'report.md'}: refusing to overwrite an evidence file with the output; choose another file" in err
    assert _digest(evidence) == before


def test_accept_from_stdin_to_the_file_stdin_comes_from_is_refused(tmp_path):
    two = _two(tmp_path)
    quote = two / "quote.yaml"
    before = _digest(quote)
    with open(quote, "rb") as stdin:  # accept - -o quote.yaml < quote.yaml
        done = subprocess.run([sys.executable, "-m", "clusterlint", "accept", "-", "-e", str(two / "evidence"), "--format", "json", "-o", str(quote)],
                              stdin=stdin, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert f"clusterlint: error: {quote}: refusing to overwrite standard input with the output; choose another file\n" in done.stderr
    assert _digest(quote) == before
