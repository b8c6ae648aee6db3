"""CPU001 and CPU002 case by case: the gate, each severity band and each boundary, with line,
column and the exact message (oracles written by hand)."""

from __future__ import annotations

import pytest

from cases import cluster
from conftest import check_json

NETWORK = ("    intra_node: {fabric: nvlink}\n"
           "    inter_node: {fabric: infiniband, nics_per_node: 8, nic_speed: 400Gbps, rdma: true, oversubscription: 1}\n")


def _findings(tmp_path, rule, cpu="{sockets: 2, cores_per_socket: 56}", memory="2TB", *args):
    path = tmp_path / "q.yaml"
    path.write_text(cluster(NETWORK, cpu=cpu, memory=memory), encoding="utf-8")
    return [f for f in check_json(str(path), "--select", rule, *args)["findings"] if f["rule"] == rule]


# 8 accelerators: 8 x (2 + 1) = 24 cores for the error band, 8 x (3 + 1) = 32 for the warning band
@pytest.mark.parametrize("cpu, severity, column, message", [
    ("{sockets: 1, cores_per_socket: 23}", "error", 43,
     "1 x 23 = 23 physical cores per node in pool 'gpu' cannot feed 8 accelerators: 8 x (2 dataloader workers + 1) = 24 cores needed (default, no workload)"),
    ("{sockets: 1, cores_per_socket: 24}", "warning", 43,
     "1 x 24 = 24 physical cores per node in pool 'gpu' cannot feed 8 accelerators: 8 x (3 dataloader workers + 1) = 32 cores needed (default, no workload)"),
    ("{sockets: 2, cores_per_socket: 15}", "warning", 43,
     "2 x 15 = 30 physical cores per node in pool 'gpu' cannot feed 8 accelerators: 8 x (3 dataloader workers + 1) = 32 cores needed (default, no workload)"),
    ("{sockets: 2, cores_per_socket: 16}", None, 0, ""),
    ("{vcpus: 46}", "error", 20,  # a vCPU is half a core: 23 cores; the finding points at vcpus
     "46 vCPUs = 23 physical cores per node in pool 'gpu' cannot feed 8 accelerators: 8 x (2 dataloader workers + 1) = 24 cores needed (default, no workload)"),
    ("{vcpus: 64}", None, 0, ""),
])
def test_cpu001_bands_and_boundaries(tmp_path, cpu, severity, column, message):
    found = _findings(tmp_path, "CPU001", cpu)
    if severity is None:
        assert found == []
        return
    [f] = found
    assert (f["severity"], f["line"], f["column"], f["message"]) == (severity, 10, column, message)


def test_cpu001_a_configured_zero_is_a_valid_threshold(tmp_path):
    # default_workers_error 0 and warning 0: 8 x (0 + 1) = 8 cores needed
    args = ("--param", "CPU001.default_workers_error=0", "--param", "CPU001.default_workers_warning=0")
    [f] = _findings(tmp_path, "CPU001", "{sockets: 1, cores_per_socket: 7}", "2TB", *args)
    assert f["message"].endswith("8 x (0 dataloader workers + 1) = 8 cores needed (default, no workload)") and f["severity"] == "error"
    assert _findings(tmp_path, "CPU001", "{sockets: 1, cores_per_socket: 8}", "2TB", *args) == []


# 8 x 80 GB of H100 memory = 640 GB: host memory below it is an error, equal to it is enough
@pytest.mark.parametrize("memory, message", [
    ("639GB", "host memory 639 GB per node is less than the 640 GB of accelerator memory it hosts (8 x 80 GB): loading and checkpointing the model will swap or fail"),
    ("640GB", None),
])
def test_cpu002_boundary(tmp_path, memory, message):
    found = _findings(tmp_path, "CPU002", "{sockets: 2, cores_per_socket: 56}", memory)
    if message is None:
        assert found == []
    else:
        [f] = found
        assert (f["line"], f["column"], f["message"]) == (11, 15, message)
