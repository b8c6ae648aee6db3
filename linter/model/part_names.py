"""Accelerator product names as the tools print them (nvidia-smi `NVIDIA A100-SXM4-80GB`, `Tesla
V100-SXM2-32GB`, `NVIDIA H100 80GB HBM3`; rocm-smi `AMD Instinct MI300X`) against catalog ids
(`A100-SXM-80GB`, `V100-SXM2-32GB`, `H100-SXM`, `MI300X`). A name the catalog's alias table
(`catalog.resolve`) knows is compared by the id it resolves to; a name it does not know (a variant
no source has shown yet) by one rule over its words: the chip is a whole word (so `GB200` is not a
`B200`), a form factor both name must agree (SXM4 is SXM), and a memory size both name must agree."""

from __future__ import annotations

import re

FORMS = {"SXM": "SXM", "SXM2": "SXM", "SXM3": "SXM", "SXM4": "SXM", "SXM5": "SXM", "SXM6": "SXM", "PCIE": "PCIE", "NVL": "NVL", "OAM": "OAM"}
NOISE = {"NVIDIA", "TESLA", "AMD", "INSTINCT", "HBM2", "HBM2E", "HBM3", "HBM3E", "GPU", "MCM", "LC", "MBA", "HPE"}
_TOKEN = re.compile(r"[A-Z0-9]+")
_MEMORY = re.compile(r"([0-9]{1,4})GB")


def parts(name: str) -> tuple:
    """(chip, form, memory GB) of a product name or catalog id; form and memory None when not named."""
    tokens = _TOKEN.findall(name.upper())
    form = next((FORMS[t] for t in tokens if t in FORMS), None)
    memory = next((int(m.group(1)) for t in tokens for m in [_MEMORY.fullmatch(t)] if m), None)
    chips = [t for t in tokens if t not in FORMS and t not in NOISE and not _MEMORY.fullmatch(t)]
    return (chips[0] if chips else ""), form, memory


def same_model(catalog_id: str, reported: str) -> bool:
    """Whether a reported product name is the catalog model: the same catalog id when the alias table
    knows both names; else the same chip, and no form factor or memory size named by both that
    differs. An SXM quote is also met by OAM (the same module form)."""
    from clusterlint.model import catalog

    quoted_id, reported_id = catalog.resolve(catalog_id), catalog.resolve(reported)
    if quoted_id is not None and reported_id is not None:
        return quoted_id == reported_id
    chip, form, memory = parts(catalog_id)
    names = set(_TOKEN.findall(reported.upper()))
    _, got_form, got_memory = parts(reported)
    if chip not in names:
        return False
    if form and got_form and form != got_form and {form, got_form} != {"SXM", "OAM"}:
        return False
    return not (memory and got_memory and memory != got_memory)
