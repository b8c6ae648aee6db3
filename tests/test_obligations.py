"""Who promises what: the contract rules read the obligor and the modal, not just the words.

Each false-positive shape of real vendor paper stays silent; each true shape fires with a message
that names the party and the modal read. Sentences are written for these tests, in vendors' shapes.
"""

from __future__ import annotations

import os

import pytest

from clusterlint.model.base import Contract
from clusterlint.contracts.obligations import parties, read, read_at
from clusterlint.readers.prose import load
from clusterlint.rules.clauses import kind_of

from conftest import check_json


def _contract(*texts: str, **spec) -> Contract:
    clauses = [{"ref": str(i), "text": t} for i, t in enumerate(texts, 1)]
    return Contract(apiVersion="clusterlint/v1", kind="Contract", metadata={"name": "t"}, spec={"clauses": clauses, **spec})


def _findings(tmp_path, text: str, name: str = "terms.txt", rule: str | None = None):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    found = check_json(str(path))["findings"]
    return [f for f in found if rule is None or f["rule"] == rule]


@pytest.mark.parametrize("text", [
    "You may not attempt to manipulate the price of any instance.",
    "Customer shall not, and shall not attempt to, derive the source code of the firmware.",
    "You agree not to attempt to gain unauthorized access to the Service.",
    "Any other attempt to assign this Agreement is void.",
    "Provider may make commercially reasonable updates to the Service.",
    "A change is permitted only where it (i) is commercially reasonable; and (ii) is notified in advance.",
    "Customer will use commercially reasonable efforts to prevent unauthorized use of the Service.",
    "Each party shall use reasonable efforts to mitigate its losses.",
])
def test_con001_is_silent_on_what_is_not_a_vendor_effort_promise(tmp_path, text):
    assert _findings(tmp_path, f"1.1 {text}\n", rule="CON001") == []


@pytest.mark.parametrize("text, message", [
    ("Provider will use commercially reasonable efforts to deliver the Cluster.",
     'clause 1.1 is a vendor obligation ("Provider" + "will") that promises only \'commercially reasonable efforts\': it has no date, '
     "no number with a unit and no remedy for the customer; an effort promise cannot be enforced"),
    ("We strive to keep the Platform up 99.9% of the time.",
     'clause 1.1 is a vendor aspiration ("We" + "strive") that promises only \'strive\': it has a number with a unit but no date and '
     "no remedy for the customer; an effort promise cannot be enforced"),
    # a remedy that favours the vendor is no remedy for the buyer
    ("Provider will use reasonable efforts to restore service within 8 hours; if it does not, Provider may terminate the affected instances.",
     'clause 1.1 is a vendor obligation ("Provider" + "will") that promises only \'reasonable efforts\': it has a number with a unit '
     "but no date and no remedy for the customer; an effort promise cannot be enforced"),
])
def test_con001_names_party_and_modal(tmp_path, text, message):
    found = _findings(tmp_path, f"1.1 {text}\n", rule="CON001")
    assert [f["message"] for f in found] == [message]
    assert found[0]["evidence"][-2].startswith("obligor: vendor (read from ")


def test_a_customer_remedy_makes_an_effort_promise_firm(tmp_path):
    text = ("1.1 Provider shall deliver 256 GPUs by 2027-02-01, and for each day of delay Customer shall receive a credit of 2% "
            "of the monthly fees; Provider will also use reasonable efforts to deliver sooner.\n")
    assert _findings(tmp_path, text, rule="CON001") == []


def test_con005_reads_capacity_not_warranty_boilerplate(tmp_path):
    text = ('1.1 THE SERVICE IS PROVIDED "AS IS" AND "AS AVAILABLE", WITHOUT WARRANTY OF ANY KIND.\n\n'
            "1.2 Further details of the maintenance schedule will be published when available.\n\n"
            "1.3 Provider will supply the 512 accelerators in the Order Form, subject to capacity availability.\n")
    assert [f["message"] for f in _findings(tmp_path, text, rule="CON005")] == [
        'clause 1.3 is a vendor obligation ("Provider" + "will") that makes capacity \'subject to capacity availability\': the vendor '
        "may never provide it; reserve the accelerators by count and date"
    ]


def test_con005_extra_capacity_is_exempt_only_beside_a_reservation(tmp_path):
    extra = "1.1 Additional nodes will be provided subject to availability.\n"
    assert len(_findings(tmp_path, extra, rule="CON005")) == 1  # no reservation anywhere: nothing is firm
    reserved = extra + "\n1.2 Provider reserves 64 nodes for Customer from 2027-01-15.\n"
    assert _findings(tmp_path, reserved, rule="CON005") == []


