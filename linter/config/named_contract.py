"""The contract a quote names in its `metadata.contract`: found beside the quote and used when no
contract is configured or given (by `check`, `compare` and `estimate`)."""

from __future__ import annotations

import os


def named_contract(quote: str) -> str | None:
    """The contract a quote file names in `metadata.contract` (relative to the quote), as a path from here;
    None when it names none. ValueError, with the file, line and column, when the named file is not there."""
    from clusterlint.readers.loader import load_bytes, read_file

    if not quote.endswith((".yaml", ".yml")) or not os.path.isfile(quote):
        return None
    try:
        data = read_file(quote)
    except OSError:
        return None  # the check reports the file's own problem
    if b"contract" not in data:
        return None
    for doc in load_bytes(data, quote).documents:
        spec = doc.data if isinstance(doc.data, dict) else {}
        meta = spec.get("metadata") if spec.get("kind") == "Cluster" else None
        named = meta.get("contract") if isinstance(meta, dict) else None
        if isinstance(named, str) and named:
            path = os.path.join(os.path.dirname(quote), named)
            if not os.path.isfile(path):
                line, col = doc.positions.get(("metadata", "contract"), (1, 1))
                raise ValueError(f"{quote}:{line}:{col}: metadata.contract {named!r}: no such file ({path})")
            return os.path.relpath(path)
    return None


def with_named_contract(settings, path: str):
    """`settings` for reviewing `path`, with the contract the quote names (`metadata.contract`) when none
    is configured or given; the settings unchanged otherwise. ValueError when the named file is missing."""
    if settings.values["contract"] or path == "-":
        return settings
    named = named_contract(path)
    if named is None:
        return settings
    from clusterlint.config.settings import Settings
    from clusterlint.readers.loader import display

    return Settings(settings.file, {**settings.values, "contract": named}, {**settings.origins, "contract": f"{display(path)} metadata.contract"},
                    settings.layers, settings.rules, settings.base)
