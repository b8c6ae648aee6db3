"""The document kinds, units, the accelerator catalog and instances, and their schemas."""
