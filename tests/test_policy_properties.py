"""Properties of selection, suppression parsing and baselines, over generated inputs."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings, strategies as st

from clusterlint.engine.selection import ALWAYS_ON, select
from clusterlint.engine.registry import builtin_rules
from clusterlint.policy.comments import parse

from conftest import FIXTURES, run_cli

IDS = sorted(builtin_rules())
AREAS = sorted({i.rstrip("0123456789") for i in IDS})
selector = st.sampled_from(["ALL"] + AREAS + IDS)
layer = st.tuples(st.one_of(st.none(), st.lists(selector, max_size=4)), st.lists(selector, max_size=3), st.lists(selector, max_size=3))


@settings(max_examples=300, deadline=None)
@given(st.lists(layer, min_size=1, max_size=3), selector)
def test_ignoring_more_never_enables_a_rule(layers, extra):
    before = select(IDS, layers)
    *rest, (chosen, extend, ignore) = layers
    after = select(IDS, [*rest, (chosen, extend, ignore + [extra])])
    assert after <= before
    assert set(ALWAYS_ON) <= after


@settings(max_examples=300, deadline=None)
@given(st.lists(layer, min_size=1, max_size=3))
def test_an_id_in_the_last_layer_decides_its_rule(layers):
    *rest, (chosen, extend, ignore) = layers
    rule = IDS[len(str(layers)) % len(IDS)]
    others = [i for i in ignore if i != rule]  # the same id in ignore wins the tie (documented)
    assert rule in select(IDS, [*rest, (chosen, extend + [rule], others)])
    assert rule not in select(IDS, [*rest, (chosen, extend, ignore + [rule])]) or rule in ALWAYS_ON


comment_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)
line = st.one_of(comment_text, st.builds(lambda a, b: f"{a} # clusterlint: {b}", comment_text, comment_text),
                 st.builds(lambda b: f"<!-- clusterlint: ignore[{b}] -->", comment_text))


@settings(max_examples=400, deadline=None)
@given(st.lists(line.map(lambda s: s.replace("\n", " ").replace("\r", " ")), max_size=12), st.booleans())
def test_suppression_parsing_never_fails_and_stays_in_the_file(lines, prose):
    found, malformed = parse([lines], prose, {})
    for s in found:
        assert 1 <= s.line <= len(lines) and all(1 <= n <= len(lines) for _, n in s.targets)
        assert s.file_wide or s.target is None or s.target >= s.line
    assert all(1 <= m.line <= len(lines) for m in malformed)


QUOTE = (FIXTURES / "NET003" / "bad.yaml").read_text(encoding="utf-8")
LINES = QUOTE.splitlines(keepends=True)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.integers(0, len(LINES)), st.integers(1, 3)), max_size=4))
def test_a_baseline_hides_every_finding_after_comment_lines_are_inserted(tmp_path, inserts):
    quote, baseline = tmp_path / "q.yaml", tmp_path / "b.json"
    quote.write_text(QUOTE, encoding="utf-8")
    assert run_cli("check", "--isolated", str(quote), "--write-baseline", str(baseline))[0] == 0
    lines = list(LINES)
    for at, count in sorted(inserts, reverse=True):
        indent = " " * (len(lines[at]) - len(lines[at].lstrip())) if at < len(lines) and lines[at].strip() else ""
        lines[at:at] = [f"{indent}# note\n"] * count
    quote.write_text("".join(lines), encoding="utf-8")
    code, out, _ = run_cli("check", "--isolated", "--format", "json", str(quote), "--baseline", str(baseline))
    data = json.loads(out)
    assert data["findings"] == [] and len(data["suppressed"]) == 2
