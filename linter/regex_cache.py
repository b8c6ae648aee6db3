"""Regular expressions compiled once per Python installation, not once per run.

`re` compiles a pattern in Python code (its parser, then its code generator) and keeps the result
only for the life of the process, so every run of a short-lived command pays again for every
pattern that it, click, PyYAML and the standard library define. For a plain check of one quote that
was about a tenth of the run (PyYAML's printable-character class alone takes 10 ms), and for a
contract, with the rules' long phrase patterns and their lower-case twins (`clusterlint.contracts.lowered`),
about a third.

`install()` (the command line calls it before anything else is imported) puts itself in front of
`re`'s compiler. A pattern string compiled for the first time is compiled as `re` compiles it, and
what the compiler made (the code, its flags and its groups) is kept in the user's cache folder
(`patterns.marshal`, see `clusterlint.user_cache`) when the process ends. Later runs hand the kept
code straight to `_sre.compile`, the C function `re`'s compiler ends with.

Exact, not approximately so:
- an entry is kept only after the pattern made from it was compared equal (`==`, which for a
  compiled pattern compares its text, flags and code) to the one `re` itself compiled;
- the whole file is for one Python: its build (`sys.version`), its bytecode tag, and `_sre`'s
  magic number and code size must all match, or the file is not read;
- `_sre.compile` checks the code it is given, so a damaged entry is refused, not run; it is then
  dropped and the pattern compiled as `re` compiles it;
- anything but CPython, a bytes-or-str subclass, a DEBUG compile or a parse tree passed in goes to
  `re`'s compiler as it is.
A cache that cannot be read or written is simply not used; the file is written whole or not at all.

The same table keeps what other modules build from patterns, under keys of (kind, `source_form` of
the module, ...): a lower-case twin, whose code `clusterlint.contracts.lowered` makes (`pattern_from_tree`
with `code_of`; `_sre.compile` checks it as it checks any entry), and what `clusterlint.contracts.prefilter`
reads from a parse tree (`kept`, checked by the caller's `valid`). Keeping one for a module's
current form lets go of that kind's entries for its other forms (`_keep`).
"""

from __future__ import annotations

import sys

import _sre

try:
    from re import _compiler, _parser  # Python 3.11+
except ImportError:  # Python 3.10
    import sre_compile as _compiler  # type: ignore[no-redef]
    import sre_parse as _parser  # type: ignore[no-redef]

FILE = "patterns.marshal"
MAX_ENTRIES = 2048  # a run of clusterlint's own compiles about 200; user rules, a language server and upgrades add more

_compile_as_re = _compiler.compile  # `re`'s own compile function
_path = None  # the cache file, chosen at install: the process reads and writes one file; None: not installed
_table: dict = {}  # key -> (flags, code as bytes, groups - 1, groupindex, indexgroup), None: no pattern (a twin), or a `kept` value
_added = False  # whether this process compiled anything the file did not hold
_used: set = set()  # the keys this process asked for


def install() -> None:
    """Serve this process's compiles of pattern strings from the cache (once; CPython only)."""
    global _path
    if (_path is not None or sys.implementation.name != "cpython" or _compiler.compile is not _compile_as_re
            or not callable(getattr(_compiler, "_code", None)) or not callable(getattr(_sre, "compile", None))):
        return
    import atexit

    from clusterlint import user_cache

    _path = user_cache.path(FILE)
    if _path is None:
        return  # no cache folder: `re` compiles as it always does
    _table.update(_load())
    _compiler.compile = _compile
    atexit.register(_save)


def pattern_from_tree(key: tuple, flags: int, tree_of, code_of=None):
    """The pattern `re`'s compiler makes of the parse tree `tree_of()` with `flags` (None when
    `tree_of` makes no tree), kept under `key`: for a pattern built as a tree, whose text `re` is
    not handed (a lower-case twin). `code_of(tree, flags)`, when given, makes the code in place of
    `re`'s code generator (`_sre.compile` still checks it; what it refuses raises ValueError). The
    key names everything the tree and the code depend on."""
    entry = _table.get(key, False)
    _used.add(key)
    if entry is None:
        return None
    if entry is not False:
        found = _made(None, entry)
        if found is not None:
            return found
    tree = tree_of()
    if tree is None:
        _keep(key, None)
        return None
    if code_of is None:
        compiled = _compile_as_re(tree, flags)
        _learn(key, None, tree, flags, compiled)
        return compiled
    entry = _entry(tree, flags, code_of)
    compiled = _made(None, entry)
    if compiled is None:
        raise ValueError("_sre refused the code made for the tree")
    _keep(key, entry)
    return compiled


