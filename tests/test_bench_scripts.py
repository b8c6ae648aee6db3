"""The benchmark scripts run (they are not tests of speed: their figures go in the README)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_contract_floor_replays_every_finding_of_a_small_contract():
    out = subprocess.run([sys.executable, str(ROOT / "tests" / "bench" / "contract_floor.py"), "--clauses", "3"],
                         capture_output=True, text=True, cwd=ROOT, check=True).stdout
    assert "3 clauses, 13 findings" in out  # CON001 and CON005 in each clause, and seven about what the contract lacks
    figures = {name: float(value) for name, value in re.findall(r"^  (start-up|the whole check|load, record and report)[^\d]*([\d.]+) s", out, re.M)}
    assert set(figures) == {"start-up", "the whole check", "load, record and report"} and figures["start-up"] > 0 and figures["the whole check"] > 0
    floor = float(re.search(r"= ([\d.]+) s", out).group(1))
    assert abs(floor - figures["start-up"] - figures["load, record and report"]) < 0.015
