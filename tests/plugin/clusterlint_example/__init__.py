"""Example clusterlint plugin: its rule files sit in this package, its checks in `checks`."""
