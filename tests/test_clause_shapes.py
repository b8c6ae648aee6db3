"""Shapes the tuning split of the clause corpus showed the phrase rules and the clause reader missing.

Each fix has its case here, in sentences written for these tests (not the corpus's own), with the
exact message where a rule fires and silence where it must not.
"""

from __future__ import annotations

import pytest

from clusterlint.model.base import Contract
from clusterlint.contracts.obligations import parties, read
from clusterlint.readers.prose import read_pages
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


PASSIVE = '"a passive: the vendor performs"'


@pytest.mark.parametrize("text, rule, message", [
    # CON001: effort as the subject of a passive, hyphenated, "strive in good faith", "every effort"
    ("Every reasonable effort will be made to restore the scheduler after a power cut.", "CON001",
     f"clause 1.1 is a vendor obligation ({PASSIVE} + \"will\") that promises only 'Every reasonable effort'" + NO_DATE),
    ("Node replacements are handled on a reasonable-efforts basis.", "CON001",  # "1.1 Node" is the clause's number, no figure
     "clause 1.1 is an unattributed description that promises only 'reasonable-efforts'" + NO_DATE),
    ("Provider shall strive in good faith to patch the firmware.", "CON001",
     'clause 1.1 is a vendor obligation ("Provider" + "shall") that promises only \'strive in good faith\'' + NO_DATE),
    ("The Supplier shall make every effort that the racks arrive in week 12.", "CON001",
     'clause 1.1 is a vendor obligation ("Supplier" + "shall") that promises only \'every effort\'' + NO_DATE),
    # CON005: space, "then available", reservation of self-supply, inventory, supplies, OEM allocation
    ("Rack space in Hall 2 is assigned to the Customer as space allows.", "CON005",
     "clause 1.1 is an unattributed description that makes capacity 'as space allows'" + AVAILABILITY),
    ("The reserved GPUs are supplied to the extent such capacity is then available.", "CON005",
     "clause 1.1 is an unattributed description that makes capacity 'to the extent such capacity is then available'" + AVAILABILITY),
    ("The Contractor delivers the servers under reserve of availability of the goods.", "CON005",
     'clause 1.1 is a vendor description ("Contractor") that makes capacity \'under reserve of availability\'' + AVAILABILITY),
    ("Seller will ship the nodes provided it has them in inventory on the ship date.", "CON005",
     'clause 1.1 is a vendor obligation ("Seller" + "will") that makes capacity \'provided it has them in inventory\'' + AVAILABILITY),
    ("The 32 reserved nodes are handed over while supplies last.", "CON005",
     "clause 1.1 is an unattributed description that makes capacity 'while supplies last'" + AVAILABILITY),
    ("The quoted systems remain subject to allocation from the OEM.", "CON005",
     "clause 1.1 is an unattributed description that makes capacity 'subject to allocation from'" + AVAILABILITY),
    # CON006: renouncing, exhausting, "only liability", liability denied save for credits, "the full extent"
    ("The Customer renounces any other remedy than the service credits.", "CON006",
     "clause 1.1 makes service credits the 'renounces any other remedy'" + CREDITS),
    ("The credits exhaust all claims of the Customer for unavailability.", "CON006",
     "clause 1.1 makes service credits the 'exhaust all claims'" + CREDITS),
    ("Service Credits are our only liability for missing this SLA.", "CON006",
     "clause 1.1 makes service credits the 'Service Credits are our only liability'" + CREDITS),
    ("Provider shall not be liable for any outage except to issue the Service Credits.", "CON006",
     "clause 1.1 makes service credits the 'not be liable for any outage except to issue the Service Credits'" + CREDITS),
    ("The fee credits are the full extent of what Provider owes for an outage.", "CON006",
     "clause 1.1 makes service credits the 'full extent of what'" + CREDITS),
    # CON007: "interrupted", "not able to access", "in case"
    ("The Service is interrupted only when the server is not accessible through the network.", "CON007",
     "clause 1.1 counts downtime only as loss of connectivity ('accessible')" + DOWNTIME),
    ("Downtime means any period in which the Client is not able to access the cluster.", "CON007",
     "clause 1.1 counts downtime only as loss of connectivity ('not able to access')" + DOWNTIME),
    ("A node is regarded as unavailable in case it is not reachable from the Customer's site.", "CON007",
     "clause 1.1 counts downtime only as loss of connectivity ('reachable')" + DOWNTIME),
])
def test_blind_8_and_9_shapes_fire_with_their_message(tmp_path, text, rule, message):
    assert _messages(tmp_path, text) == [(rule, message)]


