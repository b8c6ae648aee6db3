"""Accelerator facts, read from `data/accelerators.yaml` with a cited source for each group."""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from . import units

DTYPES = ("fp32", "tf32", "bf16", "fp16", "fp8", "int8")


@dataclass(frozen=True)
class AcceleratorFacts:
    id: str
    vendor: str
    tflops: dict  # dtype -> dense TFLOPS or None
    memory: units.Quantity
    memory_bandwidth: units.Quantity
    fabric: str
    intra_node_bandwidth: units.Quantity | None
    scale_up_domain: int | None
    scale_up_spans_nodes: bool
    single_provider: str | None
    sources: dict  # compute | memory | intra_node | availability -> URL

    def cite(self, group: str) -> str:
        return f"catalog {self.id}, {self.sources[group]}"


@lru_cache(maxsize=1)
def load() -> dict[str, AcceleratorFacts]:
    import yaml

    text = resources.files("clusterlint").joinpath("data/accelerators.yaml").read_text(encoding="utf-8")
    raw = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    catalog = {}
    for ident, entry in raw["accelerators"].items():
        bandwidth = entry["intra_node"]["bandwidth"]
        catalog[ident] = AcceleratorFacts(
            id=ident,
            vendor=entry["vendor"],
            tflops={d: entry["tflops"].get(d) for d in DTYPES},
            memory=units.parse(entry["memory"], "size"),
            memory_bandwidth=units.parse(entry["memory_bandwidth"], "rate"),
            fabric=entry["intra_node"]["fabric"],
            intra_node_bandwidth=units.parse(bandwidth, "rate") if bandwidth else None,
            scale_up_domain=entry["scale_up_domain"],
            scale_up_spans_nodes=entry["scale_up_spans_nodes"],
            single_provider=entry["single_provider"],
            sources=entry["sources"],
        )
    return catalog


def lookup(model: str) -> AcceleratorFacts | None:
    return load().get(model)


def suggest(model: str) -> str:
    """A 'did you mean' hint for an unknown model id, or an empty string."""
    ids = list(load())
    folded = {i.lower().replace("-", "").replace(" ", ""): i for i in ids}
    key = model.lower().replace("-", "").replace(" ", "")
    if key in folded:
        return f" (did you mean {folded[key]!r}?)"
    close = difflib.get_close_matches(model, ids, n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""
