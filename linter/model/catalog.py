"""Accelerator facts, read from `data/accelerators.yaml` with a cited source for each group, and
completed or overridden by the figures a node pool's spec gives for its accelerator."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import lru_cache

from clusterlint.model import units

DTYPES = ("fp32", "tf32", "bf16", "fp16", "fp8", "int8")

# A suggested part whose memory or dense compute differs by more than this fraction says by how much.
NEAR = 0.25


@dataclass(eq=False)  # not changed once made; neither frozen nor compared: a frozen dataclass costs start-up
class AcceleratorFacts:
    id: str
    vendor: str | None
    tflops: dict  # dtype -> dense TFLOPS or None
    memory: units.Quantity | None
    memory_bandwidth: units.Quantity | None
    fabric: str | None
    intra_node_bandwidth: units.Quantity | None
    scale_up_domain: int | None
    scale_up_spans_nodes: bool
    single_provider: str | None
    sources: dict  # compute | memory | intra_node | availability -> URL
    from_spec: frozenset = frozenset()  # figures the pool's spec gave: memory, memory_bandwidth, scale_up_domain, tflops.DTYPE
    cited: dict = field(default_factory=dict, init=False, compare=False, repr=False)  # (what, dtype) -> cite's answer

    def cite(self, what: str, dtype: str | None = None) -> str:
        """Where figures came from: "spec" or the catalog's source. `what` is a group (compute,
        memory, intra_node, availability) or one figure (memory_bandwidth, scale_up_domain);
        `dtype` narrows compute to one dtype's TFLOPS. Worked out once per facts, question and dtype."""
        key = (what, dtype)
        if key not in self.cited:
            self.cited[key] = self._cite(what, dtype)
        return self.cited[key]

    def _cite(self, what: str, dtype: str | None) -> str:
        if what == "compute":
            spec = {f.split(".")[1] for f in self.from_spec if f.startswith("tflops.")}
            catalog = {d for d, v in self.tflops.items() if v is not None} - spec
            if (dtype in spec) if dtype else (spec and not catalog):
                return "spec"
            if spec and not dtype:
                return f"spec ({', '.join(sorted(spec))}), catalog {self.id}, {self.sources['compute']}"
        elif what in self.from_spec:
            return "spec"
        group = {"memory_bandwidth": "memory", "scale_up_domain": "intra_node"}.get(what, what)
        return f"catalog {self.id}, {self.sources[group]}"


def _quantity(text, kind):
    return units.parse(text, kind) if text is not None else None


@lru_cache(maxsize=1)
def load() -> dict[str, AcceleratorFacts]:
    from clusterlint._generated.builtin_data import ACCELERATORS as raw  # data/accelerators.yaml, as tools/generate_data.py wrote it
    catalog = {}
    for ident, entry in raw["accelerators"].items():
        catalog[ident] = AcceleratorFacts(
            id=ident,
            vendor=entry["vendor"],
            tflops={d: entry["tflops"].get(d) for d in DTYPES},
            memory=_quantity(entry["memory"], "size"),
            memory_bandwidth=_quantity(entry["memory_bandwidth"], "rate"),
            fabric=entry["intra_node"]["fabric"],
            intra_node_bandwidth=_quantity(entry["intra_node"]["bandwidth"], "rate"),
            scale_up_domain=entry["scale_up_domain"],
            scale_up_spans_nodes=entry["scale_up_spans_nodes"],
            single_provider=entry["single_provider"],
            sources=entry["sources"],
        )
    return catalog


# words a product name may start with that name its vendor or brand, not the part
_VENDOR_WORDS = re.compile(r"^(?:nvidia|amd instinct|amd|intel|google cloud|google|aws|tesla)\b\s*")


def _fold(name: str) -> str:
    """A name as `resolve` compares it: lower case, a leading vendor word dropped, only letters and digits."""
    return re.sub(r"[^a-z0-9]", "", _VENDOR_WORDS.sub("", name.strip().lower()))


@lru_cache(maxsize=1)
def _names() -> dict[str, str]:
    from clusterlint._generated.builtin_data import ACCELERATORS as raw

    names = {}
    for ident, entry in raw["accelerators"].items():
        for name in (ident, *entry.get("aliases", ())):
            names.setdefault(_fold(name), ident)
    return names


def resolve(name: str) -> str | None:
    """The catalog id a name means: the id itself, or one of the names buyers and tools write for the
    part (`H200-SXM`, `NVIDIA H100 80GB HBM3`, `NVIDIA A100-SXM4-80GB`, `AMD Instinct MI300X`), matched
    without regard to case, spaces, hyphens or a leading vendor word; None when no part answers to it."""
    if name in load():
        return name
    return _names().get(_fold(name)) if isinstance(name, str) else None


def lookup(model: str) -> AcceleratorFacts | None:
    ident = resolve(model)
    return load()[ident] if ident is not None else None