@pytest.mark.parametrize("text", [
    "The probe makes three attempts to reach each node before it raises an alert.",  # a count of attempts
    "Provider will make up to two attempts to deliver the racks.",
    "Supplier will swap a failed card for a commercially reasonable equivalent.",  # an adjective
    "Please try to open tickets through the portal.",  # an imperative to the customer
    "The Government will make reasonable efforts to provide site access.",  # the buyer in federal procurement
    '"Best Efforts" shall be deemed to require no spending beyond the Charges.',  # a definition
    "Nodes in excess of the 64 Reserved Nodes are supplied subject to availability.",  # beyond the reservation
    "Extra racks beyond the ten Committed Racks may be licensed subject to space being available.",
    "Reserved capacity does not depend on demand across the fleet and is not subject to availability.",
    "Scratch disks run on demand and depend on the user's own quota.",
    "The login node may be unreachable during maintenance, which is not counted as Downtime.",  # left out, not the measure
])
def test_blind_8_and_9_shapes_that_stay_silent(tmp_path, text):
    assert _messages(tmp_path, text) == []


@pytest.mark.parametrize("text, rule, message", [
    # CON005 read by concept: a condition word a few words before a supply-state word
    ("Provider shall allocate the reserved nodes to the extent that its pool has unused capacity that month.", "CON005",
     'clause 1.1 is a vendor obligation ("Provider" + "shall") that makes capacity \'to the extent that its pool has unused capacity\''
     + AVAILABILITY),
    ("Lessor shall deliver the servers provided that they can be procured from its suppliers on fair terms.", "CON005",
     'clause 1.1 is a vendor obligation ("Lessor" + "shall") that makes capacity \'provided that they can be procured\'' + AVAILABILITY),
    ("We can hold 32 GPUs for you, assuming our supply from the OEM comes through.", "CON005",
     'clause 1.1 is a vendor permission ("We" + "can") that makes capacity \'assuming our supply from the OEM\'' + AVAILABILITY),
    ("The racks are allotted as and when space allows in Hall 3.", "CON005",
     "clause 1.1 is an unattributed description that makes capacity 'as and when space allows'" + AVAILABILITY),
    # CON006: entitlement denied save for credits, an exhaustive regime, a slide bullet, liability ended, a chat line
    ("Except for the Service Credits, the Client shall not be entitled to any compensation for outages.", "CON006",
     "clause 1.1 makes service credits the 'Except for the Service Credits, the Client shall not be entitled to any compensation'"
     + CREDITS),
    ("The credit regime in this Schedule is exhaustive and replaces any other right of the Customer.", "CON006",
     "clause 1.1 makes service credits the 'is exhaustive'" + CREDITS),
    ("SLA remedy: service credits only", "CON006", "clause 1.1 makes service credits the 'remedy: service credits only'" + CREDITS),
    ("Once a credit is applied, Provider shall have no further liability for that incident.", "CON006",
     "clause 1.1 makes service credits the 'a credit is applied, Provider shall have no further liability'" + CREDITS),
    ("Credits are all you get for downtime.", "CON006", "clause 1.1 makes service credits the 'Credits are all you get'" + CREDITS),
    # CON007: packets, dropping off the network with a slow GPU left out, an FAQ's question and answer
    ("An Outage is any period in which no packets can pass between the cluster and the internet.", "CON007",
     "clause 1.1 counts downtime only as loss of connectivity ('no packets')" + DOWNTIME),
    ("Downtime is when a node drops off the network; a slow GPU is a support case, not downtime.", "CON007",
     "clause 1.1 counts downtime only as loss of connectivity ('drops off the network')" + DOWNTIME),
    ("Q: When is my node down? A: When you can't ssh into it from outside.", "CON007",
     "clause 1.1 counts downtime only as loss of connectivity (\"can't ssh\")" + DOWNTIME),
    # CON001: "utmost efforts", "do the possible", "attempt in good faith", a remedy that is denied
    ("The Provider will make its utmost efforts to keep the platform running.", "CON001",
     'clause 1.1 is a vendor obligation ("Provider" + "will") that promises only \'make its utmost efforts\'' + NO_DATE),
    ("Supplier will do the possible to ship the nodes on time.", "CON001",
     'clause 1.1 is a vendor obligation ("Supplier" + "will") that promises only \'do the possible\'' + NO_DATE),
    ("We shall attempt in good faith to source spare accelerators.", "CON001",
     'clause 1.1 is a vendor obligation ("We" + "shall") that promises only \'attempt in good faith\'' + NO_DATE),
    ("Provider will keep the racks online at 99.5% and no compensation is owed below that, using its best efforts.", "CON001",
     'clause 1.1 is a vendor obligation ("Provider" + "will") that promises only \'best efforts\': it has a number with a unit '
     "but no date and no remedy for the customer" + EFFORT),
])
def test_blind_10_to_13_shapes_fire_with_their_message(tmp_path, text, rule, message):
    assert _messages(tmp_path, text) == [(rule, message)]


