"""`--format markdown`: a review a person pastes into a purchase ticket or a PR comment.

Also the GitHub job summary (`--format github` writes it to $GITHUB_STEP_SUMMARY).
"""

from __future__ import annotations

from clusterlint.engine.scoring import SCORED_AREAS, area_of
from clusterlint.reporters import listed
from clusterlint.reporters.escape import markdown as cell
from clusterlint.reporters.escape import markdown_code as code
from clusterlint.reporters.text import location

ICONS = {"error": "🔴 error", "warning": "🟠 warning", "info": "🔵 info"}
AREA_NAMES = {
    "SPEC": "Spec validity", "ACC": "Accelerators", "NET": "Network", "STO": "Storage", "CPU": "CPU and memory",
    "REL": "Reliability", "SW": "Software", "LCK": "Lock-in", "CON": "Contract", "CST": "Cost and time", "UNI": "Units",
    "DLV": "Delivery (clusterlint accept)", "SEC": "Security",
}
ESTIMATES = ("CST001",)


def render(report) -> str:
    findings = report.findings
    counts = {s: sum(1 for f in findings if f.severity == s) for s in ("error", "warning", "info")}
    out = ["# clusterlint review", ""]
    out.append(f"{len(findings)} findings ({counts['error']} errors, {counts['warning']} warnings, {counts['info']} info) "
               f"in {len(report.results)} file{'s' if len(report.results) != 1 else ''}.")
    out += ["", "## Scorecard", "", "| file | score | grade | areas below 100 | areas not run | rules skipped |", "|---|---:|:---:|---|---|---:|"]
    cards = report.scorecards()
    for result in report.results:
        card, skipped = cards[result.file], len({s.rule for s in result.skipped})
        if card["score"] is None:
            out.append(f"| {code(result.file)} | - | not reviewed | {cell(card['not_reviewed'])} | - | {skipped} |")
            continue
        scored = card["areas"]
        areas = ", ".join(f"{a} {scored[a]:g}" for a in SCORED_AREAS if scored[a] is not None and scored[a] < 100) or "none"
        idle = ", ".join(a for a in SCORED_AREAS if scored[a] is None) or "none"
        out.append(f"| {code(result.file)} | {card['score']:g} | {card['grade']} | {areas} | {idle} | {skipped} |")
    findings, more = listed(report)
    estimates = [f for f in findings if f.rule in ESTIMATES]
    if estimates:
        out += ["", "## Estimates", ""]
        for f in estimates:
            out.append(f"- {code(f.file)}: {cell(f.message)}")
            out += [f"  - {cell(e)}" for e in f.evidence]
    out += ["", "## Findings", ""]
    if not findings:
        out.append("No findings.")
    for area in SCORED_AREAS:
        in_area = [f for f in findings if area_of(f.rule) == area]
        if not in_area:
            continue
        out += [f"### {AREA_NAMES[area]} ({area})", "", "| severity | rule | where | message |", "|---|---|---|---|"]
        for f in in_area:
            related = "".join(f" (with {cell(r.message)} at {code(location(r))})" for r in f.related)
            out.append(f"| {ICONS[f.severity]} | {cell(f.rule)} {cell(f.name)} | {code(location(f))} | {cell(f.message)}{related} |")
        out += [f"| | {cell(rule)} | {code(file)} | and {n:,} more {cell(rule)} in this file |"
                for (file, rule), n in sorted(more.items()) if area_of(rule) == area]
        out.append("")
    if report.show_skipped and report.skipped:
        out += ["## Skipped rules (not run, so not passed)", ""]
        for result in report.results:
            by_reason: dict[str, set] = {}
            for s in result.skipped:
                by_reason.setdefault(s.reason, set()).add(s.rule)
            out += [f"- {code(result.file)}: {', '.join(sorted(ids))}: {cell(reason)}" for reason, ids in sorted(by_reason.items())]
        out.append("")
    return "\n".join(out).rstrip("\n") + "\n"
