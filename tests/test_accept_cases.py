"""DLV001, DLV003, DLV006, DLV007 and DLV010-DLV014 case by case on real outputs (tests/evidence/,
sources in SOURCE.md; edits named in each case): the rule, the quote line and column it points at,
the exact message, and the evidence file and line it cites, for each gate, band and boundary."""

from __future__ import annotations

import json
import shutil

import pytest

from conftest import ROOT, run_cli

REAL = ROOT / "tests" / "evidence" / "real" / "vm"
PUBLIC = ROOT / "tests" / "evidence" / "public"
SMI = (REAL / "nvidia-smi-q.txt").read_text()
ID = "00000000:00:06.0"

QUOTE = """apiVersion: clusterlint/v1
kind: Cluster
metadata:
  name: delivered
spec:
  node_pools:
    - name: gpu
      count: 1
      accelerator: {{model: {model}, count: {count}}}
{extra}"""
# the pool's name is at line 7, column 13; the accelerator line is 9 (count at column {count column})


def _edit(text: str, line: int, old: str, new: str) -> str:
    lines = text.splitlines()
    assert old in lines[line - 1], lines[line - 1]
    lines[line - 1] = lines[line - 1].replace(old, new)
    return "\n".join(lines) + "\n"


def _run(tmp_path, files: dict, model="H100-SXM", count=1, extra=""):
    node = tmp_path / "ev" / "node-1"
    node.mkdir(parents=True)
    for name, content in files.items():
        if isinstance(content, str):
            (node / name).write_text(content)
        else:
            shutil.copy(content, node / name)
    quote = tmp_path / "quote.yaml"
    quote.write_text(QUOTE.format(model=model, count=count, extra=extra))
    code, out, err = run_cli("accept", str(quote), "-e", str(tmp_path / "ev"), "--format", "json")
    assert code in (0, 1), err
    return json.loads(out)


def _hits(report, rule):
    return [(f["line"], f["column"], f["severity"], f["message"], [e.split(": ", 1)[0].split("/ev/node-1/")[-1] for e in f["evidence"]])
            for f in report["findings"] if f["rule"] == rule]


CASES = [
    # DLV011: ECC mode, pending row remap (real A100 capture), the corrected-count boundary (1000 passes, 1001 fires)
    ("DLV011", {"smi.txt": _edit(SMI, 144, "Enabled", "Disabled")}, "H100-SXM", 1,
     [(7, 13, "error", f"node node-1 GPU {ID} runs with ECC disabled, expected enabled", ["smi.txt:144"])]),
    ("DLV011", {"smi.txt": PUBLIC / "nvidia-smi-q-a100-remap-pending.txt"}, "A100-SXM-80GB", 8,
     [(7, 13, "error", "node node-1 GPU 00000000:10:1C.0 has a row remap pending: it needs a GPU reset before its memory is whole", ["smi.txt:29"])]),
    ("DLV011", {"smi.txt": _edit(SMI, 151, ": 0", ": 1000")}, "H100-SXM", 1, []),
    ("DLV011", {"smi.txt": _edit(SMI, 151, ": 0", ": 1001")}, "H100-SXM", 1,
     [(7, 13, "warning", f"node node-1 GPU {ID} corrected 1001 DRAM ECC errors since the driver loaded, more than 1000", ["smi.txt:151"])]),
    # DLV012: link width below the part's; the replay boundary (100 passes, 101 fires); the generation is never compared
    ("DLV012", {"smi.txt": _edit(SMI, 82, "16x", "8x")}, "H100-SXM", 1,
     [(7, 13, "error", f"node node-1 GPU {ID} PCIe link runs at x8, the part's is x16", ["smi.txt:82", "smi.txt:81"])]),
    ("DLV012", {"smi.txt": _edit(SMI, 86, ": 0", ": 100")}, "H100-SXM", 1, []),
    ("DLV012", {"smi.txt": _edit(SMI, 86, ": 0", ": 65000")}, "H100-SXM", 1,
     [(7, 13, "warning", f"node node-1 GPU {ID} replayed 65000 PCIe transfers since reset, more than 100", ["smi.txt:86"])]),
    ("DLV012", {"smi.txt": _edit(SMI, 76, ": 5", ": 1")}, "H100-SXM", 1, []),
    # DLV013: a power limit below the board's maximum; the idle temperature boundary (60 passes, 88 fires)
    ("DLV013", {"smi.txt": _edit(SMI, 198, "700.00 W", "450.00 W")}, "H100-SXM", 1,
     [(7, 13, "error", f"node node-1 GPU {ID} power limit is 450 W, the part's maximum is 700 W", ["smi.txt:198", "smi.txt:202"])]),
    ("DLV013", {"smi.txt": _edit(SMI, 187, "36 C", "60 C")}, "H100-SXM", 1, []),
    ("DLV013", {"smi.txt": _edit(SMI, 187, "36 C", "88 C")}, "H100-SXM", 1,
     [(7, 13, "warning", f"node node-1 GPU {ID} reads 88 C, above 60 C for a GPU at rest", ["smi.txt:187"])]),
    # DLV010: the same node's nvidia-smi says 1 GPU (driver 580), a capture from elsewhere 8 (driver 510)
    ("DLV010", {"a.txt": REAL / "nvidia-smi-q.txt", "b.txt": PUBLIC / "nvidia-smi-q-a100-remap-pending.txt"}, "H100-SXM", 1,
     [(7, 13, "warning", "node node-1 evidence disagrees on its accelerator count: 1 in {ev}/a.txt, 8 in {ev}/b.txt", ["a.txt:8", "b.txt:7"]),
      (7, 13, "warning", "node node-1 evidence disagrees on its driver version: 580.159.04 in {ev}/a.txt, 510.73.08 in {ev}/b.txt", ["a.txt:5", "b.txt:4"])]),
]

