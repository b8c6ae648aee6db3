"""CON002 reads a delivery date by its words, and leaves an effort-qualified date to CON001.

Case table: an order form's delivery clause (line 3 of the file) -> CON002's findings (severity, line,
column, message) and whether CON001 flags the clause."""

from __future__ import annotations

import pytest

from cases import findings
from conftest import check_json

MISSING = ("error", 1, 1, "the contract names no delivery date (looked under '1. Delivery' and in every clause): "
           "without one the vendor can deliver late, or never, at no cost")

CASES = [
    # a firm date, by its words
    ("Provider shall make the nodes available on or before 15 January 2027.", [], False),
    ("Provider shall deliver the Cluster no later than March 1, 2027.", [], False),
    ("Provider shall deliver the Cluster not later than 2027-03-01.", [], False),
    ("Provider shall deliver the Cluster within thirty (30) days of the Effective Date.", [], False),
    ("Provider shall deliver the Cluster within sixty days after the Effective Date.", [], False),
    ("Provider shall provision the Reserved Capacity no later than 14 days after the Order Date.", [], False),
    ("The Delivery Date is 1 March 2027.", [], False),
    ("Target go-live date: 2027-03-01.", [], False),
    # a date promised with effort words or as a target: a date (CON002 quiet), the softness is CON001's
    ("Provider will deliver the Cluster by the target date of 1 March 2027.", [], True),
    ("Provider will use commercially reasonable efforts to deliver the Cluster on or before 15 January 2027.", [], True),
    ("Provider will use reasonable efforts to make the Cluster available by the target date of 1 March 2027.", [], True),
    # the present progressive of an effort verb is an aim, like "is striving to" (round nine), contracted or not
    ("We're trying to deliver the Cluster by 15 March 2027.", [], True),
    ("Provider is hoping to deliver the Cluster by 15 March 2027.", [], True),
    # no date: CON002 at the heading that covers delivery
    ("Provider shall deliver the Cluster as soon as practicable.", [MISSING], False),
    ("Provider shall deliver the Cluster promptly after the Effective Date.", [MISSING], False),
    ("Customer shall pay each invoice within 30 days of the invoice date.", [MISSING], False),
]


@pytest.mark.parametrize(("clause", "con002", "con001"), CASES, ids=[c[0][:60] for c in CASES])
def test_delivery_dates_by_their_words(tmp_path, clause, con002, con001):
    path = tmp_path / "order-form.txt"
    path.write_text(f"1. Delivery\n\n1.1 {clause}\n", encoding="utf-8")
    report = check_json(str(path))
    assert [f[:4] for f in findings(report, "CON002")] == con002
    assert bool(findings(report, "CON001")) is con001
