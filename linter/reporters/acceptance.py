"""`clusterlint accept --format markdown|html`: a report a buyer sends back to the vendor.

The verdict (accepted / not accepted, the blocking findings counted); each blocking finding with the
promised figure (the quote or contract line), the measured figure, the evidence (file:line) and the
command to re-run once it is fixed; what to collect again; every finding the buyer's configuration or baseline suppressed, and every inline
suppression in the documents that was ignored; the contract's acceptance test, health-check duty and
replacement time, each next to the evidence that meets or breaks it; and a table of what each node's
evidence shows."""

from __future__ import annotations

import re

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


def _against(report) -> list[list[str]]:
    """The contract's acceptance test, health-check duty and replacement time, each as written (where),
    next to the evidence that meets or breaks it."""
    review = next((r for result in report.results for r in result.reviews if r.contract is not None), None)
    if review is None:
        return []
    doc, spec, rows = review.docs.get("Contract"), review.contract.spec, []

    def at(*path) -> str:
        where = doc.positions.get(("spec", *path)) if doc is not None else None
        return f"{doc.file}:{where[0]}" if where else (doc.file if doc is not None else "contract")

    findings = report.findings
    if spec.delivery.acceptance_test:
        for part in (p.strip() for p in spec.delivery.acceptance_test.split(";") if p.strip()):
            rows.append([f"{at('delivery', 'acceptance_test')}: acceptance_test: {part}", _test(part, report.evidence, findings)])
    checks = spec.sla.health_checks
    for duty in ("active", "passive", "drain") if checks is not None else ():
        if getattr(checks, duty) is not None:
            rows.append([f"{at('sla', 'health_checks', duty)}: health_checks.{duty}: {getattr(checks, duty)}", _duty(report.evidence, findings)])
    if spec.sla.node_replacement is not None:
        failed = sorted({f.message for f in findings if f.rule in ("DLV001", "DLV006", "DLV011") and f.severity in ("error", "warning")})
        rows.append([f"{at('sla', 'node_replacement')}: node_replacement: {spec.sla.node_replacement}",
                     "applies now to: " + "; ".join(failed) if failed else "no node needs replacing on this evidence"])
    return rows


def _test(part: str, evidence, findings) -> str:
    """The evidence for one part of the acceptance test: nccl-tests runs, dcgmi diag results, or none read."""
    low = part.lower()
    if re.search(r"nccl|all_reduce|busbw", low):
        broken = [f"breaks: {f.message} ({'; '.join(f.evidence)})" for f in findings if f.rule == "DLV004"]
        runs = [f"{run.test} busbw {run.rows[-1].value[1]:g} GB/s at the largest size ({run.rows[-1].where})"
                for run in (evidence.collectives if evidence else []) if run.rows]
        return "; ".join(broken) or (f"meets: {'; '.join(runs)}" if runs else "not evidenced: no nccl-tests output among the evidence files")
    if "dcgmi" in low or "dcgm" in low:
        files = sorted(f for node in (evidence.nodes.values() if evidence else ()) for f, kind in node.files if kind.startswith("dcgmi-"))
        failed = [f"breaks: {f.message} ({'; '.join(f.evidence)})" for f in findings if f.rule == "DLV006" and "dcgm" in " ".join(f.evidence).lower()]
        level = re.search(r"-r\s*(\d)", low)
        note = f" (run at level {level.group(1)}? the output does not say its level: check the command)" if level else ""
        return "; ".join(failed) or (f"meets: dcgmi diag passed in {', '.join(files)}{note}" if files else "not evidenced: no dcgmi diag output")
    if "burn" in low:
        return "not evidenced: clusterlint reads no burn-in log; ask for it"
    return "not checked by clusterlint: compare by hand"


