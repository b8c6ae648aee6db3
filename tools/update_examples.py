"""Write each ```console example's real output into the README and the docs pages.

    python tools/update_examples.py            # rewrite the pages whose examples print something else
    python tools/update_examples.py --check    # exit 1 when one does (tests/test_docs_examples.py checks each one)

A console block holds `$ clusterlint ...` lines (and `$ cd DIR`), each followed by its output as a
terminal shows it (standard output, then standard error). The commands run from the repository root,
in-process, as the test runs them; read the diff before committing it.
"""

from __future__ import annotations

import os
import re
import shlex
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FENCE = re.compile(r"^(?P<indent>[ \t]*)```console\s*$")


def pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def console_blocks(lines: list[str]):
    """(line after the fence, indent, [(command, index of its line, expected output lines)]) per block."""
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
                steps.append((line[2:], i, []))
            elif steps:
                steps[-1][2].append(line)
            else:
                raise ValueError(f"line {i + 1}: a console block starts with a $ command")
            i += 1
        i += 1
        yield start, indent, steps


def normal(lines) -> list[str]:
    out = [line.rstrip() for line in lines]
    while out and not out[-1]:
        out.pop()
    return out


def run(command: str, cwd: Path) -> tuple[Path, list[str] | None]:
    """(the folder after the step, its output lines; None for a `cd`)."""
    from click.testing import CliRunner

    from clusterlint.cli import main

    words = shlex.split(command)
    if words[0] == "cd":
        return cwd / words[1], None
    if words[0] != "clusterlint":
        raise ValueError(f"$ {command}: a console example runs clusterlint (use ```sh for other commands)")
    here = os.getcwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(main, words[1:], catch_exceptions=False)
    finally:
        os.chdir(here)
    return cwd, normal((result.stdout + result.stderr).splitlines())


def updated(path: Path) -> str:
    """The page with every example's output as the tool prints it now."""
    lines = path.read_text(encoding="utf-8").splitlines()
    replace = {}  # index of a command's line -> (its output's end, new output lines)
    for _, indent, steps in console_blocks(lines):
        cwd = ROOT
        for n, (command, at, shown) in enumerate(steps):
            cwd, actual = run(command, cwd)
            if actual is not None and actual != normal(shown):
                end = steps[n + 1][1] if n + 1 < len(steps) else at + 1 + len(shown)
                replace[at] = (end, [(" " * indent + line) if line else "" for line in actual])
    out, i = [], 0
    while i < len(lines):
        out.append(lines[i])
        if i in replace:
            end, new = replace[i]
            out.extend(new)
            i = end
            continue
        i += 1
    return "\n".join(out) + "\n"


def main(argv: list[str]) -> int:
    stale = []
    for path in pages():
        text = updated(path)
        if text != path.read_text(encoding="utf-8"):
            stale.append(path.relative_to(ROOT))
            if "--check" not in argv:
                path.write_text(text, encoding="utf-8")
    for name in stale:
        print(f"{'stale' if '--check' in argv else 'updated'}: {name}")
    return 1 if stale and "--check" in argv else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
