"""Shapes the tuning split of the clause corpus showed the phrase rules and the clause reader missing.

Each fix has its case here, in sentences written for these tests (not the corpus's own), with the
exact message where a rule fires and silence where it must not.
"""

from __future__ import annotations

import pytest

from clusterlint.models import Contract
from clusterlint.obligations import parties, read
from clusterlint.prose import read_pages
from clusterlint.rules.clauses import kind_of

from conftest import check_json

PHRASE_RULES = ("CON001", "CON005", "CON006", "CON007")
EFFORT = "; an effort promise cannot be enforced"
NO_DATE = ": it has no date, no number with a unit and no remedy for the customer" + EFFORT
AVAILABILITY = ": the vendor may never provide it; reserve the accelerators by count and date"
CREDITS = ": a long outage earns a few percent of a month's fee and nothing more"
DOWNTIME = ": a failed accelerator, a degraded link or a slow fabric is not downtime and earns no credit"


def _messages(tmp_path, text: str) -> list[tuple[str, str]]:
    path = tmp_path / "terms.txt"
    path.write_text(f"1.1 {text}\n", encoding="utf-8")
    return [(f["rule"], f["message"]) for f in check_json(str(path))["findings"] if f["rule"] in PHRASE_RULES]


@pytest.mark.parametrize("text, rule, message", [
    # CON001: effort words beyond "reasonable" and "best"; a vendor that is the Licensor; a goal; a verb "target"
    ("Supplier will use diligent efforts to commission the cooling loop.", "CON001",
     'clause 1.1 is a vendor obligation ("Supplier" + "will") that promises only \'diligent efforts\'' + NO_DATE),
    ("Provider shall use good-faith efforts to source spare GPUs.", "CON001",
     'clause 1.1 is a vendor obligation ("Provider" + "shall") that promises only \'good-faith efforts\'' + NO_DATE),
    ("Licensor endeavours to ship a fix for each defect.", "CON001",
     'clause 1.1 is a vendor aspiration ("Licensor" + "endeavours") that promises only \'endeavours\'' + NO_DATE),
    ("Our goal is to answer every ticket within one hour.", "CON001",
     'clause 1.1 is a vendor aspiration ("Our" + "goal is") that promises only \'goal is\'' + NO_DATE),
    ("Supplier will target a repair time of 12 hours for each failed node.", "CON001",
     'clause 1.1 is a vendor obligation ("Supplier" + "will") that promises only \'target\': it has a number with a unit '
     "but no date and no remedy for the customer" + EFFORT),
    # CON005: the variants of "subject to availability", and equipment as capacity
    ("Delivery of the 64 nodes depends on the availability of GPUs from our distributor.", "CON005",
     "clause 1.1 is an unattributed description that makes capacity 'depends on the availability'" + AVAILABILITY),
    ("The committed GPUs will be delivered as capacity allows.", "CON005",
     'clause 1.1 is a vendor obligation ("a passive: the vendor performs" + "will") that makes capacity \'as capacity allows\''
     + AVAILABILITY),
    ("The reserved servers will be installed on the Start Date, inventory permitting.", "CON005",
     'clause 1.1 is a vendor obligation ("a passive: the vendor performs" + "will") that makes capacity \'inventory permitting\''
     + AVAILABILITY),
    ("Supplier shall install the Equipment where available.", "CON005",
     'clause 1.1 is a vendor obligation ("Supplier" + "shall") that makes capacity \'where available\'' + AVAILABILITY),
    # CON006: credits as the only remedy, said the other way round
    ("Except for Service Credits, Buyer has no remedy for unavailability.", "CON006",
     "clause 1.1 makes service credits the 'Except for Service Credits, Buyer has no remedy'" + CREDITS),
    # CON007: access, log-in, reach and traffic as the measure of downtime; an all-caps definition
    ("The API is Down when clients cannot log in to it.", "CON007",
     "clause 1.1 counts downtime only as loss of connectivity ('cannot log in')" + DOWNTIME),
    ("An Outage starts when our probe fails to reach the node.", "CON007",
     "clause 1.1 counts downtime only as loss of connectivity ('fails to reach')" + DOWNTIME),
    ("Downtime is any minute in which the gateway drops all network traffic.", "CON007",
     "clause 1.1 counts downtime only as loss of connectivity ('network traffic')" + DOWNTIME),
    ('"Outage" means loss of network access to the Cluster.', "CON007",
     "clause 1.1 counts downtime only as loss of connectivity ('loss of network access')" + DOWNTIME),
    # an exclusion before the definition does not hide it
    ("Excluding scheduled maintenance, Downtime means any period in which the node is unreachable.", "CON007",
     "clause 1.1 counts downtime only as loss of connectivity ('unreachable')" + DOWNTIME),
])
def test_tuning_shapes_fire_with_their_message(tmp_path, text, rule, message):
    assert _messages(tmp_path, text) == [(rule, message)]


