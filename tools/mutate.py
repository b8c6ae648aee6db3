"""Mutation testing for clusterlint: which small changes to a module do the tests fail to notice?

    python tools/mutate.py linter/units.py rules/network.py [-j 2] [--strings] [--list]

For each module it (1) runs the test suite once with a line tracer to learn which tests execute
which lines of the module, (2) makes one mutant per mutation point (an operator, a comparison, a
boolean, a constant, a negated condition), and (3) runs only the tests that execute the mutated
line against each mutant. A mutant is killed when a test fails or times out, survives when all
pass, and is uncovered when no test runs its line. Mutants judged equivalent (no test could kill
them because behaviour is unchanged) are listed with a reason in `tools/equivalent-mutants.txt`
and left out of the score: killed / (mutants - equivalent).

The package is staged into a private copy per worker (placed first on PYTHONPATH), so the
checkout is never modified and workers run in parallel. Not part of CI: it takes minutes.
"""

from __future__ import annotations

import argparse
import ast
import concurrent.futures
import inspect
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EQUIVALENT = ROOT / "tools" / "equivalent-mutants.txt"
IMPORT = "<import>"  # the trace's name for lines run outside any test
PACKAGE_DIRS = {"linter": "clusterlint", "rules": "clusterlint/rules", "schemas": "clusterlint/schemas"}

SWAP_BINOP = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult,
              ast.FloorDiv: ast.Div, ast.Mod: ast.Mult, ast.Pow: ast.Mult}
SWAP_CMP = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq,
            ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is}


@dataclass(frozen=True)
class Mutant:
    index: int  # position among the module's mutation points, in walk order
    line: int
    col: int
    what: str

    def ident(self, module: str) -> str:
        return f"{module}:{self.line}:{self.col}:{self.what}"


