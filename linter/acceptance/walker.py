"""The bounded evidence walker: finds the files under each --evidence path and hands each to the
reader its content names. Only regular files are read (a FIFO, a device or a socket is named and
skipped, and opening never blocks); each file is read up to MAX_BYTES; folders are walked to
MAX_DEPTH levels below a node's folder and MAX_ENTRIES entries in all; a file reached twice (through
a symbolic link) is read once; a folder that cannot be listed is named. Nothing found in a file is
ever executed."""

from __future__ import annotations

import os
import stat

from clusterlint.acceptance.base import MIB, Evidence, Fact, Unreadable

MAX_BYTES = 20 * MIB  # larger files are not evidence a collector writes
MAX_DEPTH = 4  # folders below a node's folder
MAX_ENTRIES = 20000  # files and folders in all, across every --evidence path


class _Walk:
    def __init__(self, evidence: Evidence):
        self.evidence, self.seen, self.entries = evidence, set(), 0

    def skip(self, file: str, reason: str) -> None:
        self.evidence.unreadable.append(Fact(reason, file, 1))

    def listing(self, folder: str) -> list:
        """The visible entries of a folder, sorted, as (path, is_folder); an unlistable folder is named."""
        try:
            with os.scandir(folder) as found:
                entries = sorted((e.name, e.is_dir()) for e in found if not e.name.startswith("."))
        except OSError as exc:
            self.skip(folder, f"folder cannot be listed ({exc.strerror or exc})")
            return []
        out = []
        for name, is_dir in entries:
            self.entries += 1
            if self.entries > MAX_ENTRIES:
                self.skip(folder, f"more than {MAX_ENTRIES} evidence entries: the rest of this folder was not read")
                break
            out.append((os.path.join(folder, name), is_dir))
        return out

    def node(self, folder: str, host: str, depth: int = 0) -> None:
        """Every file in a node's folder and the folders below it (to MAX_DEPTH), as the node's."""
        if not self.once(folder):
            return
        for path, is_dir in self.listing(folder):
            if is_dir:
                if depth >= MAX_DEPTH:
                    self.skip(path, f"folder more than {MAX_DEPTH} levels below node {host}'s folder: not read")
                else:
                    self.node(path, host, depth + 1)
            else:
                self.file(path, host)

    def once(self, path: str) -> bool:
        """False for a file or folder already walked (reached again through a symbolic link)."""
        try:
            info = os.stat(path)
        except OSError:
            return True  # reported by whoever opens it
        key = (info.st_dev, info.st_ino)
        if key in self.seen:
            return False
        self.seen.add(key)
        return True

    def file(self, path: str, host: str | None) -> None:
        from clusterlint.readers.loader import display

        if self.once(path):
            read_file(self.evidence, display(path), host)


def load(paths) -> Evidence:
    """Read every evidence file under `paths`: a folder of node folders (each named by its host),
    one node's folder, or single files whose host is named inside them."""
    from clusterlint.check import UsageError

    evidence = Evidence()
    walk = _Walk(evidence)
    for path in paths:
        try:
            info = os.stat(path)
        except OSError as exc:
            raise UsageError(f"{path}: {'no such file or folder' if not os.path.lexists(path) else exc.strerror} (given with --evidence)") from None
        if stat.S_ISDIR(info.st_mode):
            entries = walk.listing(path)
            folders = [p for p, is_dir in entries if is_dir]
            if folders:
                for folder in folders:
                    host = os.path.basename(folder)
                    evidence.folders.append(host)
                    walk.node(folder, host)
                for file, is_dir in entries:
                    if not is_dir:
                        walk.file(file, None)
            else:
                host = os.path.basename(os.path.normpath(os.path.abspath(path)))
                evidence.folders.append(host)
                for file, _ in entries:
                    walk.file(file, host)
        elif stat.S_ISREG(info.st_mode):
            walk.file(path, None)
        else:
            raise UsageError(f"{path}: not a regular file or a folder (a FIFO, device or socket is not evidence; given with --evidence)")
    return evidence


def _read_bytes(file: str) -> bytes:
    """At most MAX_BYTES + 1 bytes of a regular file; opening never blocks (O_NONBLOCK) and what is
    not a regular file once open is refused."""
    fd = os.open(file, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise Unreadable("not a regular file (a FIFO, device or socket): not read")
        chunks, size = [], 0
        while size <= MAX_BYTES:
            chunk = os.read(fd, min(1 << 20, MAX_BYTES + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_file(evidence: Evidence, file: str, host: str | None) -> None:
    """Read one file into `evidence` as `host`'s (None: the host named inside it); what cannot be read is named with its line."""
    from clusterlint.acceptance.readers import kind_of

    evidence.read.add(os.path.realpath(file))
    try:
        raw = _read_bytes(file)
    except Unreadable as exc:
        evidence.unreadable.append(Fact(str(exc), file, 1))
        return
    except OSError as exc:
        evidence.unreadable.append(Fact(f"cannot read ({exc.strerror or exc})", file, 1))
        return
    if len(raw) > MAX_BYTES:
        evidence.unreadable.append(Fact(f"larger than {MAX_BYTES // MIB} MiB: not read", file, 1))
        return
    text = raw.decode("utf-8", errors="replace")
    if not text.strip():
        evidence.unreadable.append(Fact("empty file (the command printed nothing)", file, 1))
        return
    reader = kind_of(text)
    if reader is None:
        evidence.unreadable.append(Fact("not a recognised command output (see clusterlint collect for what is read)", file, 1))
        return
    if host is None and not reader.spans_nodes:  # a collective run spans nodes: it belongs to none of them
        host = reader.host_inside(text) if reader.host_inside else None
        if host is None:
            evidence.unreadable.append(Fact(f"{reader.kind} output names no host: put it in a folder named after its node", file, 1))
            return
    scratch = Evidence()
    try:
        reader.parse(scratch, host, file, text)
    except Unreadable as exc:
        evidence.unreadable.append(Fact(f"{reader.kind} output cannot be read: {exc}", file, exc.line, _line_text(text, exc.line), exc.column))
        return
    evidence.merge(scratch)
    if host is not None:
        evidence.node(host).files.append((file, reader.kind))


def _line_text(text: str, line: int) -> str:
    """The line a reader stopped at, for the finding's citation."""
    lines = text.splitlines()
    return lines[line - 1][:200] if 0 < line <= len(lines) else ""
