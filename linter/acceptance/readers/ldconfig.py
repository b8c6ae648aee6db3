"""`ldconfig -p`: the shared libraries the dynamic linker finds (`libnccl.so.2 (libc6,x86-64) =>
/lib/x86_64-linux-gnu/libnccl.so.2`), under a header that counts them (`512 libs found in cache
`/etc/ld.so.cache'`). A listing is complete only when it lists as many libraries as its header
counts: only then does a library it lacks say that the library is not installed."""

from __future__ import annotations

import re

from clusterlint.acceptance.base import Fact, Reader, integer, lines_of

_HEADER = re.compile(r"^([0-9]+) libs found in cache `([^']*)'\s*$")
_LIBRARY = re.compile(r"^\s*(\S+) \(([^)]*)\) => (/\S*)\s*$")


def parse(evidence, host: str, file: str, text: str) -> None:
    node, header, names = evidence.node(host), None, []
    for number, line in enumerate(lines_of(text), 1):
        match = _HEADER.match(line)
        if match and header is None:
            header = (integer(match.group(1), number, "library count", 1e6), number, line)
            continue
        match = _LIBRARY.match(line)
        if match:
            names.append(match.group(1))
            node.software.setdefault(f"library {match.group(1)}", Fact(match.group(3), file, number, line))
    if header is not None:
        count, number, line = header
        node.software.setdefault("ldconfig listing", Fact({"listed": len(names), "counted": count}, file, number, line))


def _detect(head: str, text: str) -> bool:
    return bool(re.search(r"^[0-9]+ libs found in cache `", head, re.M) or
                re.search(r"^\s*lib\S+\.so\S* \((?:libc6|libc5|ELF)[^)]*\) => /", head, re.M))


READER = Reader("ldconfig", _detect, parse, ("shared libraries (NCCL, GDRCopy)",))
