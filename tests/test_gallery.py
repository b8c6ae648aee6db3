"""Every gallery spec produces exactly what docs/gallery.md says it does (as test_specs.py does for specs/README.md)."""

from __future__ import annotations

from collections import Counter

import pytest
from conftest import ROOT, SPECS, check_json, findings_table

GALLERY = SPECS / "gallery"


TABLE = findings_table(ROOT / "docs" / "gallery.md")


def test_table_covers_every_gallery_spec():
    assert len(TABLE) >= 8
    assert sorted(TABLE) == sorted(p.name for p in GALLERY.glob("*.yaml"))


@pytest.mark.parametrize("name", sorted(TABLE))
def test_gallery_spec_lints_as_documented(name):
    expected, score = TABLE[name]
    report = check_json(str(GALLERY / name))
    assert Counter((f["rule"], f["severity"]) for f in report["findings"]) == expected
    assert report["score"]["score"] == score


@pytest.mark.parametrize("name", sorted(TABLE))
def test_every_gallery_spec_cites_its_source_and_words(name):
    header = [line for line in (GALLERY / name).read_text(encoding="utf-8").splitlines() if line.startswith("#")]
    assert any("https://" in line for line in header), name
    assert any("Not stated" in line for line in header), name  # what the source leaves out is said, not guessed


# NVIDIA's own designs at their reference adapter speed: no NET003.
@pytest.mark.parametrize("name", ["nvidia-tyche-gb200-nvl72.yaml", "nvidia-theia-gb300-nvl72.yaml", "uf-hipergator-dgx-b200.yaml"])
def test_reference_designs_do_not_warn_on_net003(name):
    report = check_json(str(GALLERY / name))
    assert "NET003" not in {f["rule"] for f in report["findings"]}
    assert "NET003" not in {s["rule"] for s in report["skipped"]}  # judged, not skipped


@pytest.mark.parametrize("name, line, column, message", [
    ("fukushima-h200-spectrumx.yaml", 21, 61,
     "2 x 400 Gbps / 8 accelerators = 100 Gbps per accelerator (80 Gbps effective at 80% of advertised) in pool 'hgx-h200'; "
     "training on 989.4 dense bf16 TFLOPS wants >= 400 Gbps (400 Gbps per 989.4 reference TFLOPS)"),
    ("star-hpc-mixed.yaml", 49, 67,
     "1 x 200 Gbps / 4 accelerators = 50 Gbps per accelerator (40 Gbps effective at 80% of advertised) in pool 'xd665'; "
     "training on 989.4 dense bf16 TFLOPS wants >= 400 Gbps (400 Gbps per 989.4 reference TFLOPS), and below 100 Gbps is an error"),
])
def test_net003_points_at_the_adapter_speed_the_source_states(name, line, column, message):
    report = check_json(str(GALLERY / name))
    assert [(f["line"], f["column"], f["message"]) for f in report["findings"] if f["rule"] == "NET003"] == [(line, column, message)]


def test_mixed_partition_skips_the_pool_it_cannot_judge_by_name():
    report = check_json(str(GALLERY / "star-hpc-mixed.yaml"))
    assert [s["reason"] for s in report["skipped"] if s["rule"] == "NET003"] == [
        "pool 'dl385-a30': accelerator 'A30' is not in the catalog (see SPEC004)"]


def test_the_quote_wins_over_the_system_and_says_so():
    report = check_json(str(GALLERY / "uf-hipergator-dgx-b200.yaml"))
    evidence = next(f for f in report["findings"] if f["rule"] == "SPEC006")["evidence"]
    assert ("local_storage [0].type nvme, [0].capacity 1.7TB, [1].type nvme, [1].capacity 27.9TB: "
            "spec (system nvidia/dgx-b200 has [0].type nvme, [0].capacity 30.72TB)") in evidence
    assert "accelerator.model B200: system nvidia/dgx-b200, https://www.nvidia.com/en-us/data-center/dgx-b200/" in evidence
