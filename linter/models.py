"""Pydantic models of the three document kinds: the single source of `schemas/*.schema.json`.

Quantities are strings with units (see `units.py`); the schemas carry the same regular
expression the parser uses, so an editor and `check-jsonschema` accept exactly what
clusterlint accepts.

No `from __future__ import annotations` here: pydantic would then evaluate every field's
annotation from its text when it creates a class (about 15 M instructions of each check's
start-up); written as code, the interpreter evaluates them from the cached bytecode.
"""

import datetime
import functools
import re
from typing import Annotated, Literal, Optional

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, PlainSerializer, WithJsonSchema, model_validator
from pydantic_core import PydanticCustomError

from . import units

API_VERSION = "clusterlint/v1"
SCHEMA_BASE = "https://clusterlint.dev/schemas/v1/"


@functools.lru_cache(maxsize=4096, typed=True)
def _parsed(text: str | int | float, kind: str) -> units.Quantity:
    """units.parse, once for each text that repeats across files (80GB, 400Gbps): a Quantity is frozen."""
    return units.parse(text, kind)


# A serializer and a default factory are Python functions, not the builtins `str` and `list`:
# pydantic reads their signatures when it builds a schema, and a builtin's signature is parsed from
# its text by `tokenize` (whose large regular expression is compiled on first use), about 15 M
# instructions of every check's start-up.
def _text(quantity) -> str:
    return str(quantity)


def _no_items() -> list:
    return []


def _no_entries() -> dict:
    return {}


def _quantity(kind: str, description: str):
    def parse(value):
        if isinstance(value, units.Quantity):
            return value
        try:
            return _parsed(value, kind) if isinstance(value, (str, int, float)) else units.parse(value, kind)
        except units.MissingUnit as exc:
            raise PydanticCustomError("missing_unit", str(exc)) from None
        except units.UnitError as exc:
            raise PydanticCustomError("unit", str(exc)) from None

    schema = {"type": "string", "pattern": units.SCHEMA_PATTERNS[kind], "description": description, "x-unit": kind}
    if kind == "count":
        schema = {"anyOf": [{"type": "integer", "minimum": 1}, schema], "description": description, "x-unit": kind}
    return Annotated[units.Quantity, BeforeValidator(parse), PlainSerializer(_text, return_type=str), WithJsonSchema(schema)]


Size = _quantity("size", "A data size: decimal (GB, TB) or binary (GiB, TiB) bytes, e.g. 80GB.")
Rate = _quantity("rate", "A rate: bits (Gbps, Gb/s) or bytes (GB/s, GBps) per second, e.g. 400Gbps.")
Count = _quantity("count", "A count, optionally with a suffix K, M, B (billion) or T (trillion), e.g. 70B.")
Duration = _quantity("duration", "A duration: s, min, h, d, w, months or years, e.g. 2h.")
Percent = _quantity("percent", "A percentage, e.g. 99.5%.")
Money = _quantity("money", "An amount and an ISO 4217 currency code, optionally per a unit, e.g. 2.10 USD or 0.05 USD/GB.")

def _not_bool(value):
    """YAML `true` and the string "4" are not numbers (JSON Schema agrees); 4.0 is still the integer 4."""
    if isinstance(value, (bool, str)):
        raise PydanticCustomError("number_type", f"expected a number, found {type(value).__name__} {value!r}")
    return value


def _iso_date(value):
    """A YAML date arrives as its ISO string (see loader); numbers and other strings are not dates."""
    if not isinstance(value, str) or not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", value):
        raise PydanticCustomError("date_type", f"expected a date written YYYY-MM-DD, found {value!r}")
    return value


