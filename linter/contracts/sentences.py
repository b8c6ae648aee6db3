"""Sentences of a text, found in linear time even when the text is one enormous sentence.

The engine keys a finding about words in a clause by the sentence they sit in (its fingerprint);
the contract rules look for words that appear together in one sentence.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache


# the end of a sentence: its mark and the spaces after it; the next sentence starts where a match ends.
# Led by the mark, not a look-behind for it, so `re` passes over the text to the next mark in one
# step instead of trying each character (a clause's split in about 0.6 of the time)
# A table's row is a sentence of its own (its cells read together: "Reserved nodes | 64 | subject to stock"):
# the line break between two Markdown rows ("... |\n| ...") or before a row of tab-separated cells ends one.
SENTENCE_END = re.compile(r"[.;!?]\s+(?=[A-Z(\"“0-9])(?!A:)|\|[ \t]*\n[ \t]*(?=\|)|\n(?=[^\n]*\t)")  # an FAQ's "Q: ...? A: ..." is one sentence


@lru_cache(maxsize=65536)  # every clause of a large contract: the rules pass over all of them several times
def _starts(text: str) -> tuple[int, ...]:
    return (0, *(m.end() for m in SENTENCE_END.finditer(text)))


def _sentence(text: str, starts: tuple, i: int) -> str:
    return text[starts[i] : starts[i + 1] if i + 1 < len(starts) else len(text)]


def sentence_at(text: str, offset: int) -> str:
    """The sentence of `text` that holds character `offset`."""
    start, end = sentence_span(text, offset)
    return text[start:end]


def sentence_span(text: str, offset: int) -> tuple[int, int]:
    """(start, end) of the sentence of `text` that holds character `offset`."""
    starts = _starts(text)
    i = bisect_right(starts, offset) - 1
    return starts[i], starts[i + 1] if i + 1 < len(starts) else len(text)


def spans(text: str):
    """(start, end) of each sentence of `text`, in order."""
    starts = _starts(text)
    return zip(starts, (*starts[1:], len(text)))


def per_sentence(pattern: re.Pattern, text: str):
    """(match, sentence) for the first match of `pattern` in each sentence of `text`."""
    starts, last = None, -1
    for match in pattern.finditer(text):
        starts = starts or _starts(text)  # only for a text the pattern matches in
        i = bisect_right(starts, match.start()) - 1
        if i != last:
            last = i
            yield match, _sentence(text, starts, i)
