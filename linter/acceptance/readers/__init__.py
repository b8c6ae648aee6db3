"""The evidence readers, in the order a file's kind is tried (more specific kinds first): each
module holds one `READER` (kind, detect, parse, facts)."""

from __future__ import annotations

from importlib import import_module

ORDER = ("collect_manifest", "collect_copy", "nvidia_xml", "nvidia_q", "nvidia_topo", "nccl_tests", "lscpu_json", "findmnt", "fio", "dcgmi_json", "rocm_smi", "ibstat", "ibstatus",
         "ibv_devinfo", "lscpu", "meminfo", "free", "df", "dcgmi_diag", "nvidia_version", "kernel_log", "lspci", "scontrol", "kubectl_storageclass", "kubectl_pods",
         "container_toolkit", "runc", "docker_version", "nvcc", "dcgmi_version",
         "sysctl", "nvidia_params", "srun_mpi", "nccl_conf", "ldconfig", "lsmod", "cpupower")

_READERS: list = []


def readers() -> list:
    """Every reader, imported once on first use (accept only: check never loads them)."""
    if not _READERS:
        _READERS.extend(import_module(f"{__name__}.{name}").READER for name in ORDER)
    return _READERS


def kind_of(text: str):
    """The reader for a file's content, or None: the kind comes from content, never from the name."""
    head = text[:4000]
    return next((reader for reader in readers() if reader.detect(head, text)), None)
