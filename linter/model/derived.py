"""What the document models work out from their fields, without pydantic.

Each class here is a base of one pydantic model (`model.cluster`, `model.workload`) and of the
plain class `tools/generate_models.py` generates from it (`clusterlint._generated.fast_models`),
so both give the same derived values and reject the same combinations of fields. `problem`
returns the first combination the model rejects, as (pydantic error type, message), or None:
the pydantic models raise it from their `model_validator` (see `base.Strict`), and the plain
classes hand the document to pydantic when there is one, which then words it. A property or a
check written on a pydantic model itself is refused by the generator: it belongs here.
"""

from __future__ import annotations


class Derived:
    __slots__ = ()

    def problem(self) -> tuple[str, str] | None:
        return None


class Cpu(Derived):
    __slots__ = ()

    def problem(self):
        if (self.cores_per_socket is None) == (self.vcpus is None):
            return "cpu_count", "state exactly one of cores_per_socket (physical cores) or vcpus (hardware threads)"
        return None

    @property
    def physical_cores(self) -> float:
        return self.sockets * self.cores_per_socket if self.cores_per_socket else self.vcpus / 2


class NodePool(Derived):
    __slots__ = ()

    def problem(self):
        if self.accelerator is None:
            return "pool_accelerator", "state the accelerator, or an instance whose accelerator fills it"
        return None


class InterNode(Derived):
    __slots__ = ()

    def problem(self):
        if self.tiers and self.oversubscription is not None:
            return "fabric_tiers", "state oversubscription (one figure for the fabric) or tiers (one per level), not both"
        spans = [t.accelerators for t in self.tiers]
        if None in spans[:-1]:
            return "fabric_tiers", "only the last tier may omit accelerators (it then spans the cluster)"
        known = [n for n in spans if n is not None]
        if known != sorted(set(known)):
            return "fabric_tiers", "tiers go from the smallest up: each tier's accelerators must exceed the one before"
        return None


class Storage(Derived):
    __slots__ = ()

    def problem(self):
        if self.posix_mount is not None and self.type != "object":
            return "posix_mount", f"posix_mount applies to object stores; {self.type} is already a filesystem"
        return None


class Placement(Derived):
    __slots__ = ()

    def problem(self):
        if self.accelerators is not None and self.nodes is not None:
            return "value_error", "give placement.accelerators or placement.nodes, not both"
        return None
