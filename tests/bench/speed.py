"""Benchmark (not a test): clusterlint's cost per case, interleaved with reference commands.

    python tests/bench/speed.py [--runs N] [--case NAME ...] [--instructions] [--memory]

Each case runs clusterlint (A) and a reference (B) in turn, A B A B ..., and reports the median of
the per-pair ratios A/B, for CPU time (user + system, from the kernel's accounting of the finished
child) and wall time. Pairing cancels most of the drift of a shared machine: a 3% change shows in
the median of 20 pairs where two back-to-back medians cannot see 15%. References: `python -c pass`
(bare interpreter start) for every case, and `check-jsonschema` (schema validation only) for the
YAML cases. With `--instructions` and valgrind installed, each command is also run once under
callgrind and its instruction count printed (a figure that does not depend on the machine's load).
Both sides run warm in the sense that their bytecode is cached by the pairs' first, uncounted run.
There is no cache folder at all: HOME and XDG_CACHE_HOME point at a folder that does not exist,
as in a fresh CI container, so nothing either side could keep per user helps it.

Cases: one quote; one prose contract; compare of three quotes; 1,000 quotes in a directory; a
cluster of 5,000 node pools; a contract of 20,000 clauses. Inputs are generated in a temporary
directory from the specs in `specs/`. With `--memory`, the peak resident memory of one check of
1,000 and of 10,000 quotes (each with findings) per format, and what each file adds: about nothing
for the formats written file by file, the whole report for the others.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
SPECS = ROOT / "specs"
QUOTE = SPECS / "gcp-a3-highgpu-8g.yaml"
WORKLOAD = SPECS / "llama70b-pretrain.yaml"


NOWHERE = "/nonexistent/clusterlint-bench"  # HOME and XDG_CACHE_HOME: no cache folder can be made
ENV = {**os.environ, "HOME": NOWHERE, "XDG_CACHE_HOME": NOWHERE + "/cache"}
ENV.pop("PYTHONDONTWRITEBYTECODE", None)  # both sides keep their bytecode, as an installed tool does


def run_once(command: list[str]) -> tuple[float, float]:
    """CPU seconds (user + sys of the child) and wall seconds of one run."""
    start = time.perf_counter()
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV)
    _, _, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    return usage.ru_utime + usage.ru_stime, wall


def instructions(command: list[str]) -> int | None:
    if not shutil.which("valgrind"):
        return None
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg", *command],
                             capture_output=True, text=True, env=ENV).stderr
    found = re.search(r"Collected : (\d+)", out)
    return int(found.group(1)) if found else None


def pairs(a: list[str], b: list[str], runs: int) -> dict:
    run_once(a), run_once(b)  # warm the page cache and the bytecode caches
    cpu_a, cpu_b, wall_a, wall_b = [], [], [], []
    for _ in range(runs):
        ca, wa = run_once(a)
        cb, wb = run_once(b)
        cpu_a.append(ca), cpu_b.append(cb), wall_a.append(wa), wall_b.append(wb)
    return {
        "cpu_a": statistics.median(cpu_a), "cpu_b": statistics.median(cpu_b),
        "wall_a": statistics.median(wall_a), "wall_b": statistics.median(wall_b),
        "cpu_ratio": statistics.median(x / y for x, y in zip(cpu_a, cpu_b) if y > 0),
        "wall_ratio": statistics.median(x / y for x, y in zip(wall_a, wall_b) if y > 0),
    }


def clauses(n: int) -> str:
    """A Markdown contract of `n` clauses, each of which fires CON001 and CON005."""
    lines = ["# Master Services Agreement", ""]
    for i in range(1, n + 1):
        lines.append(f"{i}. Provider will use commercially reasonable efforts to deliver item {i} of the "
                     f"order by the agreed date, at 2.10 USD per GPU-hour, subject to availability.")
    return "\n".join(lines) + "\n"


def make_inputs(tmp: Path) -> dict[str, list[str]]:
    """Each case's clusterlint arguments (after `clusterlint`), generating what it needs."""
    many = tmp / "many"
    many.mkdir()
    text = QUOTE.read_text(encoding="utf-8")
    for i in range(1000):
        (many / f"quote-{i:04d}.yaml").write_text(text.replace("gcp-a3-high-32-vms", f"quote-{i}"), encoding="utf-8")

    pools = ["apiVersion: clusterlint/v1", "kind: Cluster", "metadata: {name: pools-5000}", "spec:", "  node_pools:"]
    for i in range(5000):
        pools.append(f"    - {{name: pool-{i}, count: 2, accelerator: {{model: H100-SXM, count: 8}}, "
                     f"cpu: {{vcpus: 208}}, memory: 2TB}}")
    pools += ["  network:", "    intra_node: {fabric: nvswitch}",
              "    inter_node: {fabric: infiniband, nics_per_node: 8, nic_speed: 400Gbps, rdma: true, dedicated: true}"]
    (tmp / "pools.yaml").write_text("\n".join(pools) + "\n", encoding="utf-8")

    (tmp / "contract-20000.md").write_text(clauses(20000), encoding="utf-8")

    quotes = [str(SPECS / n) for n in ("aws-p5-48xlarge.yaml", "gcp-a3-highgpu-8g.yaml", "forge-h100-quote.yaml")]
    return {
        "quote": ["check", str(QUOTE)],
        "prose-contract": ["check", str(SPECS / "nimbus-gpu-cloud-sla.md")],
        "compare-3": ["compare", *quotes, "--workload", str(WORKLOAD)],
        "files-1000": ["check", str(many)],
        "pools-5000": ["check", str(tmp / "pools.yaml")],
        "clauses-20000": ["check", str(tmp / "contract-20000.md")],
    }