@pytest.mark.parametrize("text", [
    "Customer's goal is to finish training by June.",  # the customer's aim
    "The objective is to train a model.",  # nobody's promise
    "Neither party shall attempt to hire the other party's staff.",  # a prohibition on both
    "Nothing in this Schedule makes the credits Customer's exclusive remedy.",
    "Downtime does not include any period in which the node is unreachable because of Buyer's own firewall.",
    "Service credits are granted subject to availability of program funds.",  # no capacity
    "It is Customer's responsibility to use reasonable efforts to secure its account.",  # the customer's duty
])
def test_tuning_shapes_that_stay_silent(tmp_path, text):
    assert _messages(tmp_path, text) == []


def _who(**names):
    return parties(Contract(apiVersion="clusterlint/v1", kind="Contract", metadata={"name": "t"},
                            spec={"clauses": [{"ref": "1", "text": "x"}], **({"parties": names} if names else {})}))


@pytest.mark.parametrize("text, pair", [
    ("Licensor shall patch the scheduler.", ("vendor", "obligation")),
    ("Users must not share their keys.", ("customer", "prohibition")),
    ("Neither party shall disclose the Fees.", ("both", "prohibition")),
    ("We target 99.9% uptime for the API.", ("vendor", "aspiration")),
    ("Our goal is to reply within an hour.", ("vendor", "aspiration")),
    ("Orbit Labs' reserved nodes will be made available on the Start Date.", ("vendor", "obligation")),
    ("The Buyer's GPUs will be shipped from Rotterdam.", ("vendor", "obligation")),
    ("Service Credits are the Buyer's only compensation.", ("none", "description")),  # the party in the predicate
    ("Customer's sole remedy is a credit.", ("customer", "description")),
    ("It is Customer's duty to keep its keys secret.", ("customer", "description")),  # "it is": the party follows
    ("The Platform is down if users cannot log in.", ("none", "description")),  # the modal is the condition's
    ("Provider may suspend an account if Customer cannot pay.", ("vendor", "permission")),
    ("provided that the notice is given in writing;", ("none", "condition")),
    ("(b) the change does not increase the Fees; and", ("none", "condition")),
    ("(b) Provider shall deliver the Cluster.", ("vendor", "obligation")),
    ("Supplier does not warrant that the nodes will run without faults.", ("vendor", "description")),  # a disclaimer
    ("We make no guarantee that spare nodes will exist.", ("vendor", "description")),
    ("You agree that the Fees are non-refundable.", ("customer", "obligation")),
    ("A node shall be deemed failed when it misses three checks.", ("none", "obligation")),  # deeming: nobody performs
])
def test_reader_shapes(text, pair):
    assert read(text, _who(customer=["Orbit Labs"])).pair == pair


def test_an_all_caps_disclaimer_wrapped_across_lines_is_one_clause_not_headings():
    pdf = "THE CREDITS DESCRIBED ABOVE ARE\n\nYOUR SOLE AND EXCLUSIVE REMEDY\n\nFOR ANY SERVICE FAILURE."
    clauses = read_pages([pdf], "sla.pdf").documents[0].data["spec"]["clauses"]
    assert [(c["ref"], c["text"]) for c in clauses] == [
        ("¶1", "THE CREDITS DESCRIBED ABOVE ARE YOUR SOLE AND EXCLUSIVE REMEDY FOR ANY SERVICE FAILURE.")]
    headed = read_pages(["SERVICE CREDITS\n\nCredits are paid monthly."], "sla.pdf").documents[0].data["spec"]["clauses"]
    assert [(c["section"], c["text"]) for c in headed] == [("SERVICE CREDITS", "Credits are paid monthly.")]


def test_an_all_caps_definition_is_a_definition():
    assert kind_of("DOWNTIME MEANS ANY MINUTE IN WHICH THE NODE HAS NO CONNECTIVITY.") == "definition"
    assert kind_of("DOWNTIME WILL BE MEASURED MONTHLY.") == "operative"
