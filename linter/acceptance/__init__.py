"""Acceptance of delivered nodes: evidence readers and what they prove."""
