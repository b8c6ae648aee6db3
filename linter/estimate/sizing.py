"""The sizing model of record: where a workload runs, how fast, how long, at what cost, and whether
that meets its deadline and budget. CST001-003, NET007, STO003, STO005, `estimate` and `compare` all
read these figures, so one question has one answer.

Every figure is a `Sourced` value or carries its inputs with the source of each: the spec, the
catalog (with its source) or a documented default (a rule param from the YAML, possibly configured).

Decisions made here once:
- Allocation: the workload's `placement` (pool, accelerators or nodes); else tensor x pipeline x data
  when the parallelism degrees are all given; else the whole of the chosen pool. The pool is the one
  `placement.pool` names, else the first node pool; the evidence says which rule applied.
- Precision -> TFLOPS column: fp32 trains at the catalog's fp32 figure, because PyTorch runs fp32
  matmuls in full fp32 unless TF32 is enabled (`torch.backends.cuda.matmul.allow_tf32` defaults to
  False since 1.12, https://pytorch.org/docs/stable/notes/cuda.html); int8 and int4 name a serving
  precision and train in bf16 mixed precision; others use their own column. A part that publishes no
  figure at that column trains at the nearest published precision (V100: fp16), and the evidence says so.
- "Meets the deadline" is judged on the effective time: training time x (1 + exposed network share +
  checkpoint stall share + dataloader stall share) / committed availability, the time a buyer waits
  (`traffic` models the network, `storage` the stalls). Cost (`cost`) is priced on the same effective
  time and the contract's term.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import NamedTuple  # the records below: a tenth of a frozen dataclass's cost to define, and a check defines them all

from clusterlint.model import units
from clusterlint.engine.review import Skip

PRECISION_BYTES = {"fp32": 4, "bf16": 2, "fp16": 2, "fp8": 1, "int8": 1, "int4": 0.5}
TFLOPS_COLUMN = {"fp32": "fp32", "int8": "bf16", "int4": "bf16"}


def tflops_column(precision: str) -> str:
    """The catalog column a workload at `precision` trains at (see the module doc for why)."""
    return TFLOPS_COLUMN.get(precision, precision)


# the precision a part trains at when it publishes no figure for the one asked: the nearest published one
# (V100 has fp16 tensor cores and no bf16; an A100 asked for fp8 trains in bf16)
NEAREST_COLUMN = {"bf16": ("fp16",), "fp16": ("bf16",), "fp8": ("bf16", "fp16")}


def ceil(x: float) -> int:
    """Round up, forgiving float noise (3.0000000001 accelerators is 3)."""
    return math.ceil(x - 1e-9)


@lru_cache(maxsize=4096)  # the figures a message quotes repeat from file to file; 1, 1.0 and -0.0 read the same here
def fmt(value: float) -> str:
    """A number for a message: integers plainly, others to 4 significant figures (1 decimal from 1,000)."""
    if float(value).is_integer() and abs(value) < 1e15:
        return f"{int(value):,}"
    return f"{value:,.4g}" if abs(value) < 1000 else f"{value:,.1f}"


class Sourced(NamedTuple):
    """A number and where it came from ("spec", "workload", a catalog citation, "default (CST001 params)")."""

    value: float
    source: str


class Assumptions(NamedTuple):
    """Documented defaults the model uses, read from the rules in force (configured params included)."""

    default_mfu: float
    network: object  # traffic.NetworkParams (NET007's params)

    @classmethod
    def from_rules(cls, rules: dict) -> "Assumptions":
        """CST001's params from `rules` (the configured set), else from the built-in rule YAML."""
        rule = rules.get("CST001")
        if rule is None:
            from clusterlint.engine.registry import builtin_rules

            rule = builtin_rules()["CST001"]
        from clusterlint.estimate.traffic import NetworkParams

        return cls(default_mfu=rule.settings.default_mfu, network=NetworkParams.of(rules))


_ASSUMED: dict = {}  # id(rules) -> (rules, Assumptions): rule sets are few, and each review of one set asks again


