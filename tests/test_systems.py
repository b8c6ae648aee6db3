"""Reference designs: `system:` in a node pool fills what the spec leaves out, as `instance:` does,
with the source's own words for every figure."""

from __future__ import annotations

import json

import pytest

from clusterlint.model import catalog, instances
from clusterlint.model.base import Cluster
from clusterlint.model.instances import SYSTEM

from conftest import ROOT, check_json, run_cli

DGX_H100 = "https://docs.nvidia.com/dgx/dgxh100-user-guide/introduction-to-dgxh100.html"
POOL = """apiVersion: clusterlint/v1
kind: Cluster
metadata: {{name: c}}
spec:
  node_pools:
    - name: dgx
      count: {count}
      system: {system}
{extra}  network:
    inter_node: {{fabric: infiniband{inter}}}
"""


def _write(tmp_path, system="nvidia/dgx-h100", extra="", inter="", count=4):
    path = tmp_path / "c.yaml"
    path.write_text(POOL.format(system=system, extra=extra, inter=inter, count=count), encoding="utf-8")
    return path


def test_system_fills_the_pool_and_cites_each_figure(tmp_path):
    report = check_json(str(_write(tmp_path)))
    spec006 = next(f for f in report["findings"] if f["rule"] == "SPEC006")
    assert [line for line in spec006["evidence"] if "system" in line] == [
        f"accelerator.model H100-SXM: system nvidia/dgx-h100, {DGX_H100}",
        f"accelerator.count 8: system nvidia/dgx-h100, {DGX_H100}",
        f"cpu.model Xeon Platinum 8480C: system nvidia/dgx-h100, {DGX_H100}",
        f"cpu.sockets 2: system nvidia/dgx-h100, {DGX_H100}",
        f"cpu.cores_per_socket 56: system nvidia/dgx-h100, {DGX_H100}",
        f"memory 2TB: system nvidia/dgx-h100, {DGX_H100}",
        f"local_storage[0].type nvme: system nvidia/dgx-h100, {DGX_H100}",
        f"local_storage[0].capacity 30.72TB: system nvidia/dgx-h100, {DGX_H100}",
        f"inter_node.nics_per_node 8: system nvidia/dgx-h100, {DGX_H100}",
        f"inter_node.nic_speed 400Gbps: system nvidia/dgx-h100, {DGX_H100}",
        f"inter_node.rdma True: system nvidia/dgx-h100, {DGX_H100}",
    ]
    assert {f["rule"] for f in report["findings"]} <= {"SPEC006", "LCK003", "CST001"}  # 8 x 400 Gbps: no NET003


def test_the_quote_wins_and_the_difference_is_reported_where_it_is_written(tmp_path):
    path = _write(tmp_path, extra="      memory: 512GiB\n", inter=", nic_speed: 100Gbps")
    before = path.read_bytes()
    found = {f["rule"]: f for f in check_json(str(path))["findings"]}
    cpu002 = found["CPU002"]
    # 512 GiB = 549.8 GB of host RAM for 8 x 80 GB = 640 GB of accelerator memory
    assert cpu002["message"].startswith("host memory 549.8 GB per node is less than the 640 GB of accelerator memory")
    assert (cpu002["line"], cpu002["column"]) == (9, 15)
    assert "memory 512GiB: spec (system nvidia/dgx-h100 has 2TB)" in cpu002["evidence"]
    net003 = found["NET003"]
    assert (net003["line"], net003["column"]) == (11, 49)  # the quote's nic_speed, not the system's
    assert net003["message"].startswith("8 x 100 Gbps / 8 accelerators = 100 Gbps per accelerator")
    assert "inter_node.nic_speed 100Gbps: spec (system nvidia/dgx-h100 has 400Gbps)" in net003["evidence"]
    assert f"inter_node.nics_per_node 8: system nvidia/dgx-h100, {DGX_H100}" in net003["evidence"]
    assert path.read_bytes() == before  # the expansion is in memory only


