"""Named designs a node pool can point at, and their expansion into the pools that name them:
cloud instance types (`instance:`, `data/instances.yaml`) and server or rack reference designs
(`system:`, `data/systems.yaml`).

A node pool may say `instance: aws/p5.48xlarge` (or `system: nvidia/dgx-b200`) instead of copying
the published figures by hand. Before validation, each such pool gets the design's `accelerator`,
`cpu`, `memory` and `local_storage`, and the cluster gets its network figures, for every one of
those fields the spec leaves out; a field the spec writes replaces the design's whole field. An
instance fills `network.inter_node` and `intra_node` whole; a system fills `intra_node` whole and
the `inter_node` figures it states one by one (a DGX's adapters run InfiniBand or Ethernet: the
spec names the fabric, the system still gives the adapters). The rules then see an ordinary
cluster and do not change. The document keeps, per filled path, where the figure came from: the
filled values point at the `instance:` (`system:`) line, and a finding about a pool or network
block lists the design's figures (with their sources) and the spec's overrides in its evidence.
"""

from __future__ import annotations

import copy
import difflib
from dataclasses import dataclass
from functools import lru_cache

from clusterlint.model.findings import dotted
from clusterlint.readers.loader import Document, Problem

POOL_FIELDS = (("accelerator",), ("cpu",), ("memory",), ("local_storage",))


@dataclass(frozen=True)
class Kind:
    """A catalog of named designs: the pool field that names one, the table in builtin_data, the
    noun messages use, and the network figures (paths under `spec.network`) an entry fills."""

    key: str
    table: str
    noun: str
    network: tuple
    see: str


INSTANCE = Kind("instance", "INSTANCES", "instance type", (("inter_node",), ("intra_node",)), "; see clusterlint catalog --instances")
SYSTEM = Kind("system", "SYSTEMS", "system", (("intra_node",),) + tuple(("inter_node", f) for f in ("fabric", "nics_per_node", "nic_speed", "rdma")),
              "; see the systems in linter/data/systems.yaml")
KINDS = (INSTANCE, SYSTEM)


@dataclass(frozen=True)
class Instance:
    id: str
    figures: dict  # accelerator, cpu, memory, local_storage, network: {inter_node, intra_node}
    sources: dict  # dotted figure path or prefix -> URL, or {url, words, ...} (systems quote the words they read)
    kind: str = "instance"

    def source(self, path: str) -> str:
        """The URL of a figure: the longest `sources` key that is the figure's path or a prefix of it."""
        keys = [k for k in self.sources if path == k or path.startswith(k + ".")]
        cited = self.sources[max(keys, key=len)]
        return cited["url"] if isinstance(cited, dict) else cited


@lru_cache(maxsize=2)
def load(kind: Kind = INSTANCE) -> dict[str, Instance]:
    from clusterlint._generated import builtin_data  # data/*.yaml, as tools/generate_data.py wrote them

    raw = getattr(builtin_data, kind.table)
    return {ident: Instance(ident, {k: v for k, v in entry.items() if k not in ("sources", "note")}, entry["sources"], kind.key)
            for ident, entry in raw[kind.table.lower()].items()}


def ids(kind: Kind = INSTANCE) -> tuple[str, ...]:
    return tuple(load(kind))


def suggest(ident: str, kind: Kind = INSTANCE) -> str:
    folded = {i.lower(): i for i in load(kind)}
    if ident.lower() in folded:
        return f" (did you mean {folded[ident.lower()]!r}?)"
    close = difflib.get_close_matches(ident, list(load(kind)), n=1, cutoff=0.6)
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
    """Fill the pools of a Cluster document that name an instance or a system (in memory: the
    user's file is never touched); an unknown id, or a pool naming both, is a problem at its
    position, and the document is not reviewed. Idempotent: a document is expanded once."""
    if doc.figures is not None:
        return []
    doc.figures = {}
    spec = doc.data.get("spec") if isinstance(doc.data, dict) else None
    pools = spec.get("node_pools") if isinstance(spec, dict) else None
    if not isinstance(pools, list):
        return []
    problems, network_from = [], None
    for i, pool in enumerate(pools):
        named = [kind for kind in KINDS if isinstance(pool, dict) and isinstance(pool.get(kind.key), str)]
        if not named:
            continue  # absent, or not a string: validation says what is wrong
        kind = named[-1]
        at = ("spec", "node_pools", i, kind.key)
        entry = load(kind).get(pool[kind.key])
        if len(named) > 1 or entry is None:
            line, col = doc.locate(at)
            text = (f"{dotted(at[:-1])}: name an instance or a system, not both" if len(named) > 1 else
                    f"{dotted(at)}: unknown {kind.noun} {pool[kind.key]!r}{suggest(pool[kind.key], kind)}{kind.see}")
            problems.append(Problem("SPEC002", text, line, col, at))
            continue
        _fill(doc, pool, ("spec", "node_pools", i), at, entry, POOL_FIELDS, ())
        network_from = network_from or (entry, at, kind)
    if network_from and not problems:
        entry, at, kind = network_from
        network = spec.get("network")
        if network is None:
            network = spec["network"] = {}
        if isinstance(network, dict):
            _fill(doc, network, ("spec", "network"), at, entry, kind.network, ("network",))
    return problems


def _fill(doc: Document, target: dict, where: tuple, at: tuple, entry: Instance, fields: tuple, prefix: tuple) -> None:
    """Put each of the entry's `fields` (paths inside `target`) the spec leaves out (or writes as
    null) into `target`, pointing their positions at the `instance:` (`system:`) value; record
    what came from where."""
    figures = entry.figures
    for part in prefix:
        figures = figures.get(part) or {}
    position = doc.locate(at)
    for rel in fields:
        figure = figures
        for part in rel:
            figure = figure.get(part) if isinstance(figure, dict) else None
        holder = _holder(doc, target, where, rel[:-1], position) if figure is not None else None
        if holder is None:
            continue  # the design does not give it, or the spec's block is not a mapping (validation says so)
        path, name = where + rel, rel[-1]
        if holder.get(name) is not None:
            doc.figures[path] = f"{dotted(rel)} {_text(holder[name])}: spec ({entry.kind} {entry.id} has {_text(figure)})"
            continue
        holder[name] = copy.deepcopy(figure)
        doc.positions[path] = doc.key_positions[path] = position
        for leaf_rel, value in leaves(figure):
            leaf = path + leaf_rel
            doc.positions[leaf] = doc.key_positions[leaf] = position
            key = ".".join(str(p) for p in prefix + rel + leaf_rel)
            doc.figures[leaf] = f"{dotted(rel + leaf_rel)} {value}: {entry.kind} {entry.id}, {entry.source(key)}"


def _holder(doc: Document, target: dict, where: tuple, outer: tuple, position) -> dict | None:
    """The mapping at `outer` inside `target`, made (at the design's position) where the spec has none."""
    for depth, part in enumerate(outer):
        if target.get(part) is None:
            target[part] = {}
            path = where + outer[: depth + 1]
            doc.positions[path] = doc.key_positions[path] = position
        target = target[part]
        if not isinstance(target, dict):
            return None
    return target


def evidence(doc: Document, path: tuple) -> tuple:
    """Where the figures of the object a finding is about came from: every instance figure and
    spec override under the parent of the finding's path (its pool, or its network block)."""
    if not doc.figures:
        return ()
    parent = tuple(path[:-1]) if len(path) > 2 else tuple(path)
    return tuple(line for figure, line in doc.figures.items() if figure[: len(parent)] == parent)
