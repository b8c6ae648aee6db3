"""clusterlint accept under hostile evidence and documents (issue 38): a verdict only the buyer can
soften, no pass without readable evidence, bounded readers, outputs that never overwrite evidence."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time

import pytest

from clusterlint.acceptance import walker
from clusterlint.acceptance.base import Evidence

from conftest import ROOT, run_cli

TWO = ROOT / "tests" / "evidence" / "two-nodes"
REAL = ROOT / "tests" / "evidence" / "real" / "vm"


def _copy_two(tmp_path):
    shutil.copytree(TWO, tmp_path / "two")
    return tmp_path / "two"


def _accept(folder, *args):
    code, out, err = run_cli("accept", str(folder / "quote.yaml"), "--format", "json", *args)
    assert code in (0, 1, 2), err
    return code, (json.loads(out) if code != 2 else None), err


def _dlv(report):
    return sorted((f["rule"], f["severity"], f["message"]) for f in report["findings"] if f["rule"].startswith("DLV"))


def test_a_vendor_comment_in_the_quote_does_not_soften_the_verdict(tmp_path):
    two = _copy_two(tmp_path)
    quote = two / "quote.yaml"
    quote.write_text(quote.read_text().replace("accelerator: {model: H100-SXM, count: 8}",
                                               "accelerator: {model: H100-SXM, count: 8}  # clusterlint: ignore[DLV001] seven is plenty"))
    (two / ".x").mkdir()
    code, report, err = _accept(two, "-e", str(two / "evidence"))
    assert code == 1 and report["suppressed"] == []
    assert ("DLV001", "error", "node gpu-b has 7 accelerators, quoted 8 per node in pool 'dgx'") in _dlv(report)
    assert "clusterlint accept: not accepted: 4 blocking findings (4 errors); 1 inline suppression in the documents ignored" in err


def test_the_buyers_baseline_softens_and_the_report_lists_it(tmp_path):
    from clusterlint.check import Options, check
    from clusterlint.policy import baseline

    two = _copy_two(tmp_path)
    quote = two / "quote.yaml"
    quote.write_text(quote.read_text().replace("count: 8}", "count: 8}  # clusterlint: ignore[DLV001] the vendor's own comment"))
    found = walker.load([str(two / "evidence")])
    known = [f for f in check(Options(paths=(str(quote),), cli={"select": ["DLV"]}, evidence=found)).suppressed if f.finding.rule == "DLV001"]
    (two / "base.json").write_text(baseline.dumps([s.finding for s in known], str(two / "base.json")))
    code, out, err = run_cli("accept", str(quote), "-e", str(two / "evidence"), "--baseline", str(two / "base.json"), "--format", "markdown")
    assert code == 1  # three more errors stay
    assert "not accepted: 3 blocking findings (3 errors); 1 suppressed by the buyer's configuration or baseline; 1 inline suppression in the documents ignored" in err
    assert "## Suppressed by the buyer (configuration or baseline)" in out and "node gpu-b has 7 accelerators" in out.split("## Suppressed by the buyer")[1]
    assert "## Inline suppressions in the documents (ignored)" in out


def test_an_empty_evidence_folder_is_never_a_pass(tmp_path):
    two = _copy_two(tmp_path)
    empty = tmp_path / "empty"
    empty.mkdir()
    code, report, err = _accept(two, "-e", str(empty))
    assert code == 1
    assert ("DLV001", "warning", "8 x H100-SXM per node is not evidenced: no nvidia-smi or rocm-smi output among the evidence files") in _dlv(report)
    assert "not accepted" in err


def test_the_failing_nodes_files_one_folder_deeper_are_still_read(tmp_path):
    two = _copy_two(tmp_path)
    gpu_b = two / "evidence" / "gpu-b"
    (gpu_b / "deeper").mkdir()
    for file in list(gpu_b.iterdir()):
        if file.is_file():
            file.rename(gpu_b / "deeper" / file.name)
    code, report, _ = _accept(two, "-e", str(two / "evidence"))
    assert code == 1
    assert ("DLV001", "error", "node gpu-b has 7 accelerators, quoted 8 per node in pool 'dgx'") in _dlv(report)


def test_a_node_folder_without_readable_evidence_is_named(tmp_path):
    two = _copy_two(tmp_path)
    for name in ("gpu-c",):
        (two / "evidence" / name).mkdir()
    quote = two / "quote.yaml"
    quote.write_text(quote.read_text().replace("count: 2", "count: 3"))
    code, report, _ = _accept(two, "-e", str(two / "evidence"))
    assert ("DLV001", "warning", "1 of 3 quoted nodes in pool 'dgx' are not evidenced: accelerator output for 2 nodes only (gpu-c without)") in _dlv(report)


BAD_NUMBERS = [  # (file, text to replace, replacement, reason, line)
    ("all_reduce_perf.txt", "195.40  171.73  300.52", "195.40  171.73  NaN", "busbw 'NaN' is not a number from 0 to 100000", 22),
    ("all_reduce_perf.txt", "195.40  171.73  300.52", "195.40  171.73  inf", "busbw 'inf' is not a number from 0 to 100000", 22),
    ("all_reduce_perf.txt", "195.40  171.73  300.52", "195.40  171.73  3" + "0" * 5000, None, 22),
    ("all_reduce_perf.txt", "195.40  171.73  300.52", "195.40  171.73  1e999", "busbw '1e999' is not a number from 0 to 100000", 22),
]


@pytest.mark.parametrize("name, old, new, reason, line", BAD_NUMBERS)
def test_a_number_evidence_cannot_hold_makes_the_file_unreadable_at_its_line(tmp_path, name, old, new, reason, line):
    two = _copy_two(tmp_path)
    path = two / "evidence" / name
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))
    code, report, _ = _accept(two, "-e", str(two / "evidence"), "-c", str(two / "contract.yaml"))
    assert code == 1
    unread = [f for f in report["findings"] if f["rule"] == "DLV009"]
    column = path.read_text().splitlines()[line - 1].rindex(new.split()[-1]) + 1
    assert len(unread) == 1 and unread[0]["evidence"][0].split(": ", 1)[0].endswith(f"all_reduce_perf.txt:{line}:{column}")
    if reason:
        assert unread[0]["message"].endswith(f"nccl-tests output cannot be read: {reason}")
    assert not any(f["rule"] == "DLV004" and f["severity"] == "error" for f in report["findings"])  # not a pass either: not evidenced
    assert any(f["rule"] == "DLV004" and "not evidenced" in f["message"] for f in report["findings"])


def _one(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    found = Evidence()
    walker.read_file(found, str(path), "h")
    return found


@pytest.mark.parametrize("name, text, reason, line", [
    ("fio.json", '{"fio version": "fio-3.28", "jobs": [{"jobname": "t", "read": {"bw_bytes": "fast"}}]}',
     "fio-json output cannot be read: read bw_bytes 'fast' is not a number from 0 to 1e+15", 1),
    ("fio.json", '{"fio version": "fio-3.28",\n "jobs": [{"jobname": "t", "read": {"bw_bytes": NaN}}]}',
     "fio-json output cannot be read: JSON holds a value evidence cannot hold (NaN is not a number evidence can hold)", 1),
    ("fio.json", '{"fio version": "fio-3.28", "jobs": [{"jobname": "t", "read": {"bw_bytes": ' + "9" * 5000 + '}}]}',
     "fio-json output cannot be read: JSON holds a value evidence cannot hold (a 5000-digit number)", 1),
    ("fio.json", '{"fio version": "fio-3.28", "jobs": {"jobname": "t"}}', "fio-json output cannot be read: jobs is a dict, not a list", 1),
    ("findmnt.json", '{"filesystems": [{"target": "/data", "fstype": "lustre", "size": "Infinity"}]}',
     "findmnt-json output cannot be read: size 'Infinity' of /data is not a size", 1),
    ("findmnt.json", '{"filesystems": {"target": "/"}}', "findmnt-json output cannot be read: filesystems is a dict, not a list", 1),
    ("meminfo.txt", "MemTotal:       1³1981020 kB\n", "meminfo output cannot be read: MemTotal '1³1981020' is not a whole number from 0 to 1e+15", 1),
    ("smi.txt", "Attached GPUs : ⁸\n", "nvidia-smi-q output cannot be read: Attached GPUs '⁸' is not a whole number from 0 to 4096", 1),
    ("lscpu.json", '[{"field": "x"}]\n"lscpu"', "not a recognised command output (see clusterlint collect for what is read)", 1),
    ("lscpu.json", '{"lscpu": {"field": "Socket(s):"}}', "lscpu-json output cannot be read: an lscpu row list is a dict, not a list", 1),
    ("df.txt", "Filesystem      Size  Used Avail Use% Mounted on\n/dev/vda        1.2Q   12G  240G   5% /\n",
     "df output cannot be read: size '1.2Q' is not a df -h size", 2),
])
def test_every_shape_a_reader_does_not_know_is_a_clear_error(tmp_path, name, text, reason, line):
    found = _one(tmp_path, name, text)
    assert [(f.value, f.line) for f in found.unreadable] == [(reason, line)]
    assert found.nodes == {} or all(not n.files for n in found.nodes.values())


def test_contradicting_evidence_for_one_node_names_both_files(tmp_path):
    two = _copy_two(tmp_path)
    shutil.copy(REAL / "topo.txt", two / "evidence" / "gpu-a" / "topo.txt")  # a real topo -m of one GPU beside 8 in nvidia-smi
    code, report, _ = _accept(two, "-e", str(two / "evidence"))
    hits = [f for f in report["findings"] if f["rule"] == "DLV010"]
    assert [(h["message"], h["line"]) for h in hits] == [
        (f"node gpu-a evidence disagrees on its accelerator count: 8 in {two}/evidence/gpu-a/nvidia-smi-q.xml, 1 in {two}/evidence/gpu-a/topo.txt", 11)]
    assert code == 1


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_in_a_node_folder_or_as_evidence_never_hangs(tmp_path):
    two = _copy_two(tmp_path)
    os.mkfifo(two / "evidence" / "gpu-a" / "pipe")
    code, report, _ = _accept(two, "-e", str(two / "evidence"))
    assert ("not a regular file (a FIFO, device or socket): not read") in {f["message"].split(": ", 1)[1] for f in report["findings"] if f["rule"] == "DLV009"}
    os.mkfifo(tmp_path / "fifo")
    for path in (str(tmp_path / "fifo"), "/dev/zero"):
        code, out, err = run_cli("accept", str(two / "quote.yaml"), "-e", path)
        assert code == 2 and "not a regular file or a folder" in err


def test_forty_thousand_mounts_read_in_linear_time(tmp_path):
    mounts = [{"target": f"/m/{i}", "source": "tmpfs", "fstype": "tmpfs", "options": "rw"} for i in range(40000)]
    path = tmp_path / "findmnt.json"
    path.write_text(json.dumps({"filesystems": mounts}, indent=3))
    found = Evidence()
    start = time.perf_counter()
    walker.read_file(found, str(path), "h")
    elapsed = time.perf_counter() - start
    mounts = found.nodes["h"].mounts
    last = path.read_text().splitlines().index('         "target": "/m/39999",') + 1
    assert (len(mounts), mounts[-1].line, mounts[-1].value["target"]) == (40000, last, "/m/39999")
    assert elapsed < 5, elapsed  # was 116 s with a line search per mount


def test_accept_o_never_overwrites_an_evidence_file(tmp_path):
    two = _copy_two(tmp_path)
    target = two / "evidence" / "gpu-a" / "meminfo.txt"
    before = target.read_bytes()
    code, out, err = run_cli("accept", str(two / "quote.yaml"), "-e", str(two / "evidence"), "--format", "markdown", "-o", str(target))
    assert code == 2 and "refusing to overwrite an evidence file" in err and target.read_bytes() == before


def test_links_are_read_once_and_loops_end(tmp_path):
    node = tmp_path / "ev" / "gpu-a"
    node.mkdir(parents=True)
    shutil.copy(REAL / "meminfo.txt", node / "meminfo.txt")
    os.symlink(node / "meminfo.txt", node / "again.txt")
    os.symlink(node, node / "loop")
    found = walker.load([str(tmp_path / "ev")])
    assert [kind for _, kind in found.nodes["gpu-a"].files] == ["meminfo"] and found.unreadable == []


def test_depth_and_entry_limits(tmp_path, monkeypatch):
    deep = tmp_path / "ev" / "gpu-a"
    folder = deep
    for i in range(walker.MAX_DEPTH + 1):
        folder = folder / f"d{i}"
    folder.mkdir(parents=True)
    shutil.copy(REAL / "meminfo.txt", folder / "meminfo.txt")
    found = walker.load([str(tmp_path / "ev")])
    assert [f.value for f in found.unreadable] == [f"folder more than {walker.MAX_DEPTH} levels below node gpu-a's folder: not read"]
    monkeypatch.setattr(walker, "MAX_ENTRIES", 3)
    flat = tmp_path / "flat" / "gpu-a"
    flat.mkdir(parents=True)
    for i in range(5):
        shutil.copy(REAL / "meminfo.txt", flat / f"m{i}.txt")
    found = walker.load([str(tmp_path / "flat")])
    assert [f.value for f in found.unreadable] == ["more than 3 evidence entries: the rest of this folder was not read"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root lists any folder")
def test_an_unlistable_folder_is_named(tmp_path):
    node = tmp_path / "ev" / "gpu-a"
    node.mkdir(parents=True)
    node.chmod(0)
    try:
        found = walker.load([str(tmp_path / "ev")])
    finally:
        node.chmod(0o755)
    assert [f.value.split(" (")[0] for f in found.unreadable] == ["folder cannot be listed"]


def test_a_delivered_cluster_that_matches_its_quote_is_accepted_with_no_warning(tmp_path):
    evidence = tmp_path / "ev"
    for node in ("gpu-a", "gpu-b"):  # gpu-a's real captures stand for both nodes
        shutil.copytree(TWO / "evidence" / "gpu-a", evidence / node)
    shutil.copy(TWO / "evidence" / "all_reduce_perf.txt", evidence)
    quote = tmp_path / "quote.yaml"
    quote.write_text((TWO / "quote.yaml").read_text().replace("nic_speed: 400Gbps", "nic_speed: 200Gbps"))
    code, out, err = run_cli("accept", str(quote), "-e", str(evidence), "--format", "json")
    report = json.loads(out)
    assert [f for f in report["findings"] if f["severity"] in ("error", "warning")] == []
    assert code == 0 and "clusterlint accept: accepted: no blocking finding" in err


def test_collect_refuses_an_existing_folder_and_never_follows_links(tmp_path):
    script = tmp_path / "collect.sh"
    run_cli("collect", "-o", str(script))
    (tmp_path / "exists").mkdir()
    result = subprocess.run(["sh", str(script), str(tmp_path / "exists")], capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 2 and "exists already" in result.stderr
    os.symlink(tmp_path / "victim", tmp_path / "link")
    result = subprocess.run(["sh", str(script), str(tmp_path / "link")], capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 2 and not (tmp_path / "victim").exists()
    result = subprocess.run(["sh", str(script), str(tmp_path / "fresh")], capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert any(p.is_dir() for p in (tmp_path / "fresh").iterdir())
    assert "timed out:" not in result.stderr or "timed out: none" in result.stderr


def test_python_never_reads_a_fifo_as_evidence_in_a_subprocess(tmp_path):
    """The whole command in a real process, with a time limit: a FIFO must not block it."""
    two = _copy_two(tmp_path)
    os.mkfifo(two / "evidence" / "gpu-b" / "nvidia-smi-q.fifo")
    result = subprocess.run([sys.executable, "-m", "clusterlint", "accept", str(two / "quote.yaml"), "-e", str(two / "evidence")],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 1 and "Traceback" not in result.stderr