def _docstrings(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                ids.add(id(first.value))
    return ids


def _points(tree: ast.AST, strings: bool):
    """Yield (node, description, apply) for every mutation point; apply mutates the node in place."""
    skip = _docstrings(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and type(node.op) in SWAP_BINOP:
            new = SWAP_BINOP[type(node.op)]
            yield node, f"{type(node.op).__name__}->{new.__name__}", lambda n=node, new=new: setattr(n, "op", new())
        elif isinstance(node, ast.Compare):
            for i, op in enumerate(node.ops):
                if type(op) in SWAP_CMP:
                    new = SWAP_CMP[type(op)]
                    yield node, f"{type(op).__name__}->{new.__name__}", lambda n=node, i=i, new=new: n.ops.__setitem__(i, new())
        elif isinstance(node, ast.BoolOp):
            new = ast.Or if isinstance(node.op, ast.And) else ast.And
            yield node, f"{type(node.op).__name__}->{new.__name__}", lambda n=node, new=new: setattr(n, "op", new())
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            yield node, "drop-not", lambda n=node: (setattr(n, "op", ast.UAdd()), setattr(n, "operand", ast.Call(ast.Name("bool", ast.Load()), [n.operand], [])))
        elif isinstance(node, (ast.If, ast.While, ast.IfExp)):
            yield node, "negate-condition", lambda n=node: setattr(n, "test", ast.UnaryOp(ast.Not(), n.test))
        elif isinstance(node, ast.Constant) and id(node) not in skip:
            value = node.value
            if isinstance(value, bool):
                yield node, f"{value}->{not value}", lambda n=node: setattr(n, "value", not n.value)
            elif isinstance(value, (int, float)):
                yield node, f"{value!r}->{value + 1!r}", lambda n=node: setattr(n, "value", n.value + 1)
            elif strings and isinstance(value, str) and value:
                yield node, "string->XX", lambda n=node: setattr(n, "value", "XX" + n.value + "XX")


def mutants(source: str, strings: bool) -> list[Mutant]:
    tree = ast.parse(source)
    return [Mutant(i, node.lineno, node.col_offset, what) for i, (node, what, _) in enumerate(_points(tree, strings))]


def mutated_source(source: str, mutant: Mutant, strings: bool) -> str:
    tree = ast.parse(source)
    for i, (_, _, apply) in enumerate(_points(tree, strings)):
        if i == mutant.index:
            apply()
            return ast.unparse(ast.fix_missing_locations(tree))
    raise ValueError(f"no mutation point {mutant.index}")


def stage(dest: Path) -> Path:
    """A private copy of the package (`clusterlint`, with rules and schemas inside) under dest."""
    for src, rel in PACKAGE_DIRS.items():
        shutil.copytree(ROOT / src, dest / rel, dirs_exist_ok=True, ignore=shutil.ignore_patterns("__pycache__"))
    return dest


def staged_path(stage_dir: Path, module: str) -> Path:
    top, _, rest = module.partition("/")
    return stage_dir / PACKAGE_DIRS[top] / rest


def env_for(stage_dir: Path, pycache: str) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(stage_dir), str(ROOT / "tools"), env.get("PYTHONPATH", "")])
    env["PYTHONPYCACHEPREFIX"] = pycache  # never read a bytecode cache of another mutant
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def coverage_map(stage_dir: Path, module: str) -> dict[int, list[str]]:
    """line -> test node ids that execute it, from one traced run of the whole suite."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "trace.json"
        env = env_for(stage_dir, tmp)
        env["MUTATE_TRACE_TARGET"] = str(staged_path(stage_dir, module))
        env["MUTATE_TRACE_OUT"] = str(out)
        subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "mutate", "-p", "no:cacheprovider"],
                       cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if not out.exists():
            raise SystemExit(f"mutate: the traced test run wrote no coverage for {module}")
        lines = {int(k): v for k, v in json.loads(out.read_text()).items()}
    # A line run only at import (a table, a constant) is attributed to every test that reaches the module.
    everyone = sorted({t for ids in lines.values() for t in ids if t != IMPORT})
    return {line: everyone if IMPORT in ids else ids for line, ids in lines.items()}


def nearest_first(module: str, tests: list[str]) -> list[str]:
    """The module's own test file first (`tests/test_units.py` for units.py): with -x a kill comes sooner."""
    own = f"test_{Path(module).stem}"
    return sorted(tests, key=lambda t: own not in t)


def run_mutant(stage_dir: Path, module: str, source: str, mutant: Mutant, tests: list[str],
               strings: bool, timeout: float) -> str:
    target = staged_path(stage_dir, module)
    try:
        target.write_text(mutated_source(source, mutant, strings), encoding="utf-8")
        with tempfile.TemporaryDirectory() as pycache:
            proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *tests],
                                  cwd=ROOT, env=env_for(stage_dir, pycache), capture_output=True, timeout=timeout)
        return "killed" if proc.returncode != 0 else "survived"
    except subprocess.TimeoutExpired:
        return "killed (timeout)"
    finally:
        target.write_text(source, encoding="utf-8")


def equivalents() -> set[str]:
    if not EQUIVALENT.exists():
        return set()
    return {line.split("#", 1)[0].strip() for line in EQUIVALENT.read_text().splitlines() if line.split("#", 1)[0].strip()}


