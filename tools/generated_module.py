"""Write a generated module, or with `check` only say whether the one on disk is stale (exit 1).
Shared by tools/generate_data.py and tools/generate_models.py."""

from __future__ import annotations

import sys
from pathlib import Path


def settle(target: Path, text: str, check: bool, root: Path, command: str) -> int:
    current = target.read_text(encoding="utf-8") if target.exists() else ""
    if check:
        if current != text:
            print(f"{target.relative_to(root)} is stale: run {command}", file=sys.stderr)
            return 1
        return 0
    if current != text:
        target.write_text(text, encoding="utf-8")
        print(f"wrote {target.relative_to(root)}")
    return 0
