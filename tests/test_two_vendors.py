"""The two-vendor comparison of specs/README.md: its figures recomputed by hand (within 1%), the prose
order form paired with its quote (its findings counted in its row), the recommendation and its reason,
and every figure `estimate` and `compare` print carrying a formula and sources."""

from __future__ import annotations

import json
import math

from conftest import SPECS, run_cli

KESTREL, BRIGHTLINE = str(SPECS / "kestrel-h100-quote.yaml"), str(SPECS / "brightline-h100-quote.yaml")
ORDER_FORM = str(SPECS / "brightline-order-form.md")
ARGS = ("--workload", str(SPECS / "cpt8b-workload.yaml"), "--contract", f"{BRIGHTLINE}={ORDER_FORM}")
PEAK, MFU, MONTH_H = 989.4e12, 0.4, 730.5


def _compare(*extra):
    code, out, err = run_cli("compare", KESTREL, BRIGHTLINE, *ARGS, "--format", "json", *extra)
    assert code == 0, err
    return json.loads(out)


def _by_hand(per_gpu_bps: float, oversubscription: float, shared: float, write_bps: float, availability: float):
    train = 6 * 8e9 * 1e12 / (128 * PEAK * MFU)
    step = 6 * 8e9 * 512 * 8192 / (128 * PEAK * MFU)
    # tensor 2 on 128: data 64; 8 // 2 = 4 replicas of a shard in each 8-GPU node, 64 / 4 = 16 domains; the hierarchical
    # all-reduce puts 2 x 15/16 x (8B x 2 bytes / 2) / 4 = 3.75 GB on each accelerator's share of the NICs
    network = 2 * 15 / 16 * 8e9 * 2 / 2 / 4 * 8 / (per_gpu_bps * 0.8 / oversubscription * shared) * 0.5 / step
    checkpoints = 8e9 * 14 / write_bps / 3600
    return train, network, train * (1 + network + checkpoints) / availability


def test_the_figures_match_a_hand_calculation():
    report = _compare()
    quotes = {q["name"]: q for q in report["quotes"]}
    kestrel, bright = quotes["kestrel-h100-16-nodes"]["estimate"], quotes["brightline-h100-16-nodes"]["estimate"]
    train, network, effective = _by_hand(400e9, 1, 1, 100e9, 0.995)
    for key, want in (("time", train), ("network", network), ("effective_time", effective)):
        assert math.isclose(kestrel[key]["value"], want, rel_tol=0.01), key
    assert math.isclose(kestrel["cost"]["value"], 128 * MONTH_H * 2.89 + (4e12 + 3 * 112e9) / 1e9 * 0.02, rel_tol=0.01)
    train, network, effective = _by_hand(100e9, 2, 0.5, 2e9, 0.99)  # the credit table's top tier, 99.0%
    for key, want in (("time", train), ("network", network), ("effective_time", effective)):
        assert math.isclose(bright[key]["value"], want, rel_tol=0.01), key
    assert math.isclose(bright["cost"]["value"], 128 * 3 * MONTH_H * 1.99, rel_tol=0.01)  # the 3-month reservation, owed in full
    assert math.isclose(bright["usage"]["value"], 128 * effective / 3600 * 1.99, rel_tol=0.01)
    assert bright["availability"]["sources"][0].startswith("contract credit table after clause 3.2")
    assert bright["commitment"]["sources"][1] == "term: contract clause 1.2: '1.2 The Reservation Term is three (3) months from the Delivery Date.'"


def test_the_order_form_counts_in_its_quote_and_the_better_built_quote_wins():
    report = _compare()
    first, second = report["quotes"]
    assert (first["name"], second["name"]) == ("kestrel-h100-16-nodes", "brightline-h100-16-nodes")
    assert second["contract"] == "specs/brightline-order-form.md" and "CON003" in second["errors"]
    assert {"CON003", "CON006", "CON007"} <= set(second["contract_flags"]) and second["lockin"] == ["LCK004"]
    assert first["not_run"] == second["not_run"] == ["DLV"]  # no evidence before purchase: no grade, not 100
    assert report["recommendation"] == (
        "Recommended: kestrel-h100-16-nodes (specs/kestrel-h100-quote.yaml): it meets the deadline (11.16 days) and the budget "
        "(270,313 USD owed) with no error findings; brightline-h100-16-nodes would need its error findings fixed (CON003, SEC001) and "
        "a cost owed below 270,313 USD (it has 558,219 USD).")
    # without the pairing the order form is not read: no contract findings, no price, no cost
    code, out, _ = run_cli("compare", KESTREL, BRIGHTLINE, "--workload", str(SPECS / "cpt8b-workload.yaml"), "--format", "json")
    alone = {q["name"]: q for q in json.loads(out)["quotes"]}["brightline-h100-16-nodes"]
    assert alone["contract_flags"] == ["no contract"] and "cost" not in alone["estimate"] and "CON" in alone["not_run"]


