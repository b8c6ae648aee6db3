"""`engine.regex_syntax`: our own reader of `re` patterns (issue 36, no private interpreter APIs).

- the catastrophic-backtracking analysis over its tree gives every pattern the package and its
  built-in phrases hold, and the known catastrophic shapes, the verdict the analysis over CPython's
  private parser gave before issue 36 (frozen in `backtracking_verdicts.json`; compared on about
  170,000 generated patterns when it was replaced, with no difference but the (?i:...) groups and
  conditional groups the old one did not read);
- the reader never raises on a pattern `re.compile` accepts;
- nothing in the package imports the private parser.
"""

from __future__ import annotations

import json
import re
import warnings

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import ROOT
from clusterlint.engine.backtracking import problem, starts_with_letter
from clusterlint.engine.regex_syntax import Node, Parsed, Unsupported, parse

CATASTROPHIC = [r"(a+)+$", r"(\w+\s?)*", r"\d+\d+x", r".*\s*", r"(aa?)*", r"(a|aa)*", r"(?:\s*,)*\s*x", r"(x+x+)+y", r"^(\s*\w+)*$",
                r"(?>a+)+b", r"(a*)*?b", r"(a++)+b", r"(?P<w>\w+)(?P=w)+", r"(\w)\1*\w*", r"(?i:a)+A+", r"(?x) a + a +", r"(?s).*.*=",
                r"\d{1,20}\d+"]
# shapes that look catastrophic but that both analyses accept, and why
ACCEPTED = {
    r"(a|ab)*": "re reads it as (?:a(?:|b))*: each iteration starts with the one a, so a run splits one way",
    r"(?:a|a)*b": "re reads it as (?:a(?:|))*b, the same",
    r"([ab]|a)*": "re makes one class of alternatives of one character each: [ab]*",
    r"(\d|\w)+!": r"the same: [\d\w]+!",
    r"\d{1,16}\d+": "a repeat of at most 16 counts as bounded: a constant factor",
    r"a(?=(a+)+$)": "a look-around's body is not analysed (as before issue 36)",
}
SAFE = [r"\d+(?:[.,]\d+)*", r"\d{1,3}(?:,\d{3})*", r"(?:cat|dog)+s", r"sole (and exclusive )?remedy", r"foo.*bar", r"(a|ab)*c"]


def _module_pattern_cases():
    from test_contract_readers_linear import _module_patterns

    return [(name, value.pattern, bool(value.flags & re.IGNORECASE)) for name, value in _module_patterns()]


def _phrase_cases():
    from clusterlint._generated.builtin_data import RULES
    from clusterlint.rules.clauses import _gaps, _joined

    lists = [rule["params"]["phrases"] for rule in RULES.values() if "phrases" in (rule.get("params") or {})]
    cases = [(p, True) for phrases in lists for p in phrases]
    cases += [(_gaps(p), True) for phrases in lists for p in phrases]  # as check_phrases analyses them
    return cases + [(_joined([_gaps(p) for p in phrases]), True) for phrases in lists]


FROZEN = json.loads((ROOT / "tests" / "backtracking_verdicts.json").read_text(encoding="utf-8"))["verdicts"]
READ_SINCE = {(r"(?i:a)+A+", False): "two repeats in a row can match the same characters, as \\d+\\d+ does"}  # a (?i:...) group is read now


def test_the_package_and_built_in_patterns_get_the_verdict_the_private_parser_gave():
    frozen = {(row[0].encode("latin-1") if row[3:] == ["bytes"] else row[0], row[1]): row[2] for row in FROZEN}
    cases = [(pattern, ignore_case) for _, pattern, ignore_case in _module_pattern_cases()] + _phrase_cases()
    cases += [(p, ignore_case) for p in CATASTROPHIC + list(ACCEPTED) + SAFE for ignore_case in (False, True)]
    assert len(frozen) > 400 and len(cases) > 150
    new = [case for case in cases if case not in frozen]  # a pattern added since: the analysis judges it, no reference
    assert len(new) < len(cases) / 4, "most of the package's patterns are in the frozen table: regenerate it when they change"
    differ = {case: problem(*case) for case in cases if case in frozen and problem(*case) != frozen[case]}
    assert differ == {case: reason for case, reason in READ_SINCE.items() if case in frozen}
    assert all(problem(p) for p in CATASTROPHIC)
    assert not any(problem(p) for p in list(ACCEPTED) + SAFE)


