"""Instance types: `instance:` in a node pool fills what the spec leaves out, with sources in the evidence."""

from __future__ import annotations

import json

import pytest

from clusterlint.model import catalog, instances
from clusterlint.model.base import Cluster

from conftest import SPECS, check_json, run_cli

WORKLOAD = str(SPECS / "llama70b-pretrain.yaml")
TORCHX = "https://github.com/meta-pytorch/torchx/blob/main/torchx/specs/named_resources_aws.py"
POOL = """apiVersion: clusterlint/v1
kind: Cluster
metadata: {name: c}
spec:
  node_pools:
    - name: p5
      count: 4
      instance: aws/p5.48xlarge
"""


def rules(report: dict) -> list:
    return sorted((f["rule"], f["severity"]) for f in report["findings"])


@pytest.mark.parametrize("extra", [(), ("--workload", WORKLOAD)])
def test_instance_alone_gives_the_hand_written_findings(extra):
    by_instance = check_json(str(SPECS / "aws-p5-instance.yaml"), *extra)
    by_hand = check_json(str(SPECS / "aws-p5-48xlarge.yaml"), *extra)
    assert rules(by_instance) == rules(by_hand) and rules(by_hand)
    assert by_instance["score"]["score"] == by_hand["score"]["score"]


def test_findings_cite_each_instance_figure_at_the_instance_line():
    found = {f["rule"]: f for f in check_json(str(SPECS / "aws-p5-instance.yaml"))["findings"]}
    lck = found["LCK003"]
    assert (lck["line"], lck["column"]) == (17, 17)  # the `instance:` value: the fabric came from it
    assert lck["evidence"] == [
        f"inter_node.fabric efa: instance aws/p5.48xlarge, {TORCHX}",
        f"inter_node.nics_per_node 32: instance aws/p5.48xlarge, {TORCHX}",
        "inter_node.nic_speed 100Gbps: instance aws/p5.48xlarge, https://github.com/stas00/ml-engineering/tree/master/network",
    ]
    assert f"memory 2048GiB: instance aws/p5.48xlarge, {TORCHX}" in found["SPEC006"]["evidence"]


def test_spec_figures_override_the_instance_and_say_so(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text(POOL + "      memory: 512GiB\n", encoding="utf-8")
    before = path.read_bytes()
    cpu002 = next(f for f in check_json(str(path))["findings"] if f["rule"] == "CPU002")
    # 512 GiB = 549.8 GB of host RAM for 8 x 80 GB = 640 GB of accelerator memory
    assert cpu002["message"].startswith("host memory 549.8 GB per node is less than the 640 GB of accelerator memory")
    assert (cpu002["line"], cpu002["column"]) == (9, 15)  # the spec's own memory line
    assert "memory 512GiB: spec (instance aws/p5.48xlarge has 2048GiB)" in cpu002["evidence"]
    assert "accelerator.count 8: instance aws/p5.48xlarge, https://www.silicon.fr/aws-blocs-capacite-ec2-ml-473074.html" in cpu002["evidence"]
    assert path.read_bytes() == before  # the expansion is in memory only


def test_unknown_instance_is_spec002_with_a_suggestion(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text(POOL.replace("aws/p5.48xlarge", "aws/p5.48xlarg"), encoding="utf-8")
    code, out, _ = run_cli("check", str(path), "--format", "json")
    report = json.loads(out)
    assert code == 1 and [(f["rule"], f["line"], f["column"], f["message"]) for f in report["findings"]] == [
        ("SPEC002", 8, 17, "spec.node_pools[0].instance: unknown instance type 'aws/p5.48xlarg' (did you mean 'aws/p5.48xlarge'?); "
                           "see clusterlint catalog --instances"),
    ]


def test_a_pool_states_its_accelerator_or_an_instance(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text(POOL.replace("      instance: aws/p5.48xlarge\n", ""), encoding="utf-8")
    messages = [f["message"] for f in check_json(str(path))["findings"]]
    assert messages == ["spec.node_pools[0]: state the accelerator, or an instance whose accelerator fills it"]


def test_every_instance_is_a_valid_pool_of_catalog_parts_with_a_source_per_figure():
    table = instances.load()
    assert len(table) >= 20
    providers = {i.split("/")[0] for i in table}
    assert {"aws", "gcp", "azure", "oci"} <= providers and len(providers - {"aws", "gcp", "azure", "oci"}) >= 3
    for ident, instance in table.items():
        figures = dict(instance.figures)
        network = figures.pop("network", {})
        Cluster.model_validate({"apiVersion": "clusterlint/v1", "kind": "Cluster", "metadata": {"name": ident},
                                "spec": {"node_pools": [{"name": "x", "count": 1, **figures}], "network": network}})
        assert catalog.lookup(instance.figures["accelerator"]["model"]) is not None, ident
        for name, figure in instance.figures.items():
            for path, _ in instances.leaves(figure, (name,)):
                assert instance.source(".".join(map(str, path))).startswith("https://"), (ident, path)


def test_catalog_lists_instances_with_sources():
    code, text, _ = run_cli("catalog", "--instances")
    assert code == 0 and "aws/p5.48xlarge                          8 x H100-SXM       192 vCPUs     2048GiB  30.72TB nvme  32 x 100Gbps efa" in text
    assert f"cpu.vcpus, memory, network.inter_node.fabric, network.inter_node.nics_per_node {TORCHX}" in text
    data = json.loads(run_cli("catalog", "--instances", "--format", "json")[1])
    assert set(data) == set(instances.load())
    assert data["gcp/a3-ultragpu-8g"]["sources"] == {
        "accelerator.model": "https://github.com/GoogleCloudPlatform/cluster-toolkit/discussions/3478",
        "accelerator.count": "https://github.com/GoogleCloudPlatform/cluster-toolkit/discussions/3478",
        "network.inter_node.fabric": "https://github.com/GoogleCloudPlatform/cluster-toolkit/discussions/3478",
        "network.inter_node.nics_per_node": "https://github.com/GoogleCloudPlatform/cluster-toolkit/discussions/3478",
        "network.inter_node.rdma": "https://github.com/GoogleCloudPlatform/cluster-toolkit/discussions/3478",
    }
