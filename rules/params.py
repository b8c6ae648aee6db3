"""The parameters of the built-in checks, one pydantic model each: the single source of their
validation messages and documentation.

A check names its model by reference (`@check("clusterlint.rules.params:Headroom")`), so that
reading a rule's module never imports pydantic: `tools/generate_models.py` writes a plain class for
each model here into `clusterlint._generated.fast_params`, which takes the params every check runs
with unless a value is in doubt (`clusterlint.model.fast`), and only then is this module, with
pydantic, imported to decide and word the error. Plugins pass their own model class to `check`.

No `from __future__ import annotations`: pydantic would evaluate every annotation from its text.
"""

from typing import Annotated, Optional

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from clusterlint.model.base import Rate, Size
from clusterlint.rules.clauses import checked_phrases


class Params(BaseModel):
    """Base of every check's parameters: unknown keys are errors, defaults are validated too."""

    model_config = ConfigDict(extra="forbid", validate_default=True, frozen=True, defer_build=True, allow_inf_nan=False)


# ------------------------------------------------------------ accelerators
class TrainingMemory(Params):
    bytes_per_parameter: float = Field(gt=0, description="Bytes of training state per parameter: mixed-precision AdamW keeps 8 optimizer + 4 gradient + 4+2 weight bytes.")
    overhead: float = Field(ge=1, description="Multiplier for activations and buffers on top of the training state.")


class InferenceMemory(Params):
    overhead: float = Field(ge=1, description="Multiplier for the KV cache and buffers on top of the weights.")


class SparseClaim(Params):
    ratio: float = Field(gt=1, description="A quoted figure at or above this multiple of the catalog's dense figure is the sparse one (2:4 sparsity doubles it).")


class Mfu(Params):
    max_mfu: float = Field(gt=0, le=1, description="Highest model FLOPS utilisation a plan may assume.")


# ------------------------------------------------------------ contract
class Commitment(Params):
    min_share: float = Field(gt=0, le=1, description="Share of the advertised figure a committed figure may fall to without a finding.")


# ------------------------------------------------------------ cost
class Estimate(Params):
    default_mfu: float = Field(gt=0, le=1, description="Model FLOPS utilisation used when the workload states none (all sizing reads it).")


# ------------------------------------------------------------ cpu
class Cores(Params):
    default_workers_error: int = Field(ge=0, description="Dataloader workers per accelerator assumed without a workload, below which it is an error.")
    default_workers_warning: int = Field(ge=0, description="Workers per accelerator assumed without a workload, below which it is a warning.")


# ------------------------------------------------------------ delivery
class Ratio(Params):
    min_ratio: float = Field(gt=0, le=1, description="Share of the quoted figure a measurement must reach (reporting tools show a little less than the installed size).")


class Collective(Params):
    min_share: float = Field(gt=0, le=1, description="Share of the adapters' line rate (nics_per_node x nic_speed) a multi-node all-reduce busbw must reach without a contract figure.")


class Pool(Params):
    memory_tolerance: float = Field(ge=0, lt=1, description="Share by which a node's host memory may fall below the pool's largest before it differs.")


# ------------------------------------------------------------ durability
class Durable(Params):
    durable: list[str] = Field(min_length=1, description="storage protection.durability values that survive a failed server or drive.")


class DatasetSizes(Params):
    min_dataset: Size = Field(description="Dataset size from which a quote with no object store is noted (info).")
    warn_dataset: Size = Field(description="Dataset size from which a quote with no object store is a warning.")


# ------------------------------------------------------------ lockin
class PluginFabrics(Params):
    fabrics: dict[str, str] = Field(
        description="Inter-node fabrics that need a vendor-specific collective plugin, and the plugin.",
    )


class Egress(Params):
    max_cost: float = Field(ge=0, description="Cost of taking the workload's data out at the end above which a warning is given, in the price's currency.")
    error_cost: float = Field(ge=0, description="Cost above which it is an error.")


# ------------------------------------------------------------ network
class InterNodeBandwidth(Params):
    warn_below: Rate = Field(description="Advertised inter-node bandwidth per accelerator of the reference design (one 400 Gbps NIC per H100): the need for the reference accelerator, scaled by dense TFLOPS, and its cap.")
    error_below: Rate = Field(description="Advertised bandwidth per reference accelerator below which it is an error; the error line is the need x error_below / warn_below.")
    reference_tflops: float = Field(gt=0, description="Dense bf16 TFLOPS of the accelerator the thresholds are written for (H100-SXM).")
    overlap_share: float = Field(gt=0, le=1, description="Share of a step's compute the gradient all-reduce may take: the backward pass, 4 of the 6 FLOPs per parameter per token.")