@pytest.mark.parametrize("text", [
    "Provider kindly asks the Customer to make all reasonable effort to use the portal.",  # asked of the customer
    "Customer and Provider will jointly use reasonable efforts to finish the migration.",  # both parties
    "The Contractor's attempts to reach the Authority shall be logged.",  # a noun
    "Customer shall return loaned parts within 14 days, subject to availability of courier slots.",  # the customer's duty
    "Provider shall notify Customer when the reserved nodes are available for acceptance testing.",  # ready, not in stock
    "Q: Are credits all I get? A: No; you may also cancel for repeated misses.",  # a question
])
def test_blind_10_to_13_shapes_that_stay_silent(tmp_path, text):
    assert _messages(tmp_path, text) == []


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
    ("The Centre will allocate the hours awarded.", ("vendor", "obligation")),  # the operator of an HPC service
    ("The Government shall furnish the site drawings.", ("customer", "obligation")),  # the buyer in federal procurement
    ("Every reasonable effort will be made to restore the Service.", ("vendor", "obligation")),  # effort as a passive's subject
    ("Customer and Provider will jointly review the plan.", ("both", "obligation")),  # the "and" joins the subjects
    ("Provider will host the racks and Customer will pay the fees.", ("vendor", "obligation")),  # two clauses: the first's
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


def test_a_name_stands_for_its_first_word():
    who = _who(vendor=["Tamsin Rack Systems Ltd"], customer=["University of Northfield"])
    assert read("Tamsin will deliver the racks.", who).pair == ("vendor", "obligation")
    assert read("The University shall pay the Fees.", who).pair == ("customer", "obligation")
    assert "university" not in who.customer  # a generic first word is no name of its own


def test_a_heading_run_into_its_first_sentence_is_no_heading():
    pdf = "9.4 Service Credits. Service Credits\n\nare the Customer's sole and ex-\n\nclusive remedy."
    clauses = read_pages([pdf], "sla.pdf").documents[0].data["spec"]["clauses"]
    assert [c["text"] for c in clauses] == ["9.4 Service Credits. Service Credits are the Customer's sole and exclusive remedy."]


def test_an_all_caps_definition_is_a_definition():
    assert kind_of("DOWNTIME MEANS ANY MINUTE IN WHICH THE NODE HAS NO CONNECTIVITY.") == "definition"
    assert kind_of("DOWNTIME WILL BE MEASURED MONTHLY.") == "operative"


def _vendor(modal: str, words: str, who: str = "Operator") -> str:
    return f'clause 1.1 is a vendor {modal} ("{who}" + "{"will" if modal == "obligation" else "aims"}") that promises only {words}'


