"""The Cluster kind: the hardware and software offered (see `models` for what the kinds share)."""

from typing import Annotated, Literal, Optional

from pydantic import BeforeValidator, ConfigDict, Field

from clusterlint.model import derived
from clusterlint.model.base import Envelope, Flag, NonNegative, Positive, Rate, Size, Strict, _no_items, _not_bool


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


def _requiring(keyword: str, **fields: str) -> ConfigDict:
    """A strict model's config whose JSON Schema requires `keyword` ("oneOf", "anyOf") of `fields`,
    each named with its JSON type, so that an editor asks for one of them as the model does."""
    return ConfigDict(extra="forbid", frozen=True, json_schema_extra={
        keyword: [{"required": [name], "properties": {name: {"type": kind}}} for name, kind in fields.items()]})


class Cpu(Strict, derived.Cpu):
    model_config = _requiring("oneOf", cores_per_socket="integer", vcpus="integer")
    model: Optional[str] = Field(None, description="CPU model, e.g. Xeon Platinum 8480C.")
    sockets: Positive = Field(1, description="CPU sockets per node.")
    cores_per_socket: Optional[Positive] = Field(None, description="Physical cores per socket.")
    vcpus: Optional[Positive] = Field(None, description="Hardware threads per node, when physical cores are not stated; counted as half a core each.")


class LocalStorage(Strict):
    type: Literal["nvme", "ssd", "hdd"] = Field(description="Kind of local drive.")
    capacity: Size = Field(description="Capacity per node.")
    read_bandwidth: Optional[Rate] = Field(None, description="Read bandwidth per node.")
    write_bandwidth: Optional[Rate] = Field(None, description="Write bandwidth per node.")


def _instance_enum(schema: dict) -> None:
    """The schema lists the instance ids (read only when a schema is generated; `validate` checks
    the id when it expands the instance, before the model sees the pool)."""
    from clusterlint.model.instances import ids

    schema["anyOf"] = [{"enum": list(ids())}, {"type": "null"}]


def _system_enum(schema: dict) -> None:
    """The schema lists the system ids, as `_instance_enum` does the instance ids."""
    from clusterlint.model.instances import SYSTEM, ids

    schema["anyOf"] = [{"enum": list(ids(SYSTEM))}, {"type": "null"}]


class NodePool(Strict, derived.NodePool):
    model_config = _requiring("anyOf", accelerator="object", instance="string", system="string")
    name: str = Field(description="Name of the pool.", min_length=1)
    count: Positive = Field(description="Nodes in the pool.")
    instance: Optional[str] = Field(
        None, json_schema_extra=_instance_enum,
        description="Cloud instance type (see `clusterlint catalog --instances`) whose published accelerator, cpu, memory, "
        "local_storage and network figures fill those the spec leaves out; a field the spec writes replaces the instance's.",
    )
    system: Optional[str] = Field(
        None, json_schema_extra=_system_enum,
        description="Server or rack reference design (see linter/data/systems.yaml), e.g. nvidia/dgx-b200, whose published accelerator, "
        "cpu, memory, local_storage and network figures fill those the spec leaves out; a field the spec writes replaces the system's.",
    )
    spares: Optional[NonNegative] = Field(None, description="Hot spare nodes included in the price, beyond `count`; 0 = none, absent = not stated (SPEC006 asks).")
    accelerator: Optional[Accelerator] = Field(None, description="The node's accelerators; required unless `instance` gives them.")
    cpu: Optional[Cpu] = None
    memory: Optional[Size] = Field(None, description="Host RAM per node.")
    local_storage: Optional[list[LocalStorage]] = Field(None, description="Drives in each node; [] = none, absent = not stated (SPEC006 asks).")


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


class InterNode(Strict, derived.InterNode):
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


class Network(Strict):
    intra_node: Optional[IntraNode] = None
    inter_node: Optional[InterNode] = None


DurabilityLevel = Literal["none", "single-copy", "raid", "replicated", "erasure-coded", "cross-zone", "cross-region"]


class DataProtection(Strict):
    """What keeps a storage system's data when hardware fails (ClusterMAX storage criteria)."""

    durability: Optional[DurabilityLevel] = Field(
        None, description="How the data survives a failed server or drive: none or single-copy (lost with it), raid, replicated, "
                          "erasure-coded, cross-zone or cross-region copies.")
    snapshots: Optional[Flag] = Field(None, description="Whether point-in-time snapshots are offered.")
    backup: Optional[Flag] = Field(None, description="Whether the provider backs the data up off the system.")


StorageType = Literal[
    "lustre", "gpfs", "weka", "vast", "ddn", "beegfs", "daos", "nfs", "cephfs", "smb", "efs", "filestore", "object", "local-nvme",
    "distributed-fs",
]


