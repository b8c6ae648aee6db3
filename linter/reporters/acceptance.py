"""`clusterlint accept --format markdown|html`: a report a buyer sends back to the vendor.

Each shortfall with the promised figure (the quote or contract line), the measured figure, the
evidence (file:line) and the contract's acceptance clause; what was not evidenced; and a table of
what each node's evidence shows."""

from __future__ import annotations

from clusterlint.model import units
from clusterlint.reporters.escape import html as escape_html
from clusterlint.reporters.markdown import cell
from clusterlint.reporters.text import location


def _promise(finding) -> str:
    """Where the promise is written, and the line as written: the contract line for a finding the
    contract given with --contract causes (its related place), else the quote line it points at."""
    import linecache

    where = finding.related[0] if finding.related else finding
    return f"{location(where)}: {linecache.getline(where.file, where.line).strip()}"


def _clause(report) -> str:
    for result in report.results:
        for review in result.reviews:
            if review.contract is not None and review.contract.spec.delivery.acceptance_test:
                return f"acceptance_test: {review.contract.spec.delivery.acceptance_test}"
    return "(no contract acceptance clause given: pass --contract)"


def _nodes(evidence) -> list[list[str]]:
    rows = []
    for host, node in sorted((evidence.nodes if evidence else {}).items()):
        gpus = list(node.gpus.values())
        models = sorted({g["model"].value for g in gpus if "model" in g})
        memory = sorted({units.human(g["memory"].value, "size") for g in gpus if "memory" in g})
        active = [n for n in node.nics if str(n.value["state"]).lower() == "active"]
        rows.append([
            host, str(len(node.files)), str(node.gpu_count.value) if node.gpu_count else "-", ", ".join(models) or "-", ", ".join(memory) or "-",
            node.driver.value if node.driver else "-", str(node.cores.value) if node.cores else "-",
            units.human(node.memory.value, "size") if node.memory else "-", f"{len(active)} of {len(node.nics)}" if node.nics else "-",
            str(len(node.failures)) if node.files else "-",
        ])
    return rows


NODE_HEADER = ["node", "files read", "accelerators", "model", "accelerator memory", "driver", "cores", "host memory", "fabric ports active", "health failures"]


def _data(report):
    dlv = [f for f in report.findings if f.rule.startswith("DLV")]
    shortfalls = [f for f in dlv if f.severity != "info" and f.rule != "DLV009"]
    rows = [[f"{f.rule} {f.name}", _promise(f), f.message, "; ".join(f.evidence)] for f in shortfalls]
    missing = [f"{location(f)}: {f.message}" for f in dlv if f.severity == "info"]
    unread = [f"{'; '.join(f.evidence)}: {f.message}" for f in dlv if f.rule == "DLV009"]
    others = len(report.findings) - len(dlv)
    return shortfalls, rows, missing, unread, others


def render(fmt: str, report) -> str:
    shortfalls, rows, missing, unread, others = _data(report)
    quote = report.results[0].file if report.results else "?"
    verdict = (f"Not accepted: {len(shortfalls)} shortfall{'s' if len(shortfalls) != 1 else ''} against the quote and contract."
               if shortfalls else "No shortfall found in the evidence given.")
    clause = _clause(report)
    header = ["rule", "promised (where)", "measured", "evidence"]
    sections = [
        ("Shortfalls", header, rows, "None."),
        ("Not evidenced (no evidence given; not a shortfall)", None, missing, "Every quoted figure checked had evidence."),
        ("Evidence not read", None, unread, "Every evidence file was read."),
        ("Per node", NODE_HEADER, _nodes(report.evidence), "No node evidence."),
    ]
    note = f"{others} other finding{'s' if others != 1 else ''} on the documents themselves: see clusterlint check {quote}." if others else ""
    return (_markdown if fmt == "markdown" else _html)(quote, verdict, clause, sections, note)


def _markdown(quote, verdict, clause, sections, note) -> str:
    out = [f"# Acceptance report: `{cell(quote)}`", "", f"**{cell(verdict)}**", "", f"Contract clause: {cell(clause)}", ""]
    for title, header, items, empty in sections:
        out += [f"## {title}", ""]
        if not items:
            out += [empty, ""]
        elif header:
            out += ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
            out += ["| " + " | ".join(cell(c) for c in row) + " |" for row in items] + [""]
        else:
            out += [f"- {cell(item)}" for item in items] + [""]
    if note:
        out += [cell(note), ""]
    return "\n".join(out).rstrip("\n") + "\n"


def _html(quote, verdict, clause, sections, note) -> str:
    e = escape_html
    out = ["<!DOCTYPE html>", "<html lang=\"en\"><head><meta charset=\"utf-8\">", f"<title>Acceptance report: {e(quote)}</title>",
           "<style>body{font-family:sans-serif;max-width:72rem;margin:2rem auto}table{border-collapse:collapse}"
           "td,th{border:1px solid #ccc;padding:.3rem .5rem;vertical-align:top;text-align:left}</style></head><body>",
           f"<h1>Acceptance report: <code>{e(quote)}</code></h1>", f"<p><strong>{e(verdict)}</strong></p>", f"<p>Contract clause: {e(clause)}</p>"]
    for title, header, items, empty in sections:
        out.append(f"<h2>{e(title)}</h2>")
        if not items:
            out.append(f"<p>{e(empty)}</p>")
        elif header:
            out.append("<table><tr>" + "".join(f"<th>{e(h)}</th>" for h in header) + "</tr>")
            out += ["<tr>" + "".join(f"<td>{e(c)}</td>" for c in row) + "</tr>" for row in items]
            out.append("</table>")
        else:
            out.append("<ul>" + "".join(f"<li>{e(i)}</li>" for i in items) + "</ul>")
    if note:
        out.append(f"<p>{e(note)}</p>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"
