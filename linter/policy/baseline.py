"""Baselines: record today's findings, then report only new ones.

A finding matches a baseline entry on its rule, its file (relative to the baseline's folder, so
the baseline works from any working directory) and its fingerprint, which stands for the spec
path (or, for words in a clause, the sentence) and the offending value, never the line. So an
edit elsewhere that moves a finding keeps it matched, while a new finding of the same rule at
another path or with another value is reported. Each entry absorbs one finding. Rewriting the
baseline records only what is found then, so fixed findings drop out.
"""

from __future__ import annotations

import json
import os
from collections import Counter

from clusterlint import __version__

FORMAT = 1


class BaselineError(Exception):
    """The baseline file cannot be read: exit 2."""


def _file(finding_file: str, folder: str) -> str:
    if finding_file.startswith("<"):
        return finding_file
    return os.path.relpath(os.path.abspath(finding_file), folder).replace(os.sep, "/")


def key(finding, folder: str) -> tuple:
    return finding.rule, _file(finding.file, folder), finding.fingerprint


def dumps(findings, path: str) -> str:
    folder = os.path.dirname(os.path.abspath(path))
    entries = sorted(
        ({"rule": f.rule, "file": _file(f.file, folder), "path": f.path, "fingerprint": f.fingerprint, "line": f.line, "message": f.message}
         for f in findings),
        key=lambda e: (e["file"], e["line"], e["rule"], e["fingerprint"]),
    )
    document = {
        "clusterlint_baseline": FORMAT,
        "written_by": f"clusterlint {__version__}",
        "about": "Findings accepted when this file was written; clusterlint check --baseline reports only others. "
                 "Matched on rule, file and fingerprint (spec path and value); line and message are for readers.",
        "findings": entries,
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def load(path: str) -> Counter:
    """The baseline's entries as a multiset of match keys."""
    from clusterlint.readers.loader import MAX_BYTES, read_file

    try:
        data = read_file(path)
        if len(data) > MAX_BYTES:
            raise BaselineError(f"{path}: baseline is over the {MAX_BYTES // 2**20} MiB limit")
        text = data.decode("utf-8-sig")
        document = json.loads(text, parse_int=lambda digits: _integer(digits, text, path))
    except OSError as exc:
        raise BaselineError(f"{path}: cannot read baseline ({exc.strerror}); write one with --write-baseline {path}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise BaselineError(f"{path}: not a clusterlint baseline: invalid JSON ({exc})") from None
    except RecursionError:
        raise BaselineError(f"{path}: not a clusterlint baseline: JSON nested too deeply") from None
    version = document.get("clusterlint_baseline") if isinstance(document, dict) else None
    if type(version) is not int or version != FORMAT or not isinstance(document.get("findings"), list):  # True is not 1
        raise BaselineError(f"{path}: not a clusterlint baseline (format {FORMAT}); write one with --write-baseline {path}")
    keys: Counter = Counter()
    for i, entry in enumerate(document["findings"]):
        if not isinstance(entry, dict) or not all(isinstance(entry.get(k), str) for k in ("rule", "file", "fingerprint")):
            raise BaselineError(f"{path}: findings[{i}]: expected rule, file and fingerprint")
        keys[(entry["rule"], entry["file"], entry["fingerprint"])] += 1
    return keys


def _integer(digits: str, text: str, path: str) -> int:
    """A JSON integer; one too long to be a count (Python refuses over 4,300 digits) is an error at its place."""
    if len(digits) > 64:
        at = text.find(digits)
        line = text.count("\n", 0, at) + 1
        column = at - text.rfind("\n", 0, at)
        raise BaselineError(f"{path}:{line}:{column}: not a clusterlint baseline: a number of {len(digits):,} digits")
    return int(digits)


def split(findings, keys: Counter, path: str) -> tuple[list, list]:
    """(new findings, findings matched by the baseline)."""
    folder = os.path.dirname(os.path.abspath(path))
    remaining = Counter(keys)
    new, known = [], []
    for f in findings:
        k = key(f, folder)
        if remaining[k] > 0:
            remaining[k] -= 1
            known.append(f)
        else:
            new.append(f)
    return new, known