class Storage(Strict, derived.Storage):
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
    protection: Optional[DataProtection] = Field(None, description="Durability, snapshots and backup of the data; absent = not stated.")


class ServiceNodes(Strict):
    """CPU-only nodes beside the accelerator pools: a Slurm login or controller node, storage servers."""

    name: str = Field(min_length=1, description="Name of the group.")
    role: Literal["login", "controller", "head", "storage", "management"] = Field(
        description="What the nodes do: login, controller (slurmctld, the Kubernetes control plane), head (login and controller), storage, management.")
    count: Positive = Field(description="Nodes in the group.")
    cpu: Optional[Cpu] = None
    memory: Optional[Size] = Field(None, description="Host RAM per node.")


Attestation = Literal["soc2-type2", "soc2-type1", "soc1-type2", "iso27001", "iso27017", "iso27018", "hipaa", "pci-dss", "fedramp", "gdpr"]


class Certificate(Strict):
    standard: Attestation = Field(description="The attestation or certification, e.g. soc2-type2, iso27001.")
    scope: Optional[str] = Field(None, description="What it covers as the report states it, e.g. 'GPU cloud, InfiniBand fabric, data centres FRA1'.")
    date: Optional[str] = Field(None, description="Date of the report or certificate as written, e.g. 2026-03-31.")


Isolation = Literal["infiniband-pkeys", "vlan", "vrf", "vxlan", "sr-iov", "ufm-secured-profile", "dedicated-switches"]


class Security(Strict):
    attestations: list[Certificate] = Field(default_factory=_no_items, description="Security attestations of the provider; [] = none.")
    tenant_isolation: Optional[list[Isolation]] = Field(
        None, description="How tenants are kept apart on a shared fabric: InfiniBand partition keys, VLANs or VRFs on RoCE/Ethernet; [] = none.")


Monitoring = Literal["dcgm-exporter", "xid-alerts", "prometheus", "grafana", "node-exporter", "ib-port-counters", "nvlink-errors"]
Container = Literal["docker", "podman", "apptainer", "singularity", "enroot", "pyxis"]
Tool = Literal["lmod", "hpc-sdk", "nsight-compute", "dcgm"]


class Software(Strict):
    orchestrator: Optional[Literal["slurm", "kubernetes", "slurm-on-kubernetes", "none", "proprietary"]] = Field(
        None, description="Scheduler; none = no scheduler, absent = not stated (SPEC006 asks)."
    )
    root_access: Optional[Flag] = None
    os: Optional[str] = None
    proprietary: list[str] = Field(default_factory=_no_items, description="Proprietary tools or services you must use to run on this cluster.")
    monitoring: Optional[list[Monitoring]] = Field(
        None, description="Monitoring the customer can see: dcgm-exporter metrics, Xid error alerts, dashboards; [] = none, absent = not stated.")
    containers: Optional[list[Container]] = Field(
        None, description="Container runtimes installed on the nodes (pyxis: Slurm's srun --container-image plugin, with enroot); "
                          "[] = none, absent = not stated.")
    tools: Optional[list[Tool]] = Field(
        None, description="User-space tools installed on the nodes: lmod modules, the NVIDIA HPC SDK, Nsight Compute (ncu), DCGM (dcgmi); "
                          "[] = none, absent = not stated.")


class Location(Strict):
    provider: Optional[str] = None
    region: Optional[str] = None


class ClusterSpec(Strict):
    node_pools: list[NodePool] = Field(min_length=1)
    network: Network = Field(default_factory=Network)
    storage: Optional[list[Storage]] = Field(None, description="Storage systems; [] = none, absent = not stated (SPEC006 asks).")
    software: Software = Field(default_factory=Software)
    location: Optional[Location] = None
    service_nodes: Optional[list[ServiceNodes]] = Field(
        None, description="CPU-only nodes (login, controller, storage, management) beside the accelerator pools; [] = none, absent = not stated.")
    security: Optional[Security] = Field(None, description="Security attestations and tenant isolation; absent = not stated.")


class ClusterMetadata(Strict):
    name: str = Field(min_length=1)
    vendor: Optional[str] = None
    offering: Literal["rent", "buy", "hpc-allocation"] = "rent"
    quote_ref: Optional[str] = None
    source: Optional[str] = Field(None, description="Where the figures come from (URL of the public offer).")
    contract: Optional[str] = Field(
        None, min_length=1,
        description="The quote's contract: a file path relative to this quote (YAML, Markdown, text or PDF). `check`, `estimate` "
                    "and `compare` review the quote with it unless a contract is configured or given on the command line.")


class Cluster(Envelope):
    """The hardware and software offered."""

    kind: Literal["Cluster"]
    metadata: ClusterMetadata
    spec: ClusterSpec