def test_acceptance_of_the_terms_is_no_acceptance_test(tmp_path):
    text = "1.1 Continued use of the Service constitutes acceptance of the revised Terms.\n"
    assert len(_findings(tmp_path, text, rule="REL003")) == 1
    assert _findings(tmp_path, "1.1 Provider shall run a 72-hour burn-in test before handover.\n", rule="REL003") == []


def test_a_date_beside_commission_is_no_delivery_date(tmp_path):
    text = "1.1 Transfers are governed by Commission Implementing Decision (EU) 2021/914 of 4 June 2021.\n"
    assert len(_findings(tmp_path, text, rule="CON002")) == 1
    assert _findings(tmp_path, "1.1 Provider shall deliver the Cluster by 4 June 2027.\n", rule="CON002") == []


def test_deemed_defines_only_a_term():
    assert kind_of("When performing maintenance that is deemed critical, Provider will provide 24 hours' notice.") == "operative"
    assert kind_of('"Critical Maintenance" is deemed to include firmware fixes.') == "definition"


def test_invoicing_thresholds_and_liability_caps_are_not_prices(tmp_path):
    text = ("1.1 Invoices under 20,000 USD are charged automatically.\n\n"
            "1.2 Provider's liability is limited to 5,000 USD.\n")
    assert _findings(tmp_path, text, rule="CST004") == []  # no price of compute: the rule does not apply
    assert len(_findings(tmp_path, text + "\n1.3 GPUs cost 2.10 USD per GPU-hour.\n", rule="CST004")) == 1


def test_termination_at_any_time_is_an_exit(tmp_path):
    base = "1.1 Customer may export its data at any time.\n\n"
    assert _findings(tmp_path, base + "1.2 Either party may terminate this Agreement at any time.\n", rule="LCK004") == []
    assert len(_findings(tmp_path, base + "1.2 Provider may terminate this Agreement at any time.\n", rule="LCK004")) == 1


def test_con003_reads_every_entry_whatever_the_order():
    from clusterlint.engine.review import Review
    from clusterlint.engine.registry import builtin_rules

    good = {"metric": "inter_node_bandwidth", "value": "3200Gbps", "method": "nccl-tests"}
    bad = {"metric": "storage_read_bandwidth", "value": "fast"}
    rule = builtin_rules()["CON003"]
    for order in ([good, bad], [bad, good]):
        hits = list(rule.function(Review(contract=_contract("x", performance=order)), rule.settings))
        assert [h.message for h in hits] == ["performance commitment 'storage_read_bandwidth' is 'fast': not a number with a unit, so it cannot be checked"]


def test_parties_come_from_the_parties_block_the_usual_subject_and_the_user():
    contract = _contract('This Agreement is between Northwind Compute Ltd ("Provider") and Acme Labs (the "Customer").',
                         "Zephyr will host the nodes.", "Zephyr will patch the nodes.", parties={"customer": ["Licensee"]})
    who = parties(contract)
    assert {"northwind compute ltd", "zephyr"} <= who.vendor and {"acme labs", "licensee"} <= who.customer
    assert read("Acme Labs shall pay each invoice.", who).pair == ("customer", "obligation")
    assert read("Licensee may not resell the capacity.", who).pair == ("customer", "prohibition")
    assert read("If you attempt to exceed your quota, we may throttle you.", who).pair == ("vendor", "permission")
    text = "Tickets will be answered by Provider's engineers."
    assert read_at(text, text.index("answered"), who).pair == ("vendor", "obligation")


def test_a_form_feed_does_not_shift_line_numbers(tmp_path):
    clean = "1.1 Terms.\n\n1.2 Provider will use commercially reasonable efforts to deliver.\n"
    fed = "1.1 Terms.\n\f\n1.2 Provider will use commercially reasonable efforts to deliver.\n"
    place = [(f["line"], f["column"]) for f in _findings(tmp_path, clean, rule="CON001")]
    assert place == [(3, 23)]
    assert [(f["line"], f["column"]) for f in _findings(tmp_path, fed, rule="CON001")] == place


CLEAN = """1. Service Levels

1.1 Provider will use commercially reasonable efforts to make the reserved instances available by the start date.

1.2 Any payments or credits under this Section shall constitute Customer's sole and exclusive remedy for Service Level failures.

1.3 Committed Capacity will be made available to Customer subject to inventory availability.
"""
# the same terms as a PDF extractor writes them: a blank line after each printed line, words
# hyphenated across lines, a running header and page numbers, a form feed between pages
PDF_TEXT = """Northwind Compute - General Terms

1. Service Levels

1.1 Provider will use commercially reason-

able efforts to make the reserved instances

available by the start date.

Page 1 of 2
\fNorthwind Compute - General Terms

1.2 Any payments or credits under this Section

shall constitute Customer's sole and exclusive

remedy for Service Level failures.

1.3 Committed Capacity will be made avail-

able to Customer subject to inventory availability.

Page 2 of 2
"""


