"""DLV022-DLV024: the software and kernel settings SemiAnalysis' ClusterMAX audit (cmax) inventories on
a delivered node: NCCL and GDRCopy installed, the IOMMU's default domain (passthrough or full DMA
translation) and the CPU frequency governor.

A library or module is "missing" only when a complete listing (`ldconfig -p` as counted by its
header, `lsmod` under its header) lacks it; a partial listing shows what is there, never what is not."""

from __future__ import annotations

from clusterlint.engine.review import check

from clusterlint.rules.common import NO_PARAMS
from clusterlint.rules.delivery import nodes_with, pool_name



def _library(node, prefix: str):
    return next((fact for key, fact in sorted(node.software.items()) if key.startswith(f"library {prefix}")), None)


@check(NO_PARAMS)
def gpu_libraries(review, params):
    """nccl-installed (cmax: libnccl.so* found) and gdrcopy (cmax: libgdrapi in ldconfig -p, or gdrdrv in lsmod)."""
    nodes = nodes_with(review, lambda n: "ldconfig listing" in n.software, "ldconfig -p listing (with its header)")
    path = pool_name(review)
    for node in nodes:
        listing = node.software["ldconfig listing"]
        if listing.value["listed"] < listing.value["counted"]:
            continue  # a cut listing shows what is there, not what is missing
        if _library(node, "libnccl.so") is None:
            yield review.hit("Cluster", path, f"node {node.host} has no NCCL: ldconfig -p lists {listing.value['counted']} libraries, "
                             "none libnccl.so: multi-GPU jobs outside a container cannot run collectives", evidence=(listing.cite(),),
                             severity="warning")
        if _library(node, "libgdrapi.so") is None and "module gdrdrv" not in node.software:
            modules = "lsmod shows no gdrdrv" if "lsmod listing" in node.software else "no lsmod listing shows gdrdrv"
            yield review.hit("Cluster", path, f"node {node.host} has no GDRCopy: ldconfig -p lists no libgdrapi.so and {modules}",
                             evidence=(listing.cite(),))


@check(NO_PARAMS)
def iommu_translation(review, params):
    """vm-iommu-passthrough: cmax warns when GPU and RDMA devices use full IOMMU DMA translation."""
    nodes = nodes_with(review, lambda n: "iommu default domain" in n.software, "kernel log line naming the IOMMU default domain type")
    inter = review.cluster.spec.network.inter_node
    rdma = inter is not None and inter.rdma is True
    path = pool_name(review)
    for node in nodes:
        fact = node.software["iommu default domain"]
        if fact.value == "Translated":
            yield review.hit("Cluster", path, f"node {node.host} translates every device's DMA through the IOMMU (default domain Translated, "
                             "expected Passthrough with iommu=pt): GPU and RDMA transfers pay for the translation",
                             evidence=(fact.cite(),), severity="warning" if rdma else "info")


# drivers whose "powersave" governor is the generic one: the lowest frequency the policy allows.
# intel_pstate and amd-pstate-epp (active mode) have their own "powersave", which still raises clocks under load.
_DYNAMIC = ("intel_pstate", "amd-pstate-epp", "amd-pstate")


@check(NO_PARAMS)
def cpu_governor(review, params):
    """cpu-power-governor: cmax records the scaling governors; powersave on a GPU node slows the host side of every step."""
    nodes = nodes_with(review, lambda n: "cpufreq governors" in n.software, "cpupower frequency-info")
    path = pool_name(review)
    for node in nodes:
        seen = set()
        for fact in node.software["cpufreq governors"].value:
            driver, governor = fact.value["driver"], fact.value["governor"]
            if governor != "powersave" or (driver, governor) in seen:
                continue
            seen.add((driver, governor))
            if driver in _DYNAMIC:
                yield review.hit("Cluster", path, f"node {node.host} CPU {fact.value['cpu']} runs the powersave governor of {driver}: "
                                 "clocks drop at idle and rise late, expected performance on a GPU node", evidence=(fact.cite(),),
                                 severity="info")
            else:
                yield review.hit("Cluster", path, f"node {node.host} CPU {fact.value['cpu']} runs the powersave governor of "
                                 f"{driver or 'an unnamed driver'}: its cores stay at their lowest frequency, expected performance",
                                 evidence=(fact.cite(),))
