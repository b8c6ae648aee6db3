"""The paper people actually get: web pages saved as text, tables, notes and numbered PDF lines,
each read into the clauses a reader sees (case table: the text, then each clause's ref and words)."""

from __future__ import annotations

import pytest

from clusterlint.readers.prose import load

from conftest import check_json

LONG = ("We will use commercially reasonable efforts to make the Online Services available with a Monthly Uptime "
        "Percentage of at least 99.9% during any monthly billing cycle (the \"Service Commitment\").")
CREDITS = ("If we do not meet the Service Commitment, you will be eligible to receive a Service Credit as described "
           "below. Service Credits are your sole and exclusive remedy for any unavailability of the Service.")
WEB_PAGE = f"""Service Level Agreement
Last updated: March 1, 2024
Uptime Commitment
{LONG}
Downtime does not include any unavailability resulting from:
Scheduled maintenance announced at least 48 hours in advance
Factors outside our reasonable control, including Internet access problems beyond the demarcation point
Service Credits
{CREDITS}
"""
MARKDOWN_TABLE = """## 3. Service Credits

3.2 When Monthly Uptime in a month is below a level in the table, Customer receives the credit shown:

| Monthly Uptime | Service Credit |
|---|:---:|
| below 99.9% | 10% |
| below 99.0% | 25% |
Service credits are Customer's sole and exclusive remedy for unavailability.
"""
TAB_TABLE = ("Support\n\nSeverity\tDefinition\tResponse time\n"
             "Severity 1\tProduction cluster down\tWe will use reasonable efforts to respond within 1 hour\n"
             "Severity 2\tDegraded performance\t4 business hours\n")
NOTES = ("2.1 The Service will be available with a Monthly Uptime Percentage of at least 99.95%.*\n"
         "*Excludes scheduled maintenance windows notified 72 hours in advance.\n"
         "2.2 Provider will respond to Severity 1 tickets within 1 hour.\n"
         "Note: Service Credits are calculated on the monthly fees of the affected nodes.\n"
         "[1] Uptime is measured by Provider's monitoring.\n")
PDF_LINES = "\n".join(f"{n}   {words}" for n, words in enumerate((
    "(a) Delivery. The Contractor shall deliver the",
    "supplies to the delivery point no later than",
    "15 January 2027.",
    "(b) Inspection. The Government reserves the right",
    "to inspect the supplies at the delivery point.",
    "(c) The Contractor shall make reasonable efforts to",
    "replace defective nodes within 72 hours.",
), 1)) + "\n"


CASES = [
    ("web page saved as text", WEB_PAGE, "page.txt", [
        ("Service Level Agreement ¶1", "Last updated: March 1, 2024"),
        ("Uptime Commitment ¶1", LONG),
        ("Uptime Commitment ¶2", "Downtime does not include any unavailability resulting from: Scheduled maintenance announced at least "
         "48 hours in advance Factors outside our reasonable control, including Internet access problems beyond the demarcation point"),
        ("Service Credits ¶1", CREDITS),
    ]),
    ("markdown table: the header row is no heading, the rows stay rows", MARKDOWN_TABLE, "sla.md", [
        ("3.2", "3.2 When Monthly Uptime in a month is below a level in the table, Customer receives the credit shown:"),
        ("3.2 ¶1", "| Monthly Uptime | Service Credit |\n| below 99.9% | 10% |\n| below 99.0% | 25% |"),
        ("3.2 ¶2", "Service credits are Customer's sole and exclusive remedy for unavailability."),
    ]),
    ("a table saved from a web page: cells between tabs", TAB_TABLE, "support.txt", [
        ("Support ¶1", TAB_TABLE.split("\n\n", 1)[1].rstrip("\n")),
    ]),
    ("notes and footnotes: a clause each", NOTES, "sla.txt", [
        ("2.1", "2.1 The Service will be available with a Monthly Uptime Percentage of at least 99.95%.*"),
        ("2.1 ¶1", "*Excludes scheduled maintenance windows notified 72 hours in advance."),
        ("2.2", "2.2 Provider will respond to Severity 1 tickets within 1 hour."),
        ("2.2 ¶1", "Note: Service Credits are calculated on the monthly fees of the affected nodes."),
        ("2.2 ¶2", "[1] Uptime is measured by Provider's monitoring."),
    ]),
    ("line numbers in a PDF's margin", PDF_LINES, "far.txt", [
        ("(a)", "(a) Delivery. The Contractor shall deliver the supplies to the delivery point no later than 15 January 2027."),
        ("(b)", "(b) Inspection. The Government reserves the right to inspect the supplies at the delivery point."),
        ("(c)", "(c) The Contractor shall make reasonable efforts to replace defective nodes within 72 hours."),
    ]),
]


@pytest.mark.parametrize(("text", "name", "want"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_layout_cases(text, name, want):
    loaded = load(text.encode("utf-8"), name)
    assert loaded.problems == []
    assert [(c["ref"], c["text"]) for c in loaded.documents[0].data["spec"]["clauses"]] == want


def test_a_table_cell_is_read_alone_and_findings_point_into_it(tmp_path):
    path = tmp_path / "support.txt"
    path.write_text(TAB_TABLE, encoding="utf-8")
    findings = [f for f in check_json(str(path))["findings"] if f["rule"] == "CON001"]
    assert [(f["line"], f["column"]) for f in findings] == [(4, 48)]
    assert "reasonable efforts" in findings[0]["message"] or "reasonable efforts" in str(findings[0].get("evidence"))


def test_margin_numbers_keep_columns(tmp_path):
    path = tmp_path / "far.txt"
    path.write_text(PDF_LINES, encoding="utf-8")
    findings = [f for f in check_json(str(path))["findings"] if f["rule"] == "CON001"]
    line = PDF_LINES.splitlines()[5]
    assert [(f["line"], line[f["column"] - 1 :].startswith("reasonable efforts")) for f in findings] == [(6, True)]