@pytest.mark.parametrize("text, rule, message", [
    # CON006: credits made exclusive in more ways: "isn't owed any other", rebates, "the entirety of", "as full
    # compensation", "other than to re-credit", "the credit remedy is exclusive", "rules out", "settle in full"
    ("Apart from these credits, the Client isn't owed any other compensation for an outage.", "CON006",
     "clause 1.1 makes service credits the \"Apart from these credits, the Client isn't owed any other compensation\"" + CREDITS),
    ("The Subscriber's sole recourse for a missed uptime target is the rebate set out in Annex B.", "CON006",
     "clause 1.1 makes service credits the 'sole recourse'" + CREDITS),
    ("The rebate regime in this Annex sets out the entirety of the Operator's responsibility for outages.", "CON006",
     "clause 1.1 makes service credits the \"sets out the entirety of the Operator's responsibility\"" + CREDITS),
    ("The Buyer accepts the Service Credits as full compensation for any outage.", "CON006",
     "clause 1.1 makes service credits the 'as full compensation'" + CREDITS),
    ("The Operator shall have no liability for lost GPU-hours other than to re-credit them to the Project.", "CON006",
     "clause 1.1 makes service credits the 'no liability for lost GPU-hours other than to re-credit'" + CREDITS),
    ("The credit remedy in Part 4 is exclusive, and no other remedy of any kind will be available to the Client.", "CON006",
     "clause 1.1 makes service credits the 'credit remedy in Part 4 is exclusive'" + CREDITS),
    ("Credits are what you'd get for downtime, and the order form rules out any other remedy for it.", "CON006",
     "clause 1.1 makes service credits the 'rules out any other remedy'" + CREDITS),
    ("Those credits settle in full any claim the Client has for the month's outages.", "CON006",
     "clause 1.1 makes service credits the 'settle in full any claim'" + CREDITS),
    # CON005: "as OEM allocation permits", "being free", "as soon as ... become available", "in the limit of",
    # "in light of its stock position", "is insufficient", "supply dependent", "as held in stock"
    ("The reserved racks will be handed over insofar as the Operator's power in the chosen hall permits.", "CON005",
     'clause 1.1 is a vendor obligation ("a passive: the vendor performs" + "will") that makes capacity '
     "\"insofar as the Operator's power in the chosen hall permits\"" + AVAILABILITY),
    ("Provision of the 16 cages depends on floor space being free on the Start Date.", "CON005",
     "clause 1.1 is an unattributed description that makes capacity 'depends on floor space being free'" + AVAILABILITY),
    ("Vendor will ship the ordered servers as soon as the necessary GPUs become available.", "CON005",
     'clause 1.1 is a vendor obligation ("Vendor" + "will") that makes capacity \'as soon as the necessary GPUs become available\''
     + AVAILABILITY),
    ("The nodes under this Order will be delivered in batches as OEM allocation permits.", "CON005",
     'clause 1.1 is a vendor obligation ("a passive: the vendor performs" + "will") that makes capacity \'as OEM allocation permits\''
     + AVAILABILITY),
    ("The Seller will deliver the Servers in the limit of the hardware which is available on that date.", "CON005",
     'clause 1.1 is a vendor obligation ("Seller" + "will") that makes capacity \'in the limit of the hardware which is available\''
     + AVAILABILITY),
    ("Provider shall deliver the reserved nodes in light of its then-current stock position.", "CON005",
     'clause 1.1 is a vendor obligation ("Provider" + "shall") that makes capacity \'in light of its then-current stock\'' + AVAILABILITY),
    ("Where the Seller's supply for a quarter is insufficient, the ordered nodes shall be reduced pro rata.", "CON005",
     "clause 1.1 is a vendor condition (\"Seller's\") that makes capacity 'supply for a quarter is insufficient'" + AVAILABILITY),
    ("The reserved cluster is supply dependent.", "CON005",
     "clause 1.1 is an unattributed description that makes capacity 'supply dependent'" + AVAILABILITY),
    ("The Operator will provide replacement boards as held in stock from time to time.", "CON005",
     'clause 1.1 is a vendor obligation ("Operator" + "will") that makes capacity \'as held in stock\'' + AVAILABILITY),
    # CON007: a quoted defined term, requests answered, packets, "neither ... nor", a network path, probes losing contact
    ('"Available" means that the node answers HTTPS requests from the internet.', "CON007",
     "clause 1.1 counts downtime only as loss of connectivity ('answers HTTPS requests')" + DOWNTIME),
    ("Downtime is any minute in which the cluster cannot send or receive packets over the Operator's network.", "CON007",
     "clause 1.1 counts downtime only as loss of connectivity ('send or receive packets')" + DOWNTIME),
    ("An Instance is down when the Client can neither log in to it nor reach its services.", "CON007",
     "clause 1.1 counts downtime only as loss of connectivity ('neither log in')" + DOWNTIME),
    ("Service Availability is deemed lost only when the host has no network path to the Operator's core.", "CON007",
     "clause 1.1 counts downtime only as loss of connectivity ('network path')" + DOWNTIME),
    ("A node counts as down only when the Operator's probes lose contact with it.", "CON007",
     "clause 1.1 counts downtime only as loss of connectivity ('lose contact')" + DOWNTIME),
    # CON001: "aims for", "strive for", "reasonable measures", "Efforts will be made", the Operator as the vendor
    ("The Operator aims for a first response in 20 minutes on severity 1 tickets.", "CON001",
     _vendor("aspiration", "'aims for': it has a number with a unit but no date and no remedy for the customer" + EFFORT)),
    ("The Vendor will strive for quick replacement of failed NICs.", "CON001", _vendor("obligation", "'strive for'" + NO_DATE, "Vendor")),
    ("The Operator will take reasonable measures to keep each job's queue time under one day.", "CON001",
     _vendor("obligation", "'reasonable measures'" + NO_DATE)),
    ("Efforts will be made by the Operator to swap failed boards within the week.", "CON001",
     _vendor("obligation", "'Efforts will be made'" + NO_DATE)),
])
def test_blind_14_to_17_shapes_fire_with_their_message(tmp_path, text, rule, message):
    assert _messages(tmp_path, text) == [(rule, message)]


