"""Layers run one way: a module imports only from its own layer or the layers below it.

The order, from the top: the command line, the language server, the reporters (they format what
`check` returns), acceptance (it hands `check` the evidence), the orchestrator (`check`), the rules, the estimate, policy, configuration, the engine, contract
language, the model (with the data generated from it at build time), the readers. `api` is what a rule author imports: it sits on
top with the command line. Imports inside functions count the same as those at the top of a file.
"""

from __future__ import annotations

import ast
from pathlib import Path

from conftest import ROOT

LAYERS = [
    {"cli", "__main__", "api"},
    {"server"},
    {"reporters"},
    {"acceptance"},
    {"check"},
    {"rules"},
    {"estimate"},
    {"policy"},
    {"config"},
    {"engine"},
    {"contracts"},
    {"model", "_generated"},  # generated at build time from the models and the data files, and read with them
    {"readers"},
    {"__init__", "data"},
]
RANK = {name: i for i, names in enumerate(LAYERS) for name in names}


def _part(module: str) -> str:
    """The layer name of a dotted module below `clusterlint` ('engine.review' -> 'engine')."""
    return module.split(".")[0] if module else "__init__"


def _modules():
    for path in sorted((ROOT / "linter").rglob("*.py")):
        yield ".".join(path.relative_to(ROOT / "linter").with_suffix("").parts), path
    for path in sorted((ROOT / "rules").glob("*.py")):
        yield "rules." + path.stem, path


def _imports(module: str, path: Path):
    package = module.split(".")[:-1] if not path.name == "__init__.py" else module.split(".")
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - (node.level - 1)] if node.level > 1 else package
                target = ".".join([*base, *(node.module.split(".") if node.module else [])])
            elif node.module and (node.module == "clusterlint" or node.module.startswith("clusterlint.")):
                target = node.module.removeprefix("clusterlint").lstrip(".")
            else:
                continue
            names = [target] if target else [alias.name for alias in node.names]
            for name in names:
                yield node.lineno, name
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("clusterlint."):
                    yield node.lineno, alias.name.removeprefix("clusterlint.")


def test_every_module_is_in_a_layer():
    assert {_part(module) for module, _ in _modules()} <= set(RANK)


def test_no_import_climbs_to_a_higher_layer():
    climbs = []
    for module, path in _modules():
        own = RANK[_part(module)]
        for line, target in _imports(module, path):
            if _part(target) in RANK and RANK[_part(target)] < own:
                climbs.append(f"{path.relative_to(ROOT)}:{line}: {module} imports {target}")
    assert climbs == []


def test_every_module_is_under_400_lines():
    """A module that outgrows 400 lines has more than one job; generated data (`_generated/`) is exempt."""
    long = [f"{path.relative_to(ROOT)}: {n} lines" for _, path in _modules()
            if "_generated" not in path.parts and (n := len(path.read_text(encoding="utf-8").splitlines())) > 400]
    assert long == []
