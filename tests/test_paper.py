"""What paper a contract is, and where a missing term belongs.

Absence rules (CON002, CON003, REL002, REL003, LCK004) are findings in full on an order form and
one info each on public paper; a missing term points at the heading that covers it, else at the
title line, never at an HTML comment. Sentences are written for these tests, in vendors' shapes.
"""

from __future__ import annotations

import pytest

from clusterlint.model.base import Contract
from clusterlint.contracts.paper import paper

from conftest import check_json

ABSENCE = ("CON002", "CON003", "LCK004", "REL002", "REL003")
PUBLIC = {
    "CON002": "public terms never carry a delivery date: ask for it in the order form",
    "CON003": "public terms never carry a measurable performance commitment: ask for it in the order form",
    "LCK004": "public terms never carry exit terms (termination for convenience, data export): ask for it in the order form",
    "REL002": "public terms never carry a replacement time for a failed node: ask for it in the order form",
    "REL003": "public terms never carry an acceptance test: ask for it in the order form",
}
CLICK_THROUGH = (
    "# Terms of Service\n\n"
    "1. By accessing or using the Service, you agree to be bound by these Terms.\n\n"
    "2. We may update these Terms at any time; continued use of the Service means you accept the update.\n"
)


def _absences(tmp_path, text: str, name: str = "terms.md", config: str | None = None) -> dict:
    folder = tmp_path / "contracts"
    folder.mkdir(exist_ok=True)
    if config is not None:
        (folder / ".clusterlint.yaml").write_text(config, encoding="utf-8")
    path = folder / name
    path.write_text(text, encoding="utf-8")
    found = check_json(str(path))["findings"]
    return {f["rule"]: f for f in found if f["rule"] in ABSENCE}


def test_click_through_terms_ask_once_as_info(tmp_path):
    found = _absences(tmp_path, CLICK_THROUGH)
    assert {rule: f["message"] for rule, f in found.items()} == PUBLIC
    assert {f["severity"] for f in found.values()} == {"info"}
    assert found["CON002"]["evidence"] == ["document kind: terms (the title 'Terms of Service')"]
    assert (found["CON002"]["line"], found["CON002"]["column"]) == (1, 3)  # no section on delivery: the title line


def test_click_through_terms_are_read_from_the_body_when_the_title_says_nothing(tmp_path):
    text = CLICK_THROUGH.replace("# Terms of Service", "# Northwind Cloud")
    found = _absences(tmp_path, text)
    assert found["REL003"]["severity"] == "info"
    assert found["REL003"]["evidence"] == ["document kind: terms (the text says 'By accessing', 'We may update these Terms', 'continued use')"]


def test_a_policy_is_public_paper(tmp_path):
    text = "# Maintenance Policy\n\n1. Provider will give 24 hours' notice of planned maintenance.\n"
    found = _absences(tmp_path, text)
    assert found["REL002"]["message"] == PUBLIC["REL002"] and found["REL002"]["severity"] == "info"


def test_an_sla_carries_service_levels_in_full_and_asks_for_the_rest(tmp_path):
    text = "# Service Level Agreement\n\n## 2. Service Levels\n\n2.1 Provider will answer support tickets within one business day.\n"
    found = _absences(tmp_path, text)
    assert {rule: (f["severity"], f["message"]) for rule, f in found.items()} == {
        "CON002": ("info", "an SLA never carries a delivery date: ask for it in the order form"),
        "CON003": ("error", "the contract commits to no measurable performance (a figure with a unit and how it is measured, e.g. "
                            "nccl-tests all_reduce busbw >= 360GB/s) (looked under '2. Service Levels' and in every clause): a slow "
                            "cluster still meets it"),
        "LCK004": ("info", "an SLA never carries exit terms (termination for convenience, data export): ask for it in the order form"),
        "REL002": ("warning", "the contract states no replacement time for a failed node or accelerator (looked under '2. Service "
                              "Levels' and in every clause): a dead GPU can idle the whole job while the vendor takes its time"),
        "REL003": ("info", "an SLA never carries an acceptance test: ask for it in the order form"),
    }
    assert (found["CON003"]["line"], found["CON003"]["column"]) == (3, 4)


def test_an_order_form_gets_every_absence_in_full_at_its_section(tmp_path):
    text = ("<!-- draft 3, from the vendor's portal -->\n# Capacity Order Form\n\n## 4. Delivery\n\n"
            "4.1 Provider shall make the reserved capacity available in the Region.\n\n"
            "## 9. Term and Termination\n\n9.1 This Order Form runs for 12 months.\n")
    found = _absences(tmp_path, text)
    assert {rule: f["severity"] for rule, f in found.items()} == {
        "CON002": "error", "CON003": "error", "LCK004": "warning", "REL002": "warning", "REL003": "warning"}
    assert found["CON002"]["message"] == ("the contract names no delivery date (looked under '4. Delivery' and in every clause): "
                                          "without one the vendor can deliver late, or never, at no cost")
    assert [(found[r]["line"], found[r]["column"]) for r in ("CON002", "REL003", "LCK004")] == [(4, 4), (4, 4), (8, 4)]
    # no section on performance or support: the title line (line 2), never the HTML comment on line 1
    assert [(found[r]["line"], found[r]["column"]) for r in ("CON003", "REL002")] == [(2, 3), (2, 3)]
    assert found["CON003"]["message"].startswith("the contract commits to no measurable performance (a figure with a unit and how "
                                                 "it is measured, e.g. nccl-tests all_reduce busbw >= 360GB/s) (no section covers "
                                                 "performance; looked in every clause): ")
    assert found["CON002"]["evidence"] == ["document kind: order-form (the title 'Capacity Order Form')"]


