"""DLV022-DLV024 case by case on real outputs (tests/evidence/public, sources in each file's header;
edits named in each case): the rule, the quote line and column, the severity, the exact message and
the evidence file and line, for each gate, band and boundary."""

from __future__ import annotations

import pytest

from test_accept_cases import PUBLIC, _hits, _run

CUT = (PUBLIC / "ldconfig-p-truncated.txt").read_text()  # header line 3: 512 libs, 20 listed
WHOLE = CUT.replace("512 libs found", "20 libs found")  # edited: the count of the lines kept (a complete listing)
NCCL = "\tlibnccl.so.2 (libc6,x86-64) => /lib/x86_64-linux-gnu/libnccl.so.2\n"  # NVIDIA/nccl#1991's line, indented as ldconfig prints it
GDRAPI = "\tlibgdrapi.so.2 (libc6,x86-64) => /lib/x86_64-linux-gnu/libgdrapi.so.2\n"  # edited: the same form for GDRCopy's soname
LSMOD = (PUBLIC / "lsmod-gdrdrv.txt").read_text()
CPUPOWER = (PUBLIC / "cpupower-frequency-info-intel-pstate.txt").read_text()  # governor line 11
RDMA = "  network:\n    inter_node: {fabric: infiniband, nics_per_node: 1, nic_speed: 400Gbps, rdma: true}\n"
NO_NCCL = ("node node-1 has no NCCL: ldconfig -p lists {n} libraries, none libnccl.so: multi-GPU jobs outside a container cannot run "
           "collectives")
NO_GDR = "node node-1 has no GDRCopy: ldconfig -p lists no libgdrapi.so and {modules}"
TRANSLATED = ("node node-1 translates every device's DMA through the IOMMU (default domain Translated, expected Passthrough with "
              "iommu=pt): GPU and RDMA transfers pay for the translation")


@pytest.mark.parametrize("rule, files, extra, expected", [
    # DLV022: a cut listing (20 of 512) shows nothing missing; the same lines as a complete listing lack both
    ("DLV022", {"ldconfig.txt": CUT}, "", []),
    ("DLV022", {"ldconfig.txt": WHOLE}, "",
     [(7, 13, "info", NO_GDR.format(modules="no lsmod listing shows gdrdrv"), ["ldconfig.txt:3"]),
      (7, 13, "warning", NO_NCCL.format(n=20), ["ldconfig.txt:3"])]),
    # NCCL's real line passes NCCL; lsmod's real gdrdrv line (a grep, no header) passes GDRCopy, as libgdrapi does
    ("DLV022", {"ldconfig.txt": WHOLE.replace("20 libs", "21 libs") + NCCL, "lsmod.txt": LSMOD}, "", []),
    ("DLV022", {"ldconfig.txt": WHOLE.replace("20 libs", "22 libs") + NCCL + GDRAPI}, "", []),
    ("DLV022", {"ldconfig.txt": WHOLE.replace("20 libs", "21 libs") + NCCL, "lsmod.txt": "Module                  Size  Used by\n"
                + LSMOD.splitlines()[3] + "\n"}, "",
     [(7, 13, "info", NO_GDR.format(modules="lsmod shows no gdrdrv"), ["ldconfig.txt:3"])]),
    # a grep'd ldconfig line alone is no complete listing: the rule does not judge
    ("DLV022", {"ldconfig.txt": PUBLIC / "ldconfig-p-nccl.txt"}, "", []),
    # DLV023: Translated is info, a warning when the quote says RDMA; Passthrough passes; the timestamped dmesg form reads the same
    ("DLV023", {"dmesg.txt": PUBLIC / "dmesg-iommu-translated.txt"}, "", [(7, 13, "info", TRANSLATED, ["dmesg.txt:3"])]),
    ("DLV023", {"dmesg.txt": PUBLIC / "dmesg-iommu-translated.txt"}, RDMA, [(7, 13, "warning", TRANSLATED, ["dmesg.txt:3"])]),
    ("DLV023", {"dmesg.txt": PUBLIC / "dmesg-iommu-passthrough.txt"}, RDMA, []),
    ("DLV023", {"dmesg.txt": "[    0.324290] iommu: Default domain type: Translated \n"}, "", [(7, 13, "info", TRANSLATED, ["dmesg.txt:1"])]),
    # DLV024: intel_pstate's powersave (the real capture) is info; the generic powersave (edited: acpi-cpufreq) a warning; performance passes
    ("DLV024", {"cpupower.txt": CPUPOWER}, "",
     [(7, 13, "info", "node node-1 CPU 5 runs the powersave governor of intel_pstate: clocks drop at idle and rise late, expected performance "
       "on a GPU node", ["cpupower.txt:11"])]),
    ("DLV024", {"cpupower.txt": CPUPOWER.replace("driver: intel_pstate", "driver: acpi-cpufreq")}, "",
     [(7, 13, "warning", "node node-1 CPU 5 runs the powersave governor of acpi-cpufreq: its cores stay at their lowest frequency, "
       "expected performance", ["cpupower.txt:11"])]),
    ("DLV024", {"cpupower.txt": CPUPOWER.replace('"powersave" may', '"performance" may')}, "", []),
])
def test_inventory_case(tmp_path, rule, files, extra, expected):
    assert _hits(_run(tmp_path, files, "H100-SXM", 1, extra), rule) == expected


@pytest.mark.parametrize("rule, reason", [
    ("DLV022", "no ldconfig -p listing (with its header) among the evidence files"),
    ("DLV023", "no kernel log line naming the IOMMU default domain type among the evidence files"),
    ("DLV024", "no cpupower frequency-info among the evidence files"),
])
def test_inventory_rules_do_not_run_without_their_evidence(tmp_path, rule, reason):
    report = _run(tmp_path, {"smi.txt": PUBLIC / "nvidia-smi-q-pcie-throttle-good.txt"})
    assert [s["reason"] for s in report["skipped"] if s["rule"] == rule] == [reason]
