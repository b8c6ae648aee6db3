"""DLV027 case by case (cmax nccl-ib-qps-entropy): real /etc/nccl.conf files (tests/evidence/public/,
sources in SOURCE.md) and a real collect manifest (tests/evidence/collect/); edits named in each case.
The rule, the quote line and column (the quoted tiers), the severity, the exact message and the
evidence file and line, for each gate and the boundary at cmax's 2 queue pairs."""

from __future__ import annotations

import pytest

from conftest import ROOT
from test_accept_cases import PUBLIC, _hits, _run

NDV4 = (PUBLIC / "nccl-conf-azure-ndv4.conf").read_text()  # no NCCL_IB_QPS_PER_CONNECTION; first setting at line 3
SPECTRUMX = (PUBLIC / "nccl-conf-spectrumx-h200.conf").read_text()  # NCCL_IB_QPS_PER_CONNECTION=4 at line 8
MANIFEST = (ROOT / "tests" / "evidence" / "collect" / "collect-manifest-vm.txt").read_text()  # not-readable /etc/nccl.conf
MANIFEST_LINE = next(n for n, line in enumerate(MANIFEST.splitlines(), 1) if line.startswith("not-readable /etc/nccl.conf "))


def _fabric(fabric="infiniband", tiers=("leaf", "spine")) -> str:
    """The quote's fabric after the pool (lines 1-9): `tiers:` at line 14, column 7."""
    rows = "".join(f"        - {{name: {name}, accelerators: {256 * 4 ** i}, oversubscription: 1}}\n" for i, name in enumerate(tiers[:-1]))
    rows += f"        - {{name: {tiers[-1]}, oversubscription: 1}}\n"
    return f"  network:\n    inter_node:\n      fabric: {fabric}\n      nics_per_node: 1\n      tiers:\n{rows}"


def _tail(tiers=2, fabric="infiniband") -> str:
    return (f"expected at least 2 on a {tiers}-tier {fabric} fabric: one queue pair per connection gives ECMP one flow to hash "
            "onto the spine uplinks (sweep 2 to 4)")


UNSET = f"node node-1 leaves NCCL_IB_QPS_PER_CONNECTION unset (NCCL's default 1), {_tail()}"


@pytest.mark.parametrize("files, extra, expected", [
    # Azure's real NDv4 /etc/nccl.conf sets no queue pairs: the default on a two-tier fabric (cited at its first setting)
    ({"nccl.conf": NDV4}, _fabric(), [(14, 7, "info", UNSET, ["nccl.conf:3"])]),
    ({"nccl.conf": NDV4}, _fabric("roce", ("leaf", "spine", "core")),
     [(14, 7, "info", f"node node-1 leaves NCCL_IB_QPS_PER_CONNECTION unset (NCCL's default 1), {_tail(3, 'roce')}", ["nccl.conf:3"])]),
    # the real Spectrum-X /etc/nccl.conf sets 4; cmax's boundary (edited): 2 passes, 1 fires, a value that is no number reads as 1
    ({"nccl.conf": SPECTRUMX}, _fabric("roce"), []),
    ({"nccl.conf": SPECTRUMX.replace("CONNECTION=4", "CONNECTION=2")}, _fabric(), []),
    ({"nccl.conf": SPECTRUMX.replace("CONNECTION=4", "CONNECTION=1")}, _fabric(),
     [(14, 7, "info", f"node node-1 sets NCCL_IB_QPS_PER_CONNECTION=1, {_tail()}", ["nccl.conf:8"])]),
    ({"nccl.conf": SPECTRUMX.replace("CONNECTION=4", "CONNECTION=four")}, _fabric(),
     [(14, 7, "info", f"node node-1 sets NCCL_IB_QPS_PER_CONNECTION=four, {_tail()}", ["nccl.conf:8"])]),
    # gates: one tier (no spine for ECMP), no tiers quoted, a fabric NCCL does not drive through IB verbs: nothing to judge
    ({"nccl.conf": NDV4}, _fabric(tiers=("leaf",)), []),
    ({"nccl.conf": NDV4}, "", []),
    ({"nccl.conf": NDV4}, _fabric("efa"), []),
    # the real collect manifest: /etc/nccl.conf not readable on the node, so NCCL runs with its default
    ({"collect-manifest.txt": MANIFEST}, _fabric(),
     [(14, 7, "info", f"node node-1 has no /etc/nccl.conf, so NCCL_IB_QPS_PER_CONNECTION is NCCL's default 1, {_tail()}",
       [f"collect-manifest.txt:{MANIFEST_LINE}"])]),
    # the manifest says the file was collected but it is not among the evidence: nothing read, nothing said (edited status)
    ({"collect-manifest.txt": MANIFEST.replace("not-readable /etc/nccl.conf - ", "found /etc/nccl.conf nccl.conf ")}, _fabric(), []),
    # a conf beside the manifest decides
    ({"collect-manifest.txt": MANIFEST.replace("not-readable /etc/nccl.conf - ", "found /etc/nccl.conf nccl.conf "),
      "nccl.conf": SPECTRUMX}, _fabric(), []),
])
def test_nccl_case(tmp_path, files, extra, expected):
    assert _hits(_run(tmp_path, files, extra=extra), "DLV027") == expected


def test_gates_say_why_the_rule_did_not_run(tmp_path):
    report = _run(tmp_path / "a", {"nccl.conf": NDV4}, extra=_fabric(tiers=("leaf",)))
    assert [s["reason"] for s in report["skipped"] if s["rule"] == "DLV027"] == [
        "the quote lists no InfiniBand or RoCE fabric with two or more tiers (network.inter_node.tiers)"]
    report = _run(tmp_path / "b", {"free.txt": ROOT / "tests" / "evidence" / "real" / "vm" / "free.txt"}, extra=_fabric())
    assert [s["reason"] for s in report["skipped"] if s["rule"] == "DLV027"] == [
        "no /etc/nccl.conf and no collect manifest among the evidence files"]
