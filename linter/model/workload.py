"""The Workload kind: what the buyer plans to run (see `models` for what the kinds share)."""

from typing import Annotated, Literal, Optional

from pydantic import BeforeValidator, Field

from clusterlint.model import derived
from clusterlint.model.base import Count, Duration, Envelope, Metadata, Money, NonNegative, Positive, Size, Strict, _not_bool


class ModelSize(Strict):
    parameters: Count = Field(description="Parameters, e.g. 70B.")


class Parallelism(Strict):
    tensor: Positive = 1
    pipeline: Positive = 1
    data: Optional[Positive] = None
    zero_stage: Literal[0, 1, 2, 3] = 0


class Placement(Strict, derived.Placement):
    """Where the workload runs: a node pool and how much of it (accelerators or nodes, not both)."""

    pool: Optional[str] = Field(None, description="Name of the node pool the workload runs on; the first pool when absent.", min_length=1)
    accelerators: Optional[Positive] = Field(None, description="Accelerators the workload uses.")
    nodes: Optional[Positive] = Field(None, description="Whole nodes the workload uses.")


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