def test_starts_with_letter_reads_every_built_in_phrase_as_before():
    from clusterlint._generated.builtin_data import PHRASE_STARTS_WITH_LETTER

    assert len(PHRASE_STARTS_WITH_LETTER) > 20
    for phrase, known in PHRASE_STARTS_WITH_LETTER.items():
        assert starts_with_letter(phrase) == known, phrase


def test_no_module_imports_the_interpreters_private_parser():
    private = re.compile(r"re\._|sre_")
    found = [f"{path.relative_to(ROOT)}:{n}" for folder in ("linter", "rules") for path in sorted((ROOT / folder).rglob("*.py"))
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if private.search(line)]
    assert found == []


@pytest.mark.parametrize("pattern, items", [
    ("a|ab", [Node("char", 97), Node("branch", ([], [Node("char", 98)]))]),  # the shared start moved out, as re does
    ("ab|[cd]", [Node("branch", ([Node("char", 97), Node("char", 98)], [Node("set", (False, (("lit", 99), ("lit", 100))))]))]),
    ("x|[yz]", [Node("set", (False, (("lit", 120), ("lit", 121), ("lit", 122))))]),
    (r"[^\d_a-c]", [Node("set", (True, (("cat", "d"), ("lit", 95), ("range", 97, 99))))]),
    ("[]a-]", [Node("set", (False, (("lit", 93), ("lit", 97), ("lit", 45))))]),
    ("[a]", [Node("char", 97)]),
    (r"\x41\u00e9\U0001F600\N{EM DASH}\101\0\n[\b]", [Node("char", c) for c in (0x41, 0xE9, 0x1F600, 0x2014, 0o101, 0, 10, 8)]),
    (r"^\A\b\B\Z$", [Node("at", a) for a in ("^", "A", "b", "B", "Z", "$")]),
    (r"(?:ab)c", [Node("char", 97), Node("char", 98), Node("char", 99)]),  # a plain group is only a bracket
    (r"(?:ab)*?", [Node("repeat", (0, None, [Node("char", 97), Node("char", 98)], "lazy"))]),
    (r"(?P<n>a)(?P=n)\1", [Node("group", (1, "", [Node("char", 97)])), Node("ref", 1), Node("ref", 1)]),
    (r"(?i:a)(?s-i:.)", [Node("group", (None, "i", [Node("char", 97, True)])), Node("group", (None, "s-i", [Node("any", None)]))]),
    (r"(?=a)(?<!b)(?>c)", [Node("look", (False, False, [Node("char", 97)])), Node("look", (True, True, [Node("char", 98)])),
                           Node("atomic", [Node("char", 99)])]),
    (r"a{2}b{2,}c{,3}d{1,4}+e{x{}", [Node("repeat", (2, 2, [Node("char", 97)], "greedy")), Node("repeat", (2, None, [Node("char", 98)], "greedy")),
                                     Node("repeat", (0, 3, [Node("char", 99)], "greedy")), Node("repeat", (1, 4, [Node("char", 100)], "possessive")),
                                     *[Node("char", ord(c)) for c in "e{x{}"]]),
    ("(?x) a b # c\n \\ ", [Node("char", 97), Node("char", 98), Node("char", 32)]),
    ("a(?#x\\)y)+", [Node("repeat", (1, None, [Node("char", 97)], "greedy"))]),
])
def test_the_tree_has_the_shape_re_gives_the_pattern(pattern, items):
    assert parse(pattern) == Parsed(items, ignore_case=pattern.startswith("(?i)"))