@pytest.mark.parametrize("text", [
    "The 256 Committed GPUs stay reserved for the Client, whatever the state of the Operator's inventory.",  # concessive
    "Your 32 reserved nodes are fixed; anything above the 32 would depend on stock.",  # beyond a count given before
    "Extra GPUs on top of the 16-node Dedicated Pod may be added where we have them in stock.",  # beyond a dedicated pod
    "Cabinets additional to the two Committed Cabinets will be offered subject to availability.",  # additional to a commitment
    "The revised order form drops the 'subject to availability' wording for the reserved nodes.",  # the words named, not used
    "If the Availability guarantee is missed twice, the Client may terminate the affected nodes.",  # a guarantee, not stock
    "The Operator measures Availability every minute using external probes in three regions.",  # how, not what
    "The node counts as unavailable when it is not reachable or when monitoring shows a GPU missing or running at reduced clocks.",
    "The Operator will keep commercially reasonable physical and technical safeguards for Client Data.",  # an adjective
    "The Operator shall supply a substitute part of commercially reasonable quality.",  # an adjective
    "Best-effort tiers get community support only.",  # a class of service
    "The Vendor shall use reasonable endeavours to deliver the Servers by 1 May 2027, failing which the Vendor shall pay the "
    "Buyer delay damages of $500 per day.",  # a date and delay damages for the buyer
    "The Department shall use its best endeavours to approve each invoice within 10 days.",  # the public-sector buyer
    'A reference to a party using "reasonable endeavours" shall be read in accordance with clause 1.4.',  # named, not used
])
def test_blind_14_to_17_shapes_that_stay_silent(tmp_path, text):
    assert _messages(tmp_path, text) == []


def test_an_all_caps_limitation_that_begins_with_except_is_no_heading():
    pdf = "EXCEPT FOR THE SERVICE CREDITS DESCRIBED\n\nIN THIS PART, THE CLIENT HAS NO\n\nREMEDY FOR ANY OUTAGE."
    clauses = read_pages([pdf], "sla.pdf").documents[0].data["spec"]["clauses"]
    assert [c["text"] for c in clauses] == [
        "EXCEPT FOR THE SERVICE CREDITS DESCRIBED IN THIS PART, THE CLIENT HAS NO REMEDY FOR ANY OUTAGE."]


