"""Bytes from files and streams, bounded: only regular files, at most MAX_BYTES (+1, so that a
larger file is reported as such), and text only when it is UTF-8."""

from __future__ import annotations

import errno

from clusterlint.readers.documents import Problem

MAX_BYTES = 4 * 2**20  # a quote is a few KB; 4 MiB leaves two orders of magnitude of room


def decode(data: bytes, what: str = "YAML text") -> tuple[str | None, Problem | None]:
    """UTF-8 text (a BOM is dropped), or a SPEC001 problem at the first byte that is not."""
    if b"\0" in data[:8192]:
        return None, Problem("SPEC001", f"binary file: not {what}", 1, 1)
    try:
        return data.decode("utf-8-sig"), None
    except UnicodeDecodeError as exc:
        before = data[: exc.start]
        line = before.count(b"\n") + 1
        col = len(before) - (before.rfind(b"\n") + 1) + 1
        return None, Problem("SPEC001", f"not valid UTF-8: byte 0x{data[exc.start]:02x} cannot be decoded ({exc.reason}); save the file as UTF-8", line, col)


def read_file(path: str, limit: int = MAX_BYTES) -> bytes:
    """The bytes of a regular file, at most `limit` + 1 of them (enough for `too_big` to say so).

    Anything else is refused with OSError (its strerror says why) before a byte is read: a named
    pipe would block forever, a device such as /dev/zero (also through a symlink) never ends, and a
    directory has no text. The file is opened without blocking and checked on the open descriptor.
    """
    import os
    import stat

    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        status = os.fstat(fd)
        mode = status.st_mode
        if not stat.S_ISREG(mode):
            kind = ("a directory" if stat.S_ISDIR(mode) else "a named pipe (FIFO)" if stat.S_ISFIFO(mode)
                    else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "a socket" if stat.S_ISSOCK(mode) else "special")
            raise OSError(errno.EINVAL, f"not a regular file: it is {kind}")
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        chunks, left = [], limit + 1
        want = min(left, status.st_size + 1)  # the whole file in one read, unless it grows meanwhile
        while left > 0:
            chunk = os.read(fd, want)
            chunks.append(chunk)
            left -= len(chunk)
            if len(chunk) < want:  # a regular file reads short only at its end
                break
            want = min(left, 1 << 20)
        return chunks[0] if len(chunks) == 1 else b"".join(chunks)
    finally:
        os.close(fd)


def read_stream(stream, limit: int = MAX_BYTES) -> bytes:
    """At most `limit` + 1 bytes of a stream (standard input)."""
    return stream.read(limit + 1)


def too_big(data: bytes) -> Problem | None:
    if len(data) > MAX_BYTES:
        return Problem("SPEC001", f"file is {len(data) / 2**20:.1f} MiB, over the {MAX_BYTES // 2**20} MiB limit", 1, 1)
    return None