@pytest.mark.parametrize("pattern, reason", [
    ("(a)?(?(1)b|c)", "it holds a conditional group (?(...)...), which the analysis does not read"),
    ("(a)+(?(1)(b+)+|c)", "it holds a conditional group (?(...)...), which the analysis does not read"),
    ("a(?i)b", "it sets flags for the whole pattern after its start, which the analysis does not read"),
    ("(a", "it is not a valid regular expression: missing ), unterminated subpattern at position 2"),
    ("a)", "it is not a valid regular expression: unbalanced parenthesis at position 1"),
    ("*", "it is not a valid regular expression: nothing to repeat at position 1"),
    ("[z-a]", "it is not a valid regular expression: bad character range at position 4"),
    ("\\q", "it is not a valid regular expression: bad escape \\q at position 2"),
    ("(" * 2000, "its groups are nested too deeply to read"),
])
def test_what_the_reader_does_not_read_is_refused_with_the_reason(pattern, reason):
    assert parse(pattern) == Unsupported(reason)
    assert problem(pattern) == reason and starts_with_letter(pattern) is False


def test_flags_for_the_whole_pattern_at_its_start_are_read():
    assert parse("(?i)(?x) a").ignore_case and parse("(?i)(?x) a").items == [Node("char", 97)]
    assert parse(b"\\xe9+").items == [Node("repeat", (1, None, [Node("char", 0xE9)], "greedy"))]  # bytes as re numbers them


_ATOMS = ["a", "b", "A", "x", " ", "é", ".", r"\d", r"\w", r"\s", r"\W", "[ab]", "[^a]", "[a-z]", r"[\d-]", "[]a]", r"\.", r"\x41",
          r"\141", r"\0", r"\1", r"\b", "^", "$", r"\Z", "(?=a)", "(?<!b)", "(?#c)", "{", "x{2", "(?(1)a|b)", "(?-i:a)", "(?s:.)"]
_REPEATS = ["*", "+", "?", "{2}", "{1,}", "{0,20}", "{,3}", "{3,5}?", "*?", "++", "?+"]


def _pattern():
    def group(children):
        return st.tuples(st.sampled_from(["(", "(?:", "(?i:", "(?>", "(?P<g>"]), st.integers(0, 99), st.lists(children, min_size=1, max_size=3)).map(
            lambda t: t[0].replace("<g>", f"<g{t[1]}>") + "|".join(t[2]) + ")")

    def repeated(children):
        return st.tuples(children, st.sampled_from(_REPEATS)).map(lambda t: f"(?:{t[0]}){t[1]}")

    base = st.sampled_from(_ATOMS)
    tree = st.recursive(base, lambda c: st.one_of(group(c), repeated(c), st.lists(c, min_size=1, max_size=3).map("".join)), max_leaves=12)
    return st.tuples(st.sampled_from(["", "(?i)", "(?x)"]), tree, st.sampled_from(["", "a+", r"\w*", "x", ".*"])).map("".join)


def _compiles(pattern) -> bool:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            re.compile(pattern)
    except (re.error, OverflowError, RecursionError, ValueError):
        return False
    return True


_SYNTAX = st.sampled_from(list("()[]{}?*+|^$.\\-:=!<>#,0123456789aAbBdDsSwWxuUNPgimsx_ \n{}é"))


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(st.one_of(st.text(_SYNTAX, max_size=30), st.text(max_size=30), _pattern()))
def test_the_reader_never_raises_on_a_pattern_re_compiles(pattern):
    result = parse(pattern)
    assert isinstance(result, (Parsed, Unsupported))
    assert isinstance(problem(pattern), (str, type(None))) and isinstance(starts_with_letter(pattern), bool)
    if _compiles(pattern) and isinstance(result, Unsupported):
        assert "not a valid regular expression" not in result.reason, pattern  # what re accepts, the reader reads
