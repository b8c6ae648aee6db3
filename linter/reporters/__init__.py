"""Output formats: each renders the same Report; imported only when asked for."""

from __future__ import annotations

import os
from importlib import import_module

FORMATS = ("text", "json", "sarif", "github", "markdown", "junit", "html")


def resolve(fmt: str) -> str:
    """`auto`: GitHub annotations inside GitHub Actions, text elsewhere."""
    if fmt == "auto":
        return "github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text"
    return fmt


def render(fmt: str, report, color: bool = False) -> str:
    name = resolve(fmt)
    module = import_module(f"{__name__}.{name}")
    return module.render(report, color=color) if name == "text" else module.render(report)