RDMA = "  network:\n    inter_node: {fabric: infiniband, nics_per_node: 1, nic_speed: 400Gbps, rdma: true}\n"  # rdma: line 11, column 82
PROPRIETARY = "NVRM version: NVIDIA UNIX x86_64 Kernel Module  [...]\n"  # NVIDIA's documented form (nvidia-open-vs-proprietary-readme.txt), dedented

CASES += [
    # DLV014: gated on rdma: true; the open module passes, the proprietary one fires; ACS on a bridge fires, all off passes
    ("DLV014", {"version": PUBLIC / "proc-driver-nvidia-version-open.txt", "lspci.txt": PUBLIC / "lspci-acsctl-disabled.txt"}, "H100-SXM", 1, []),
    ("DLV014", {"version": PROPRIETARY}, "H100-SXM", 1,
     [(11, 82, "error", "node node-1 loads the proprietary NVIDIA kernel module: GPUDirect RDMA through dma_buf needs the open one "
       "(nvidia_peermem alone is deprecated)", ["version:1"])]),
    ("DLV014", {"version": PUBLIC / "proc-driver-nvidia-version-open.txt", "lspci.txt": PUBLIC / "lspci-acsctl-plx-enabled.txt"}, "H100-SXM", 1,
     [(11, 82, "error", "node node-1 bridge a device above the excerpt has PCIe ACS on (SrcValid+, ReqRedir+, CmpltRedir+, UpstreamFwd+): "
       "peer-to-peer GPU-NIC traffic goes through the root complex", ["lspci.txt:4"])]),
    ("DLV014", {"smi.txt": REAL / "nvidia-smi-q.txt"}, "H100-SXM", 1,
     [(11, 82, "warning", "GPUDirect RDMA is not evidenced: no /proc/driver/nvidia/version or kernel log naming the NVIDIA module among the evidence files", [])]),
]


@pytest.mark.parametrize("rule, files, model, count, expected", CASES)
def test_case(tmp_path, rule, files, model, count, expected):
    report = _run(tmp_path, files, model, count, RDMA if rule == "DLV014" else "")
    ev = str(tmp_path / "ev" / "node-1")
    assert _hits(report, rule) == [(line, column, severity, message.format(ev=ev), cites) for line, column, severity, message, cites in expected]


def test_dlv014_is_gated_on_rdma_in_the_quote(tmp_path):
    report = _run(tmp_path, {"version": PROPRIETARY})
    assert [s["reason"] for s in report["skipped"] if s["rule"] == "DLV014"] == ["the quote does not say the fabric does RDMA (inter_node.rdma)"]


# ---------------------------------------------------------------- issue 39's reader and verdict fixes


