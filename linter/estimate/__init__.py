"""The sizing model of record and the pre-purchase figures built on it (estimate, compare)."""
