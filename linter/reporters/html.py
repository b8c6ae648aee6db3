"""`--format html` and `clusterlint compare --format html`: one self-contained HTML file.

Inline CSS and SVG only: no scripts, no fonts or images fetched from anywhere. Every string that
comes from a spec (names, messages, file names) is escaped.
"""

from __future__ import annotations

from clusterlint.reporters.escape import html as escape

from clusterlint.engine.scoring import SCORED_AREAS
from clusterlint.reporters import listed, more_line
from clusterlint.reporters.text import location

CSS = """
body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;margin:2rem auto;max-width:1200px;color:#1f2328;padding:0 1rem}
h1{font-size:1.6rem}h2{font-size:1.25rem;margin-top:2rem;border-bottom:1px solid #d0d7de}h3{font-size:1.05rem}
table{border-collapse:collapse;margin:.5rem 0;width:100%}th,td{border:1px solid #d0d7de;padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:#f6f8fa}td.num{text-align:right;white-space:nowrap}.best{background:#dafbe1;font-weight:600}
.error{color:#cf222e;font-weight:600}.warning{color:#9a6700;font-weight:600}.info{color:#0969da}
.grade{font-weight:700}.muted{color:#656d76}code{font-size:.9em}svg text{font:12px system-ui,sans-serif}
"""
BAR_WIDTH = 360  # pixels for the largest value in a chart


def _page(title: str, body: list[str]) -> str:
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        f"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{escape(title)}</title>\n"
        f"<style>{CSS}</style>\n</head>\n<body>\n" + "\n".join(body) + "\n</body>\n</html>\n"
    )


def _scorecard(file: str, card: dict, not_run=()) -> list[str]:
    """The score, grade and each scored area's subscore; an area in `not_run` (no rule judged it) shows
    "not run", never 100."""
    if card["score"] is None:
        return [f"<p class=\"error\"><code>{escape(file)}</code>: not reviewed ({escape(card['not_reviewed'])})</p>"]
    areas = "".join("<td class=\"muted\">not run</td>" if a in not_run or card["areas"][a] is None else f"<td class=\"num\">{card['areas'][a]:g}</td>"
                    for a in SCORED_AREAS)
    return [
        "<table class=\"scorecard\"><tr><th>file</th><th>score</th><th>grade</th>" + "".join(f"<th>{a}</th>" for a in SCORED_AREAS) + "</tr>",
        f"<tr><td><code>{escape(file)}</code></td><td class=\"num\">{card['score']:g}</td><td class=\"grade\">{card['grade']}</td>{areas}</tr></table>",
    ]


def _findings(findings, more: dict | None = None) -> list[str]:
    """A table of findings, and a line per rule for those past the per-rule cap (`more`: (file, rule) -> count)."""
    if not findings:
        return ["<p>No findings.</p>"]
    out = ["<table class=\"findings\"><tr><th>severity</th><th>rule</th><th>where</th><th>message</th></tr>"]
    for f in findings:
        related = "".join(f" (with {escape(r.message)} at <code>{escape(location(r))}</code>)" for r in f.related)
        out.append(
            f"<tr><td class=\"{f.severity}\">{f.severity}</td><td>{escape(f.rule)} {escape(f.name)}</td>"
            f"<td><code>{escape(location(f))}</code></td><td>{escape(f.message)}{related}</td></tr>"
        )
    out.append("</table>")
    out += [f"<p class=\"muted\">{escape(more_line(file, rule, n))}</p>" for (file, rule), n in sorted((more or {}).items())]
    return out


def _skipped(skipped) -> list[str]:
    if not skipped:
        return []
    by_reason: dict[str, set] = {}
    for s in skipped:
        by_reason.setdefault(s.reason, set()).add(s.rule)
    items = "".join(f"<li>{escape(', '.join(sorted(ids)))}: {escape(reason)}</li>" for reason, ids in sorted(by_reason.items()))
    return [f"<details><summary>Skipped rules (not run, so not passed)</summary><ul>{items}</ul></details>"]


def _file_sections(report) -> list[str]:
    out = []
    cards = report.scorecards()
    shown, more = listed(report)
    for result in report.results:
        mine = {key: n for key, n in more.items() if key[0] == result.file}
        out += [f"<h2>{escape(result.file)}</h2>", *_scorecard(result.file, cards[result.file]), "<h3>Findings</h3>",
                *_findings([f for f in shown if f.file == result.file], mine), *_skipped(result.skipped)]
    return out