def test_an_errored_quote_is_never_recommended_silently():
    # ranked by cost, AWS's on-demand 2.6M USD beats forge's 4.7M USD reservation, errors and all: the sentence says so
    code, out, _ = run_cli("compare", str(SPECS / "aws-p5-48xlarge.yaml"), str(SPECS / "forge-h100-quote.yaml"),
                           "--workload", str(SPECS / "llama70b-pretrain.yaml"), "--rank-by", "cost", "--format", "json")
    assert json.loads(out)["recommendation"] == (
        "Recommended: aws-p5-32-nodes (specs/aws-p5-48xlarge.yaml): it misses the deadline with 3 error findings (CON003, CST002, SEC001); "
        "forge-h100-64-nodes would need a cost owed below 2,607,956 USD (it has 4,713,247 USD). "
        "Warning: aws-p5-32-nodes has error findings; forge-h100-64-nodes has none but ranks below by cost.")


def test_a_contract_pairing_names_one_of_the_quotes():
    code, _, err = run_cli("compare", KESTREL, *ARGS[:2], "--contract", f"specs/nowhere.yaml={ORDER_FORM}")
    assert code == 2 and "specs/nowhere.yaml is not one of the quotes" in err
    code, _, err = run_cli("compare", KESTREL, *ARGS[:2], "--contract", ORDER_FORM, "--contract", ORDER_FORM)
    assert code == 2 and "a second contract for every quote" in err


def _walk(node, where=""):
    """Every figure line (a dict with a numeric value) under `node`, with its place."""
    if isinstance(node, dict):
        if "value" in node and "how" in node and isinstance(node["value"], (int, float)) and not isinstance(node["value"], bool):
            yield where, node
        for key, value in node.items():
            yield from _walk(value, f"{where}.{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _walk(value, f"{where}[{i}]")


def test_every_figure_printed_has_a_formula_and_sources():
    compared = _compare()
    code, out, _ = run_cli("estimate", KESTREL, BRIGHTLINE, *ARGS, "--format", "json")
    estimated = json.loads(out)
    figures = list(_walk(compared)) + list(_walk(estimated))
    assert len(figures) > 40
    for where, line in figures:
        assert line["how"] and line["sources"] and all(line["sources"]), where
    for quote in compared["quotes"]:  # the bare numbers of a row are the figures' own
        assert quote["storage_headroom"] == quote["figures"]["headroom"]["value"]
        assert quote["inter_node_per_accelerator_bps"] == quote["figures"]["per_accelerator"]["value"]


def test_a_quote_names_its_own_contract(tmp_path):
    # metadata.contract, relative to the quote: compare pairs them as --contract QUOTE=FILE does, and the command line wins
    (tmp_path / "paper").mkdir()
    (tmp_path / "paper" / "order-form.md").write_text(open(ORDER_FORM, encoding="utf-8").read(), encoding="utf-8")
    quote = tmp_path / "brightline.yaml"
    text = open(BRIGHTLINE, encoding="utf-8").read()
    flow = "offering: rent}"
    assert text.count(flow) == 1
    quote.write_text(text.replace(flow, "offering: rent, contract: paper/order-form.md}"), encoding="utf-8")
    code, out, err = run_cli("compare", KESTREL, str(quote), "--workload", str(SPECS / "cpt8b-workload.yaml"), "--format", "json")
    assert code == 0, err
    named = {q["name"]: q for q in json.loads(out)["quotes"]}["brightline-h100-16-nodes"]
    assert named["contract"].endswith("paper/order-form.md") and "CON003" in named["errors"]
    assert math.isclose(named["estimate"]["cost"]["value"], 128 * 3 * MONTH_H * 1.99, rel_tol=0.01)
    # check reads it too: the order form's findings come with the quote's
    code, out, _ = run_cli("check", str(quote), "--workload", str(SPECS / "cpt8b-workload.yaml"), "--format", "json")
    found = json.loads(out)["findings"]
    assert code == 1 and any(f["rule"] == "CON003" and f["file"].endswith("paper/order-form.md") for f in found)
    # a named file that is not there is a usage error saying where it is named
    quote.write_text(text.replace(flow, "offering: rent, contract: paper/missing.md}"), encoding="utf-8")
    code, _, err = run_cli("compare", KESTREL, str(quote), "--workload", str(SPECS / "cpt8b-workload.yaml"))
    assert code == 2 and "metadata.contract 'paper/missing.md': no such file" in err and "brightline.yaml:10:" in err
    code, _, err = run_cli("check", str(quote))
    assert code == 2 and "brightline.yaml:10:" in err and "metadata.contract 'paper/missing.md': no such file" in err


def test_the_html_comparison_shows_areas_not_run_and_every_term_of_the_time():
    code, html, err = run_cli("compare", KESTREL, BRIGHTLINE, *ARGS, "--format", "html")
    assert code == 0, err
    # DLV needs acceptance evidence: no rule judged it before purchase, so no 100 in either scorecard
    assert html.count("<td class=\"muted\">not run</td>") == 2
    assert "(1 + exposed network share + checkpoint stall share + dataloader stall share) / availability" in html
    assert "(1 + checkpoint overhead)" not in html