def mutate_module(module: str, workers: list[Path], strings: bool, listing: bool) -> dict:
    source = (ROOT / module).read_text(encoding="utf-8")
    found = mutants(source, strings)
    if listing:
        for m in found:
            print(m.ident(module))
        return {}
    started = time.perf_counter()
    covered = coverage_map(workers[0], module)
    equivalent = equivalents()
    results: dict[str, str] = {}
    todo = []
    for m in found:
        if m.ident(module) in equivalent:
            results[m.ident(module)] = "equivalent"
        elif m.line not in covered:
            results[m.ident(module)] = "uncovered"
        else:
            todo.append(m)
    free = list(workers)
    with concurrent.futures.ThreadPoolExecutor(len(workers)) as pool:
        def job(m: Mutant) -> tuple[Mutant, str]:
            worker = free.pop()
            try:
                return m, run_mutant(worker, module, source, m, nearest_first(module, covered[m.line]), strings, timeout=120)
            finally:
                free.append(worker)
        for m, status in pool.map(job, todo):
            results[m.ident(module)] = status
    for ident, status in results.items():
        if status in ("survived", "uncovered"):
            print(f"  {status:<9} {ident}")
    counts = {s: sum(1 for v in results.values() if v.startswith(s)) for s in ("killed", "survived", "uncovered", "equivalent")}
    scored = len(results) - counts["equivalent"]
    score = counts["killed"] / scored if scored else 1.0
    print(f"{module}: {len(results)} mutants, {counts['killed']} killed, {counts['survived']} survived, "
          f"{counts['uncovered']} uncovered, {counts['equivalent']} equivalent: score {score:.0%} "
          f"({time.perf_counter() - started:.0f} s)", flush=True)
    return {"module": module, **counts, "mutants": len(results), "score": score}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("modules", nargs="+", help="paths such as linter/units.py or rules/network.py")
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--strings", action="store_true", help="also mutate string constants (slower)")
    parser.add_argument("--list", action="store_true", help="list the mutants and run nothing")
    options = parser.parse_args()
    for module in options.modules:
        if module.partition("/")[0] not in PACKAGE_DIRS or not (ROOT / module).is_file():
            parser.error(f"{module}: not a module of linter/, rules/ or schemas/")
    with tempfile.TemporaryDirectory() as tmp:
        workers = [stage(Path(tmp) / f"w{i}") for i in range(max(1, options.jobs))]
        summary = [mutate_module(m, workers, options.strings, options.list) for m in options.modules]
    if not options.list and len(summary) > 1:
        killed = sum(s["killed"] for s in summary)
        scored = sum(s["mutants"] - s["equivalent"] for s in summary)
        print(f"all: {killed}/{scored} non-equivalent mutants killed: {killed / scored:.0%}")


# ---------------------------------------------------------------- the pytest plugin (-p mutate)

class _Tracer:
    def __init__(self, target: str, out: str):
        self.target, self.out = target, out
        self.current = IMPORT
        self.lines: dict[int, set[str]] = {}

    def global_trace(self, frame, event, arg):
        if frame.f_code.co_filename == self.target:
            return self.local_trace
        return None

    def local_trace(self, frame, event, arg):
        if event == "line":
            self.lines.setdefault(frame.f_lineno, set()).add(IMPORT if self._importing(frame) else self.current)
        return self.local_trace

    def _importing(self, frame) -> bool:
        """Whether the line runs as part of the module's import (its body, a class body, or a function
        or comprehension that body calls): a module imported lazily is first imported inside some
        test, yet what its import runs is run for every test that reaches it."""
        while frame is not None and frame.f_code.co_filename == self.target:
            if not frame.f_code.co_flags & inspect.CO_OPTIMIZED:
                return True
            frame = frame.f_back
        return False

    def pytest_runtest_protocol(self, item, nextitem):
        self.current = item.nodeid

    def pytest_runtest_logfinish(self, nodeid, location):
        self.current = IMPORT

    def pytest_sessionfinish(self, session, exitstatus):
        data = {line: sorted(ids) for line, ids in self.lines.items()}
        Path(self.out).write_text(json.dumps(data))


def pytest_configure(config):
    target, out = os.environ.get("MUTATE_TRACE_TARGET"), os.environ.get("MUTATE_TRACE_OUT")
    if target and out:
        tracer = _Tracer(target, out)
        config.pluginmanager.register(tracer, "mutate-tracer")
        sys.settrace(tracer.global_trace)  # from collection on, so import-time lines are seen


if __name__ == "__main__":
    main()