def _words(text: str, findings: list) -> list:
    """(rule, clause ref in the message, the words at the finding) from each phrase finding."""
    lines = text.split("\n")
    out = []
    for f in findings:
        if f["rule"] in ("CON001", "CON005", "CON006", "CON007"):
            line = lines[f["line"] - 1]
            out.append((f["rule"], f["message"].split(" ")[1], line[f["column"] - 1 :].split()[0]))
    return sorted(out)


def test_pdf_extracted_text_gives_the_findings_of_its_clean_text(tmp_path):
    clean = _words(CLEAN, _findings(tmp_path, CLEAN, "clean.txt"))
    assert clean == [("CON001", "1.1", "commercially"), ("CON005", "1.3", "subject"), ("CON006", "1.2", "sole")]
    assert _words(PDF_TEXT, _findings(tmp_path, PDF_TEXT, "extracted.txt")) == clean
    doc = load(PDF_TEXT.encode(), "extracted.txt").documents[0]
    assert [c["text"] for c in doc.data["spec"]["clauses"]][0] == (
        "1.1 Provider will use commercially reasonable efforts to make the reserved instances available by the start date.")


# ---- British, public-sector and HPC drafting (the shapes of the fourth corpus sitting)

_UK_PARTIES = 'This Agreement is made between Kestrel Compute Ltd ("Supplier") and the University of Northfield (the "Customer").\n\n'


def test_a_partys_short_forms_are_its_names_too():
    who = parties(_contract(_UK_PARTIES), {"vendor": ["Fenwick Data Centres Limited"], "customer": ["Fenwick College"]})
    assert {"kestrel compute ltd", "kestrel compute", "fenwick data centres"} <= who.vendor
    assert {"university of northfield", "the university"} <= who.customer
    assert read("The University shall use reasonable endeavours to pay each invoice.", who).pair == ("customer", "obligation")
    assert read("Kestrel Compute will patch the nodes.", who).pair == ("vendor", "obligation")


def test_a_short_form_both_parties_share_names_neither():
    who = parties(_contract("x"), {"vendor": ["Institute of Computing"], "customer": ["Institute of Physics"]})
    assert "the institute" not in who.vendor | who.customer
    assert read("The Institute shall pay each invoice.", who).obligor == "none"


@pytest.mark.parametrize("text, pair", [
    # words in a leading condition with no modal before them, the main clause's modal after them
    ("If the Supplier fails, despite using reasonable endeavours, to deliver the Equipment by the Long-Stop Date, "
     "the University may terminate this Agreement.", ("vendor", "condition")),
    # a list item is read with its lead-in
    ("The University shall: (a) provide floor space at the Site; (b) use reasonable endeavours to give the Supplier access.",
     ("customer", "obligation")),
    # "reasonable endeavours will be made by the Supplier": the agent of an irregular passive
    ("Reasonable endeavours will be made by the Supplier to supply firmware updates.", ("vendor", "obligation")),
    ("1.1 If the Supplier fails, despite using reasonable endeavours, to deliver, the University may terminate.", ("vendor", "condition")),
])
def test_conditions_list_items_and_passives_in_british_drafting(text, pair):
    who = parties(_contract(_UK_PARTIES))
    assert read_at(text, text.index("made" if "made" in text else "reasonable endeavours"), who).pair == pair


@pytest.mark.parametrize("text", [
    "The University shall use reasonable endeavours to give the Supplier's engineers access to the Data Centre.",
    "The University shall not, and shall procure that its Users do not, attempt to reverse engineer the Supplier's software.",
    "The Supplier shall use its best endeavours to achieve Acceptance early and in any event shall achieve Acceptance no later "
    "than 31 March 2027, failing which the University may terminate this Agreement.",
    "If the Supplier fails, despite using reasonable endeavours, to deliver the Equipment by the Long-Stop Date, the University "
    "may terminate this Agreement by written notice.",
    "The University shall: (a) provide floor space at the Site; (b) use reasonable endeavours to give the Supplier access; and "
    "(c) not attempt to open any sealed component.",
    "Allocation Holders shall use their best endeavours to ensure that every member of their Project follows the Policy.",
    "The failed attempts to deliver described in Schedule 3 do not count against the Delivery Window.",
])
def test_con001_is_silent_on_british_customer_duties_conditions_and_nouns(tmp_path, text):
    assert _findings(tmp_path, f"{_UK_PARTIES}1.1 {text}\n", rule="CON001") == []


