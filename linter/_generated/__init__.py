"""Data generated at build time by tools/generate_data.py: never edited by hand."""