@pytest.mark.parametrize("model, name, fires", [
    ("A100-SXM-80GB", "NVIDIA A100-SXM4-80GB", False),  # the real capture's name (nvidia-smi-q-a100-remap-pending.txt)
    ("A100-SXM-40GB", "NVIDIA A100-SXM4-80GB", True),
    ("V100-SXM2-32GB", "Tesla V100-SXM2-32GB", False),  # the name in the l4rz README
    ("V100-PCIe-32GB", "Tesla V100-SXM2-32GB", True),
    ("H100-NVL", "NVIDIA H100 NVL", False),  # nvidia-smi-query-name-h100nvl (akash-network/provider-configs PR 91)
    ("H100-SXM", "NVIDIA H100 NVL", True),
    ("B200", "NVIDIA GB200", True),  # a Grace-Blackwell superchip is not a B200
    ("GB200", "NVIDIA GB200", False),
])
def test_dlv001_matches_nvidia_smi_names_through_one_rule(tmp_path, model, name, fires):
    report = _run(tmp_path, {"smi.txt": _edit(SMI, 10, "NVIDIA H100 80GB HBM3", name)}, model=model)
    hits = [h for h in _hits(report, "DLV001") if "is '" in h[3]]
    assert hits == ([(9, 28, "error", f"node node-1 GPU {ID} is {name!r}, quoted {model}", ["smi.txt:10"])] if fires else [])


def test_dlv006_reads_xid_lines_from_dmesg_with_and_without_t_and_journalctl(tmp_path):
    lines = (PUBLIC / "dmesg-xid.txt").read_text().splitlines()
    xid = lines[-1]  # [ 1844.000000] NVRM: Xid (PCI:0000:44:00): 79, GPU has fallen off the bus
    # dmesg -T prints the same line with a date in the brackets (util-linux ctime form); edited from the real line
    dated = xid.replace("[ 1844.000000]", "[Mon Jun  2 13:43:48 2025]")
    bare = xid.split("] ", 1)[1]  # dmesg -t: no timestamp
    for text in (dated, bare):
        report = _run(tmp_path / str(len(text)), {"dmesg.txt": text + "\n"})
        assert _hits(report, "DLV006") == [(7, 13, "error", "node node-1 failed a health check: Xid 79 on PCI:0000:44:00", ["dmesg.txt:1"])]
        assert _hits(report, "DLV009") == []


def test_dlv007_keeps_df_h_sizes(tmp_path):
    storage = "  storage:\n    - {name: scratch, type: lustre, capacity: 480TB, shared: true}\n"
    report = _run(tmp_path, {"df.txt": REAL / "df-h.txt"}, extra=storage)
    hits = _hits(report, "DLV007")
    assert [h[3] for h in hits] == [
        "the type of 'scratch' (lustre) on node node-1 is not evidenced: df without -T shows no type (collect findmnt -J or df -T)",
        "node node-1 mounts its largest mount, / of 270.6 GB, quoted 480 TB for 'scratch'"]
    assert hits[1][:3] == (11, 47, "warning") and hits[1][4] == ["df.txt:3"]


def test_dlv003_names_the_link_layer_it_found(tmp_path):
    extra = "  network:\n    inter_node: {fabric: infiniband, nics_per_node: 2, nic_speed: 200Gbps}\n"
    report = _run(tmp_path, {"ibstat.txt": PUBLIC / "ibstat-roce-cx7-200.txt"}, extra=extra)
    messages = [h[3] for h in _hits(report, "DLV003")]
    assert any(m.startswith("node node-1 has 0 infiniband adapter ports, quoted 2; it has ") and "Ethernet link layer port" in m
               for m in messages), messages


SOFTWARE = "  software: {orchestrator: %s}\n"  # the orchestrator's value: line 10, column 28
SCONTROL = (PUBLIC / "scontrol-show-config-healthcheck.txt").read_text()
PODS = (PUBLIC / "kubectl-gpu-operator-pods-bad.txt").read_text()
NVCC, DOCKER, RUNC, IBV = ((PUBLIC / name).read_text() for name in ("nvcc-version-11.1.txt", "docker-version-28.3.3.txt", "runc-version-rc91.txt",
                                                                    "ibv_devinfo-cx7-fw.txt"))
FIRMWARE = "NVIDIA Security Bulletin: NVIDIA Networking BlueField and ConnectX - June 2026 (a_id 5699, 2026-06-30)"


