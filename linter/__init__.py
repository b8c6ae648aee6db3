"""clusterlint: lint GPU cluster quotes, contracts and workloads before you sign."""

__version__ = "0.1.0"
HOMEPAGE = "https://clusterlint.dev"
