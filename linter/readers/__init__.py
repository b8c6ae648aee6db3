"""Bytes to documents with positions: YAML with a source map, prose and PDF contracts."""
