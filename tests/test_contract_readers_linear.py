"""Every reader of document text runs in time linear in its input (issue 18).

Two checks, one static and one measured:
- every regular expression the package compiles at module level passes the same catastrophic-
  backtracking analysis user patterns get (`clusterlint.engine.backtracking`), or is listed below with the
  reason it is bounded;
- the whole contract review (segmentation, clause analysis, every contract rule) over generated
  text of digits, separators, whitespace and phrase prefixes costs about as much per byte at 256 KB
  as at 16 KB: a quadratic reader would cost 16 times more per byte.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
import signal
import time

import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st

import clusterlint
import clusterlint.rules
from clusterlint.contracts.folded import Folded
from clusterlint.engine.backtracking import problem
from clusterlint.check import Options, check

# Patterns the analysis flags but that cannot blow up, and why: a repeat bounded to a few dozen
# characters costs a constant factor, not a power of the input.
BOUNDED = {
    "clusterlint.readers.prose._RULE": "each repeat ends in the backreferenced mark, which a space cannot match: one way to split",
    "clusterlint.readers.layout._FRONT_KEY": "the value is at most 200 characters, and only front-matter lines are read",
    "clusterlint.rules.clauses.REMEDY": "the words between the verb and 'fees' are at most 40 characters",
    "clusterlint.rules.contract.REMEDY": "the same object as clusterlint.rules.clauses.REMEDY",
    "clusterlint.rules.contract._TERMINATION": "the words around 'terminate' are at most 80 characters",
    "clusterlint.rules.service._NCCL": "the words between 'nccl' and the figure, or after it, are at most 80 characters",
    "clusterlint.rules.service._DCGM": "the words between 'dcgm' and the level are at most 40 characters",
    "clusterlint.rules.service._BURN_IN": "the words between 'burn-in' and its length are at most 40 (before: 20) characters",
    "clusterlint.rules.service._DRAIN": "the words between the verb and 'out of service' or 'from service' are at most 30 characters",
}
SKIPPED_MODULES = {"clusterlint.server.lsp", "clusterlint.__main__"}  # the language server needs the lsp extra; __main__ runs the CLI


def _module_patterns():
    for package in (clusterlint, clusterlint.rules):
        for info in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            if info.name in SKIPPED_MODULES or info.ispkg:
                continue
            module = importlib.import_module(info.name)
            for name, value in vars(module).items():
                if isinstance(value, (re.Pattern, Folded)):  # a Folded pattern's fast form has the same shape, its letters lower-cased
                    yield f"{module.__name__}.{name}", value


def test_every_module_pattern_is_linear_or_bounded_for_a_stated_reason():
    patterns = dict(_module_patterns())
    assert len(patterns) > 60  # the readers were found: prose, clauses, obligations, sentences, evidence, ...
    flagged = {name for name, pattern in patterns.items() if problem(pattern.pattern, bool(pattern.flags & re.IGNORECASE))}
    assert flagged == set(BOUNDED)


def test_the_analysis_catches_the_shape_that_was_quadratic():
    # the definition reader before its whitespace was bounded: a line of spaces took minutes
    old = r"^[A-Z][\w\s/-]{0,60}?[\"”'’]?\s*(?:\([^)]{0,40}\)\s*)?,?\s*(?:means)\b"
    assert problem(old) and not problem(old.replace(r"\s*", r"\s{0,3}"))


ATOMS = ["1", "9999", ",", ".", ";", " ", "  ", "\t", "\n", "-", "(a)", "%", "$", "USD ", "credit of ", "within ",
         "section ", "1.2 ", "commercially reasonable ", "efforts ", "Provider will ", "\"Term\" means ", "**", "# "]


def _document(unit: str, size: int) -> bytes:
    """`size` bytes: a clause whose middle is `unit` repeated, closed by words (a run at the very end
    would be trimmed away with the line's trailing whitespace)."""
    head, tail = "# Order Form\n\n1. Pricing\n\n1.1 The Provider charges ", "b per GPU-hour.\n"
    middle = size - len(head) - len(tail)
    return (head + (unit * (middle // len(unit) + 1))[:middle] + tail).encode("utf-8")


class _OverBudget(Exception):
    pass


def _cost(data: bytes, budget: float = 0.0) -> float:
    """CPU seconds of reviewing `data` as a Markdown contract (the best of three runs). With a
    `budget`, a run longer than it (wall seconds) stops with _OverBudget: a quadratic reader fails
    the test in seconds instead of hanging it (the regex engine checks for signals)."""
    def stop(*_):
        raise _OverBudget

    best = float("inf")
    for _ in range(3):
        previous = signal.signal(signal.SIGALRM, stop)
        signal.setitimer(signal.ITIMER_REAL, budget)
        try:
            start = time.process_time()
            check(Options(paths=("terms.md",), buffers={"terms.md": data}))
            best = min(best, time.process_time() - start)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
    return best


def _per_byte_ratio(unit: str) -> float:
    small, large = 16 * 1024, 256 * 1024
    try:  # 16 KB takes a few milliseconds; at 256 KB linear is 16 times that, and 100 times allows for noise
        small_cost = _cost(_document(unit, small), budget=10.0)
        large_cost = _cost(_document(unit, large), budget=max(2.0, 100 * small_cost))
    except _OverBudget:
        return float("inf")
    return (large_cost / large) / (small_cost / small)


@settings(max_examples=6, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(ATOMS), min_size=1, max_size=6).map("".join))
@example("1,")  # a table of figures
@example("9")  # one digit run
@example(" ")  # one whitespace run
@example("commercially reasonable ")  # phrase prefixes
@example("\"Term\" ")  # a definition that never says "means"
def test_contract_review_cost_per_byte_is_flat_from_16_to_256_kb(unit):
    ratio = _per_byte_ratio(unit)
    if 3 < ratio < float("inf"):  # a busy machine can slow one measurement; a quadratic reader stays slow
        ratio = min(ratio, _per_byte_ratio(unit))
    assert ratio <= 3, f"{unit!r}: " + ("a run went over its time budget" if ratio == float("inf") else f"{ratio:.1f}x the cost per byte at 256 KB")


@pytest.mark.parametrize("phrases, text, found", [
    (["subject to availability"], "GPUs, subject to  availability.", ["subject to  availability"]),
    (["(?:commercially )?reasonable efforts"], "uses reasonable efforts", ["reasonable efforts"]),
    (["99.9% uptime", "best efforts"], "a 99.9% uptime target", ["99.9% uptime"]),  # a phrase that starts with a digit
    (["(?:x)?y"], "a y", ["y"]),
])
def test_the_letter_look_ahead_keeps_what_every_phrase_matches(phrases, text, found):
    from clusterlint.rules.clauses import phrase_pattern

    assert [m.group(0) for m in phrase_pattern(phrases).finditer(text)] == found


def test_only_phrase_lists_that_start_with_letters_get_the_look_ahead():
    from clusterlint.engine.backtracking import starts_with_letter

    assert [starts_with_letter(p) for p in ("abc", "(?:foo )?bar", "[a-z]+", "(?:goal|aim) is", "(?<=our )goal")] == [True] * 5
    assert [starts_with_letter(p) for p in ("99.9%", r"\d+ days", "(?:a|1)x", "(?:x)?", r"\w+", "[", "“best”")] == [False] * 7


def test_every_built_in_phrase_list_passes_the_check_a_user_list_gets_on_every_run():
    from clusterlint._generated.builtin_data import RULES
    from clusterlint.rules.clauses import _builtin_phrase_lists, check_phrases

    lists = _builtin_phrase_lists()
    assert len(lists) == sum("phrases" in (rule.get("params") or {}) for rule in RULES.values()) >= 2  # CON001, CON005
    for phrases in lists:
        check_phrases(list(phrases))  # raises ValueError with the reason
    with pytest.raises(ValueError, match="exponential or polynomial time"):
        check_phrases(["(a+)+b"])