def assumptions(review) -> Assumptions:
    """The assumptions under the rules in force on `review` (the built-in rules' when none are set)."""
    rules = review.rules or {}
    held = _ASSUMED.get(id(rules))
    if held is None or held[0] is not rules:
        if len(_ASSUMED) >= 16:
            _ASSUMED.clear()
        held = _ASSUMED[id(rules)] = (rules, Assumptions.from_rules(rules))
    return held[1]


class Allocation(NamedTuple):
    """The accelerators a workload runs on: which pool, how many, and how that was decided."""

    pool_index: int
    pool_name: str
    model: str
    per_node: int
    accelerators: int
    available: int  # accelerators in the pool
    basis: str  # how the count was decided
    pool_basis: str  # how the pool was chosen

    @property
    def how(self) -> str:
        return f"{self.basis}; pool: {self.pool_basis}"

    @property
    def path(self) -> tuple:
        return ("spec", "node_pools", self.pool_index, "count")

    @property
    def label(self) -> str:
        return f"{self.accelerators} x {self.model} on pool {self.pool_name!r}"

    @property
    def text(self) -> str:
        return f"{self.label} ({self.basis})"

    @property
    def source(self) -> str:
        """Which document decided the count: the workload (placement or parallelism) or the cluster spec."""
        return "workload" if self.basis.startswith(("placement", "tensor")) else "spec"


def allocate(review) -> Allocation:
    """The workload's allocation on the review's cluster (the whole first pool when no workload)."""
    pools = review.cluster.spec.node_pools
    spec = review.workload.spec if review.workload is not None else None
    placement = spec.placement if spec is not None else None
    index, why_pool = 0, ("the only node pool" if len(pools) == 1 else "the first node pool (the workload names no placement.pool)")
    if placement is not None and placement.pool is not None:
        names = [p.name for p in pools]
        if placement.pool not in names:
            raise Skip(f"placement.pool {placement.pool!r} is not a node pool of this cluster ({', '.join(names)})")
        index, why_pool = names.index(placement.pool), "placement.pool"
    pool = pools[index]
    per_node = pool.accelerator.count
    available = pool.count * per_node
    if placement is not None and placement.accelerators is not None:
        n, how = placement.accelerators, "placement.accelerators"
    elif placement is not None and placement.nodes is not None:
        n, how = placement.nodes * per_node, f"placement.nodes {placement.nodes} x {per_node} accelerators per node"
    elif spec is not None and spec.parallelism.data is not None:
        par = spec.parallelism
        n = par.tensor * par.pipeline * par.data
        how = f"tensor {par.tensor} x pipeline {par.pipeline} x data {par.data}"
    else:
        n, how = available, f"the whole pool, {pool.count} nodes x {per_node}: no placement or data parallelism stated"
    return Allocation(index, pool.name, pool.accelerator.model, per_node, n, available, how, why_pool)


class Peak(NamedTuple):
    """Dense TFLOPS an accelerator trains at: the column used, the figure, and the assumption when it
    is not the column asked for."""

    column: str
    value: Sourced
    assumption: str | None


def training_peak(facts, column: str) -> Peak:
    """`facts`' dense TFLOPS at `column`, else at the nearest published precision (said so);
    Skip when neither is published."""
    for use in (column, *NEAREST_COLUMN.get(column, ())):
        value = facts.tflops.get(use)
        if value:
            note = None if use == column else f"{facts.id} publishes no dense {column} TFLOPS: its {use} figure is assumed, the nearest published precision"
            return Peak(use, Sourced(value, facts.cite("compute", use)), note)
    raise Skip(f"neither the catalog nor the spec gives dense {column} TFLOPS for {facts.id}")


def mfu(review) -> Sourced:
    """The workload's assumed MFU, else the documented default (CST001's `default_mfu`)."""
    spec = review.workload.spec
    if spec.assumed_mfu is not None:
        return Sourced(spec.assumed_mfu, "workload assumed_mfu")
    return Sourced(assumptions(review).default_mfu, "default (CST001 params default_mfu)")


