"""Every command example in the README and the docs runs, and prints what the page shows.

A ```console block holds `$ clusterlint ...` lines (and `$ cd DIR`, relative to the repository root
or the last `cd`), each followed by its output as a terminal shows it (standard output, then standard
error). Only trailing whitespace is normalised, so an example whose output changes fails here.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from clusterlint.cli import main

from conftest import ROOT

FENCE = re.compile(r"^(?P<indent>[ \t]*)```console\s*$")
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def console_blocks(path: Path):
    """(line of the fence, [(command, expected output lines)]) for each console block in a page."""
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        fence = FENCE.match(lines[i])
        i += 1
        if not fence:
            continue
        start, indent, steps = i, len(fence["indent"]), []
        while lines[i].strip() != "```":
            line = lines[i][indent:]
            if line.startswith("$ "):
                steps.append((line[2:], []))
            else:
                assert steps, f"{path.name}:{i + 1}: a console block starts with a $ command"
                steps[-1][1].append(line)
            i += 1
        i += 1
        yield start, steps


def _normal(lines) -> list[str]:
    out = [line.rstrip() for line in lines]
    while out and not out[-1]:
        out.pop()
    return out


def run_steps(steps, monkeypatch) -> list[tuple[str, list[str], list[str]]]:
    """Run each step from the repository root; (command, shown, actual) for each clusterlint command."""
    monkeypatch.chdir(ROOT)
    results = []
    for command, shown in steps:
        words = shlex.split(command)
        if words[0] == "cd":
            monkeypatch.chdir(Path.cwd() / words[1])
            assert not _normal(shown), f"$ {command} prints nothing"
            continue
        assert words[0] == "clusterlint", f"$ {command}: a console example runs clusterlint (use ```sh for other commands)"
        result = CliRunner().invoke(main, words[1:], catch_exceptions=False)
        results.append((command, _normal(shown), _normal((result.stdout + result.stderr).splitlines())))
    return results


EXAMPLES = [pytest.param(page, line, steps, id=f"{page.relative_to(ROOT)}:{line}")
            for page in PAGES for line, steps in console_blocks(page)]


def test_there_are_examples_to_run():
    assert len(EXAMPLES) >= 8
    assert any(page.name == "README.md" for page, *_ in (p.values for p in EXAMPLES))


@pytest.mark.parametrize("page, line, steps", EXAMPLES)
def test_example_prints_what_the_page_shows(page, line, steps, monkeypatch):
    for command, shown, actual in run_steps(steps, monkeypatch):
        assert actual == shown, f"{page.relative_to(ROOT)}:{line}: $ {command} prints:\n" + "\n".join(actual)


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
