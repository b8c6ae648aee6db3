"""Patterns served from the cache between runs are the very patterns `re` compiles."""

from __future__ import annotations

import marshal
import os
import re
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from clusterlint.contracts import lowered
from clusterlint import regex_cache
from clusterlint.engine.registry import builtin_rules


def _loaded_patterns() -> list:
    """Every compiled pattern the modules loaded so far hold, and the rules' phrase patterns."""
    import clusterlint.rules.clauses  # noqa: F401  (the contract rules' modules, with their patterns)
    import clusterlint.rules.contract  # noqa: F401

    found = {(p.pattern, p.flags): p for module in list(sys.modules.values()) for p in vars(module).values() if isinstance(p, re.Pattern)}
    for rule in builtin_rules().values():
        pattern = getattr(rule.settings, "pattern", None) if rule.check != "document" else None
        if isinstance(pattern, re.Pattern):
            found[pattern.pattern, pattern.flags] = pattern
    return [p for (text, _), p in found.items() if isinstance(text, (str, bytes))]


PATTERNS = _loaded_patterns()


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """An empty cache of this process's own, written to a file of the test's."""
    monkeypatch.setattr(regex_cache, "_table", {})
    monkeypatch.setattr(regex_cache, "_path", str(tmp_path / "patterns.marshal"))
    monkeypatch.setattr(regex_cache, "_added", False)
    monkeypatch.setattr(regex_cache, "_used", set())
    return tmp_path / "patterns.marshal"


def _reload():
    """The table as a later run reads it."""
    regex_cache._save()
    regex_cache._table.clear()
    regex_cache._table.update(regex_cache._load())


def _served(monkeypatch, pattern, flags):
    """The pattern as a later run gets it: from the kept entry alone, `re`'s compiler not called."""
    def no_compiler(*args):
        raise AssertionError("compiled again, not served from the cache")

    with monkeypatch.context() as m:
        m.setattr(regex_cache, "_compile_as_re", no_compiler)
        return regex_cache._compile(pattern, flags)


def _same(a, b):
    assert a == b  # CPython compares the pattern's text, flags and code
    assert (a.pattern, a.flags, a.groups, a.groupindex) == (b.pattern, b.flags, b.groups, b.groupindex)


def test_importing_the_command_line_puts_the_cache_before_re_compiler():
    import clusterlint.cli  # noqa: F401

    assert regex_cache._compiler.compile is regex_cache._compile
    assert regex_cache._path is not None and len(PATTERNS) > 100


def test_every_loaded_pattern_is_served_as_re_compiles_it(cache, monkeypatch):
    for p in PATTERNS:
        _same(regex_cache._compile(p.pattern, p.flags), p)
    assert len(regex_cache._table) == len(PATTERNS)
    _reload()
    assert len(regex_cache._table) == len(PATTERNS)
    for p in PATTERNS:
        _same(_served(monkeypatch, p.pattern, p.flags), p)


_PIECES = st.sampled_from([
    "a", "Z", "é", "ß", "İ", "Σ", "\\d", "\\w+", "\\s*", "\\b", ".", "[a-z]", "[^\\W\\d]", "[À-ÿ]", "[\\u0100-\\u017f]",
    "(?P<x>ab)", "(?:c|de)", "(f)", "g?", "h{2,3}", "i*?", "(?=j)", "(?<!k)", "^", "$", "(?i:l)", "m|n", "\\.", "\\u00e9",
])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pieces=st.lists(_PIECES, min_size=1, max_size=8),
       flags=st.sampled_from([0, re.I, re.M | re.S, re.X, re.A, re.I | re.A, re.U | re.I]),
       text=st.text(alphabet="abcdefghijklmnZéßİıΣσς .0123456789", max_size=30))
def test_generated_patterns_are_served_as_re_compiles_them(cache, monkeypatch, pieces, flags, text):
    source = "".join(pieces)
    try:
        expected = re._compiler.compile(source, flags) if hasattr(re, "_compiler") else re.compile(source, flags)
    except re.error:
        with pytest.raises(re.error):
            regex_cache._compile(source, flags)
        return
    regex_cache._table.clear()
    _same(regex_cache._compile(source, flags), expected)
    _reload()
    served = _served(monkeypatch, source, flags)
    _same(served, expected)
    assert [m.span() for m in served.finditer(text)] == [m.span() for m in expected.finditer(text)]