@pytest.mark.parametrize("text, rule, message", [
    # CON001: "so far as it reasonably can", "make its best", "exert itself", "realise all efforts"
    ("The Operator will, so far as it reasonably can, restore failed nodes within the week.", "CON001",
     _vendor("obligation", "'so far as it reasonably can'" + NO_DATE)),
    ("The Vendor shall make its best to restore the filesystem.", "CON001",
     'clause 1.1 is a vendor obligation ("Vendor" + "shall") that promises only \'make its best\'' + NO_DATE),
    ("The Vendor will exert itself to finish commissioning in March.", "CON001", _vendor("obligation", "'exert itself'" + NO_DATE, "Vendor")),
    ("The Seller will realise all efforts that are commercially reasonable to ship spares.", "CON001",
     _vendor("obligation", "'realise all efforts'" + NO_DATE, "Seller")),
    # CON005: prior sale; CON006: a right replaced, "can claim nothing" save a rebate
    ("Spare boards needed in the warranty period will be shipped where the Vendor holds them in stock.", "CON005",
     'clause 1.1 is a vendor obligation ("a passive: the vendor performs" + "will") that makes capacity '
     "'where the Vendor holds them in stock'" + AVAILABILITY),  # a warranty period is no warranty disclaimer
    ("Hardware in this quotation is subject to prior sale.", "CON005",
     "clause 1.1 is an unattributed description that makes capacity 'subject to prior sale'" + AVAILABILITY),
    ("The receipt of Service Credits shall replace any right of the Client to claim damages for outages.", "CON006",
     "clause 1.1 makes service credits the 'replace any right'" + CREDITS),
    ("Other than the rebate in this clause, the Lessee can claim nothing from the Lessor for interruptions.", "CON006",
     "clause 1.1 makes service credits the 'Other than the rebate in this clause, the Lessee can claim nothing'" + CREDITS),
])
def test_blind_18_to_20_shapes_fire_with_their_message(tmp_path, text, rule, message):
    assert _messages(tmp_path, text) == [(rule, message)]


@pytest.mark.parametrize("text", [
    "Notwithstanding its reasonable efforts, the Vendor remains liable for delay damages.",  # effort that excuses nothing
    "Batch Queue (best effort): jobs may be preempted.",  # a class of service named before
    "Both contracting parties will endeavour to settle disputes amicably.",  # both parties
    "The Vendor shall not make the reserved nodes subject to availability.",  # denied
    "The Orderer shall endeavor to provide the information the Contractor needs.",  # the Orderer is the customer
    "The Vendor will use best efforts to deliver by 31 May 2027, and for each week of delay the Buyer may deduct 1% of the price.",
])
def test_blind_18_to_20_shapes_that_stay_silent(tmp_path, text):
    assert _messages(tmp_path, text) == []


@pytest.mark.parametrize("text, rule, message", [
    # CON001: "level best", "the best of its efforts", efforts made in a longer passive
    ("We will do our level best to fix the fabric before launch.", "CON001",
     'clause 1.1 is a vendor obligation ("We" + "will") that promises only \'do our level best\'' + NO_DATE),
    ("The Vendor shall make the best of its efforts to deliver the servers before June.", "CON001",
     'clause 1.1 is a vendor obligation ("Vendor" + "shall") that promises only \'make the best of its efforts\'' + NO_DATE),
    ("Efforts that are commercially reasonable will be made by the Operator to keep both feeds live.", "CON001",
     _vendor("obligation", "'Efforts that are commercially reasonable will be made'" + NO_DATE)),
    # CON005: space that comes free, servers that can be purchased, parts held in stock, lead times under a warranty
    ("The two cages will be handed to the Client once they come free.", "CON005",
     'clause 1.1 is a vendor obligation ("a passive: the vendor performs" + "will") that makes capacity \'once they come free\''
     + AVAILABILITY),
    ("The Vendor guarantees the nodes only if the servers can be purchased from its suppliers.", "CON005",
     'clause 1.1 is a vendor obligation ("Vendor" + "guarantees") that makes capacity \'only if the servers can be purchased\''
     + AVAILABILITY),
    ("Four-hour replacement applies only if the required part is held in stock at the depot.", "CON005",
     "clause 1.1 is an unattributed description that makes capacity 'only if the required part is held in stock'" + AVAILABILITY),
    ("Replacement GPU servers under the hardware-replacement warranty are subject to component lead times.", "CON005",
     "clause 1.1 is an unattributed description that makes capacity 'subject to component lead times'" + AVAILABILITY),
])
def test_blind_23_to_25_shapes_fire_with_their_message(tmp_path, text, rule, message):
    assert _messages(tmp_path, text) == [(rule, message)]


@pytest.mark.parametrize("text", [
    "Both sides will use reasonable efforts to agree the test plan.",  # both parties
    "Spare boards beyond those four are provided subject to availability.",  # beyond a count given in words
    "The Vendor shall not reassign the reserved servers, whatever the maker's supply position.",  # a concession
    "Receiving a credit does not stop the Client from terminating for chronic failure.",  # other remedies kept
])
def test_blind_23_to_25_shapes_that_stay_silent(tmp_path, text):
    assert _messages(tmp_path, text) == []
