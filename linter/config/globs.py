"""Globs for per-file-ignores and exclude: `*` and `?` stay inside a folder, `**` crosses folders,
`[..]` is a class, and a pattern with no `/` matches a file's name in any folder."""

from __future__ import annotations

import os
import re
from functools import lru_cache


@lru_cache(maxsize=1024)  # the same few patterns, for every file of a folder
def glob_pattern(pattern: str) -> re.Pattern:
    """A glob as a regex: * and ? stay inside a folder, ** crosses folders, [..] is a class."""
    out, i = "", 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out, i = out + "(?:.*/)?", i + 3
        elif pattern.startswith("**", i):
            out, i = out + ".*", i + 2
        elif pattern[i] == "*":
            out, i = out + "[^/]*", i + 1
        elif pattern[i] == "?":
            out, i = out + "[^/]", i + 1
        elif pattern[i] == "[" and "]" in pattern[i + 1 :]:
            end = pattern.index("]", i + 1)
            out, i = out + "[" + pattern[i + 1 : end].replace("!", "^", 1) + "]", end + 1
        else:
            out, i = out + re.escape(pattern[i]), i + 1
    return re.compile(out + r"\Z")


def glob_matches(pattern: str, relative: str) -> bool:
    """A pattern with no / matches a file's name in any folder; one with / matches from the base."""
    relative = relative.replace(os.sep, "/")
    target = relative if "/" in pattern else relative.rsplit("/", 1)[-1]
    while pattern.startswith("./"):  # a prefix, not the characters . and / (./.venv/** keeps its dot)
        pattern = pattern[2:]
    return bool(glob_pattern(pattern).match(target))