@pytest.mark.parametrize("rule, files, model, count, extra, expected", [
    # DLV015: a driver branch the table does not list (the A100 capture's 510); each side of the 580 floor; the toolkit floor
    ("DLV015", {"smi.txt": PUBLIC / "nvidia-smi-q-a100-remap-pending.txt"}, "A100-SXM-80GB", 8, "",
     [(7, 13, "error", "node node-1 runs driver 510.73.08, a branch the ClusterMAX minimum-version table does not list (535, 570, 580, 590, 595): "
       "unsupported", ["smi.txt:4"])]),
    ("DLV015", {"smi.txt": _edit(SMI, 5, "580.159.04", "580.159.03")}, "H100-SXM", 1, "", []),
    ("DLV015", {"smi.txt": _edit(SMI, 5, "580.159.04", "580.159.02")}, "H100-SXM", 1, "",
     [(7, 13, "error", "node node-1 runs driver 580.159.02, below the 580 branch's security floor 580.159.03 (NVIDIA Security Bulletin: GPU Display "
       "Driver - May 2026 (a_id 5821, 2026-05-19))", ["smi.txt:5"])]),
    ("DLV015", {"cli.txt": PUBLIC / "nvidia-container-cli-version.txt", "rt.txt": PUBLIC / "nvidia-container-runtime-version.txt"}, "H100-SXM", 1, "",
     [(7, 13, "error", "node node-1 runs NVIDIA Container Toolkit 1.0.7, below the security floor 1.19.1 (CVE-2026-24260, NVIDIA Security "
       "Bulletin: NVIDIA Container Toolkit - June 2026 (a_id 5850, 2026-06-30))", ["cli.txt:3"])]),
    # DLV015, the other floors of the same table: DCGM (3.3.5 fires; 4.7.0, a real host-engine listing, passes), the CUDA
    # Toolkit (11.1 fires), Docker Engine and the runc the daemon reports (28.3.3 and 1.2.5 fire), runc --version (1.0.0-rc91)
    ("DLV015", {"dcgmi.txt": PUBLIC / "dcgmi-v-3.3.5.txt"}, "H100-SXM", 1, "",
     [(7, 13, "error", "node node-1 runs DCGM 3.3.5, below the security floor 4.5.3 (CVE-2026-47483, NVIDIA Security Bulletin: NVIDIA DCGM "
       "Exporter - July 2026 (a_id 5857, 2026-07-28))", ["dcgmi.txt:3"])]),
    ("DLV015", {"dcgmi.txt": PUBLIC / "dcgmi-v-4.7.0.txt"}, "H100-SXM", 1, "", []),
    ("DLV015", {"nvcc.txt": PUBLIC / "nvcc-version-11.1.txt"}, "H100-SXM", 1, "",
     [(7, 13, "error", "node node-1 runs CUDA Toolkit 11.1.105, below the security floor 13.1 (CVE-2025-33228 to CVE-2025-33231, NVIDIA "
       "Security Bulletin: CUDA Toolkit - January 2026 (a_id 5755))", ["nvcc.txt:6"])]),
    ("DLV015", {"nvcc.txt": _edit(NVCC, 6, "release 11.1, V11.1.105", "release 13.1, V13.1.0")}, "H100-SXM", 1, "", []),
    ("DLV015", {"docker.txt": PUBLIC / "docker-version-28.3.3.txt"}, "H100-SXM", 1, "",
     [(7, 13, "error", "node node-1 runs Docker Engine 28.3.3, below the security floor 29.7.0 (CVE-2026-17106, Docker Engine 29 release notes)",
       ["docker.txt:14"]),
      (7, 13, "error", "node node-1 runs runc 1.2.5, below the 1.2 branch's security floor 1.2.8 (GHSA-9493-h29p-rfm2)", ["docker.txt:25"])]),
    ("DLV015", {"docker.txt": _edit(_edit(DOCKER, 14, "28.3.3", "29.7.0"), 25, "1.2.5", "1.2.8")}, "H100-SXM", 1, "", []),
    ("DLV015", {"runc.txt": PUBLIC / "runc-version-rc91.txt"}, "H100-SXM", 1, "",
     [(7, 13, "error", "node node-1 runs runc 1.0.0-rc91+dev, below the 1.0 branch's security floor 1.0.3 (GHSA-v95c-p5hm-xq8f)", ["runc.txt:3"])]),
    ("DLV015", {"runc.txt": _edit(RUNC, 3, "1.0.0-rc91+dev", "1.5.0-rc.3")}, "H100-SXM", 1, "", []),
    ("DLV015", {"runc.txt": _edit(RUNC, 3, "1.0.0-rc91+dev", "1.5.0-rc.2")}, "H100-SXM", 1, "",
     [(7, 13, "error", "node node-1 runs runc 1.5.0-rc.2, below the 1.5 branch's security floor 1.5.0-rc.3 (GHSA-xjvp-4fhw-gc47)", ["runc.txt:3"])]),
    ("DLV015", {"runc.txt": _edit(RUNC, 3, "1.0.0-rc91+dev", "1.6.0")}, "H100-SXM", 1, "", []),  # a branch above the ladder: cmax passes it
    # ConnectX firmware: train 39's floor is patch 8002 (the real 28.39.2048 fires, 28.39.8002 passes), a train above the table's
    # newest passes as cmax does, an older train the table does not list is unsupported
    ("DLV015", {"ibv.txt": PUBLIC / "ibv_devinfo-cx7-fw.txt"}, "H100-SXM", 1, "",
     [(7, 13, "error", f"node node-1 adapter {hca} runs firmware 28.39.2048, below its train 39's security floor 39.8002 ({FIRMWARE})", [f"ibv.txt:{line}"])
      for hca, line in (("mlx5_0", 6), ("mlx5_1", 25))]),
    ("DLV015", {"ibv.txt": IBV.replace("28.39.2048", "28.39.8002")}, "H100-SXM", 1, "", []),
    ("DLV015", {"ibv.txt": IBV.replace("28.39.2048", "28.47.1026")}, "H100-SXM", 1, "", []),
    ("DLV015", {"ibv.txt": IBV.replace("28.39.2048", "22.31.1014")}, "H100-SXM", 1, "",
     [(7, 13, "error", f"node node-1 adapter {hca} runs firmware 22.31.1014, a train (31) the ClusterMAX minimum-version table does not list "
       "(28, 32, 35, 39, 43, 46): unsupported", [f"ibv.txt:{line}"]) for hca, line in (("mlx5_0", 6), ("mlx5_1", 25))]),
    # DLV016: HealthCheckProgram set (real) or taken out (edited: the real file less that line), "(null)" as scontrol prints an unset one
    ("DLV016", {"scontrol.txt": SCONTROL}, "H100-SXM", 1, SOFTWARE % "slurm", []),
    ("DLV016", {"scontrol.txt": SCONTROL.replace("HealthCheckProgram      = /usr/sbin/nhc\n", "")}, "H100-SXM", 1, SOFTWARE % "slurm",
     [(10, 28, "error", "node node-1 runs Slurm without a HealthCheckProgram: a failing node keeps taking jobs", ["scontrol.txt:4"])]),
    # DLV017: the real listing with a CrashLoopBackOff worker; the real good listing
    ("DLV017", {"pods.txt": PODS}, "H100-SXM", 1, SOFTWARE % "kubernetes",
     [(10, 28, "error", "GPU operator pod gpu-operator-node-feature-discovery-worker-x7jj5 is CrashLoopBackOff (0/1 ready)", ["pods.txt:8"])]),
    ("DLV017", {"pods.txt": PUBLIC / "kubectl-gpu-operator-pods-good.txt"}, "H100-SXM", 1, SOFTWARE % "kubernetes", []),
])
def test_software_case(tmp_path, rule, files, model, count, extra, expected):
    assert _hits(_run(tmp_path, files, model, count, extra), rule) == expected