def _duty(evidence, findings) -> str:
    """What shows the vendor's health checks on the nodes: Slurm's HealthCheckProgram, or its absence (DLV016)."""
    missing = [f"breaks: {f.message}" for f in findings if f.rule == "DLV016"]
    programs = sorted({node.software[k].cite() for node in (evidence.nodes.values() if evidence else ()) for k in node.software
                       if k == "slurm HealthCheckProgram" and node.software[k].value not in ("", "(null)")})
    if missing or programs:
        return "; ".join(missing) or f"meets: {'; '.join(programs)}"
    return "not evidenced: no scontrol show config among the evidence files"


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


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _clean(text: str) -> str:
    """Control characters from evidence or documents shown as \\xNN, never passed to a terminal or page."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", str(text))


# what produces each kind of evidence (the step of `clusterlint collect`, or the benchmark to run by hand)
COMMANDS = {
    "nvidia-smi-xml": "nvidia-smi -q -x", "nvidia-smi-q": "nvidia-smi -q", "nvidia-smi-topo": "nvidia-smi topo -m",
    "nvidia-driver-version": "cat /proc/driver/nvidia/version", "rocm-smi-json": "rocm-smi --showproductname --showmeminfo vram --json",
    "lscpu-json": "lscpu -J", "lscpu": "lscpu", "meminfo": "cat /proc/meminfo", "free": "free -b", "ibstat": "ibstat", "ibstatus": "ibstatus",
    "ibv_devinfo": "ibv_devinfo -v", "lspci": "lspci -vvv", "findmnt-json": "findmnt -J -o TARGET,SOURCE,FSTYPE,SIZE", "df": "df -T -B1",
    "kernel-log": "dmesg (or journalctl -k --no-pager -b)", "dcgmi-json": "dcgmi diag -r 1 -j", "dcgmi-diag": "dcgmi diag -r 1 -j",
    "dcgmi-version": "dcgmi -v", "nvidia-container-toolkit": "nvidia-container-cli -V", "runc": "runc --version", "docker-version": "docker version",
    "nvcc": "nvcc --version", "scontrol-config": "scontrol show config", "kubectl-pods": "kubectl get pods --all-namespaces",
    "nccl-tests": "nccl-tests all_reduce_perf across the nodes (README, After delivery)", "fio-json": "fio --output-format=json (README, After delivery)",
}
# a finding without evidence (not evidenced, unreadable): the command for its rule
RULE_COMMANDS = {"DLV001": "nvidia-smi -q -x", "DLV002": "lscpu -J and cat /proc/meminfo", "DLV003": "ibstat", "DLV004": COMMANDS["nccl-tests"],
                 "DLV005": COMMANDS["fio-json"], "DLV006": "dcgmi diag -r 1 -j and dmesg", "DLV007": "findmnt -J -o TARGET,SOURCE,FSTYPE,SIZE",
                 "DLV014": "cat /proc/driver/nvidia/version and lspci -vvv", "DLV016": "scontrol show config",
                 "DLV017": "kubectl get pods --all-namespaces"}


def _rerun(finding, kinds: dict) -> str:
    """The command that produces the evidence a blocking finding cites (or lacks), run again once fixed."""
    files = [e.split(": ", 1)[0].rsplit(":", 2)[0] for e in finding.evidence]
    found = sorted({COMMANDS[kinds[f]] for f in files if kinds.get(f) in COMMANDS})
    if found:
        return "; ".join(found)
    return RULE_COMMANDS.get(finding.rule, "clusterlint collect on the node, then accept again")


def _data(report):
    verdict = report.verdict
    kinds = {file: kind for node in (report.evidence.nodes.values() if report.evidence else ()) for file, kind in node.files}
    rows = [[f"{f.rule} {f.name}", _promise(f), f"[{f.severity}] {f.message}", "; ".join(f.evidence) or "-", _rerun(f, kinds)]
            for f in verdict.blocking]
    again = sorted({e.split(": ", 1)[0].rsplit(":", 2)[0] for f in verdict.blocking if f.rule == "DLV009" for e in f.evidence}
                   | {f"{f.message.split(' is not evidenced', 1)[0]}: {f.message.split(': ', 1)[1]}" for f in verdict.blocking if "is not evidenced" in f.message})
    quieted = [f"{s.finding.rule} {location(s.finding)}: {s.finding.message} ({s.justification})" for s in verdict.suppressed]
    ignored = [f"{s.finding.rule} {location(s.finding)}: {s.finding.message} (the comment on line {s.line}: {s.justification})"
               for s in verdict.ignored_comments]
    return rows, again, quieted, ignored


def render(fmt: str, report) -> str:
    rows, again, quieted, ignored = _data(report)
    quote = report.results[0].file if report.results else "?"
    line = report.verdict.line()
    verdict = line[0].upper() + line[1:]
    header = ["rule", "promised (where)", "measured", "evidence", "re-run"]
    sections = [
        ("Blocking findings", header, rows, "None."),
        ("What to collect again", None, again, "Nothing: every quoted figure had readable evidence."),
        ("Suppressed by the buyer (configuration or baseline)", None, quieted, "None."),
        ("Inline suppressions in the documents (ignored)", None, ignored, "None."),
        ("Against the contract", ["the contract's promise (where: as written)", "the evidence that meets or breaks it"], _against(report),
         "The contract states no acceptance test, health-check duty or replacement time (or no --contract was given)."),
        ("Per node", NODE_HEADER, _nodes(report.evidence), "No node evidence."),
    ]
    return (_markdown if fmt == "markdown" else _html)(quote, verdict, _clause(report), sections)


def _markdown(quote, verdict, clause, sections) -> str:
    cell_ = lambda text: cell(_clean(text))  # noqa: E731
    out = [f"# Acceptance report: `{cell_(quote)}`", "", f"**{cell_(verdict)}**", "", f"Contract clause: {cell_(clause)}", ""]
    for title, header, items, empty in sections:
        out += [f"## {title}", ""]
        if not items:
            out += [empty, ""]
        elif header:
            out += ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
            out += ["| " + " | ".join(cell_(c) for c in row) + " |" for row in items] + [""]
        else:
            out += [f"- {cell_(item)}" for item in items] + [""]
    return "\n".join(out).rstrip("\n") + "\n"


def _html(quote, verdict, clause, sections) -> str:
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
    out.append("</body></html>")
    return "\n".join(out) + "\n"
