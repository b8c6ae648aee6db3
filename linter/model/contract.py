"""The Contract kind: the terms of the offer (see `models` for what the kinds share)."""

import datetime
import re
from typing import Annotated, Literal, Optional, Union

from pydantic import BeforeValidator, Field, WithJsonSchema
from pydantic_core import PydanticCustomError

from clusterlint.model.base import Duration, Envelope, Flag, Metadata, Money, Percent, Size, Strict, _no_entries, _no_items


def _iso_date(value):
    """A YAML date arrives as its ISO string (see loader); numbers and other strings are not dates."""
    if not isinstance(value, str) or not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", value):
        raise PydanticCustomError("date_type", f"expected a date written YYYY-MM-DD, found {value!r}")
    return value


Date = Annotated[
    datetime.date, BeforeValidator(_iso_date),
    WithJsonSchema({"type": "string", "format": "date", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$", "description": "A date, YYYY-MM-DD."}),
]

class ContractMetadata(Metadata):
    title: Optional[str] = Field(None, description="The document's title as written (a prose contract: its first heading or line); "
                                                   "missing-term findings point here when no section covers the term.")


class Pricing(Strict):
    accelerator_hour: Optional[Money] = Field(None, description="Price of one accelerator for one hour.")
    node_hour: Optional[Money] = Field(None, description="Price of one node for one hour (divided by the pool's accelerators per node).")
    accelerator_month: Optional[Money] = Field(None, description="Price of one accelerator for one month (730.5 hours).")
    month: Optional[Money] = Field(None, description="Price of the whole reservation for one month (divided by the reserved accelerators and 730.5 hours).")
    commitment: Optional[Literal["reserved", "on-demand"]] = Field(
        None, description="reserved: the term's capacity is owed in full whether used or not (the default when a term is stated); "
                          "on-demand: only what is used is owed.")
    reserved: Optional[Annotated[int, Field(gt=0)]] = Field(
        None, description="Accelerators the term reserves; the quote's pool when absent.")
    includes: list[Literal["storage", "network", "support", "egress", "software"]] = Field(
        default_factory=_no_items, description="Cost lines covered by the hourly price."
    )
    extras: dict[str, Money] = Field(default_factory=_no_entries, description=(
        "Priced extras, e.g. egress: 0.05 USD/GB (per GB of the workload's data), storage: 0.10 USD/GB (per GB-month over the "
        "term, of the workload's data), support: 2000 USD/month."))


class Delivery(Strict):
    date: Optional[Date] = None
    acceptance_test: Optional[str] = None
    late_remedy: Optional[str] = None


class Support(Strict):
    hours: Optional[Literal["24x7", "business-hours"]] = Field(None, description="When support answers.")
    response: dict[Literal["sev1", "sev2", "sev3", "sev4"], Duration] = Field(
        default_factory=_no_entries, description="Time to first response by severity, e.g. {sev1: 15min, sev2: 4h}.")


class Maintenance(Strict):
    notice: Optional[Duration] = Field(None, description="Notice the vendor gives before planned maintenance, e.g. 7d.")
    window: Optional[str] = Field(None, description="When planned maintenance happens, as written, e.g. 'Sundays 02:00-06:00 UTC'.")


class HealthChecks(Strict):
    active: Optional[Flag] = Field(None, description="The vendor runs active checks (DCGM diagnostics, NCCL tests) on idle nodes.")
    passive: Optional[Flag] = Field(None, description="The vendor watches running nodes (Xid errors, ECC, link flaps).")
    drain: Optional[Flag] = Field(None, description="The vendor drains (cordons) a node that fails a check and replaces it.")


class Sla(Strict):
    availability: Optional[Percent] = None
    measured_as: Optional[str] = None
    credits: Optional[str] = None
    node_replacement: Optional[Duration] = None
    support: Optional[Union[str, Support]] = Field(
        None, description="Support terms: as written, or hours and response times by severity (REL006 reads sev1).")
    maintenance: Optional[Maintenance] = Field(None, description="Planned maintenance: notice and window; absent = not stated.")
    health_checks: Optional[HealthChecks] = Field(None, description="The vendor's duty to check node health and drain failed nodes; absent = not stated.")


class PerformanceCommitment(Strict):
    metric: str = Field(min_length=1, description="What is committed, e.g. inter_node_bandwidth (per node), storage_read_bandwidth.")
    value: str = Field(min_length=1, description="The committed figure with its unit, e.g. 3200Gbps.")
    method: Optional[str] = Field(None, description="How it is measured, e.g. nccl-tests.")


class Exit(Strict):
    termination_for_convenience: Optional[Flag] = None
    data_export: Optional[str] = None
    export_price: Optional[Money] = Field(None, description="Price of taking data out (egress) at the end, e.g. 0.05 USD/GB; else pricing.extras egress.")
    export_allowance: Optional[Size] = Field(None, description="Data that leaves free of charge at the end, e.g. 50TB.")


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


class ContractSecurity(Strict):
    attestations: list[str] = Field(default_factory=_no_items, description="Attestations the vendor warrants, as written, e.g. 'SOC 2 Type II (2026-03-31)', 'ISO/IEC 27001'.")


class ContractSpec(Strict):
    kind: Optional[PaperKind] = Field(
        None, description="What paper this is: order-form (a negotiated order form, MSA or reservation), terms (click-through "
                          "terms of service), sla (a service level agreement) or policy (maintenance, support, acceptable use); "
                          "read from the text when absent. Absence rules (CON002, CON003, REL002, REL003, LCK004) apply in full "
                          "to an order form; on public paper they ask, as info.")
    parties: Parties = Field(default_factory=Parties, description="Who the vendor and the customer are, as the contract names them (see CON001).")
    term: Optional[Duration] = Field(None, description="How long the contract runs, e.g. 3 months; a reservation's capacity is owed for all of it.")
    pricing: Pricing = Field(default_factory=Pricing)
    delivery: Delivery = Field(default_factory=Delivery)
    sla: Sla = Field(default_factory=Sla)
    performance: list[PerformanceCommitment] = Field(default_factory=_no_items)
    exit: Exit = Field(default_factory=Exit)
    clauses: list[Clause] = Field(default_factory=_no_items)
    security: Optional[ContractSecurity] = Field(None, description="Security attestations the contract warrants; absent = not stated.")


class Contract(Envelope):
    """The terms of the offer."""

    kind: Literal["Contract"]
    metadata: ContractMetadata
    spec: ContractSpec