def test_con001_flags_an_aspiration_with_no_named_party(tmp_path):
    found = _findings(tmp_path, "1.1 The Research Computing Service strives to keep the scratch file system online.\n", rule="CON001")
    assert [f["message"] for f in found] == [
        "clause 1.1 is an unattributed aspiration (\"strives\") that promises only 'strives': it has no date, no number with a unit "
        "and no remedy for the customer; an effort promise cannot be enforced"]


@pytest.mark.parametrize("text, flagged", [
    ("The Supplier shall hold spare parts at the Site depending on the availability of those parts from its distributor.", True),
    ("Priority queue access for the Project will be granted where capacity allows.", True),
    ("The rack space described in the Order is conditional upon availability in the Facility.", True),
    # capacity on top of a reservation the sentence names, with no reservation anywhere else
    ("Nodes ordered beyond the Contracted Configuration shall be supplied subject to availability.", False),
    ("Additional GPU hours beyond the Project's Awarded Allocation may be granted subject to availability.", False),
    # money, not capacity
    ("The University's commitment to purchase the Phase 2 Nodes is subject to the availability of capital funding.", False),
    ("Awarded allocations are honoured as system capacity allows.", True),
    ("The Supplier will deliver the 12 Cabinets and 400 kW of power in the Order, subject to power availability at the Facility.", True),
    ("Provider will reserve 128 GPUs for Customer from 1 February 2027, and these GPUs are not subject to availability.", False),
    ("Additional nodes beyond the 128 nodes reserved under this Agreement depend on the availability of stock.", False),
])
def test_con005_capacity_spares_rack_space_power_negations_and_named_reservations(tmp_path, text, flagged):
    assert len(_findings(tmp_path, f"1.1 {text}\n", rule="CON005")) == flagged


@pytest.mark.parametrize("text, words", [
    ("Save for the Service Credits set out in Table 2, the Supplier shall have no liability for any failure to meet the Service Levels.",
     "Save for the Service Credits set out in Table 2, the Supplier shall have no liability"),
    ("Except for the re-crediting of core-hours under paragraph 6, the Allocation Holder shall have no claim against the Centre.",
     "Except for the re-crediting of core-hours under paragraph 6, the Allocation Holder shall have no claim"),
    ("Where the Supplier pays Service Credits for a Service Failure, the University shall not be entitled to any further remedy.",
     "Service Credits for a Service Failure, the University shall not be entitled to any further remedy"),
    ("Where the Service misses its target, the Centre's only obligation is to credit the Project with GPU-hours.",
     "only obligation is to credit"),
    ("YOU ARE ENTITLED TO NO REMEDY FOR ANY SERVICE FAILURE OTHER THAN THE CREDITS IN SECTION 6.",
     "NO REMEDY FOR ANY SERVICE FAILURE OTHER THAN THE CREDITS"),
])
def test_con006_credits_first_then_no_other_remedy_and_only_obligations(tmp_path, text, words):
    found = _findings(tmp_path, f"1.1 {text}\n", rule="CON006")
    assert [f["message"] for f in found] == [
        f"clause 1.1 makes service credits the {words!r}: a long outage earns a few percent of a month's fee and nothing more"]


def test_con006_is_silent_where_credits_preserve_other_remedies(tmp_path):
    text = "1.1 Service Credits are in addition to, and not in lieu of, any other remedy available to the Customer.\n"
    assert _findings(tmp_path, text, rule="CON006") == []


@pytest.mark.parametrize("text, words", [
    ("The Managed GPU Service is Down if the job submission endpoint does not answer HTTPS requests.", "not answer"),
    ("A Server is Unavailable when it cannot be pinged from the Provider's monitoring platform.", "pinged"),
])
def test_con007_answers_and_pings_measure_downtime(tmp_path, text, words):
    found = _findings(tmp_path, f"1.1 {text}\n", rule="CON007")
    assert [f["message"] for f in found] == [
        f"clause 1.1 counts downtime only as loss of connectivity ({words!r}): a failed accelerator, a degraded link or a slow "
        "fabric is not downtime and earns no credit"]


# ---- the fifth corpus sitting: public-sector buyers, adjectives, service classes, footers

def test_the_authority_and_an_org_nouns_short_form_are_the_customer():
    who = parties(_contract("x"), {"customer": ["Northfell University"]})
    assert read("The Authority shall use reasonable endeavours to ensure that its Users comply.", who).pair == ("customer", "obligation")
    assert read("The University shall use all reasonable endeavours to provide access.", who).pair == ("customer", "obligation")