def test_bytes_patterns_and_patterns_with_their_own_flags(cache, monkeypatch):
    for source, flags in ((b"[\\x80-\\xff]+(?P<n>\\d)", 0), ("(?x) a b # spaced", 0), ("(?i)caps", re.M)):
        expected = re.compile(source, flags)
        regex_cache._compile(source, flags)
        _reload()
        _same(_served(monkeypatch, source, flags), expected)


def test_a_damaged_entry_is_compiled_again_and_replaced(cache):
    source = "dam(?:aged)?"
    regex_cache._compile(source, 0)
    good = regex_cache._table[source, 0]
    regex_cache._table[source, 0] = (good[0], b"\xff\xff\xff\xff" * 8, *good[2:])  # code `_sre` refuses
    _same(regex_cache._compile(source, 0), re.compile(source))
    assert regex_cache._table[source, 0] == good
    regex_cache._table[source, 0] = "not an entry"
    _same(regex_cache._compile(source, 0), re.compile(source))
    assert regex_cache._table[source, 0] == good


def test_what_sre_would_read_differently_is_not_kept(cache, monkeypatch):
    as_re = regex_cache._compile_as_re  # `re`'s own compiler: `re.compile` here would ask the cache
    for unlike in (as_re("else", 0), as_re("(?P<named>kept)?", 0)):  # another pattern's code; other names
        monkeypatch.setattr(regex_cache, "_made", lambda pattern, entry, unlike=unlike: unlike)
        _same(regex_cache._compile("(kept)?", 0), as_re("(kept)?", 0))
    assert not regex_cache._table and not regex_cache._added


def test_internals_that_changed_keep_nothing_and_compile_as_re_does(cache, monkeypatch):
    class Changed:
        def parse(self, *args):
            raise TypeError("an internal interface that changed")

    monkeypatch.setattr(regex_cache, "_parser", Changed())
    _same(regex_cache._compile("(?P<x>changed)+", 0), re.compile("(?P<x>changed)+"))
    with pytest.raises(re.error):
        regex_cache._compile("(unbalanced", 0)  # the error `re` gives, not the changed interface's
    assert not regex_cache._table and not regex_cache._added


def test_a_file_for_another_python_or_unreadable_is_not_read(cache):
    regex_cache._compile("x+y", 0)
    regex_cache._save()
    assert regex_cache._load()
    stamp, table = marshal.loads(cache.read_bytes())
    cache.write_bytes(marshal.dumps((("3.99.0", *stamp[1:]), table)))
    assert regex_cache._load() == {}
    for junk in (b"", b"not marshal", marshal.dumps([1, 2, 3]), marshal.dumps((stamp, [1]))):
        cache.write_bytes(junk)
        assert regex_cache._load() == {}


def test_nothing_is_written_when_nothing_was_added_or_the_folder_is_a_file(cache, tmp_path, monkeypatch):
    regex_cache._save()
    assert not cache.exists()
    regex_cache._compile("added", 0)
    monkeypatch.setattr(regex_cache, "_path", str(tmp_path / "a-file" / "patterns.marshal"))
    (tmp_path / "a-file").write_text("")
    regex_cache._save()  # silently not
    assert not (tmp_path / "a-file").is_dir()


def test_a_full_table_lets_go_of_what_this_process_did_not_use(cache, monkeypatch):
    monkeypatch.setattr(regex_cache, "MAX_ENTRIES", 3)
    for i in range(5):
        _same(regex_cache._compile(f"cap{i}", 0), re.compile(f"cap{i}"))
    assert sorted(regex_cache._table) == [("cap0", 0), ("cap1", 0), ("cap2", 0)]  # all three in use: no room
    _reload()
    regex_cache._used.clear()  # a later run, which asks for one of them and two new ones
    _same(_served(monkeypatch, "cap1", 0), re.compile("cap1"))
    for source in ("new0", "new1"):
        _same(regex_cache._compile(source, 0), re.compile(source))
    assert sorted(regex_cache._table) == [("cap1", 0), ("new0", 0), ("new1", 0)]


def test_twins_are_kept_and_served_as_lowered_makes_them(cache, monkeypatch):
    from clusterlint.rules import contract

    cases = [contract._CAPACITY, contract._ASKS, re.compile("a*", re.I), re.compile("caf\u00c9", re.I)]
    made = {}
    for p in cases:
        monkeypatch.setattr(lowered, "_twins", {})
        made[p] = lowered.twin(p)
    assert made[cases[0]] is not None and made[cases[1]] is not None
    assert made[cases[2]] is None and made[cases[3]] is None  # it can match empty; a case beyond ASCII
    _reload()

    def no_tree(*args):
        raise AssertionError("rewritten again, not served from the cache")

    monkeypatch.setattr(lowered, "_tree", no_tree)
    monkeypatch.setattr(regex_cache, "_compile_as_re", no_tree)
    for p in cases:
        monkeypatch.setattr(lowered, "_twins", {})
        served = lowered.twin(p)
        if made[p] is None:
            assert served is None
        else:
            _same(served, made[p])


