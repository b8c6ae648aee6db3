"""Every command example in the README and the docs runs, and prints what the page shows.

A ```console block holds `$ clusterlint ...` lines (and `$ cd DIR`, relative to the repository root
or the last `cd`), each followed by its output as a terminal shows it (standard output, then standard
error). Only trailing whitespace is normalised, so an example whose output changes fails here.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from conftest import ROOT

_SPEC = importlib.util.spec_from_file_location("update_examples", ROOT / "tools" / "update_examples.py")
examples = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(examples)
PAGES = examples.pages()


def console_blocks(path: Path):
    """(line of the fence, [(command, expected output lines)]) for each console block in a page."""
    for start, _, steps in examples.console_blocks(path.read_text(encoding="utf-8").splitlines()):
        yield start, [(command, shown) for command, _, shown in steps]


def run_steps(steps, monkeypatch) -> list[tuple[str, list[str], list[str]]]:
    """Run each step from the repository root; (command, shown, actual) for each clusterlint command."""
    cwd, results = ROOT, []
    for command, shown in steps:
        cwd, actual = examples.run(command, cwd)
        if actual is None:
            assert not examples.normal(shown), f"$ {command} prints nothing"
            continue
        results.append((command, examples.normal(shown), actual))
    return results


EXAMPLES = [pytest.param(page, line, steps, id=f"{page.relative_to(ROOT)}:{line}")
            for page in PAGES for line, steps in console_blocks(page)]


def test_there_are_examples_to_run():
    assert len(EXAMPLES) >= 8
    assert any(page.name == "README.md" for page, *_ in (p.values for p in EXAMPLES))


@pytest.mark.parametrize("page, line, steps", EXAMPLES)
def test_example_prints_what_the_page_shows(page, line, steps, monkeypatch):
    for command, shown, actual in run_steps(steps, monkeypatch):
        assert actual == shown, f"{page.relative_to(ROOT)}:{line}: $ {command} prints (python tools/update_examples.py writes it in):\n" + "\n".join(actual)


def test_a_changed_output_is_caught(tmp_path, monkeypatch):
    page = tmp_path / "page.md"
    page.write_text("Intro.\n\n  ```console\n  $ clusterlint rule NET003 --isolated\n  # NET003 low-inter-node-bandwidth\n  ```\n", encoding="utf-8")
    [(line, steps)] = list(console_blocks(page))
    [(command, shown, actual)] = run_steps(steps, monkeypatch)
    assert line == 3 and command == "clusterlint rule NET003 --isolated"
    assert actual[0] == shown[0] == "# NET003 low-inter-node-bandwidth"
    assert actual != shown  # the block shows only the first line of the output


def test_the_readme_quote_is_the_spec_on_disk():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    spec = (ROOT / "specs" / "budget-pcie-nfs.yaml").read_text(encoding="utf-8")
    assert f"```yaml\n{spec}```\n" in readme
