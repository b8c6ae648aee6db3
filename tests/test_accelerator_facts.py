"""An accelerator the catalog lacks, described in the pool; spec figures over catalog ones; SPEC004's suggestions."""

from __future__ import annotations

import pytest

from clusterlint.model import catalog
from clusterlint.model.base import Accelerator

from conftest import FIXTURES, check_json

_FIXTURE = (FIXTURES / "SPEC004" / "good.yaml").read_text(encoding="utf-8")
# the fixture's first pool only (4 nodes of 8 H100-SXM); its described second pool is cut out
GOOD = _FIXTURE[: _FIXTURE.index("    - name: described")] + _FIXTURE[_FIXTURE.index("  network:"):]
H100 = "accelerator: {model: H100-SXM, count: 8}"


def lint(accelerator: str, tmp_path) -> dict:
    path = tmp_path / "cluster.yaml"
    path.write_text(GOOD.replace(H100, accelerator), encoding="utf-8")
    return check_json(str(path))


def by_rule(report: dict) -> dict:
    return {f["rule"]: f for f in report["findings"]}


def test_described_accelerator_runs_every_rule_with_spec_evidence(tmp_path):
    report = lint("accelerator: {model: MI308X, count: 8, dense_tflops: {bf16: 500}, memory: 192GB}", tmp_path)
    found = by_rule(report)
    # every rule ran: the only skips ask about terms this quote leaves unstated (protection, service nodes, monitoring)
    assert "SPEC004" not in found and [s for s in report["skipped"] if not s["reason"].endswith(": ask")] == []
    # 6 x 7e9 x 100e9 / (32 x 500e12 x 0.45) = 583,333 s = 6.752 days; with the exposed gradient traffic
    # (0.27%), checkpoints (0.01%) and 99.5% availability 6.804 days = 163.3 h; 32 x 163.3 h x 2.50 USD
    # + 1,294 GB of data out x 0.05 USD/GB = 13,129 USD
    assert found["CST001"]["message"] == (
        "estimated training time 6.752 days = 6 x 7B params x 100B tokens / (32 x 500 TFLOPS x 0.45 MFU) on 32 x MI308X on pool 'gpu' "
        "(the whole pool, 4 nodes x 8: no placement or data parallelism stated); effective time 6.804 days = 6.752 days x "
        "(1 + 0.27% network + 0.01% checkpoints) / 99.50% availability; cost owed 13,129 USD = 32 x 163.3 h x 2.50 USD/h + 1,294 GB x 0.05 USD/GB")
    assert "dense bf16 500 TFLOPS: spec" in found["CST001"]["evidence"]


def test_spec_tflops_override_the_catalog_and_say_so(tmp_path):
    found = by_rule(lint("accelerator: {model: H100-SXM, count: 8, dense_tflops: {bf16: 900}}", tmp_path))
    # 4.2e21 / (32 x 900e12 x 0.45) = 324,074 s = 3.751 days
    assert found["CST001"]["message"].startswith("estimated training time 3.751 days = 6 x 7B params x 100B tokens / (32 x 900 TFLOPS")
    assert "dense bf16 900 TFLOPS: spec" in found["CST001"]["evidence"]


def test_partly_described_accelerator_is_spec004_and_skips_what_it_lacks(tmp_path):
    report = lint("accelerator: {model: MI308X, count: 8, memory: 192GB}", tmp_path)
    assert by_rule(report)["SPEC004"]["message"] == (
        "accelerator 'MI308X' is not in the catalog; rules use the spec's memory and skip those that need its dense_tflops (see clusterlint catalog)")
    reasons = {s["rule"]: s["reason"] for s in report["skipped"]}
    assert reasons["CST001"] == "neither the catalog nor the spec gives dense bf16 TFLOPS for MI308X"


def test_figures_cite_spec_or_catalog_per_figure():
    facts = catalog.for_accelerator(Accelerator(model="H100-SXM", count=8, dense_tflops={"fp8": 1500}, scale_up_domain=16))
    assert (facts.tflops["fp8"], facts.tflops["bf16"], facts.scale_up_domain, facts.scale_up_spans_nodes) == (1500, 989.4, 16, True)
    assert facts.cite("compute", "fp8") == "spec"
    assert facts.cite("compute", "bf16") == "catalog H100-SXM, https://www.nvidia.com/en-us/data-center/h100/"
    assert facts.cite("compute") == "spec (fp8), catalog H100-SXM, https://www.nvidia.com/en-us/data-center/h100/"
    assert facts.cite("scale_up_domain") == "spec"
    assert facts.cite("memory") == "catalog H100-SXM, https://www.nvidia.com/en-us/data-center/h100/"
    assert catalog.for_accelerator(Accelerator(model="MI308X", count=8)) is None


@pytest.mark.parametrize("model, given, hint", [
    ("H100-SMX", {}, " (did you mean 'H100-SXM'?)"),
    ("GH200", {}, " (did you mean 'GH200-96GB'? GH200-96GB has 96 GB, 989 dense bf16 TFLOPS; GH200-141GB has 141 GB, 989 dense bf16 TFLOPS: state memory to choose)"),
    ("GH200", {"memory": "144GB"}, " (did you mean 'GH200-141GB'?)"),
    ("V100", {"memory": "32GB"}, " (did you mean 'V100-SXM2-32GB'?)"),
    ("A100-SXM4-40GB", {}, " (did you mean 'A100-SXM-40GB'?)"),
    # 94 / 141 - 1 = -33%; 756 / 400 - 1 = +89%
    ("H100", {"memory": "141GB"}, " (did you mean 'H100-NVL'? its memory 94 GB is 33% less than the 141 GB the spec states)"),
    ("H100", {"dense_tflops": {"bf16": 400}}, " (did you mean 'H100-PCIe'? its dense bf16 756 TFLOPS is 89% more than the 400 TFLOPS the spec states)"),
    ("MI300", {}, ""),  # MI300X or MI300A: different parts, no guess
    ("Foo9000", {}, ""),
])
def test_suggestion_compares_family_generation_and_figures(model, given, hint):
    assert catalog.suggest(model, Accelerator(model=model, count=8, **given)) == hint


def test_suggestion_never_crosses_part_families():
    assert "'H200'" not in catalog.suggest("GH200") and "A100" not in catalog.suggest("V100")
    assert "'B200'" not in catalog.suggest("GB200-NVL") and catalog.suggest("MI300B") == ""
