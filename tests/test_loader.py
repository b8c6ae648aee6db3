"""The loader: positions, duplicate keys, safe tags, and hostile input that must not hang."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from clusterlint.readers.loader import MAX_BYTES, load_bytes, load_text


def test_positions_are_one_based_line_and_column():
    loaded = load_text("a:\n  b: [1, 2]\n  c: {d: x}\n", "f.yaml")
    doc = loaded.documents[0]
    assert doc.locate(("a", "b", 1)) == (2, 10)
    assert doc.locate(("a", "c", "d")) == (3, 10)
    assert doc.locate(("a",)) == (1, 1)
    assert doc.locate(("a", "missing", "deeper")) == (1, 1)


def test_multiple_documents():
    loaded = load_text("a: 1\n---\nb: 2\n", "f.yaml")
    assert [d.data for d in loaded.documents] == [{"a": 1}, {"b": 2}]
    assert loaded.documents[1].locate(("b",)) == (3, 4)


def test_duplicate_key_is_reported_at_the_repeat():
    loaded = load_text("a: 1\nb: 2\na: 3\n", "f.yaml")
    assert [(p.rule, p.line, p.column, p.message) for p in loaded.problems] == [
        ("SPEC003", 3, 1, "key 'a' repeats the key on line 1; YAML keeps only one of them")
    ]
    assert loaded.documents[0].data == {"a": 1, "b": 2}


def test_syntax_error_has_position():
    loaded = load_text("a: [1, 2\nb: 3\n", "f.yaml")
    (problem,) = loaded.problems
    assert (problem.rule, problem.line) == ("SPEC001", 2)
    assert problem.message.startswith("invalid YAML:")


def test_python_tags_are_refused():
    loaded = load_text("a: !!python/object/apply:os.system ['true']\n", "f.yaml")
    assert loaded.problems[0].rule == "SPEC001"
    assert "is not allowed" in loaded.problems[0].message
    assert loaded.documents == []


def test_alias_bomb_stops_quickly():
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [*a{i-1}, *a{i-1}, *a{i-1}, *a{i-1}, *a{i-1}, *a{i-1}, *a{i-1}, *a{i-1}, *a{i-1}, *a{i-1}]" for i in range(1, 10)]
    loaded = load_text("\n".join(lines) + "\n", "bomb.yaml")
    assert [p.rule for p in loaded.problems] == ["SPEC001"]
    assert "alias bomb" in loaded.problems[0].message


def test_deep_nesting_is_refused():
    # Below any YAML parser's own limit, clusterlint's limit is the one that speaks.
    loaded = load_text("a: " + "[" * 100 + "]" * 100 + "\n", "deep.yaml")
    assert [p.rule for p in loaded.problems] == ["SPEC001"]
    assert loaded.problems[0].message == "document is nested more than 64 levels deep"
    assert loaded.documents == []


def test_nesting_past_the_parsers_limit_is_a_spec001_not_a_crash():
    # libyaml (PyYAML >= 6.0.4) stops at about 1,000 levels with its own words; whichever limit
    # speaks, the result is one SPEC001 on line 1 and no document. The wording is the parser's.
    loaded = load_text("a: " + "[" * 5000 + "]" * 5000 + "\n", "deep.yaml")
    assert [p.rule for p in loaded.problems] == ["SPEC001"]
    assert loaded.problems[0].line == 1
    assert loaded.documents == []


def test_size_limit_binary_and_encoding():
    big = load_bytes(b"a: 1\n" * (MAX_BYTES // 5 + 1), "big.yaml")
    assert big.problems[0].message.startswith("file is 4.0 MiB, over the 4 MiB limit")
    binary = load_bytes(b"\x00\x01\x02", "bin.yaml")
    assert binary.problems[0].message == "binary file: not YAML text"
    latin = load_bytes("a: 1\nb: caf\xe9\n".encode("latin-1"), "latin.yaml")
    assert (latin.problems[0].line, latin.problems[0].column) == (2, 7)
    assert "not valid UTF-8: byte 0xe9" in latin.problems[0].message


def test_empty_file_has_no_documents_and_no_problems():
    loaded = load_bytes(b"", "empty.yaml")
    assert (loaded.documents, loaded.problems) == ([], [])


def test_windows_line_endings_keep_positions():
    doc = load_bytes(b"a:\r\n  b: 1\r\n", "crlf.yaml").documents[0]
    assert doc.locate(("a", "b")) == (2, 6)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_loader_never_crashes_and_positions_lie_in_the_file(text):
    loaded = load_text(text, "any.yaml")
    n_lines = max(1, text.count("\n") + 1)
    for problem in loaded.problems:
        assert 1 <= problem.line <= n_lines + 1
        assert problem.column >= 1
    for doc in loaded.documents:
        for line, column in doc.positions.values():
            assert 1 <= line <= n_lines + 1 and column >= 1


def test_aliases_replay_their_anchor_with_its_positions_and_count_against_the_budget():
    loaded = load_text("a: &A {x: &X 1, y: [2, 3]}\nb: *A\nc: *X\n", "alias.yaml")
    doc = loaded.documents[0]
    assert doc.data == {"a": {"x": 1, "y": [2, 3]}, "b": {"x": 1, "y": [2, 3]}, "c": 1}
    assert doc.positions[("b", "y", 1)] == (1, 24)  # where the anchored text is written
    assert doc.key_positions[("b",)] == (2, 1)
    assert loaded.problems == []


def test_an_alias_inside_the_node_it_names_is_refused():
    loaded = load_text("a: &A [1, *A]\n---\nb: 2\n", "loop.yaml")
    assert [(p.rule, p.message, p.line, p.column) for p in loaded.problems] == [
        ("SPEC001", "alias *A is inside the node it names: a structure that never ends", 1, 11)]
    assert [d.data for d in loaded.documents] == [{"b": 2}]


def test_a_repeated_keys_value_is_not_read():
    loaded = load_text("a: 1\na: {b: 010}\n", "dup.yaml")
    assert [(p.rule, p.line, p.column) for p in loaded.problems] == [("SPEC003", 2, 1)]  # not also SPEC001 for 010


def test_a_document_that_does_not_parse_reports_only_its_syntax_error():
    loaded = load_text("a: 1\n---\nb: 010\nc: !!python/name x\nd: {\n", "broken.yaml")
    assert [d.data for d in loaded.documents] == [{"a": 1}]
    assert [p.message.split(":")[0] for p in loaded.problems] == ["invalid YAML"]
    assert loaded.problems[0].line == 5


def test_a_null_document_is_kept_and_an_empty_one_skipped():
    loaded = load_text("---\n---\n~\n---\n", "docs.yaml")
    assert [(d.index, d.data) for d in loaded.documents] == [(1, None)]


@given(st.from_regex(r"-?(?:0|[1-9][0-9]{0,30})(?:\.[0-9]{1,10})?", fullmatch=True))
@settings(max_examples=200, deadline=None)
def test_numbers_read_alike_in_yaml_11_and_12_raise_nothing(text):
    import yaml

    loaded = load_text(f"a: {text}\n", "n.yaml")
    old = yaml.safe_load(f"a: {text}")["a"]  # PyYAML reads YAML 1.1
    assert loaded.problems == []
    assert type(loaded.documents[0].data["a"]) is type(old) and loaded.documents[0].data["a"] == old


def test_a_scalar_written_again_is_reported_again_at_its_own_place():
    """A scalar's reading is worked out once per text for the whole run; every occurrence, in every
    file, still reports its own problem at its own line and column."""
    ambiguous = ("'010' is the number 10 in YAML 1.2 (JSON Schema, editors) but the number 8 in YAML 1.1: "
                 "write the number as 10, or quote the text")
    for file in ("a.yaml", "b.yaml"):
        loaded = load_text("a: 010\nb:\n  - x\n  - 010\n", file)
        assert [(p.rule, p.message, p.line, p.column) for p in loaded.problems] == [
            ("SPEC001", ambiguous, 1, 4), ("SPEC001", ambiguous, 4, 5)]
        assert loaded.documents[0].data == {"a": 10, "b": ["x", 10]}
        refused = load_text("n: 1\nc: !!float abc\n", file)
        assert [(p.message, p.line, p.column) for p in refused.problems] == [
            ("'abc' cannot be read as float: could not convert string to float: 'abc'", 2, 4)]
        assert refused.documents == []


def test_values_keys_and_problems_keep_their_places_on_every_path_of_the_reader():
    text = "a:\n  \"<key>\": 1\n  b: '010'\n  c: !!str 7\n  &k d: [x, &v 010, *v]\n  e: {<<: {f: 1}}\n"
    loaded = load_text(text, "f.yaml")
    doc = loaded.documents[0]
    assert doc.data == {"a": {"<key>": 1, "b": "010", "c": "7", "d": ["x", 10, 10], "e": {"f": 1}}}
    assert doc.positions[("a", "<key>")] == (2, 12)  # the value's place, not its key's (the key is named "<key>")
    assert doc.key_positions[("a", "<key>")] == (2, 3)
    assert doc.positions[("a", "b")] == (3, 6) and doc.positions[("a", "c")] == (4, 6)
    assert doc.positions[("a", "d", 1)] == (5, 13) and doc.positions[("a", "d", 2)] == (5, 13)  # the alias: where its anchor is written
    assert doc.positions[("a", "e", "f")] == (6, 15)
    assert [(p.rule, p.line, p.column) for p in loaded.problems] == [("SPEC001", 5, 13), ("SPEC001", 5, 13)]  # 010, and its alias's replay


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["a", "b", ".", "..", "", ".c", "..d", "q.yaml"]), min_size=1, max_size=5), st.booleans(), st.booleans())
def test_display_says_what_relpath_says(tmp_path_factory, parts, absolute, at_root):
    """A name as shown: relative to the working directory when inside it, else as given (os.path.relpath's reading)."""
    import os

    from clusterlint.readers.loader import display

    folder = "/" if at_root else str(tmp_path_factory.getbasetemp() / "display" / "a")
    os.makedirs(folder, exist_ok=True)
    here = os.getcwd()
    os.chdir(folder)
    try:
        inside = os.path.join(folder, *parts) if absolute else os.path.join(*parts)
        for name in {inside, "/".join(parts), "/" + "/".join(parts), os.path.normpath(inside), folder}:
            if name:
                relative = os.path.relpath(name)
                assert display(name) == (name if relative.startswith("..") else relative), name
    finally:
        os.chdir(here)
