"""Shared helpers: run the CLI in-process and read fixtures."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner
from clusterlint.cli import main

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
SPECS = ROOT / "specs"
EXPECT = re.compile(r"#\s*expect:\s*([A-Z]+[0-9]{3}(?:\s*,\s*[A-Z]+[0-9]{3})*)")
FINDINGS_ROW = re.compile(r"^\| (\S+\.(?:yaml|md|txt)) \| (.+?) \| ([0-9.]+) \|$")


def findings_table(page: Path) -> dict:
    """A documentation page's table of what each example gives: file -> (Counter of (rule, severity), score)."""
    rows = {}
    for line in page.read_text(encoding="utf-8").splitlines():
        match = FINDINGS_ROW.match(line)
        if match:
            name, findings, score = match.groups()
            expected = Counter() if findings == "none" else Counter(tuple(item.split()) for item in findings.split(", "))
            rows[name] = (expected, float(score))
    return rows


def run_cli(*args, input=None):
    """Run clusterlint in-process; returns (exit code, stdout, stderr)."""
    result = CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def check_json(*args, input=None) -> dict:
    code, out, err = run_cli("check", "--format", "json", *args, input=input)
    assert code in (0, 1), err
    return json.loads(out)


def accept_json(quote: str, *evidence: str, extra=()) -> dict:
    args = [a for path in evidence for a in ("--evidence", path)]
    code, out, err = run_cli("accept", quote, *args, "--format", "json", *extra)
    assert code in (0, 1), err
    return json.loads(out)


def fixture_json(path: Path) -> dict:
    """A rule fixture's report: under accept when an evidence folder (bad-evidence/, good-evidence/) sits beside it."""
    evidence = path.parent / f"{path.stem}-evidence"
    return accept_json(str(path), str(evidence)) if evidence.is_dir() else check_json(str(path))


def expected_markers(path: Path) -> set[tuple[int, str]]:
    """(line, rule) for every `# expect: RULE` marker in a fixture."""
    found = set()
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        match = EXPECT.search(line)
        if match:
            found |= {(number, rule.strip()) for rule in match.group(1).split(",")}
    return found


@pytest.fixture
def cli():
    return run_cli
