"""Benchmark (not a test): median wall time of `clusterlint check` vs `check-jsonschema` on one spec.

    python tests/bench/startup.py [SPEC] [RUNS]

check-jsonschema only validates the schema; clusterlint validates and runs every rule. The target
is a ratio of at most 0.6. Uses hyperfine when it is installed, else a plain timing loop.
"""

from __future__ import annotations

import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def median_seconds(command: list[str], runs: int) -> float:
    if shutil.which("hyperfine"):
        with tempfile.NamedTemporaryFile(suffix=".json") as out:
            subprocess.run(["hyperfine", "--warmup", "3", "--runs", str(runs), "-N", "-i", "--export-json", out.name, " ".join(command)],
                           check=True, capture_output=True)
            return json.load(open(out.name))["results"][0]["median"]
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    spec = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "specs" / "gcp-a3-highgpu-8g.yaml")
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    ours = median_seconds([str(BIN / "clusterlint"), "check", spec], runs)
    theirs = median_seconds([str(BIN / "check-jsonschema"), "--schemafile", str(ROOT / "schemas" / "cluster.schema.json"), spec], runs)
    print(f"clusterlint check      {ours * 1000:7.1f} ms (median of {runs})")
    print(f"check-jsonschema       {theirs * 1000:7.1f} ms (median of {runs})")
    print(f"ratio                  {ours / theirs:7.2f}  (target <= 0.60)")


if __name__ == "__main__":
    main()
