"""The configuration file's model: the source of `schemas/config.schema.json`.

Keys are written with hyphens, as in `.clusterlint.yaml` and `[tool.clusterlint]`. Rule ids and
selectors are checked against the rules that exist (with a "did you mean") by `config.py`, which
knows the user's and plugins' rules too; the schema carries their shape for editors.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Optional

from pydantic import BeforeValidator, Field, WithJsonSchema

from clusterlint.model.contract import PaperKind, Parties
from clusterlint.model.base import SCHEMA_BASE, Strict, _not_bool

SELECTOR_PATTERN = r"^(ALL|[A-Z]{2,8}|[A-Z]{2,8}[0-9]{3})$"
Selector = Annotated[str, WithJsonSchema({"type": "string", "pattern": SELECTOR_PATTERN,
                                          "description": "A rule id (NET003), an area prefix (NET) or ALL."})]
RuleId = Annotated[str, WithJsonSchema({"type": "string", "pattern": r"^[A-Z]{2,8}[0-9]{3}$", "description": "A rule id, e.g. STO002."})]
Severity = Literal["error", "warning", "info"]
FailOn = Literal["error", "warning", "info", "never"]
Score = Annotated[float, Field(ge=0, le=100), BeforeValidator(_not_bool)]
PathText = Annotated[str, Field(min_length=1)]


class Config(Strict):
    """clusterlint configuration: which rules run, how severe they are, what is applied to every review."""

    select: Optional[list[Selector]] = Field(None, description="Rules to run, by id, area prefix or ALL (default: ALL).")
    extend_select: list[Selector] = Field([], alias="extend-select", description="Rules to run on top of `select`.")
    ignore: list[Selector] = Field([], description="Rules not to run; a more specific selector wins over a broader one.")
    severity: dict[Selector, Severity] = Field({}, description="Severity per rule id or area prefix, e.g. NET003: error.")
    params: dict[RuleId, dict[str, Any]] = Field({}, description="Parameters per rule, over the rule's defaults, e.g. STO002: {min_ratio: 1.3}.")
    per_file_ignores: dict[PathText, list[Selector]] = Field(
        {}, alias="per-file-ignores", description="Rules not to run on files matching a glob (relative to this file; ** crosses folders).")
    workload: Optional[PathText] = Field(None, description="A Workload spec applied to every review (relative to this file).")
    contract: Optional[PathText] = Field(None, description="A contract applied to every review (relative to this file).")
    fail_on: Optional[FailOn] = Field(None, alias="fail-on", description="Lowest severity that makes the exit code 1 (default: error).")
    min_score: Optional[Score] = Field(None, alias="min-score", description="Exit 1 when a review scores below this (0-100).")
    rules: list[PathText] = Field([], description="User rule files or folders (relative to this file).")
    plugins: list[Annotated[str, Field(min_length=1)]] = Field(
        [], description="Installed rule plugins to load, by the name of their `clusterlint.rules` entry point; no other plugin is "
                        "imported.")
    baseline: Optional[PathText] = Field(None, description="A baseline file: only findings not in it are reported (relative to this file).")
    exclude: Optional[list[PathText]] = Field(
        None, description="Paths a directory check skips, as gitignore-style globs relative to this file; replaces the defaults "
                          "(.git, .hg, .svn, .venv, venv, .tox, .nox, .mypy_cache, .pytest_cache, .ruff_cache, __pycache__, node_modules, build, dist).")
    extend_exclude: list[PathText] = Field([], alias="extend-exclude", description="Paths a directory check skips, on top of `exclude`.")
    max_findings_per_rule: Optional[Annotated[int, Field(ge=0), BeforeValidator(_not_bool)]] = Field(
        None, alias="max-findings-per-rule",
        description="Findings of one rule listed per file (default 100; 0: all); the rest are counted in one line. Scores count them all.")
    parties: Optional[Parties] = Field(
        None, description="Names the vendor and the customer go by in every contract reviewed, on top of each contract's own "
                          "(e.g. vendor: [Northwind Compute]); the contract rules read who promises what by them.")
    contract_kind: Optional[PaperKind] = Field(
        None, alias="contract-kind",
        description="What paper every contract reviewed is, where the contract does not say (spec.kind): order-form, terms, sla or "
                    "policy. Absence rules apply in full to an order form and ask, as info, on public paper.")


def json_schema() -> dict:
    body = Config.model_json_schema(mode="validation", by_alias=True)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_BASE + "config.schema.json",
        **body,
        "title": "clusterlint configuration",
        "description": (Config.__doc__ or "").strip() + " Written as .clusterlint.yaml, or as [tool.clusterlint] in pyproject.toml.",
    }
