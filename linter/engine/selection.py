"""Which rules run: selectors (ALL, an area such as NET, an id such as NET003) in layers of select,
extend-select and ignore. The rules that say a file was not read are always on."""

from __future__ import annotations

ALWAYS_ON = {"SPEC001": "a file that does not load", "SPEC002": "an invalid document", "SPEC005": "a quantity without a unit"}


def _specificity(selector: str) -> int:
    return 0 if selector == "ALL" else 2 if selector[-1].isdigit() else 1


def matches(selector: str, rule_id: str) -> bool:
    return selector == "ALL" or selector == rule_id or selector == rule_id.rstrip("0123456789")


def most_specific(rule_id: str, choices) -> object:
    """The value of the most specific (selector, value) pair matching `rule_id` (an id over an
    area over ALL; a later pair wins a tie), or None when none matches."""
    best = None
    for selector, value in choices:
        if matches(selector, rule_id) and (best is None or _specificity(selector) >= best[0]):
            best = (_specificity(selector), value)
    return best and best[1]


def select(rule_ids, layers) -> set:
    """The ids enabled by layers of (select or None, extend-select, ignore), applied in order.

    Within a layer the most specific matching selector decides (an id over an area over ALL), and
    at equal specificity ignore wins; a rule no selector of a layer names keeps its state, unless
    the layer has a `select`, which starts from nothing (as in ruff).
    """
    enabled: set = set()
    for chosen, extend, ignore in layers:
        base = set() if chosen is not None else enabled
        choices = [(s, True) for s in list(chosen or []) + list(extend)] + [(s, False) for s in ignore]  # ignore last: it wins ties
        decided = {rule_id: most_specific(rule_id, choices) for rule_id in rule_ids}
        enabled = {rule_id for rule_id, on in decided.items() if on or (on is None and rule_id in base)}
    return enabled | (set(ALWAYS_ON) & set(rule_ids))
