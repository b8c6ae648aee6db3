"""Reading suppression comments: where each one is, what it names, why, and which lines it covers."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from clusterlint.policy.comments import Suppression, clause_lines, parse


def comment(ids, reason, line, column, target, text, page=0, file_wide=False, targets=None, file="q.yaml"):
    """The Suppression expected: `targets` defaults to the target line alone."""
    if targets is None:
        targets = frozenset() if target is None else {(page, target)}
    return Suppression(ids, reason, line, column, page, file_wide, frozenset(targets), target, text, file=file)


def malformed(line, column, text, page=0, file="q.yaml"):
    return Suppression((), "", line, column, page, False, frozenset(), None, text, file=file)


YAML_CASES = [
    # a comment at the end of a line covers that line; its column is the '#'
    (["a: 1  # clusterlint: ignore[NET003] inference only"],
     [comment(("NET003",), "inference only", 1, 7, 1, "ignore[NET003] inference only")], []),
    # loose spacing inside the directive, several ids, blanks around them
    (["  b: 2 #clusterlint :ignore[ NET003 , STO001 ,] why"],
     [comment(("NET003", "STO001"), "why", 1, 8, 1, "ignore[ NET003 , STO001 ,] why")], []),
    # the reason stops at a further comment; separators before it are dropped
    (["c: 3  # clusterlint: ignore[NET003]: accepted # reviewed by ops # twice"],
     [comment(("NET003",), "accepted", 1, 7, 1, "ignore[NET003]: accepted")], []),
    (["c: 3  # clusterlint: ignore[NET003] — accepted"],
     [comment(("NET003",), "accepted", 1, 7, 1, "ignore[NET003] — accepted")], []),
    # no reason
    (["c: 3  # clusterlint: ignore[NET003]"], [comment(("NET003",), "", 1, 7, 1, "ignore[NET003]")], []),
    # on its own line it covers the next line that is neither blank nor a comment
    (["a: 1", "  # clusterlint: ignore[NET003] ok", "", "  # another comment", "  b: 2", "c: 3"],
     [comment(("NET003",), "ok", 2, 3, 5, "ignore[NET003] ok")], []),
    (["# clusterlint: ignore[NET003] ok", "b: 2"], [comment(("NET003",), "ok", 1, 1, 2, "ignore[NET003] ok")], []),
    # with nothing after it, it covers nothing
    (["a: 1", "# clusterlint: ignore[NET003] ok", "", "# end"], [comment(("NET003",), "ok", 2, 1, None, "ignore[NET003] ok")], []),
    # ignore-file covers the file: no target line
    (["# clusterlint: ignore-file[CON006] credits accepted", "a: 1"],
     [comment(("CON006",), "credits accepted", 1, 1, None, "ignore-file[CON006] credits accepted", file_wide=True)], []),
    # a '#' inside a value is not a comment
    (["name: 'a#clusterlint: ignore[NET003] x'"], [], []),
    # malformed: no brackets, empty brackets, blank ids, another verb
    (["a: 1  # clusterlint: ignore NET003 ok"], [], [malformed(1, 7, "ignore NET003 ok")]),
    (["a: 1  # clusterlint: ignore[] ok"], [], [malformed(1, 7, "ignore[] ok")]),
    (["a: 1  # clusterlint: ignore[ , ] ok"], [], [malformed(1, 7, "ignore[ , ] ok")]),
    (["a: 1", "    # clusterlint: disable[NET003] ok"], [], [malformed(2, 5, "disable[NET003] ok")]),
]


@pytest.mark.parametrize("lines, found, bad", YAML_CASES)
def test_yaml_comments(lines, found, bad):
    assert parse([lines], False, {}, "q.yaml") == (found, bad)


CONTRACT = [
    "# Master Services Agreement",                                            # 1
    "",                                                                       # 2
    "<!-- clusterlint: ignore[CON001] legal accepted-->",                     # 3
    "<!-- clusterlint: ignore[CON005] also accepted -->",                     # 4
    "",                                                                       # 5
    "## 4. Delivery",                                                         # 6
    "   // clusterlint: ignore[CON002] order form",                           # 7
    "4.2 The Provider will use commercially reasonable efforts to deliver",   # 8
    "the Cluster in the second quarter.",                                     # 9
    "# clusterlint: ignore[CON004]",                                          # 10
]


def test_contract_comments_cover_the_next_line_or_its_whole_clause():
    clauses = {(0, 8): {(0, 8), (0, 9)}}
    found, bad = parse([CONTRACT], True, clauses, "msa.md")
    assert bad == []
    assert found == [
        # a Markdown heading is not a comment: the comments above it cover the heading
        comment(("CON001",), "legal accepted", 3, 1, 6, "ignore[CON001] legal accepted", file="msa.md"),
        comment(("CON005",), "also accepted", 4, 1, 6, "ignore[CON005] also accepted", file="msa.md"),
        # the comment before a clause covers every line of the clause
        comment(("CON002",), "order form", 7, 1, 8, "ignore[CON002] order form", targets={(0, 8), (0, 9)}, file="msa.md"),
        comment(("CON004",), "", 10, 1, None, "ignore[CON004]", file="msa.md"),
    ]


def test_a_contract_comment_must_stand_on_its_own_line():
    assert parse([["The Provider # clusterlint: ignore[CON001] x"]], True, {}, "msa.txt") == ([], [])


def test_pages_are_numbered_from_one_when_there_are_several():
    pages = [["1. Terms", "Text."], ["// clusterlint: ignore[CON001] ok", "2. Delivery by best efforts."]]
    clauses = {(2, 2): {(2, 2), (3, 1)}}
    assert parse(pages, True, clauses, "msa.pdf") == ([
        comment(("CON001",), "ok", 1, 1, 2, "ignore[CON001] ok", page=2, targets={(2, 2), (3, 1)}, file="msa.pdf")], [])


def finding(rule="NET003", file="q.yaml", line=5, page=0, related=()):
    return SimpleNamespace(rule=rule, file=file, line=line, page=page,
                           related=tuple(SimpleNamespace(file=f, line=n, page=p) for f, p, n in related))


LINE = comment(("NET003", "STO001"), "ok", 4, 7, 5, "ignore[NET003, STO001] ok")
WHOLE_FILE = comment(("NET003",), "ok", 1, 1, None, "ignore-file[NET003] ok", file_wide=True)


@pytest.mark.parametrize("suppression, found, covered", [
    (LINE, finding(), True),
    (LINE, finding(rule="STO001"), True),
    (LINE, finding(rule="NET001"), False),                            # another rule
    (LINE, finding(line=6), False),                                   # another line
    (LINE, finding(page=1), False),                                   # another page
    (LINE, finding(file="other.yaml"), False),                        # the same line of another file
    (LINE, finding(file="other.yaml", related=[("q.yaml", 0, 5)]), True),   # names the covered line as a related place
    (LINE, finding(file="other.yaml", related=[("other.yaml", 0, 5), ("q.yaml", 0, 9)]), False),
    (WHOLE_FILE, finding(line=40), True),
    (WHOLE_FILE, finding(file="other.yaml"), False),
    (WHOLE_FILE, finding(rule="STO001"), False),
])
def test_what_a_suppression_covers(suppression, found, covered):
    assert suppression.covers(found) is covered


def test_clause_lines_map_each_clause_to_the_lines_it_spans():
    # segments are (offset, line, column, page); page None outside a PDF
    doc = SimpleNamespace(spans={
        (): [(0, 1, 1, None)],
        ("metadata", "title"): [(0, 1, 3, None)],
        ("spec", "clauses", 0, "text"): [(0, 8, 1, None), (70, 9, 1, None)],
        ("spec", "clauses", 1, "text"): [(0, 30, 1, 2), (50, 1, 1, 3)],
    })
    other = SimpleNamespace(spans={("spec", "clauses", 0, "text"): [(0, 4, 1, None)]})
    assert clause_lines([doc, other]) == {(0, 8): {(0, 8), (0, 9)}, (2, 30): {(2, 30), (3, 1)}, (0, 4): {(0, 4)}}
