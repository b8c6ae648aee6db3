"""Which files clusterlint reads, by their names: YAML specs, and prose contracts (text, Markdown,
PDF). Kept apart from the readers so that telling them apart loads neither."""

from __future__ import annotations

YAML_SUFFIXES = (".yaml", ".yml")
PROSE_SUFFIXES = (".txt", ".text", ".md", ".markdown", ".pdf")


def is_prose(path: str) -> bool:
    return path.lower().endswith(PROSE_SUFFIXES)
