"""Benchmark (not a test): where the CPU of speed.py's 20,000-clause contract goes, and what it
cannot go below in this design.

    python tests/bench/contract_floor.py [--clauses N] [--instructions]

The contract is speed.py's `clauses-20000` case: N clauses (default 20,000) that each fire CON001
and CON005, so 2 N findings, every one with its party and modal read, its parts named and its
place recorded. Printed, in CPU seconds (user + system):

1. **start-up**: a `clusterlint check` of a one-clause contract, as a process (median of 5): the
   interpreter, the imports, the configuration and the pattern cache.
2. **the whole check**, in this process (imports included), once.
3. **load, record and report**: the same check run again in this process, with every rule replaying
   the hits it gave the first time instead of reading anything. What is left is reading the file,
   placing each finding (line, column, page, fingerprint) and writing the report (the same bytes as
   the first run's, or the script stops). The second run finds the per-text caches warm (sentence
   starts), so this is a lower bound.
4. with `--instructions` and valgrind installed: **the regular-expression engine**, the instructions
   spent in `re`'s C engine (the functions of CPython's Modules/_sre, their own cost) per clause,
   from callgrind over a cut of N/10 clauses less a one-clause contract, and what that comes to for
   N clauses at the CPU time per instruction this machine showed on the cut.

The rules' own Python code is what remains: (2) less (3) less (4).
"""

from __future__ import annotations

import argparse
import io
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import redirect_stdout
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from speed import BIN, clauses, run_once  # noqa: E402

CLUSTERLINT = str(BIN / "clusterlint")


def in_process(path: Path) -> tuple[float, float, int]:
    """CPU seconds of the whole check, then of the replayed one, and the number of hits replayed."""
    from clusterlint.cli import main
    from clusterlint.engine.review import DOCUMENT_CHECK
    from clusterlint.engine.registry import builtin_rules

    given: dict[str, list] = {}
    replay = [False]
    for rule in builtin_rules().values():
        if rule.check == DOCUMENT_CHECK:
            continue
        function = rule.function

        def hits(review, settings, function=function, rule_id=rule.id):
            if replay[0]:
                return iter(given.get(rule_id, ()))
            out = list(function(review, settings))
            given.setdefault(rule_id, []).extend(out)
            return out

        if hasattr(function, "Params"):
            hits.Params = function.Params
        vars(rule)["function"] = hits  # where `Rule.function` (a cached property) keeps the imported check

    def check(report: Path) -> float:
        start = time.process_time()
        try:
            with redirect_stdout(io.StringIO()):
                main(["check", str(path), "--isolated", "-o", str(report)], standalone_mode=False)
        except SystemExit:
            pass
        return time.process_time() - start

    first, second = path.with_suffix(".first.txt"), path.with_suffix(".replayed.txt")
    try:
        whole = check(first)
        replay[0] = True
        replayed = check(second)
        if first.read_bytes() != second.read_bytes():
            raise SystemExit("the replayed check wrote another report: the replay does not stand for the check")
        return whole, replayed, sum(map(len, given.values()))
    finally:
        for rule in builtin_rules().values():
            vars(rule).pop("function", None)  # imported again on next use


def counted(path: Path) -> tuple[int, int] | None:
    """Instructions of a check of `path` (callgrind): in all, and in the functions of CPython's
    Modules/_sre (their own cost: the regular-expression engine)."""
    if not shutil.which("valgrind") or not shutil.which("callgrind_annotate"):
        return None
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "cg"
        subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", CLUSTERLINT, "check", str(path),
                        "--isolated", "-o", os.devnull], capture_output=True)
        table = subprocess.run(["callgrind_annotate", "--threshold=100", str(out)], capture_output=True, text=True).stdout
    total = re.search(r"^\s*([\d,]+)\s+(?:\([^)]*\)\s+)?PROGRAM TOTALS", table, re.MULTILINE)
    rows = re.findall(r"^\s*([\d,]+)\s+\([^)]*\)\s+(\S+):", table, re.MULTILINE)
    if total is None:
        return None
    return int(total.group(1).replace(",", "")), sum(int(count.replace(",", "")) for count, where in rows if "/_sre/" in where)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clauses", type=int, default=20000, help="clauses in the contract (default 20,000)")
    parser.add_argument("--instructions", action="store_true", help="also count the regular-expression engine's instructions")
    options = parser.parse_args()
    n = options.clauses
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average at start " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    with tempfile.TemporaryDirectory() as tmp:
        one, cut, full = Path(tmp) / "one.md", Path(tmp) / "cut.md", Path(tmp) / "contract.md"
        one.write_text(clauses(1), encoding="utf-8")
        full.write_text(clauses(n), encoding="utf-8")
        command = [CLUSTERLINT, "check", str(one), "--isolated", "-o", os.devnull]
        run_once(command)  # bytecode and pattern cache warm
        start = statistics.median(run_once(command)[0] for _ in range(5))
        whole, replayed, hits = in_process(full)
        print(f"{n:,} clauses, {hits:,} findings")
        print(f"  start-up (a one-clause contract, a process)      {start:7.2f} s")
        print(f"  the whole check (in this process)                {whole:7.2f} s")
        print(f"  load, record and report (rules replay their hits) {replayed:6.2f} s  ({replayed / hits * 1e6:.0f} us a finding)")
        print(f"  floor before any reading: start-up + load, record and report = {start + replayed:.2f} s")
        if options.instructions:
            size = max(2, n // 10)
            cut.write_text(clauses(size), encoding="utf-8")
            for path in (one, cut):  # the pattern cache as the in-process run left it: settled by a run of each first
                run_once([CLUSTERLINT, "check", str(path), "--isolated", "-o", os.devnull])
            on_one, on_cut = counted(one), counted(cut)
            if on_one is None or on_cut is None:
                print("  valgrind gave no count")
                return
            cut_cpu = statistics.median(run_once([CLUSTERLINT, "check", str(cut), "--isolated", "-o", os.devnull])[0] for _ in range(3))
            per_instruction = cut_cpu / on_cut[0]
            per_clause, engine = ((b - a) / (size - 1) for a, b in zip(on_one, on_cut))
            print(f"  instructions a clause ({size:,} clauses less one): {per_clause / 1e6:.2f} M, of which "
                  f"the regular-expression engine {engine / 1e6:.2f} M ({engine / per_clause:.0%})")
            print(f"  the regular-expression engine over {n:,} clauses: about {engine * n * per_instruction:.2f} s "
                  f"(at {per_instruction * 1e9:.3f} ns an instruction, the rate of the {size:,} clauses' own check)")
    print("load average at end " + " ".join(f"{x:.2f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