class CommsCompute(Params):
    efficiency: float = Field(gt=0, le=1, description="Share of the advertised inter-node bandwidth that collectives reach.")
    gradient_bytes: float = Field(gt=0, description="Bytes per gradient element reduced (bf16).")
    overlap: float = Field(ge=0, lt=1, description="Share of the gradient all-reduce hidden under the backward pass; the rest adds to each step (CST001's time).")
    shared_fabric_share: float = Field(gt=0, le=1, description="Share of the bandwidth a job gets on a fabric shared with other tenants (dedicated: false).")


# ------------------------------------------------------------ node_health
class Memory(Params):
    max_corrected: int = Field(ge=0, description="Corrected DRAM ECC errors (volatile, since the last driver load) above which a GPU's memory is failing.")


class Link(Params):
    max_replays: int = Field(ge=0, description="PCIe replays since reset above which a GPU's link is faulty (a handful is normal).")


class Power(Params):
    max_idle_temperature: float = Field(gt=0, le=150, description="GPU temperature (C) above which an idle GPU's cooling is faulty.")


# ------------------------------------------------------------ reliability
class Spares(Params):
    min_share: float = Field(ge=0, le=1, description="Spare nodes as a share of the pool's nodes that a purchase should include.")
    min_nodes: int = Field(ge=1, description="Pools with fewer nodes are not asked for a spare (one spare would be a large share of the purchase); an info finding says so.")


class ReplacementTime(Params):
    max_hours: float = Field(gt=0, description="Longest node replacement, in hours, a multi-node job without a spare can wait before a warning.")
    error_hours: float = Field(gt=0, description="Replacement time, in hours, above which it is an error.")


# ------------------------------------------------------------ service
class AvailabilityFloor(Params):
    warn_below: float = Field(gt=0, le=1, description="Availability below which a warning says how many hours a month it lets the cluster be down.")
    error_below: float = Field(gt=0, le=1, description="Availability below which it is an error.")


class SupportResponse(Params):
    max_sev1: str = Field(description="Longest first response to a severity-1 (cluster down) ticket before a warning, e.g. 1h.")
    error_sev1: str = Field(description="Longest first response before an error, e.g. 24h (the next business day).")


class MaintenanceNotice(Params):
    min_notice: str = Field(description="Shortest notice before planned maintenance before a warning, e.g. 7d.")
    error_notice: str = Field(description="Notice below which it is an error, e.g. 24h.")


# ------------------------------------------------------------ software
class Monitoring(Params):
    required: list[str] = Field(min_length=1, description="Monitoring the customer must see (software.monitoring values).")


# ------------------------------------------------------------ storage
class NonParallel(Params):
    types: list[str] = Field(description="Storage types that are not parallel filesystems.")


class Headroom(Params):
    min_ratio: float = Field(ge=1, description="Capacity needed as a multiple of the data it must hold.")


class CheckpointStall(Params):
    warn_above: float = Field(gt=0, lt=1, description="Share of training time spent writing checkpoints above which it is a warning.")
    error_above: float = Field(gt=0, lt=1, description="Share above which it is an error.")


# ------------------------------------------------------------ units_sanity
class PortSpeed(Params):
    max_port: Rate = Field(description="Fastest single NIC port shipping (ConnectX-8 class); a faster 'port' is a unit or aggregation mistake.")


class Aggregate(Params):
    tolerance: float = Field(ge=0, lt=1, description="How close to the node aggregate a per-accelerator figure must be to be flagged.")
    max_port: Rate = Field(description="Fastest single NIC port shipping; a faster per-NIC figure is a node aggregate.")


# ------------------------------------------------------------ contract words (clauses)
class LearnedParams(Params):
    """Params of a rule with a learned second reading (`clusterlint.contracts.clause_model`): the score a
    sentence no pattern matches must pass to be read as the rule's shape; null turns it off."""

    learned: Optional[float] = Field(None, description=(
        "Score a sentence no pattern matches must pass for the learned reading (a logistic regression; null: off). "
        "Default: the lowest of 0, 0.5, 1, 1.5, 2 (a score of 0 is even odds) at which leave-one-file-out precision on the tuning "
        "split is at least 0.93 "
        "(python tools/train_clause_model.py --lofo)."))


class LearnedPhrases(LearnedParams):
    """Params of a phrase rule (regular expressions, a space standing for any whitespace; see
    `clusterlint.rules.clauses.phrase_pattern`) with a learned second reading."""

    phrases: Annotated[list[str], AfterValidator(checked_phrases)] = Field(
        description="Regular expressions of the rule's words, matched in any case; a space stands for any whitespace.")