class Throughput(NamedTuple):
    """Sustained training FLOP/s of an allocation: accelerators x dense peak x MFU."""

    allocation: Allocation
    peak: Peak  # dense TFLOPS per accelerator
    mfu: Sourced

    @property
    def column(self) -> str:
        return self.peak.column

    @property
    def flops(self) -> float:
        return self.allocation.accelerators * self.peak.value.value * 1e12 * self.mfu.value

    def seconds(self, parameters: float, tokens: float) -> float:
        """Seconds to train `parameters` on `tokens`: 6 FLOPs per parameter per token."""
        return 6 * parameters * tokens / self.flops

    def formula(self, parameters: float, tokens: float) -> str:
        return (f"6 x {units.human(parameters, 'count')} params x {units.human(tokens, 'count')} tokens / "
                f"({self.allocation.accelerators} x {fmt(self.peak.value.value)} TFLOPS x {self.mfu.value:g} MFU)")

    @property
    def evidence(self) -> tuple:
        return (f"accelerators {self.allocation.accelerators} x {self.allocation.model}: {self.allocation.how}",
                f"dense {self.column} {fmt(self.peak.value.value)} TFLOPS: {self.peak.value.source}",
                *((self.peak.assumption,) if self.peak.assumption else ()),
                f"MFU {self.mfu.value:g}: {self.mfu.source}")


def throughput(review) -> Throughput:
    """The allocation's throughput; Skip when neither the catalog nor the spec gives dense TFLOPS for its
    precision or a neighbouring one."""
    alloc = allocate(review)
    facts = review.facts(review.cluster.spec.node_pools[alloc.pool_index])
    return Throughput(alloc, training_peak(facts, tflops_column(review.workload.spec.precision)), mfu(review))


class Training(NamedTuple):
    """Time to train the workload's tokens on its allocation."""

    throughput: Throughput
    parameters: float
    tokens: float

    @property
    def seconds(self) -> float:
        return self.throughput.seconds(self.parameters, self.tokens)

    @property
    def formula(self) -> str:
        return self.throughput.formula(self.parameters, self.tokens)


def training(review) -> Training | None:
    """None for an inference workload; Skip when the workload states no tokens."""
    spec = review.workload.spec
    if spec.task == "inference":
        return None
    if spec.tokens is None:
        raise Skip("the workload states no tokens to train on")
    return Training(throughput(review), spec.model.parameters.value, spec.tokens.value)


class Verdict(NamedTuple):
    """A yes/no judgement of `value` against the workload's `limit`."""

    ok: bool
    value: float
    limit: float
    text: str


