"""Configuration: discovery, reading, the model and per-file settings."""