def peak_memory(clusterlint: str, tmp: Path) -> None:
    folders = {}
    text = QUOTE.read_text(encoding="utf-8")
    for n in (1000, 10000):
        folders[n] = tmp / f"memory-{n}"
        folders[n].mkdir()
        for i in range(n):
            (folders[n] / f"quote-{i:05d}.yaml").write_text(text.replace("gcp-a3-high-32-vms", f"quote-{i}"), encoding="utf-8")
    for fmt in ("text", "jsonl", "json"):
        peaks = {}
        for n, folder in folders.items():
            proc = subprocess.Popen([clusterlint, "check", str(folder), "--format", fmt], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                    env=ENV)
            peaks[n] = os.wait4(proc.pid, 0)[2].ru_maxrss  # KiB on Linux
        print(f"peak memory {fmt:<6} 1,000 quotes {peaks[1000] / 1024:6.1f} MiB, 10,000 quotes {peaks[10000] / 1024:6.1f} MiB: "
              f"{(peaks[10000] - peaks[1000]) / 9000:.2f} KiB a file")


def references(case: str, args: list[str]) -> dict[str, list[str]]:
    refs = {"python -c pass": [sys.executable, "-c", "pass"]}
    checker = BIN / "check-jsonschema"
    if case in ("quote", "files-1000") and checker.exists():
        target = args[1]
        files = sorted(str(p) for p in Path(target).glob("*.yaml")) if Path(target).is_dir() else [target]
        refs["check-jsonschema"] = [str(checker), "--schemafile", str(ROOT / "schemas" / "cluster.schema.json"), *files]
    return refs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="pairs per comparison (default 20)")
    parser.add_argument("--case", action="append", help="run only these cases")
    parser.add_argument("--instructions", action="store_true", help="also count instructions with valgrind")
    parser.add_argument("--memory", action="store_true", help="also measure peak memory over 1,000 and 10,000 quotes")
    options = parser.parse_args()
    clusterlint = str(BIN / "clusterlint")
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average at start "
          + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    with tempfile.TemporaryDirectory() as tmp:
        cases = make_inputs(Path(tmp))
        heavy = {"files-1000", "pools-5000", "clauses-20000", "compare-3"}
        one_quote_cpu = None
        print(f"{'case':<16} {'reference':<18} {'A cpu ms':>9} {'B cpu ms':>9} {'cpu A/B':>8} {'wall A/B':>9}")
        for name, args in cases.items():
            if options.case and name not in options.case:
                continue
            command = [clusterlint, *args]
            runs = max(3, options.runs // 4) if name in heavy else options.runs
            for ref_name, ref in references(name, args).items():
                r = pairs(command, ref, runs)
                print(f"{name:<16} {ref_name:<18} {r['cpu_a'] * 1000:9.1f} {r['cpu_b'] * 1000:9.1f} "
                      f"{r['cpu_ratio']:8.2f} {r['wall_ratio']:9.2f}   ({runs} pairs)")
                if name == "quote":
                    one_quote_cpu = r["cpu_a"]
                if name == "files-1000" and ref_name == "python -c pass":  # seconds / 1000 files = ms per file
                    marginal = f", {(r['cpu_a'] - one_quote_cpu):.2f} ms beyond one quote's" if one_quote_cpu else ""
                    print(f"{'':<16} per file: {r['cpu_a']:.2f} ms of CPU{marginal}")
            if options.instructions and name == "quote":
                for label, cmd in (("clusterlint", command), *references(name, args).items()):
                    count = instructions(cmd)
                    print(f"{'':<16} instructions {label}: {count:,}" if count else f"{'':<16} valgrind gave no count")
        if options.memory:
            peak_memory(clusterlint, Path(tmp))
    print("load average at end " + " ".join(f"{x:.2f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