def kept(key: tuple, make, valid):
    """A value read from a pattern that costs more to work out than to keep (what
    `clusterlint.contracts.prefilter` reads from a parse tree: tuples of strings), kept under `key` beside the
    compiled patterns; a kept value `valid` refuses (a damaged file) is worked out again."""
    _used.add(key)
    value = _table.get(key, _MISSING)
    if value is _MISSING or not valid(value):
        value = make()
        _keep(key, value)
    return value


def source_form(file: str) -> tuple:
    """What a value kept for the module at `file` depends on besides its pattern: the module's code
    (clusterlint's version, the file's time and size)."""
    form = _forms.get(file)
    if form is None:
        import os

        from clusterlint import __version__

        stat = os.stat(file)
        form = _forms[file] = (__version__, stat.st_mtime_ns, stat.st_size)
    return form


_MISSING = object()
_forms: dict = {}
_current: dict = {}  # kind -> the form of its module this process keeps entries for (see `_keep`)


def _compile(pattern, flags=0):
    """`re`'s compile function, served from the cache for a pattern string."""
    if type(pattern) not in (str, bytes) or flags & _compiler.SRE_FLAG_DEBUG:
        return _compile_as_re(pattern, flags)
    key = (pattern, int(flags))
    entry = _table.get(key)
    _used.add(key)
    if entry is not None:
        found = _made(pattern, entry)
        if found is not None:
            return found
    compiled = _compile_as_re(pattern, flags)  # what `re` makes, errors included
    _learn(key, pattern, None, flags, compiled)
    return compiled


def _learn(key, pattern, tree, flags, compiled) -> None:
    """Keep under `key` what `re`'s compiler makes of `tree` (of `pattern` parsed, when None) when
    `_sre` makes of it the very pattern `re` compiled."""
    try:
        entry = _entry(_parser.parse(pattern, flags) if tree is None else tree, flags, _compiler._code)
    except Exception:  # `re`'s internals are not a public interface: what this Python's do not allow is not kept
        return
    made = _made(pattern, entry)
    if made is not None and made == compiled and made.groups == compiled.groups and made.groupindex == compiled.groupindex:
        _keep(key, entry)


def _entry(tree, flags: int, code_of) -> tuple:
    """What `_made` compiles: the code of `tree`, then its groups both ways, as `re`'s compile does."""
    from array import array

    code = code_of(tree, flags)
    groupindex = tree.state.groupdict
    indexgroup = [None] * tree.state.groups
    for name, index in groupindex.items():
        indexgroup[index] = name
    return int(flags | tree.state.flags), array("I", code).tobytes(), tree.state.groups - 1, dict(groupindex), tuple(indexgroup)


def _keep(key, entry) -> None:
    """Keep an entry; a full table first lets go of what this process did not ask for (another
    project's rules), so it never stops taking what runs use now. An entry kept for a module (a key
    of (kind, `source_form`, ...)) lets go of that kind's entries for every other form of the module:
    an older clusterlint's twins are never asked for again, and every run would read them."""
    global _added
    _used.add(key)
    if isinstance(key[1], tuple) and _current.get(key[0]) != key[1]:
        _current[key[0]] = key[1]
        for old in [old for old in list(_table) if old[0] == key[0] and isinstance(old[1], tuple) and old[1] != key[1]]:
            _table.pop(old, None)
    if len(_table) >= MAX_ENTRIES:
        for old in [old for old in list(_table) if old not in _used]:  # a copy: another thread may compile meanwhile
            _table.pop(old, None)
    if len(_table) < MAX_ENTRIES:
        _table[key] = entry
        _added = True


def _made(pattern, entry):
    """The pattern `_sre.compile` makes of a kept entry; None when it refuses it (it checks the code)."""
    from array import array

    try:
        flags, code, groups, groupindex, indexgroup = entry
        return _sre.compile(pattern, flags, array("I", code).tolist(), groups, groupindex, indexgroup)
    except Exception:  # a damaged entry: compiled again, as `re` compiles it, and kept anew
        return None


def _stamp() -> tuple:
    """What the file is for: this Python's build and its regular-expression engine."""
    from array import array

    return sys.version, sys.implementation.cache_tag, _sre.MAGIC, _sre.CODESIZE, array("I").itemsize, sys.maxunicode


def _load() -> dict:
    import marshal

    try:
        with open(_path, "rb") as handle:
            stamp, table = marshal.loads(handle.read())
    except Exception:  # unreadable, damaged or not ours, however it fails: no cache, never an error
        return {}
    return table if stamp == _stamp() and isinstance(table, dict) else {}


def _save() -> None:
    """Write the table when this process added to it (silently not, when the folder cannot be written)."""
    import marshal

    from clusterlint import user_cache

    if not _added or _path is None:
        return
    try:
        data = marshal.dumps((_stamp(), _table))
    except ValueError:  # a value marshal cannot write: nothing kept this time
        return
    user_cache.write(_path, data)