def for_accelerator(accelerator) -> AcceleratorFacts | None:
    """Facts for a node pool's accelerator: the catalog's, with each figure the spec gives
    (dense_tflops, memory, memory_bandwidth, scale_up_domain) in its place. A model the catalog
    lacks gets the spec's figures only (unknown ones None); None when it gives none."""
    acc = accelerator
    given = {"memory": acc.memory, "memory_bandwidth": acc.memory_bandwidth, "scale_up_domain": acc.scale_up_domain}
    given = {k: v for k, v in given.items() if v is not None}
    base = lookup(acc.model)
    if base is None and not given and not acc.dense_tflops:
        return None
    if base is None:
        base = AcceleratorFacts(
            id=acc.model, vendor=None, tflops=dict.fromkeys(DTYPES), memory=None, memory_bandwidth=None,
            fabric=None, intra_node_bandwidth=None, scale_up_domain=None, scale_up_spans_nodes=False,
            single_provider=None, sources={},
        )
    dense = acc.dense_tflops or {}
    if not given and not dense:
        return base
    changes = dict(given, from_spec=frozenset(given) | {f"tflops.{d}" for d in dense})
    if dense:
        changes["tflops"] = {**base.tflops, **dense}
    if "scale_up_domain" in given:
        changes["scale_up_spans_nodes"] = given["scale_up_domain"] > acc.count
    return replace(base, **changes)


def _stem(model: str) -> tuple[str, str, str] | None:
    """The part a model id names: family letters, generation number and a one-letter part suffix
    (MI300X vs MI300A, TPU v5e vs v5p, L40S), ignoring form-factor and memory words (SXM, PCIe, 80GB)."""
    m = re.match(r"([a-z][a-z _-]*?)(\d+)([a-z]*)", model.lower())
    if m is None:
        return None
    family, generation, suffix = m.groups()
    return re.sub(r"[ _-]", "", family), generation, suffix if len(suffix) == 1 else ""


def _memory_in_name(model: str) -> units.Quantity | None:
    """The memory a model id spells out (A100-SXM4-40GB), used when the spec states none."""
    m = re.search(r"(\d+)\s*gb\b", model.lower())
    return units.parse(f"{m.group(1)}GB", "size") if m else None


def _differs(name: str, offered: float, stated: float, text) -> str | None:
    change = offered / stated - 1
    if abs(change) <= NEAR:
        return None
    return f"its {name} {text(offered)} is {abs(change):.0%} {'more' if change > 0 else 'less'} than the {text(stated)} the spec states"


def suggest(model: str, accelerator=None) -> str:
    """A 'did you mean' hint for an unknown model id, or an empty string. Only parts of the same
    family and generation are offered; with the spec's own memory or dense TFLOPS (`accelerator`),
    the nearest is preferred, and one more than 25% away says by how much."""
    stem = _stem(model)
    same = [i for i in load() if stem is not None and _stem(i) == stem]
    if not same:
        return ""
    memory = getattr(accelerator, "memory", None) or _memory_in_name(model)
    dense = getattr(accelerator, "dense_tflops", None) or {}
    import difflib  # only for a model clusterlint does not know

    def distance(ident):
        f = load()[ident]
        gaps = [abs(f.memory.value / memory.value - 1)] if memory is not None and f.memory is not None else []
        gaps += [abs(f.tflops[d] / v - 1) for d, v in dense.items() if f.tflops.get(d)]
        return (max(gaps, default=0), -difflib.SequenceMatcher(None, model.lower(), ident.lower()).ratio())

    best = min(same, key=distance)
    f = load()[best]
    notes = []
    if memory is not None and f.memory is not None:
        notes.append(_differs("memory", f.memory.value, memory.value, lambda v: units.human(v, "size")))
    for d, v in dense.items():
        if f.tflops.get(d):
            notes.append(_differs(f"dense {d}", f.tflops[d], v, lambda x: f"{x:g} TFLOPS"))
    notes = [n for n in notes if n]
    others = [i for i in same if i != best]
    if not notes and others and memory is None and not dense:
        spread = [i for i in others if _apart(load()[i], f)]
        if spread:
            return f" (did you mean {best!r}? {_variants([best, *spread])}: state memory to choose)"
    return f" (did you mean {best!r}? " + "; ".join(notes) + ")" if notes else f" (did you mean {best!r}?)"


def _apart(a: AcceleratorFacts, b: AcceleratorFacts) -> bool:
    """Whether two parts differ by more than NEAR in memory or dense bf16 compute."""
    pairs = [(a.memory and a.memory.value, b.memory and b.memory.value), (a.tflops.get("bf16"), b.tflops.get("bf16"))]
    return any(x and y and abs(x / y - 1) > NEAR for x, y in pairs)


def _variants(ids: list[str]) -> str:
    parts = []
    for i in ids:
        f = load()[i]
        bf16 = f", {f.tflops['bf16']:g} dense bf16 TFLOPS" if f.tflops.get("bf16") else ""
        parts.append(f"{i} has {units.human(f.memory.value, 'size')}{bf16}")
    return "; ".join(parts)
