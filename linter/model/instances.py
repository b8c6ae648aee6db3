"""Cloud instance types (`data/instances.yaml`) and their expansion into the node pools that name them.

A node pool may say `instance: aws/p5.48xlarge` instead of copying the instance's published
figures by hand. Before validation, each such pool gets the instance's `accelerator`, `cpu`,
`memory` and `local_storage`, and the cluster gets its `network.inter_node` / `intra_node`, for
every one of those fields the spec leaves out; a field the spec writes replaces the instance's
whole field. The rules then see an ordinary cluster and do not change. The document keeps, per
filled path, where the figure came from: the filled values point at the `instance:` line, and a
finding about a pool or network block lists the instance figures (with their sources) and the
spec's overrides in its evidence.
"""

from __future__ import annotations

import copy
import difflib
from dataclasses import dataclass
from functools import lru_cache

from clusterlint.model.findings import dotted
from clusterlint.readers.loader import Document, Problem

POOL_FIELDS = ("accelerator", "cpu", "memory", "local_storage")
NETWORK_FIELDS = ("inter_node", "intra_node")


@dataclass(frozen=True)
class Instance:
    id: str
    figures: dict  # accelerator, cpu, memory, local_storage, network: {inter_node, intra_node}
    sources: dict  # dotted figure path or prefix -> URL

    def source(self, path: str) -> str:
        """The URL of a figure: the longest `sources` key that is the figure's path or a prefix of it."""
        keys = [k for k in self.sources if path == k or path.startswith(k + ".")]
        return self.sources[max(keys, key=len)]


@lru_cache(maxsize=1)
def load() -> dict[str, Instance]:
    from clusterlint._generated.builtin_data import INSTANCES as raw  # data/instances.yaml, as tools/generate_data.py wrote it
    return {ident: Instance(ident, {k: v for k, v in entry.items() if k != "sources"}, entry["sources"])
            for ident, entry in raw["instances"].items()}


def ids() -> tuple[str, ...]:
    return tuple(load())


def suggest(ident: str) -> str:
    folded = {i.lower(): i for i in load()}
    if ident.lower() in folded:
        return f" (did you mean {folded[ident.lower()]!r}?)"
    close = difflib.get_close_matches(ident, list(load()), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def leaves(value, prefix: tuple = ()):
    """(relative path, value) for every scalar inside a figure."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from leaves(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from leaves(v, prefix + (i,))
    else:
        yield prefix, value


def _text(value) -> str:
    if isinstance(value, (dict, list)):
        return ", ".join(f"{dotted(p)} {v}" for p, v in leaves(value))
    return str(value)


def expand(doc: Document) -> list[Problem]:
    """Fill the pools of a Cluster document that name an instance (in memory: the user's file is
    never touched); an unknown instance id is a problem at its position, and the document is not
    reviewed. Idempotent: a document is expanded once."""
    if doc.figures is not None:
        return []
    doc.figures = {}
    spec = doc.data.get("spec") if isinstance(doc.data, dict) else None
    pools = spec.get("node_pools") if isinstance(spec, dict) else None
    if not isinstance(pools, list):
        return []
    problems, network_from = [], None
    for i, pool in enumerate(pools):
        ident = pool.get("instance") if isinstance(pool, dict) else None
        if not isinstance(ident, str):
            continue  # absent, or not a string: validation says what is wrong
        at = ("spec", "node_pools", i, "instance")
        instance = load().get(ident)
        if instance is None:
            line, col = doc.locate(at)
            problems.append(Problem(
                "SPEC002", f"{dotted(at)}: unknown instance type {ident!r}{suggest(ident)}; see clusterlint catalog --instances",
                line, col, at))
            continue
        _fill(doc, pool, ("spec", "node_pools", i), at, instance, POOL_FIELDS, ())
        network_from = network_from or (instance, at)
    if network_from and not problems:
        instance, at = network_from
        network = spec.get("network")
        if network is None:
            network = spec["network"] = {}
        if isinstance(network, dict):
            _fill(doc, network, ("spec", "network"), at, instance, NETWORK_FIELDS, ("network",))
    return problems


def _fill(doc: Document, target: dict, where: tuple, at: tuple, instance: Instance, fields: tuple, prefix: tuple) -> None:
    """Put each of the instance's `fields` the spec leaves out (or writes as null) into `target`,
    pointing its positions at the `instance:` value; record what came from where."""
    figures = instance.figures
    for part in prefix:
        figures = figures.get(part) or {}
    position = doc.locate(at)
    for name in fields:
        if name not in figures:
            continue
        path = where + (name,)
        if target.get(name) is not None:
            doc.figures[path] = f"{name} {_text(target[name])}: spec (instance {instance.id} has {_text(figures[name])})"
            continue
        target[name] = copy.deepcopy(figures[name])
        doc.positions[path] = doc.key_positions[path] = position
        for rel, value in leaves(figures[name]):
            leaf = path + rel
            doc.positions[leaf] = doc.key_positions[leaf] = position
            key = ".".join(str(p) for p in prefix + (name,) + rel)
            doc.figures[leaf] = f"{dotted((name,) + rel)} {value}: instance {instance.id}, {instance.source(key)}"


def evidence(doc: Document, path: tuple) -> tuple:
    """Where the figures of the object a finding is about came from: every instance figure and
    spec override under the parent of the finding's path (its pool, or its network block)."""
    if not doc.figures:
        return ()
    parent = tuple(path[:-1]) if len(path) > 2 else tuple(path)
    return tuple(line for figure, line in doc.figures.items() if figure[: len(parent)] == parent)
