"""DLV010-DLV017: what a delivered node's read-only evidence shows beyond the quoted figures:
evidence that contradicts itself, GPU memory and PCIe health, power and thermal limits, the
GPUDirect RDMA path, software below the security floors, and the cluster's health-check wiring.

Each hit points at the quote line the node belongs to and cites the evidence file and line."""

from __future__ import annotations

from clusterlint.engine.review import Skip, check

from clusterlint.rules.common import NO_PARAMS
from clusterlint.rules.delivery import _nodes, _pool

WHAT = {"gpu_count": "accelerator count", "driver": "driver version", "cores": "physical cores", "memory": "host memory",
        "kernel_module": "NVIDIA kernel module"}


def _at(review):
    i, _ = _pool(review)
    return ("spec", "node_pools", i, "name")


def _each_gpu(review):
    """(where the findings point, "node H GPU ID", the GPU's facts) for every GPU in the evidence, by node and id."""
    path = _at(review)
    for node in _nodes(review):
        for gpu in sorted(node.gpus.values(), key=lambda g: str(g["id"].value)):
            yield path, f"node {node.host} GPU {gpu['id'].value}", gpu


@check(NO_PARAMS)
def conflicts(review, params):
    path = _at(review)
    for node in _nodes(review):
        for key, first, second in node.conflicts:
            yield review.hit("Cluster", path, f"node {node.host} evidence disagrees on its {WHAT[key]}: {first.value} in {first.file}, "
                             f"{second.value} in {second.file}", evidence=(first.cite(), second.cite()))


@check("clusterlint.rules.params:Memory")
def memory_health(review, params):
    for path, name, gpu in _each_gpu(review):
        mode = gpu.get("ecc_mode")
        if mode is not None and str(mode.value).lower() != "enabled":
            yield review.hit("Cluster", path, f"{name} runs with ECC {str(mode.value).lower()}, expected enabled", evidence=(mode.cite(),))
        pending = gpu.get("pending")
        if pending is not None:
            yield review.hit("Cluster", path, f"{name} has {pending.value}: it needs a GPU reset before its memory is whole", evidence=(pending.cite(),))
        corrected = gpu.get("ecc_corrected_volatile")
        if corrected is not None and corrected.value > params.max_corrected:
            yield review.hit("Cluster", path, f"{name} corrected {corrected.value} DRAM ECC errors since the driver loaded, "
                             f"more than {params.max_corrected}", severity="warning", evidence=(corrected.cite(),))


@check("clusterlint.rules.params:Link")
def pcie(review, params):
    for path, name, gpu in _each_gpu(review):
        width, top = gpu.get("pcie_width"), gpu.get("pcie_width_max")
        if width is not None and top is not None and width.value < top.value:
            yield review.hit("Cluster", path, f"{name} PCIe link runs at x{width.value}, the part's is x{top.value}", evidence=(width.cite(), top.cite()))
        replays = gpu.get("replays")
        if replays is not None and replays.value > params.max_replays:
            yield review.hit("Cluster", path, f"{name} replayed {replays.value} PCIe transfers since reset, more than {params.max_replays}",
                             severity="warning", evidence=(replays.cite(),))


@check("clusterlint.rules.params:Power")
def power(review, params):
    for path, name, gpu in _each_gpu(review):
        limit, rated = gpu.get("power_limit"), gpu.get("max_power_limit")
        if limit is not None and rated is not None and limit.value < rated.value:
            yield review.hit("Cluster", path, f"{name} power limit is {limit.value:g} W, the part's maximum is {rated.value:g} W",
                             evidence=(limit.cite(), rated.cite()))
        temperature = gpu.get("temperature")
        if temperature is not None and temperature.value > params.max_idle_temperature:
            yield review.hit("Cluster", path, f"{name} reads {temperature.value:g} C, above {params.max_idle_temperature:g} C for a GPU at rest",
                             severity="warning", evidence=(temperature.cite(),))


@check(NO_PARAMS)
def gpudirect(review, params):
    inter = review.cluster.spec.network.inter_node
    if inter is None or inter.rdma is not True:
        raise Skip("the quote does not say the fabric does RDMA (inter_node.rdma)")
    path = ("spec", "network", "inter_node", "rdma")
    nodes = _nodes(review)
    flavours = [n for n in nodes if n.kernel_module is not None]
    if not flavours:
        yield review.hit("Cluster", path, "GPUDirect RDMA is not evidenced: no /proc/driver/nvidia/version or kernel log naming the NVIDIA module "
                         "among the evidence files", severity="warning")
    for node in flavours:
        if node.kernel_module.value != "open":
            yield review.hit("Cluster", path, f"node {node.host} loads the proprietary NVIDIA kernel module: GPUDirect RDMA through dma_buf needs "
                             f"the open one (nvidia_peermem alone is deprecated)", evidence=(node.kernel_module.cite(),))
    for node in nodes:
        for bridge in node.bridges:
            if bridge.value["acs_enabled"]:
                yield review.hit("Cluster", path, f"node {node.host} bridge {bridge.value['device']} has PCIe ACS on "
                                 f"({', '.join(b + '+' for b in bridge.value['acs_enabled'])}): peer-to-peer GPU-NIC traffic goes through the root complex",
                                 evidence=(bridge.cite(),))