def render(report) -> str:
    """The review of one or more files."""
    findings = report.findings
    counts = {s: sum(1 for f in findings if f.severity == s) for s in ("error", "warning", "info")}
    body = ["<h1>clusterlint review</h1>",
            f"<p>{len(findings)} findings ({counts['error']} errors, {counts['warning']} warnings, {counts['info']} info) "
            f"in {len(report.results)} files.</p>", *_file_sections(report)]
    return _page("clusterlint review", body)


def bar_chart(title: str, items: list[tuple[str, float | None, str]]) -> str:
    """A horizontal bar chart in inline SVG: (label, value, value text); bar widths proportional to values."""
    known = [v for _, v, _ in items if v is not None]
    top = max(known) if known else 1
    row, label_width = 26, 220
    height = row * len(items) + 30
    parts = [f"<svg role=\"img\" aria-label=\"{escape(title)}\" width=\"{label_width + BAR_WIDTH + 160}\" height=\"{height}\" "
             f"xmlns=\"http://www.w3.org/2000/svg\"><title>{escape(title)}</title>",
             f"<text x=\"0\" y=\"16\" font-weight=\"600\">{escape(title)}</text>"]
    for i, (label, value, text) in enumerate(items):
        y = 28 + i * row
        parts.append(f"<text x=\"0\" y=\"{y + 14}\">{escape(label)}</text>")
        if value is None:
            parts.append(f"<text x=\"{label_width}\" y=\"{y + 14}\" fill=\"#656d76\">unknown</text>")
            continue
        width = round(BAR_WIDTH * value / top, 2) if top else 0
        parts.append(f"<rect class=\"bar\" x=\"{label_width}\" y=\"{y}\" width=\"{width}\" height=\"18\" fill=\"#0969da\" data-value=\"{value:.6g}\"/>")
        parts.append(f"<text x=\"{label_width + width + 6}\" y=\"{y + 14}\">{escape(text)}</text>")
    parts.append("</svg>")
    return "".join(parts)


def render_comparison(rows, report, rank_by: str) -> str:
    from clusterlint.estimate.quotes import RANKING
    from clusterlint.reporters.compare import COLUMNS, cells

    body = ["<h1>clusterlint comparison</h1>"]
    if rows:
        body.append(f"<p>Recommended: <strong>{escape(rows[0].name)}</strong> (<code>{escape(rows[0].file)}</code>). "
                    f"Ranking ({escape(rank_by)}): {escape(RANKING[rank_by])}.</p>")
    body.append("<table class=\"comparison\"><tr>" + "".join(f"<th>{escape(h)}</th>" for _, h, _ in COLUMNS) + "</tr>")
    for row in rows:
        values = cells(row)
        body.append("<tr>" + "".join(
            f"<td class=\"{'best' if b and b in row.best else ''}\">{escape(values[k])}</td>" for k, _, b in COLUMNS) + "</tr>")
    body.append("</table><p class=\"muted\">Highlighted: best in its column. Time is the effective time: training time x "
                "(1 + exposed network share + checkpoint stall share + dataloader stall share) / availability; cost is what is owed.</p>")
    body.append(bar_chart("Effective time to train (days)", [
        (r.name, None if r.estimate.value("effective_time") is None else r.estimate.value("effective_time") / 86400,
         cells(r)["time"]) for r in rows]))
    body.append(bar_chart("Estimated cost", [(r.name, r.estimate.value("cost"), cells(r)["cost"]) for r in rows]))
    for row in rows:
        body.append(f"<h2>{escape(row.name)}</h2>")
        body.append("<table class=\"estimate\"><tr><th>figure</th><th>value</th><th>how</th><th>from</th></tr>" + "".join(
            f"<tr><td>{escape(line.label)}</td><td>{escape(line.text)}</td><td>{escape(line.how)}</td><td>{escape('; '.join(line.sources))}</td></tr>"
            for line in row.estimate.lines.values()) + "</table>")
        body += [f"<p class=\"muted\">{escape(n)}</p>" for n in row.estimate.notes]
        result = next(r for r in report.results if r.file == row.file)
        body += [*_scorecard(row.file, row.card, row.not_run), *_findings(sorted(result.findings)), *_skipped(result.skipped)]
    return _page("clusterlint comparison", body)