# ---------------------------------------------------------------- DLV018-DLV021: node configuration (cmax criteria)

SLURM_TIERS = ("  software: {orchestrator: slurm}\n"  # the orchestrator's value: line 10, column 28
               "  network:\n    inter_node: {fabric: infiniband, nics_per_node: 1, tiers: [{name: leaf, accelerators: 256, oversubscription: 1}, "
               "{name: spine, oversubscription: 1}]}\n")
NDV4 = (PUBLIC / "nccl-conf-azure-ndv4.conf").read_text()
SIENA = (PUBLIC / "scontrol-show-config-siena.txt").read_text()


@pytest.mark.parametrize("rule, files, extra, expected", [
    # DLV018: Azure's real /etc/nccl.conf forces nothing; each of cmax's three keys fires (edited: one line added)
    ("DLV018", {"nccl.conf": NDV4}, "", []),
    *[("DLV018", {"nccl.conf": NDV4 + line + "\n"}, "", [(7, 13, "warning", f"node node-1 forces {line} on every job: NCCL's own choice of "
                                                         "algorithm, protocol and channels is overridden", ["nccl.conf:5"])])
      for line in ("NCCL_ALGO=Ring", "NCCL_PROTO=Simple", "NCCL_MIN_NCHANNELS=32")],
    ("DLV018", {"nccl.conf": NDV4 + "NCCL_IB_GID_INDEX=3\n"}, "", []),  # not one of the three cmax fails
    # DLV019: the real RmProfilingAdminOnly: 1 and kptr_restrict = 0; perf_event_paranoid at cmax's boundary (1 passes, 2 fires; edited)
    ("DLV019", {"params.txt": PUBLIC / "nvidia-params-admin-only.txt"}, "",
     [(7, 13, "info", "node node-1 sets RmProfilingAdminOnly = 1, above 0: only administrators can read GPU performance counters "
       "(Nsight Compute fails with ERR_NVGPUCTRPERM)", ["params.txt:21"])]),
    ("DLV019", {"sysctl.txt": PUBLIC / "sysctl-kptr-restrict.txt"}, "", []),
    ("DLV019", {"sysctl.txt": "kernel.perf_event_paranoid = 1\n"}, "", []),
    ("DLV019", {"sysctl.txt": "kernel.perf_event_paranoid = 2\nkernel.kptr_restrict = 1\n"}, "",
     [(7, 13, "info", "node node-1 sets kernel.kptr_restrict = 1, above 0: profilers cannot resolve kernel symbols", ["sysctl.txt:2"]),
      (7, 13, "info", "node node-1 sets kernel.perf_event_paranoid = 2, above 1: users cannot count CPU events with perf", ["sysctl.txt:1"])]),
    ("DLV019", {"sysctl.txt": "kernel.perf_event_paranoid = -1\n"}, "", []),
    # DLV020: the real accounting_storage/none; srun without PMIx (real) and with it (real); TopologyPlugin on a two-tier fabric
    ("DLV020", {"scontrol.txt": PUBLIC / "scontrol-show-config-siena.txt"}, SOFTWARE % "slurm",
     [(10, 28, "warning", "node node-1 runs Slurm with accounting_storage/none: sacct has no job accounting", ["scontrol.txt:11"])]),
    ("DLV020", {"scontrol.txt": SIENA.replace("accounting_storage/none", "accounting_storage/slurmdbd")}, SOFTWARE % "slurm", []),
    ("DLV020", {"srun.txt": PUBLIC / "srun-mpi-list-no-pmix.txt"}, SOFTWARE % "slurm",
     [(10, 28, "warning", "node node-1 srun offers no PMIx (cray_shasta, none, pmi2): MPI jobs cannot be launched with srun --mpi=pmix",
       ["srun.txt:3"])]),
    ("DLV020", {"srun.txt": PUBLIC / "srun-mpi-list-pmix.txt"}, SOFTWARE % "slurm", []),
    ("DLV020", {"scontrol.txt": SIENA.replace("accounting_storage/none", "accounting_storage/slurmdbd") + "TopologyPlugin          = topology/none\n"},
     SLURM_TIERS, [(10, 28, "warning", "node node-1 runs Slurm with TopologyPlugin topology/none on a 2-tier fabric: jobs are placed without "
                    "regard to switches", ["scontrol.txt:26"])]),
    ("DLV020", {"scontrol.txt": SIENA.replace("accounting_storage/none", "accounting_storage/slurmdbd") + "TopologyPlugin          = topology/none\n"},
     SOFTWARE % "slurm", []),  # no tiers quoted: a flat plugin is not a finding
    ("DLV020", {"scontrol.txt": SIENA.replace("accounting_storage/none", "accounting_storage/slurmdbd") + "TopologyPlugin          = topology/tree\n"},
     SLURM_TIERS, []),
    # DLV021: the real mlx4 ConnectX-3 fires; mlx5_N passes
    ("DLV021", {"ibstat.txt": PUBLIC / "ibstat-mlx4-truncated.txt"}, "",
     [(7, 13, "info", "node node-1 adapter mlx4_0 is not named mlx5_N: NCCL_IB_HCA has to name it", ["ibstat.txt:4"])]),
    ("DLV021", {"ibstat.txt": PUBLIC / "ibstat-roce-cx7-200.txt"}, "", []),
])
def test_config_case(tmp_path, rule, files, extra, expected):
    assert _hits(_run(tmp_path, files, "H100-SXM", 1, extra), rule) == expected