def test_a_prefilters_requirement_is_kept_and_read_again_only_when_damaged(cache, monkeypatch):
    from clusterlint.contracts import prefilter

    pattern = re.compile(r"\b(?:service\s+)?credits?\b|\brefund\w*", re.IGNORECASE)
    gate, ignore_case = prefilter._gate(pattern)
    answers = [gate(t) for t in ("a service credit", "refunds", "nothing owed")]
    assert answers == [True, True, False] and ignore_case
    _reload()

    def no_parse(*args):
        raise AssertionError("read from the parse tree again, not served from the cache")

    with monkeypatch.context() as m:
        m.setattr(prefilter._p, "parse", no_parse)
        served, served_case = prefilter._gate(pattern)
        assert [served(t) for t in ("a service credit", "refunds", "nothing owed")] == answers and served_case
    key = next(k for k in regex_cache._table if k[0] == "prefilter" and k[2] == pattern.pattern)
    for damaged in (("lit", 3), (("lit", "x"), "yes"), (("or", (("lit", "a"),)), True), "lambda t: 1"):
        regex_cache._table[key] = damaged
        again, _ = prefilter._gate(pattern)
        assert [again(t) for t in ("a service credit", "refunds", "nothing owed")] == answers, damaged
        assert regex_cache._table[key] != damaged  # worked out again and kept anew


def test_twins_of_an_older_version_are_let_go_when_this_ones_are_kept(cache, monkeypatch):
    from clusterlint.rules import contract

    monkeypatch.setattr(regex_cache, "_current", {})
    older = ("lowered", ("0.0.9", 1, 2), contract._CAPACITY.pattern, contract._CAPACITY.flags)
    regex_cache._table[older] = regex_cache._table[("lowered", 0)] = None  # another version's twin; a pattern "lowered"
    regex_cache._table[("prefilter", ("0.0.9", 1, 2), "x", 0)] = (None, False)  # another kind: not this one's to drop
    monkeypatch.setattr(lowered, "_twins", {})
    assert lowered.twin(contract._ASKS) is not None
    assert older not in regex_cache._table and ("lowered", 0) in regex_cache._table
    assert ("prefilter", ("0.0.9", 1, 2), "x", 0) in regex_cache._table
    assert any(key[0] == "lowered" and key[1] == regex_cache.source_form(lowered.__file__) for key in regex_cache._table)


def test_a_check_run_twice_keeps_its_patterns_and_reports_the_same(tmp_path):
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    quote = os.path.join(os.path.dirname(__file__), "..", "specs", "forge-h100-quote.yaml")
    runs = [subprocess.run([sys.executable, "-m", "clusterlint", "check", quote, "--format", "json"], env=env, capture_output=True, text=True)
            for _ in range(2)]
    assert runs[0].returncode == runs[1].returncode == 0, runs[0].stderr
    assert runs[0].stdout == runs[1].stdout and not runs[1].stderr
    stamp, table = marshal.loads((tmp_path / "clusterlint" / regex_cache.FILE).read_bytes())
    assert stamp == regex_cache._stamp()
    import yaml.reader

    assert any(key[0] == yaml.reader.Reader.NON_PRINTABLE.pattern for key in table)  # PyYAML's own, before it was imported
    assert any(key[0] == "lowered" for key in table)


def test_no_cache_folder_without_an_absolute_place_for_it(monkeypatch):
    from clusterlint import user_cache

    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")  # ignored, as the XDG specification says
    monkeypatch.setattr(os.path, "expanduser", lambda path: "/home/someone" if path == "~" else path)
    assert user_cache.path(regex_cache.FILE) == "/home/someone/.cache/clusterlint/patterns.marshal"
    monkeypatch.setattr(os.path, "expanduser", lambda path: path)  # no home folder known: `~` stays `~`
    assert user_cache.path(regex_cache.FILE) is None
    assert user_cache.load("entry-points.json") is None
    user_cache.save("entry-points.json", {})  # nothing written, no `~` folder made where it runs
    assert not os.path.exists("~")