def test_a_clause_that_opens_on_the_subject_is_where_the_term_belongs(tmp_path):
    text = "1. Fees. Customer shall pay each invoice within 30 days.\n\n2. Termination. This Agreement renews every year.\n"
    found = _absences(tmp_path, text, name="msa.txt")
    assert (found["LCK004"]["line"], found["LCK004"]["column"]) == (3, 1)
    assert found["LCK004"]["message"] == ("the contract has no termination for convenience and no data export terms (looked in "
                                          "clause 2 and in every clause): leaving this provider means paying out the term or "
                                          "losing the data")


def test_paper_without_signs_is_read_as_an_order_form_so_nothing_is_excused_on_a_guess(tmp_path):
    found = _absences(tmp_path, "1.1 Provider shall host the nodes.\n", name="c.txt")
    assert {f["severity"] for f in found.values()} == {"error", "warning"}
    assert found["CON002"]["evidence"] == ["document kind: order-form (no sign of public terms, an SLA or a policy: read as negotiated paper)"]


def test_the_user_declares_the_kind(tmp_path):
    yaml = ("apiVersion: clusterlint/v1\nkind: Contract\nmetadata: {name: cloud-terms}\n"
            "spec:\n  kind: terms\n  clauses:\n  - {ref: '1', text: Provider will host the nodes.}\n")
    found = _absences(tmp_path, yaml, name="terms.yaml")
    assert {rule: f["message"] for rule, f in found.items()} == PUBLIC
    assert found["CON002"]["evidence"] == ["document kind: terms (declared by the contract: spec.kind, or contract-kind in its front matter)"]
    # in a Markdown file's front matter, and it wins over what the title says
    front = "---\ncontract-kind: order-form\n---\n" + CLICK_THROUGH
    assert _absences(tmp_path, front)["CON002"]["severity"] == "error"
    # in the configuration, for every contract that does not say
    found = _absences(tmp_path, "1.1 Provider shall host the nodes.\n", name="c.txt", config="contract-kind: policy\n")
    assert found["REL003"]["message"] == PUBLIC["REL003"]
    assert found["REL003"]["evidence"] == ["document kind: policy (declared by contract-kind in the configuration)"]


def test_a_bad_declared_kind_is_a_clear_error(tmp_path):
    path = tmp_path / "t.md"
    path.write_text("---\ncontract-kind: brochure\n---\n1. Provider shall host the nodes.\n", encoding="utf-8")
    found = [f for f in check_json(str(path))["findings"] if f["rule"] == "SPEC002"]
    assert [(f["line"], f["column"]) for f in found] == [(2, 16)]
    assert "brochure" in found[0]["message"]


@pytest.mark.parametrize("title, kind", [
    ("Master Services Agreement", "order-form"), ("Statement of Work 4", "order-form"),
    ("GPU Cloud Service Level Agreement", "sla"), ("Acceptable Use Policy", "policy"),
    ("Customer Agreement", "terms"), ("Terms and Conditions", "terms"),
    ("Service Level Agreement and Order Terms", "order-form"),  # negotiated paper that holds an SLA
])
def test_the_title_says_what_the_paper_is(title, kind):
    contract = Contract(apiVersion="clusterlint/v1", kind="Contract", metadata={"name": "c", "title": title},
                        spec={"clauses": [{"ref": "1", "text": "By using the Service you agree."}]})
    assert paper(contract).kind == kind


def test_configured_parties_decide_who_promises(tmp_path):
    text = "1.1 Acme Labs will use commercially reasonable efforts to keep its credentials secret.\n"
    path = tmp_path / "plain" / "c.txt"
    path.parent.mkdir()
    path.write_text(text, encoding="utf-8")
    assert [f["rule"] for f in check_json(str(path))["findings"] if f["rule"] == "CON001"] == ["CON001"]  # nobody known: read as the vendor's
    folder = tmp_path / "named"
    folder.mkdir()
    (folder / ".clusterlint.yaml").write_text("parties: {customer: [Acme Labs]}\n", encoding="utf-8")
    (folder / "c.txt").write_text(text, encoding="utf-8")
    assert [f for f in check_json(str(folder / "c.txt"))["findings"] if f["rule"] == "CON001"] == []


def test_in_a_pdf_a_missing_term_points_at_the_heading_on_its_page(tmp_path):
    from test_prose import _pdf

    path = tmp_path / "order.pdf"
    path.write_bytes(_pdf([["ORDER FORM", "", "1. Scope", "1.1 Provider shall host the nodes."],
                           ["4. Delivery", "4.1 Provider shall ship the nodes."]]))
    found = {f["rule"]: (f.get("page"), f["line"], f["column"]) for f in check_json(str(path))["findings"]}
    assert found["CON002"] == (2, 1, 1)  # "4. Delivery", the first line of page 2
    assert found["REL002"] == (1, 1, 1)  # no section on support: the title, "ORDER FORM"


def test_the_title_may_follow_a_date_line(tmp_path):
    text = ("Last updated: March 3, 2026\n\nTERMS OF SERVICE\n\nThese Terms govern your use of the Service\nand the nodes.\n\n"
            "1. Provider will host the nodes.\n2. Customer pays each invoice.\n")
    found = _absences(tmp_path, text, name="tos.txt")
    assert found["CON002"]["evidence"] == ["document kind: terms (the title 'TERMS OF SERVICE')"]
    assert (found["CON002"]["line"], found["CON002"]["column"]) == (3, 1)