Date = Annotated[
    datetime.date, BeforeValidator(_iso_date),
    WithJsonSchema({"type": "string", "format": "date", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$", "description": "A date, YYYY-MM-DD."}),
]
MAX_INT = 2**63 - 1  # the largest integer pydantic reads (a float such as 9.2e18 is past it): the schema says so too
Positive = Annotated[int, Field(ge=1, le=MAX_INT), BeforeValidator(_not_bool)]
NonNegative = Annotated[int, Field(ge=0, le=MAX_INT), BeforeValidator(_not_bool)]
Flag = Annotated[bool, Field(strict=True)]


class Strict(BaseModel):
    """Unknown keys are errors: a typo like `nic_sped` must never be ignored."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


# ---------------------------------------------------------------- Cluster


class Accelerator(Strict):
    model: str = Field(description="Catalog id of the accelerator (see `clusterlint catalog`), e.g. H100-SXM.", min_length=1)
    count: Positive = Field(description="Accelerators per node.")
    memory: Optional[Size] = Field(None, description="Memory per accelerator; overrides the catalog.")
    quoted_tflops: Optional[dict[Literal["fp32", "tf32", "bf16", "fp16", "fp8", "int8"], Annotated[float, Field(gt=0), BeforeValidator(_not_bool)]]] = Field(
        None, description="Dense TFLOPS per dtype as the vendor quotes them; checked against the catalog."
    )
    dense_tflops: Optional[dict[Literal["fp32", "tf32", "bf16", "fp16", "fp8", "int8"], Annotated[float, Field(gt=0), BeforeValidator(_not_bool)]]] = Field(
        None, description="Dense (not sparse) peak TFLOPS per dtype, for a model the catalog lacks; overrides the catalog."
    )
    memory_bandwidth: Optional[Rate] = Field(None, description="Memory bandwidth per accelerator; overrides the catalog.")
    scale_up_domain: Optional[Positive] = Field(
        None, description="Accelerators in one fast domain, for a model the catalog lacks (more than `count` when it spans nodes); overrides the catalog."
    )


class Cpu(Strict):
    model_config = ConfigDict(
        extra="forbid", frozen=True,
        json_schema_extra={"oneOf": [
            {"required": ["cores_per_socket"], "properties": {"cores_per_socket": {"type": "integer"}}},
            {"required": ["vcpus"], "properties": {"vcpus": {"type": "integer"}}},
        ]},
    )
    model: Optional[str] = Field(None, description="CPU model, e.g. Xeon Platinum 8480C.")
    sockets: Positive = Field(1, description="CPU sockets per node.")
    cores_per_socket: Optional[Positive] = Field(None, description="Physical cores per socket.")
    vcpus: Optional[Positive] = Field(None, description="Hardware threads per node, when physical cores are not stated; counted as half a core each.")

    @model_validator(mode="after")
    def _one_count(self):
        if (self.cores_per_socket is None) == (self.vcpus is None):
            raise PydanticCustomError("cpu_count", "state exactly one of cores_per_socket (physical cores) or vcpus (hardware threads)")
        return self

    @property
    def physical_cores(self) -> float:
        return self.sockets * self.cores_per_socket if self.cores_per_socket else self.vcpus / 2


class LocalStorage(Strict):
    type: Literal["nvme", "ssd", "hdd"] = Field(description="Kind of local drive.")
    capacity: Size = Field(description="Capacity per node.")
    read_bandwidth: Optional[Rate] = Field(None, description="Read bandwidth per node.")
    write_bandwidth: Optional[Rate] = Field(None, description="Write bandwidth per node.")


def _instance_enum(schema: dict) -> None:
    """The schema lists the instance ids (read only when a schema is generated; `validate` checks
    the id when it expands the instance, before the model sees the pool)."""
    from .instances import ids

    schema["anyOf"] = [{"enum": list(ids())}, {"type": "null"}]


class NodePool(Strict):
    model_config = ConfigDict(
        extra="forbid", frozen=True,
        json_schema_extra={"anyOf": [
            {"required": ["accelerator"], "properties": {"accelerator": {"type": "object"}}},
            {"required": ["instance"], "properties": {"instance": {"type": "string"}}},
        ]},
    )
    name: str = Field(description="Name of the pool.", min_length=1)
    count: Positive = Field(description="Nodes in the pool.")
    instance: Optional[str] = Field(
        None, json_schema_extra=_instance_enum,
        description="Cloud instance type (see `clusterlint catalog --instances`) whose published accelerator, cpu, memory, "
        "local_storage and network figures fill those the spec leaves out; a field the spec writes replaces the instance's.",
    )
    spares: Optional[NonNegative] = Field(None, description="Hot spare nodes included in the price, beyond `count`; 0 = none, absent = not stated (SPEC006 asks).")
    accelerator: Optional[Accelerator] = Field(None, description="The node's accelerators; required unless `instance` gives them.")
    cpu: Optional[Cpu] = None
    memory: Optional[Size] = Field(None, description="Host RAM per node.")
    local_storage: Optional[list[LocalStorage]] = Field(None, description="Drives in each node; [] = none, absent = not stated (SPEC006 asks).")

    @model_validator(mode="after")
    def _has_accelerator(self):
        if self.accelerator is None:
            raise PydanticCustomError("pool_accelerator", "state the accelerator, or an instance whose accelerator fills it")
        return self


class IntraNode(Strict):
    fabric: Literal["nvlink", "nvswitch", "pcie", "infinity-fabric", "ici", "neuronlink", "habana-roce"] = Field(
        description="Fabric between accelerators inside a node (or scale-up domain)."
    )
    bandwidth: Optional[Rate] = Field(None, description="Bandwidth per accelerator; overrides the catalog.")
    direction: Literal["bidirectional", "unidirectional"] = Field(
        "bidirectional", description="Whether `bandwidth` counts both directions (vendors usually quote bidirectional)."
    )
    scale_up_domain: Optional[Positive] = Field(None, description="Accelerators in one fast domain (8 on HGX, 72 on NVL72); overrides the catalog.")


Ratio = Annotated[float, Field(ge=1), BeforeValidator(_not_bool)]


class FabricTier(Strict):
    name: str = Field(min_length=1, description="Level of the fabric, e.g. leaf, spine, core; or group, global on a dragonfly.")
    accelerators: Optional[Positive] = Field(
        None, description="Accelerators a job can span inside this level (the pod size); absent on the last level = the whole cluster."
    )
    oversubscription: Ratio = Field(description="Taper of traffic that stays inside this level: 1 = non-blocking, 7 = 7:1.")


class InterNode(Strict):
    model_config = ConfigDict(
        extra="forbid", frozen=True,
        json_schema_extra={"not": {
            "required": ["oversubscription", "tiers"],
            "properties": {"oversubscription": {"type": "number"}, "tiers": {"type": "array", "minItems": 1}},
        }},
    )
    fabric: Literal["infiniband", "roce", "efa", "ethernet", "tcpx", "tcpxo", "slingshot", "ici", "none"] = Field(description="Fabric between nodes.")
    nics_per_node: NonNegative = Field(0, description="Network adapters per node used for the accelerators' traffic.")
    nic_speed: Optional[Rate] = Field(None, description="Advertised speed of one adapter, e.g. 400Gbps.")
    rdma: Optional[Flag] = Field(None, description="Whether the fabric does RDMA (GPUDirect) between nodes.")
    topology: Literal["rail-optimized", "fat-tree", "rail-only", "torus", "dragonfly", "unknown"] = "unknown"
    oversubscription: Optional[Ratio] = Field(
        None, description="Taper of the whole fabric: 1 = non-blocking, 2 = 2:1 oversubscribed; absent = not stated (SPEC006 asks). Use `tiers` when it differs by level."
    )
    tiers: list[FabricTier] = Field(
        default_factory=_no_items, description="Levels of the fabric from the smallest up (leaf pod, spine; dragonfly group, global), each with its taper."
    )
    dedicated: Optional[Flag] = Field(None, description="False when the fabric is shared with other tenants.")

    @model_validator(mode="after")
    def _tiers(self):
        if self.tiers and self.oversubscription is not None:
            raise PydanticCustomError("fabric_tiers", "state oversubscription (one figure for the fabric) or tiers (one per level), not both")
        spans = [t.accelerators for t in self.tiers]
        if None in spans[:-1]:
            raise PydanticCustomError("fabric_tiers", "only the last tier may omit accelerators (it then spans the cluster)")
        known = [n for n in spans if n is not None]
        if known != sorted(set(known)):
            raise PydanticCustomError("fabric_tiers", "tiers go from the smallest up: each tier's accelerators must exceed the one before")
        return self


class Network(Strict):
    intra_node: Optional[IntraNode] = None
    inter_node: Optional[InterNode] = None


StorageType = Literal[
    "lustre", "gpfs", "weka", "vast", "ddn", "beegfs", "daos", "nfs", "cephfs", "smb", "efs", "filestore", "object", "local-nvme",
    "distributed-fs",
]


class Storage(Strict):
    model_config = ConfigDict(
        extra="forbid", frozen=True,
        json_schema_extra={
            "if": {"required": ["posix_mount"], "properties": {"posix_mount": {"type": "boolean"}}},
            "then": {"properties": {"type": {"const": "object"}}},
        },
    )
    name: str = Field(description="Name of the storage system.", min_length=1)
    type: StorageType = Field(description="Storage technology.")
    shared: Flag = Field(True, description="Mounted on every node.")
    parallel: Optional[Flag] = Field(
        None, description="Whether clients stripe I/O across many servers (Lustre, GPFS do; NFS does not); required for distributed-fs, overrides the type's default."
    )
    posix_mount: Optional[Flag] = Field(
        None, description="For object stores: mounted on every node through a POSIX layer (Mountpoint for S3, gcsfuse, blobfuse)."
    )
    tier: Optional[Literal["scratch", "capacity", "archive"]] = Field(
        None, description="Tier of a tiered system: fast scratch, capacity, or archive (not counted as working storage)."
    )
    capacity: Optional[Size] = Field(None, description="Usable capacity; absent when unpublished (rules that need it skip).")
    quota_per_project: Optional[Size] = Field(None, description="Capacity one project may use (HPC centres set quotas); STO002 counts the smaller of this and capacity.")
    read_bandwidth: Optional[Rate] = Field(None, description="Aggregate sustained (baseline) read bandwidth.")
    write_bandwidth: Optional[Rate] = Field(None, description="Aggregate sustained (baseline) write bandwidth.")
    burst_read_bandwidth: Optional[Rate] = Field(None, description="Peak read bandwidth for a limited time (burst credits); rules judge the sustained figure.")
    burst_write_bandwidth: Optional[Rate] = Field(None, description="Peak write bandwidth for a limited time; rules judge the sustained figure.")
    purpose: list[Literal["datasets", "checkpoints", "code", "home", "scratch", "logs"]] = Field(
        default_factory=_no_items, description="What it holds."
    )

    @model_validator(mode="after")
    def _posix_mount(self):
        if self.posix_mount is not None and self.type != "object":
            raise PydanticCustomError("posix_mount", f"posix_mount applies to object stores; {self.type} is already a filesystem")
        return self


class Software(Strict):
    orchestrator: Optional[Literal["slurm", "kubernetes", "slurm-on-kubernetes", "none", "proprietary"]] = Field(
        None, description="Scheduler; none = no scheduler, absent = not stated (SPEC006 asks)."
    )
    root_access: Optional[Flag] = None
    os: Optional[str] = None
    proprietary: list[str] = Field(default_factory=_no_items, description="Proprietary tools or services you must use to run on this cluster.")


class Location(Strict):
    provider: Optional[str] = None
    region: Optional[str] = None


class ClusterSpec(Strict):
    node_pools: list[NodePool] = Field(min_length=1)
    network: Network = Field(default_factory=Network)
    storage: Optional[list[Storage]] = Field(None, description="Storage systems; [] = none, absent = not stated (SPEC006 asks).")
    software: Software = Field(default_factory=Software)
    location: Optional[Location] = None


class ClusterMetadata(Strict):
    name: str = Field(min_length=1)
    vendor: Optional[str] = None
    offering: Literal["rent", "buy", "hpc-allocation"] = "rent"
    quote_ref: Optional[str] = None
    source: Optional[str] = Field(None, description="Where the figures come from (URL of the public offer).")


class Envelope(Strict):
    apiVersion: Literal["clusterlint/v1"] = Field(description="Always clusterlint/v1.")


class Cluster(Envelope):
    """The hardware and software offered."""

    kind: Literal["Cluster"]
    metadata: ClusterMetadata
    spec: ClusterSpec


# ---------------------------------------------------------------- Contract


class Metadata(Strict):
    name: str = Field(min_length=1)
    vendor: Optional[str] = None
    source: Optional[str] = Field(None, description="Where the document comes from.")


class ContractMetadata(Metadata):
    title: Optional[str] = Field(None, description="The document's title as written (a prose contract: its first heading or line); "
                                                   "missing-term findings point here when no section covers the term.")


class Pricing(Strict):
    accelerator_hour: Optional[Money] = Field(None, description="Price of one accelerator for one hour.")
    includes: list[Literal["storage", "network", "support", "egress", "software"]] = Field(
        default_factory=_no_items, description="Cost lines covered by the hourly price."
    )
    extras: dict[str, Money] = Field(default_factory=_no_entries, description="Priced extras, e.g. egress: 0.05 USD/GB.")


class Delivery(Strict):
    date: Optional[Date] = None
    acceptance_test: Optional[str] = None
    late_remedy: Optional[str] = None


class Sla(Strict):
    availability: Optional[Percent] = None
    measured_as: Optional[str] = None
    credits: Optional[str] = None
    node_replacement: Optional[Duration] = None
    support: Optional[str] = None


class PerformanceCommitment(Strict):
    metric: str = Field(min_length=1, description="What is committed, e.g. inter_node_bandwidth (per node), storage_read_bandwidth.")
    value: str = Field(min_length=1, description="The committed figure with its unit, e.g. 3200Gbps.")
    method: Optional[str] = Field(None, description="How it is measured, e.g. nccl-tests.")


class Exit(Strict):
    termination_for_convenience: Optional[Flag] = None
    data_export: Optional[str] = None


class Clause(Strict):
    ref: str = Field(min_length=1, description="The clause's number in the vendor's paper, e.g. 4.2.")
    text: str = Field(min_length=1, description="The clause as written.")
    kind: Optional[Literal["operative", "definition", "recital"]] = Field(
        None, description="What the clause does; inferred from its wording when absent (see CON001)."
    )
    section: Optional[str] = Field(
        None, description="The heading the clause sits under, e.g. '4. Delivery'; missing-term findings point at it (see CON002)."
    )


class Parties(Strict):
    """Names the parties go by, beyond the usual role words (Provider, Customer, we, you...)."""

    vendor: list[str] = Field(default_factory=_no_items, description="Names of the vendor, e.g. its company name.")
    customer: list[str] = Field(default_factory=_no_items, description="Names of the customer.")


PaperKind = Literal["order-form", "terms", "sla", "policy"]


class ContractSpec(Strict):
    kind: Optional[PaperKind] = Field(
        None, description="What paper this is: order-form (a negotiated order form, MSA or reservation), terms (click-through "
                          "terms of service), sla (a service level agreement) or policy (maintenance, support, acceptable use); "
                          "read from the text when absent. Absence rules (CON002, CON003, REL002, REL003, LCK004) apply in full "
                          "to an order form; on public paper they ask, as info.")
    parties: Parties = Field(default_factory=Parties, description="Who the vendor and the customer are, as the contract names them (see CON001).")
    term: Optional[Duration] = None
    pricing: Pricing = Field(default_factory=Pricing)
    delivery: Delivery = Field(default_factory=Delivery)
    sla: Sla = Field(default_factory=Sla)
    performance: list[PerformanceCommitment] = Field(default_factory=_no_items)
    exit: Exit = Field(default_factory=Exit)
    clauses: list[Clause] = Field(default_factory=_no_items)


class Contract(Envelope):
    """The terms of the offer."""

    kind: Literal["Contract"]
    metadata: ContractMetadata
    spec: ContractSpec


# ---------------------------------------------------------------- Workload


class ModelSize(Strict):
    parameters: Count = Field(description="Parameters, e.g. 70B.")


class Parallelism(Strict):
    tensor: Positive = 1
    pipeline: Positive = 1
    data: Optional[Positive] = None
    zero_stage: Literal[0, 1, 2, 3] = 0


class Placement(Strict):
    """Where the workload runs: a node pool and how much of it (accelerators or nodes, not both)."""

    pool: Optional[str] = Field(None, description="Name of the node pool the workload runs on; the first pool when absent.", min_length=1)
    accelerators: Optional[Positive] = Field(None, description="Accelerators the workload uses.")
    nodes: Optional[Positive] = Field(None, description="Whole nodes the workload uses.")

    @model_validator(mode="after")
    def _one_size(self):
        if self.accelerators is not None and self.nodes is not None:
            raise ValueError("give placement.accelerators or placement.nodes, not both")
        return self


class Dataloader(Strict):
    workers_per_accelerator: NonNegative = Field(description="DataLoader worker processes per accelerator.")


class Dataset(Strict):
    size: Optional[Size] = None
    files: Optional[Count] = None


class Checkpoints(Strict):
    interval: Duration
    keep: Positive = 1
    size: Optional[Size] = Field(None, description="Size of one checkpoint; derived from the parameters when absent.")


class WorkloadSpec(Strict):
    task: Literal["training", "finetuning", "inference"]
    model: ModelSize
    precision: Literal["fp32", "bf16", "fp16", "fp8", "int8", "int4"] = "bf16"
    optimizer: Optional[str] = None
    tokens: Optional[Count] = None
    sequence_length: Optional[Positive] = None
    global_batch_size: Optional[Positive] = Field(None, description="Sequences per optimizer step.")
    parallelism: Parallelism = Field(default_factory=Parallelism)
    placement: Optional[Placement] = Field(None, description="Where the workload runs; else tensor x pipeline x data accelerators when all are given, else the whole first pool.")
    dataloader: Optional[Dataloader] = None
    dataset: Optional[Dataset] = None
    checkpoints: Optional[Checkpoints] = None
    assumed_mfu: Optional[Annotated[float, Field(gt=0, le=1), BeforeValidator(_not_bool)]] = Field(None, description="Model FLOPS utilisation expected, 0-1.")
    deadline: Optional[Duration] = None
    budget: Optional[Money] = None


class Workload(Envelope):
    """What the buyer plans to run."""

    kind: Literal["Workload"]
    metadata: Metadata
    spec: WorkloadSpec


KINDS = {"Cluster": Cluster, "Contract": Contract, "Workload": Workload}
