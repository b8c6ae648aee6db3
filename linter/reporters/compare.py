"""`clusterlint compare` and `clusterlint estimate` as text, Markdown and JSON."""

from __future__ import annotations

import json

from clusterlint.model import units
from clusterlint.estimate.quotes import RANKING, recommendation

COLUMNS = (  # key, header, best-marker key
    ("rank", "#", None), ("name", "quote", None), ("score", "score", "score"), ("issues", "errors/warnings", "errors"),
    ("accelerators", "accelerators", None), ("per_accelerator", "inter-node/accel", "per_accelerator"),
    ("headroom", "storage headroom", "headroom"), ("time", "time to train", "time"), ("cost", "cost", "cost"),
    ("verdict", "deadline/budget", None), ("lockin", "lock-in", None), ("contract", "contract flags", None),
    ("not_run", "not run", None),
)


def cells(row) -> dict:
    est = row.estimate
    verdict = "/".join({True: "yes", False: "no", None: "?"}[est.value(k)] for k in ("deadline", "budget"))
    return {
        "rank": str(row.rank),
        "name": row.name,
        "score": "not reviewed" if row.card["score"] is None else f"{row.card['score']:g} {row.card['grade']}",
        "issues": f"{row.counts['error']}/{row.counts['warning']}",
        "accelerators": est.lines["accelerators"].text,
        "per_accelerator": "-" if row.per_accelerator is None else units.human(row.per_accelerator, "rate"),
        "headroom": "-" if row.headroom is None else f"{row.headroom:.2f}x",
        "time": est.lines["effective_time"].text if "effective_time" in est.lines else "?",
        "cost": est.lines["cost"].text if "cost" in est.lines else "?",
        "verdict": verdict,
        "lockin": ", ".join(row.lockin) or "-",
        "contract": ", ".join(row.contract_flags) or "-",
        "not_run": ", ".join(row.not_run) or "-",
    }


def _marked(row) -> list[str]:
    values = cells(row)
    return [values[key] + (" *" if best and best in row.best else "") for key, _, best in COLUMNS]


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]
    line = lambda r: "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip()  # noqa: E731
    return [line(header), line(["-" * w for w in widths])] + [line(r) for r in rows]


def _figure_lines(row) -> list:
    return [*row.estimate.lines.values(), *row.figures.values()]


def _notes(rows) -> list[str]:
    out = []
    for row in rows:
        for note in row.estimate.notes:
            out.append(f"  {row.name}: {note}")
    return out


def text(rows, rank_by: str) -> str:
    out = _table([h for _, h, _ in COLUMNS], [_marked(r) for r in rows])
    out += ["", "* best in its column. Time is the effective time: training time x (1 + exposed network share + checkpoint stall share + dataloader stall share) / availability; cost is what is owed.",
            "Score and errors count each quote's findings and its contract's; 'not run': areas no rule could judge (no grade, not 100).",
            f"Ranking ({rank_by}): {RANKING[rank_by]}."]
    if rows:
        out.append(recommendation(rows, rank_by))
    notes = _notes(rows)
    if notes:
        out += ["", "Unknown figures:"] + notes
    for row in rows:
        out += ["", f"{row.name} ({row.file}" + (f", contract {row.contract}" if row.contract else "") + "):"]
        out += [f"  {line.label}: {line.text}" + (f" = {line.how}" if line.how else "") for line in _figure_lines(row)]
    return "\n".join(out) + "\n"


def markdown(rows, rank_by: str) -> str:
    from clusterlint.reporters.escape import markdown as cell

    out = ["# clusterlint comparison", "", "| " + " | ".join(h for _, h, _ in COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    for row in rows:
        values = cells(row)
        out.append("| " + " | ".join(cell(values[k]) + (" **best**" if b and b in row.best else "") for k, _, b in COLUMNS) + " |")
    out += ["", f"Ranking ({rank_by}): {RANKING[rank_by]}."]
    if rows:
        out.append(cell(recommendation(rows, rank_by)).replace(cell(rows[0].name), f"**{cell(rows[0].name)}**", 1))
    notes = _notes(rows)
    if notes:
        out += ["", "Unknown figures:", ""] + [f"- {cell(n.strip())}" for n in notes]
    return "\n".join(out) + "\n"


def as_json(rows, rank_by: str) -> str:
    document = {
        "rank_by": rank_by,
        "ranking": RANKING[rank_by],
        "quotes": [{
            "rank": r.rank, "file": r.file, "name": r.name, "contract": r.contract, "score": r.card, "findings": r.counts,
            "errors": r.errors, "not_run": r.not_run,
            "inter_node_per_accelerator_bps": r.per_accelerator, "storage_headroom": r.headroom,
            "lockin": r.lockin, "contract_flags": r.contract_flags, "best": sorted(r.best),
            "estimate": {k: line.as_json() for k, line in r.estimate.lines.items()},
            "figures": {k: line.as_json() for k, line in r.figures.items()}, "notes": r.estimate.notes,
        } for r in rows],
        "recommendation": recommendation(rows, rank_by),
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def sizing_text(rows, formulas) -> str:
    header = ["accelerator", "memory", "to train", "to serve"]
    body = [[r["accelerator"], units.human(r["memory"], "size"), str(r["train"]), str(r["serve"])] for r in rows]
    return "\n".join(_table(header, body) + ["", *formulas]) + "\n"


def estimate_text(est) -> str:
    out = [f"{est.name} ({est.file}):"]
    for line in est.lines.values():
        out.append(f"  {line.label}: {line.text}" + (f" = {line.how}" if line.how else ""))
        out += [f"    from {s}" for s in line.sources]
    out += [f"  note: {n}" for n in est.notes]
    return "\n".join(out) + "\n"
