"""`--format jsonl`: JSON Lines, one object per line, written as each file is reviewed.

Every object has a `type`. Per file, in the order of the files' names: a `finding` per listed
finding (the fields of a finding in `--format json`), a `suppressed` per suppressed finding (those
of json's `suppressed`), then one `file` object with its counts, its findings not listed and its
skipped rules (each {rule, ...}: the file is the object's) and its scorecard. Last, one `summary`
object for the run. A reader can act on each line as it comes and knows the run finished when the
summary arrives (as cargo's `build-finished` message says a build's JSON messages are complete).
"""

from __future__ import annotations

import json

from clusterlint import __version__
from clusterlint.engine.scoring import scorecard
from clusterlint.reporters import stream
from clusterlint.reporters.stream import COUNTED, Stream


def _encoder():
    """JSONEncoder(ensure_ascii=False).encode, less what its iterencode sets up on every call (the C
    encoder, the circular-reference memo): the C encoder is made once, without the memo (a line is
    built here from fresh dicts, lists, strings and numbers, never circular). Where the C encoder is
    missing or takes other arguments, the encoder's own encode."""
    encoder = json.JSONEncoder(ensure_ascii=False)
    try:
        from json.encoder import c_make_encoder, encode_basestring

        once = c_make_encoder(None, encoder.default, encode_basestring, None, encoder.key_separator,
                              encoder.item_separator, False, False, True)
    except (ImportError, TypeError):
        return encoder.encode
    return lambda value: "".join(once(value, 0))


_ENCODE = _encoder()


def _line(kind: str, fields: dict) -> str:
    return _ENCODE({"type": kind, **fields}) + "\n"


class JsonlStream(Stream):
    def __init__(self, write, show_suppressed: bool = False, show_skipped: bool = False):
        super().__init__(write, show_suppressed, show_skipped)
        self.worst = None  # (rank, index, scorecard) of the worst file: not reviewed, else the lowest score

    def part(self, result, index: int, shown: list, more: dict) -> list:
        card = result.card()
        rank = (-1 if card["score"] is None else card["score"], index)
        if self.worst is None or rank < self.worst[:2]:
            self.worst = (*rank, card)
        counts = dict.fromkeys(COUNTED, 0)
        for f in result.findings:
            counts[f.severity] += 1
        lines = [_line("finding", f.as_json()) for f in shown]
        lines += [_line("suppressed", s.as_json()) for s in sorted(result.suppressed, key=lambda s: s.finding)]
        lines.append(_line("file", {
            "file": result.file, "findings": len(result.findings), "listed": len(shown), **counts,
            "suppressed": len(result.suppressed),
            "not_listed": [{"rule": rule, "count": n} for (_, rule), n in sorted(more.items())],
            "skipped": [{"rule": rule, "reason": reason} for rule, reason in result.skips], "score": card,
        }))
        return [((result.file, self.files, i), line) for i, line in enumerate(lines)]

    def tail(self) -> str:
        return _line("summary", {
            "version": __version__, "files": self.files, "not_specs": self.not_specs,
            "findings": sum(self.counts.values()), "listed": sum(self.listed.values()), **self.counts,
            "suppressed": self.suppressed, "score": self.worst[2] if self.worst else scorecard([]), "failed": self.failed,
        })


def render(report) -> str:
    return stream.render(JsonlStream(None, report.show_suppressed, report.show_skipped), report)
