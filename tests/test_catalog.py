"""The accelerator catalog: names resolve to one part, and every figure is cited to its vendor."""

from __future__ import annotations

from urllib.parse import urlparse

import pytest

from clusterlint._generated.builtin_data import ACCELERATORS
from clusterlint.model import catalog

# the vendors' and standards bodies' own domains; a figure cited elsewhere needs the entry's `why_not_vendor:`
VENDOR_DOMAINS = ("nvidia.com", "nvidia.cn", "nvd.orangelogic.com", "amd.com", "intel.com", "habana.ai", "google.com",
                  "amazon.com", "awsdocs-neuron.readthedocs-hosted.com", "microsoft.com", "jedec.org", "pcisig.com")
FIGURE_GROUPS = ("compute", "memory", "intra_node")  # `availability` says who rents a part: not a vendor's figure


def _vendor(url: str) -> bool:
    host = urlparse(url).hostname or ""
    return any(host == d or host.endswith("." + d) for d in VENDOR_DOMAINS)


@pytest.mark.parametrize("ident", sorted(ACCELERATORS["accelerators"]))
def test_figures_are_cited_to_the_vendor_or_say_why_not(ident):
    entry = ACCELERATORS["accelerators"][ident]
    elsewhere = [entry["sources"][g] for g in FIGURE_GROUPS if g in entry["sources"] and not _vendor(entry["sources"][g])]
    assert not elsewhere or entry.get("why_not_vendor"), f"{ident}: {elsewhere} is no vendor or standards source"


def test_the_allow_list_check_catches_an_aggregator():
    assert not _vendor("https://glennklockwood.com/garden/processors/h100")
    assert not _vendor("https://nvidia.com.example.org/h100")
    assert _vendor("https://www.nvidia.com/en-us/data-center/h100/")


@pytest.mark.parametrize("name, ident", [
    ("H200-SXM", "H200"), ("H200 SXM5", "H200"), ("NVIDIA H200", "H200"),
    ("NVIDIA H100 80GB HBM3", "H100-SXM"), ("H100 SXM5", "H100-SXM"), ("h100-sxm", "H100-SXM"),
    ("NVIDIA A100-SXM4-80GB", "A100-SXM-80GB"), ("NVIDIA A100-PCIE-40GB", "A100-PCIe-40GB"), ("NVIDIA A100 80GB PCIe", "A100-PCIe-80GB"),
    ("NVIDIA H100 PCIe", "H100-PCIe"), ("NVIDIA H100 NVL", "H100-NVL"), ("NVIDIA B200", "B200"), ("NVIDIA GB200", "GB200"),
    ("NVIDIA B300 SXM6 AC", "B300"), ("Tesla T4", "T4"), ("Tesla V100-SXM2-32GB", "V100-SXM2-32GB"),
    ("NVIDIA GeForce RTX 4090", "RTX-4090"), ("AMD Instinct MI300X", "MI300X"), ("AMD Instinct MI300X VF", "MI300X"),
    ("Trillium", "TPU-v6e"), ("Trn2", "Trainium2"),
    ("H100", None), ("A100 80GB", None), ("H200 141GB", None), ("Mystery-9000", None),  # names two parts share, or none
])
def test_resolve(name, ident):
    assert catalog.resolve(name) == ident
    assert (catalog.lookup(name).id if ident else catalog.lookup(name)) == ident


def test_no_name_means_two_parts():
    seen = {}
    for ident, entry in ACCELERATORS["accelerators"].items():
        for name in (ident, *entry.get("aliases", ())):
            folded = catalog._fold(name)
            assert seen.setdefault(folded, ident) == ident, f"{name!r} names {seen[folded]} and {ident}"


def test_a_quoted_alias_is_the_part(tmp_path):
    from cases import cluster
    from conftest import check_json

    (tmp_path / "q.yaml").write_text(cluster("    inter_node: {fabric: infiniband, nics_per_node: 8, nic_speed: 400Gbps, rdma: true}\n",
                                             accel='{model: "H200-SXM", count: 8}'), encoding="utf-8")
    report = check_json(str(tmp_path / "q.yaml"))
    assert [f for f in report["findings"] if f["rule"] == "SPEC004"] == []
    assert not [s for s in report["skipped"] if "not in the catalog" in s["reason"]]
