"""Benchmark (not a test): the adversarial inputs of issue 18, each through `clusterlint check`.

    python tests/bench/budget.py [TIMEOUT_SECONDS]

Each input is generated into a temporary folder and checked by a separate process; the script
prints its exit code, wall time, the peak memory of the child (getrusage), the size of its output,
and the first SPEC001 reason when there is one. Every input should finish in about a second beyond
start-up, with a finding or a clear refusal. The outcomes (not the times) are asserted by tests:
tests/test_input_safety.py (alias bombs), tests/test_pdf_limits.py (the page tree).
"""

from __future__ import annotations

import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SPEC = (ROOT / "specs" / "aws-p5-48xlarge.yaml").read_text(encoding="utf-8")
BOMB = "\n".join(["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"] + [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 4)]) + "\n"  # 12,349 nodes: under the budget alone


def contract(line: str) -> str:
    return f"1. Pricing\n\n1.1 The Provider charges {line} per GPU-hour.\n"


def long_terms(size: int) -> str:
    """A realistic Markdown contract of about `size` bytes: specs/nimbus-gpu-cloud-sla.md, its parts
    repeated under new headings (clauses, definitions, lists and comments as real terms have them)."""
    body = (ROOT / "specs" / "nimbus-gpu-cloud-sla.md").read_text(encoding="utf-8")
    parts = [body]
    while sum(map(len, parts)) < size:
        parts.append(re.sub(r"(?m)^(#+ )", rf"\g<1>Part {len(parts) + 1} ", body))
    return "\n\n".join(parts)


def json_spec(size: int) -> str:
    """A valid Cluster spec written as one line of JSON, padded with notes to `size` bytes."""
    import json

    import yaml

    data = yaml.safe_load(SPEC.split("---")[0])
    data.setdefault("metadata", {})["annotations"] = {f"note{i}": "x" * 100 for i in range(size // 110)}
    return json.dumps(data, default=str)


def page_tree_pdf(kids: int) -> bytes:
    sys.path.insert(0, str(ROOT / "tests"))
    from test_pdf_limits import one_page_pdf

    return one_page_pdf(kids=kids)


INPUTS = {
    "contract: comma-separated digits, 20 KB": ("c1.txt", lambda: contract(",".join(["1"] * 10_000))),
    "contract: comma-separated digits, 1 MB": ("c2.txt", lambda: contract(",".join(["1"] * 500_000))),
    "contract: dot-separated digits, 1 MB": ("c3.txt", lambda: contract(".".join(["1"] * 500_000))),
    "contract: one digit run, 1 MB": ("c4.txt", lambda: contract("9" * 1_000_000)),
    "contract: whitespace run, 1 MB": ("c5.txt", lambda: contract("a" + " " * 1_000_000 + "b")),
    "contract: repeated phrase prefixes, 1 MB": ("c6.txt", lambda: contract("commercially reasonable " * 40_000)),
    "contract: 300 KB Markdown terms": ("t1.md", lambda: long_terms(300_000)),
    "spec: 40 alias-bomb documents": ("b1.yaml", lambda: "---\n".join([BOMB] * 40)),
    "spec: 4 MiB of alias-bomb documents": ("b2.yaml", lambda: "---\n".join([BOMB] * (4 * 2**20 // (len(BOMB) + 4) - 1))),
    "pdf: page tree lists one page 4,000 times": ("p1.pdf", lambda: page_tree_pdf(4000)),
    "spec: 200 KB one-line JSON style": ("j1.yaml", lambda: json_spec(200_000)),
}


def run(path: Path, timeout: float) -> tuple:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    try:
        done = subprocess.run([sys.executable, "-m", "clusterlint", "check", "--no-color", str(path)], capture_output=True, timeout=timeout)
        code, out = done.returncode, done.stdout + done.stderr
    except subprocess.TimeoutExpired as exc:
        code, out = "timeout", (exc.stdout or b"") + (exc.stderr or b"")
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    reason = re.search(rb"SPEC001 \[error\] ([^\n]{0,90})", out)
    return code, elapsed, max(after.ru_maxrss, before.ru_maxrss) / 1024, len(out), reason.group(1).decode() if reason else ""


def main() -> None:
    timeout = float(sys.argv[1]) if len(sys.argv) > 1 else 120
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "clusterlint", "check", str(ROOT / "specs" / "dgx-h100-superpod.yaml")], capture_output=True)
    print(f"start-up (clusterlint check of a small quote): {time.perf_counter() - start:.2f} s")
    print(f"{'input':44} {'exit':>7} {'time s':>7} {'peak MiB':>9} {'output':>10}  SPEC001 reason")
    with tempfile.TemporaryDirectory() as folder:
        for label, (name, make) in INPUTS.items():
            path = Path(folder) / name
            data = make()
            path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
            code, elapsed, peak, size, reason = run(path, timeout)
            print(f"{label:44} {code!s:>7} {elapsed:7.2f} {peak:9.1f} {size:10,}  {reason}", flush=True)
    print("peak memory is the largest child so far (getrusage RUSAGE_CHILDREN keeps a maximum)")


if __name__ == "__main__":
    main()