class Estimate(NamedTuple):
    """Everything a buyer asks of one quote for one workload."""

    training: Training
    stall: object | None  # storage.CheckpointStall
    comms: object | None  # traffic.Comms: the exposed inter-node traffic per step
    loader: object | None  # storage.DataloaderRead: the dataset read against what training consumes
    availability: object | None  # figures.Figure of a fraction
    cost: object | None  # cost.Cost
    deadline: Verdict | None
    budget: Verdict | None
    notes: tuple

    @property
    def accelerators(self) -> int:
        return self.training.throughput.allocation.accelerators

    @property
    def stall_share(self) -> float:
        return self.stall.share if self.stall is not None else 0.0

    @property
    def comms_share(self) -> float:
        return self.comms.share if self.comms is not None else 0.0

    @property
    def loader_share(self) -> float:
        return self.loader.share if self.loader is not None else 0.0

    @property
    def effective_seconds(self) -> float:
        """Training time x (1 + network + checkpoint + dataloader shares) / availability (1 when none is stated)."""
        avail = self.availability.value if self.availability is not None else 1.0
        return self.training.seconds * (1 + self.comms_share + self.stall_share + self.loader_share) / avail

    @property
    def adjusted(self) -> bool:
        """Whether the network, stalls or availability make the effective time differ from the training time."""
        return self.stall is not None or self.availability is not None or self.comms is not None or self.loader_share > 0

    @property
    def effective_formula(self) -> str:
        """Only the terms counted: a term that is unknown is named in the notes, never shown as 0%; a dataloader
        that keeps up adds nothing and is said so in the evidence."""
        avail = self.availability.value if self.availability is not None else 1.0
        terms = ([f"{self.comms_share:.2%} network"] if self.comms is not None else []) + (
            [f"{self.stall_share:.2%} checkpoints"] if self.stall is not None else []) + (
            [f"{self.loader_share:.2%} dataloader"] if self.loader_share > 0 else [])
        time = units.human(self.training.seconds, "duration")
        return f"{time} x ({' + '.join(['1', *terms])}) / {avail:.2%} availability" if terms else f"{time} / {avail:.2%} availability"

    @property
    def hours(self) -> float:
        return self.effective_seconds / 3600

    @property
    def evidence(self) -> tuple:
        out = self.training.throughput.evidence
        if self.comms is not None:
            out += (f"network {self.comms_share:.2%} of compute = {self.comms.formula}",) + self.comms.evidence
        if self.stall is not None:
            out += (f"checkpoint stall {self.stall_share:.2%}: {units.human(self.stall.size.value, 'size')} ({self.stall.size.source}) / "
                    f"{units.human(self.stall.bandwidth * 8, 'byte_rate')} (spec) every {units.human(self.stall.interval, 'duration')}",)
        if self.loader is not None:
            out += (f"dataloader stall {self.loader_share:.2%} = max(0, {self.loader.formula}) (STO005's figures)",)
        if self.availability is not None:
            out += (f"availability {self.availability.value:.2%}: {self.availability.evidence}",)
        if self.cost is not None:
            out += self.cost.evidence
        return out


def _counted(notes: list, what: str, figure, *args):
    """`figure(*args)`, or None with a note saying `what` is not counted and why."""
    try:
        return figure(*args)
    except Skip as exc:
        notes.append(f"{what} not counted: {exc}")
        return None


def estimate(review) -> Estimate | None:
    """The estimate of one review (None for inference; Skip when the training time is unknown)."""
    from clusterlint.estimate import cost as costing, storage, traffic

    run = training(review)
    if run is None:
        return None
    notes = []
    stall = _counted(notes, "checkpoint overhead", storage.checkpoint_stall, review)
    comms = _counted(notes, "network time", traffic.comms, review, run.throughput, assumptions(review).network)
    loader = _counted(notes, "dataloader stalls", storage.dataloader_read, review, run.throughput)
    availability = None
    if review.contract is not None:
        from clusterlint.contracts import figures

        found = figures.availability(review.contract)
        if isinstance(found, figures.Unplaced):
            notes.append(found.text)
        else:
            availability = found
    if availability is None:
        notes.append("availability not counted: no contract states one (assumed 100%)")
    est = Estimate(run, stall, comms, loader, availability, None, None, None, ())
    bill, why = costing.cost(review, est)
    notes.extend(why)
    spec = review.workload.spec
    deadline = budget = None
    if spec.deadline is not None:
        limit = spec.deadline.value
        ok = est.effective_seconds <= limit
        deadline = Verdict(ok, est.effective_seconds, limit, f"{'yes' if ok else 'no'} ({units.human(limit, 'duration')})")
    if spec.budget is not None and bill is not None:
        if bill.currency == spec.budget.currency:
            ok = bill.owed <= spec.budget.value
            budget = Verdict(ok, bill.owed, spec.budget.value, f"{'yes' if ok else 'no'} ({fmt(spec.budget.value)} {spec.budget.currency})")
        else:
            notes.append(f"budget not compared: price in {bill.currency}, budget in {spec.budget.currency}; clusterlint does not convert currencies")
    return Estimate(run, stall, comms, loader, availability, bill, deadline, budget, tuple(notes))