@pytest.mark.parametrize("text", [
    "A replacement accelerator is acceptable if it (a) is of the same model or a commercially reasonable equivalent; and (b) passes the tests.",
    "The monitoring system makes three attempts to reach each node before raising an alert.",
    "Best-effort queue jobs run only on idle nodes and may be pre-empted at any time.",
    "The Authority will use reasonable endeavours to give the Contractor access to the Site.",
])
def test_con001_is_silent_on_adjectives_counted_attempts_service_classes_and_the_authority(tmp_path, text):
    assert _findings(tmp_path, f"1.1 {text}\n", rule="CON001") == []


def test_con001_flags_a_best_effort_basis_no_party_is_named_for(tmp_path):
    found = _findings(tmp_path, "1.1 Support is provided on a best-effort basis.\n", rule="CON001")
    assert [f["message"] for f in found] == [
        "clause 1.1 is an unattributed description that promises only 'best-effort': it has no date, no number with a unit "
        "and no remedy for the customer; an effort promise cannot be enforced"]


def test_a_page_footer_inside_a_sentence_neither_splits_it_nor_hides_the_phrase(tmp_path):
    text = "The Contractor shall allocate the Guaranteed Core-Hours, subject to\nPage 9 of 31\navailability of the Compute Partition."
    clauses = load(text.encode(), "x.txt").documents[0].data["spec"]["clauses"]
    assert [c["text"] for c in clauses] == [
        "The Contractor shall allocate the Guaranteed Core-Hours, subject to availability of the Compute Partition."]
    assert [(f["line"], f["column"]) for f in _findings(tmp_path, text, rule="CON005")] == [(1, 58)]


@pytest.mark.parametrize("text, rule, words", [
    ("The committed GPU-hours are available on a subject-to-availability basis.", "CON005", "subject-to-availability"),
    ("Service Credits shall constitute the sole and exclusive financial remedy of the University.", "CON006",
     "sole and exclusive financial remedy"),
    # a cross-reference keeps no remedy: "without prejudice to clause 12.3"
    ("Without prejudice to clause 12.3, the Service Credits shall be the Authority's sole and exclusive remedy.", "CON006",
     "sole and exclusive remedy"),
])
def test_hyphenated_phrases_adjectives_and_cross_references(tmp_path, text, rule, words):
    found = _findings(tmp_path, f"1.1 {text}\n", rule=rule)
    assert len(found) == 1 and repr(words) in found[0]["message"]


def test_con006_is_silent_where_a_remedy_is_kept_without_prejudice(tmp_path):
    text = "1.1 Service Credits are without prejudice to the Customer's other remedies, including termination.\n"
    assert _findings(tmp_path, text, rule="CON006") == []


# ---- the sixth corpus sitting: remedies in British drafting, negations, a subject after a proviso

@pytest.mark.parametrize("text", [
    # a delay payment and the buyer's right to cancel are remedies that favour the customer
    "The Contractor shall use reasonable endeavours to commission the 48 Nodes by 1 September 2027 and, if commissioning "
    "is not complete by that date, shall pay the Authority Delay Payments of 4,000 GBP per day.",
    "Supplier shall use reasonable endeavours to deliver 64 servers by 30 June 2027, failing which Buyer may cancel the Order.",
    "The number of unsuccessful attempts to reach a node's controller is recorded in the incident log.",
])
def test_con001_is_silent_on_firm_british_promises_and_counted_attempts(tmp_path, text):
    assert _findings(tmp_path, f"1.1 {text}\n", rule="CON001") == []


def test_the_subject_after_a_proviso_is_the_one_bound():
    who = parties(_contract("x"))
    text = "Following acceptance of an Order Form, and provided that you have paid the deposit, we will use our best efforts to allocate the GPUs."
    assert read_at(text, text.index("best efforts"), who).pair == ("vendor", "obligation")


def test_the_party_pattern_is_the_same_text_whatever_the_hash_seed():
    """Its text keys the compiled-pattern cache between runs: a set's order must not change it."""
    import subprocess
    import sys

    code = "from clusterlint.contracts.obligations import VENDOR_WORDS, CUSTOMER_WORDS, _party_pattern; print(_party_pattern(frozenset(VENDOR_WORDS), frozenset(CUSTOMER_WORDS)).pattern)"
    texts = {subprocess.run([sys.executable, "-c", code], env={**os.environ, "PYTHONHASHSEED": seed}, capture_output=True, text=True, check=True).stdout
             for seed in ("1", "2", "3")}
    assert len(texts) == 1 and "principal\\s+investigators|" in texts.pop()