def test_unknown_system_is_spec002_with_a_suggestion(tmp_path):
    code, out, _ = run_cli("check", str(_write(tmp_path, system="nvidia/dgx-b20")), "--format", "json")
    assert code == 1 and [(f["rule"], f["line"], f["column"], f["message"]) for f in json.loads(out)["findings"]] == [
        ("SPEC002", 8, 15, "spec.node_pools[0].system: unknown system 'nvidia/dgx-b20' (did you mean 'nvidia/dgx-b200'?); "
                           "see the systems in linter/data/systems.yaml"),
    ]


def test_a_pool_names_an_instance_or_a_system_not_both(tmp_path):
    path = _write(tmp_path, extra="      instance: aws/p5.48xlarge\n")
    assert [(f["rule"], f["line"], f["column"], f["message"]) for f in check_json(str(path))["findings"]] == [
        ("SPEC002", 8, 15, "spec.node_pools[0]: name an instance or a system, not both"),
    ]


def test_a_fabric_the_system_leaves_open_is_asked_for_at_the_system_line(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text(POOL.format(system="nvidia/dgx-b200", extra="", inter="", count=4).split("  network:")[0], encoding="utf-8")
    assert [(f["rule"], f["line"], f["column"], f["message"]) for f in check_json(str(path))["findings"]] == [
        ("SPEC002", 8, 15, "spec.network.inter_node.fabric: required field is missing"),
    ]


def test_every_system_is_a_valid_pool_of_catalog_parts_with_words_per_figure():
    table = instances.load(SYSTEM)
    assert {"nvidia/dgx-b200", "nvidia/dgx-h100", "nvidia/hgx-h100-8", "nvidia/gb200-nvl72", "nvidia/gb300-nvl72",
            "amd/mi300x-platform", "dell/xe9680", "supermicro/sys-a22ga-nbrt", "hpe/cray-xd670", "lenovo/sr680a-v3"} <= set(table)
    for ident, system in table.items():
        figures = dict(system.figures)
        network = {"inter_node": {"fabric": "infiniband"}, **figures.pop("network", {})}
        network["inter_node"] = {"fabric": "infiniband", **network["inter_node"]}
        Cluster.model_validate({"apiVersion": "clusterlint/v1", "kind": "Cluster", "metadata": {"name": ident},
                                "spec": {"node_pools": [{"name": "x", "count": 1, **figures}], "network": network}})
        assert catalog.lookup(system.figures["accelerator"]["model"]) is not None, ident
        for name, figure in system.figures.items():
            for path, _ in instances.leaves(figure, (name,)):
                key = ".".join(map(str, path))
                cited = system.sources[max((k for k in system.sources if key == k or key.startswith(k + ".")), key=len)]
                assert cited["url"].startswith("https://") and cited["words"], (ident, key)


# The vendors' own designs at the adapter speed they ship with: NET003 is silent; at a quarter of it, it warns.
# 36 nodes: two NVL72 racks (18 trays of 4), so data-parallel traffic crosses the inter-node network.
REFERENCE = [(i, s.figures["network"]["inter_node"]) for i, s in instances.load(SYSTEM).items()
             if i.split("/")[0] in ("nvidia", "amd") and "nic_speed" in s.figures.get("network", {}).get("inter_node", {})]


@pytest.mark.parametrize("system, inter", REFERENCE, ids=[i for i, _ in REFERENCE])
def test_reference_designs_do_not_warn_on_net003_at_their_reference_speed(tmp_path, system, inter):
    assert len(REFERENCE) >= 4
    at_speed = check_json(str(_write(tmp_path, system=system, count=36)))
    assert "NET003" not in {f["rule"] for f in at_speed["findings"]}
    quarter = f"{int(inter['nic_speed'].removesuffix('Gbps')) // 4}Gbps"
    slow = check_json(str(_write(tmp_path, system=system, inter=f", nic_speed: {quarter}", count=36)))
    assert [f["severity"] for f in slow["findings"] if f["rule"] == "NET003"] == ["warning"]


def test_the_schema_lists_the_systems():
    schema = json.loads((ROOT / "schemas" / "cluster.schema.json").read_text(encoding="utf-8"))
    pool = schema["$defs"]["NodePool"]["properties"]["system"]
    assert pool["anyOf"][0]["enum"] == list(instances.ids(SYSTEM))
