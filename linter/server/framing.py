"""The stdio transport of `clusterlint server`: LSP frames read with bounds, handed to pygls.

An LSP message is a frame: headers (`Content-Length: N`, optionally `Content-Type`), each ended by
CRLF, a blank line, then N bytes of JSON. pygls' stdio loop trusts its client: a header it cannot
read leaves it waiting for a frame that never comes, and a huge `Content-Length` is read in one call.
`Frames` sits between standard input and that loop, through the reader interface pygls takes
(`readline`, `read`), and hands it only well-formed frames of bounded size. Every framing error is
answered (a JSON-RPC error response with a null id, as JSON-RPC 2.0 says for a message whose id
cannot be known) and recovered from: the reader skips to the next `Content-Length:` header. A
declared length that runs into the next frame's header is caught as the bytes arrive (a raw CR or
LF never occurs inside JSON text, so a header line inside a body means the length was wrong), so a
wrong length costs one message, not the session. Bytes that are not UTF-8 inside a body are passed
on as escaped lone surrogates, so the buffer's text is linted (and its bad bytes reported as a
finding) instead of the message being dropped. End of input ends the loop, and with it the server:
`at_end` is called once then, and `main` uses it to start a timer that ends the process should a
thread still be busy `EXIT_GRACE` seconds later (pygls waits for its worker threads on the way out).
"""

from __future__ import annotations

import json
import re
import threading

MAX_BODY = 2**25  # 32 MiB: a document at the 4 MiB limit, JSON-escaped, fits with room
MAX_HEADERS = 2**13  # 8 KiB of header lines: a real frame has one or two short ones
_CHUNK = 2**16
_HEADER = b"Content-Length:"
_HEADER_END = b"\r\n\r\n"
_LENGTH = re.compile(rb"[ \t]*([0-9]{1,20})[ \t]*")
_HEADER_IN_BODY = re.compile(rb"Content-Length:[ \t]*[0-9]+\r\n")  # never inside JSON: a raw CR or LF is not JSON text
PARSE_ERROR = -32700  # JSON-RPC 2.0: the message could not be read


class Writer:
    """Standard output shared by pygls (its responses) and `Frames` (its error answers): one
    frame at a time, each flushed whole."""

    def __init__(self, stream):
        self.stream, self.lock = stream, threading.Lock()

    def write(self, data: bytes) -> None:
        with self.lock:
            self.stream.write(data)
            self.stream.flush()

    def flush(self) -> None:
        with self.lock:
            self.stream.flush()

    def close(self) -> None:
        self.stream.close()

    def answer(self, message: str) -> None:
        """A framing error, as the JSON-RPC error response to a message whose id is unknown."""
        body = json.dumps({"jsonrpc": "2.0", "id": None, "error": {"code": PARSE_ERROR, "message": message}}).encode()
        try:
            self.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        except (OSError, ValueError):  # the client is gone: the end of its input ends the server
            pass


class Frames:
    """Standard input as pygls reads it: `readline()` gives a frame's header line, then its blank
    line, then `read(n)` its body; b"" at the end of input."""

    def __init__(self, stream, answer, limit: int = MAX_BODY, at_end=None):
        self.stream, self.answer, self.limit, self.at_end = stream, answer, limit, at_end
        self.buffer = bytearray()
        self.eof = False
        self.out: list[bytes] = []

    def readline(self) -> bytes:
        if not self.out:
            body = self._next_body()
            if body is None:
                if self.at_end is not None:
                    self.at_end()
                    self.at_end = None
                return b""
            self.out = [b"Content-Length: %d\r\n" % len(body), b"\r\n", body]
        return self.out.pop(0)

    def read(self, n: int) -> bytes:
        return self.out.pop(0) if self.out else b""

    def _fill(self) -> bool:
        """Read what standard input has (at least one byte, or the end); False at the end."""
        if self.eof:
            return False
        chunk = self.stream.read1(_CHUNK)
        if not chunk:
            self.eof = True
            return False
        self.buffer += chunk
        return True

    def _next_body(self) -> bytes | None:
        while True:
            end = self.buffer.find(_HEADER_END, 0, MAX_HEADERS + len(_HEADER_END))
            if end < 0:
                if len(self.buffer) > MAX_HEADERS:
                    self._skip(f"no end of headers in the first {MAX_HEADERS:,} bytes of a frame")
                elif not self._fill():
                    if self.buffer.strip():
                        self.answer(f"the input ended inside a frame's headers ({len(self.buffer):,} bytes dropped)")
                    return None
                continue
            length, problem = _content_length(bytes(self.buffer[:end]), self.limit)
            if problem:
                self._skip(problem)
                continue
            start = end + len(_HEADER_END)
            body = self._body(start, length)
            if body is not None:
                return _utf8(body)
            if self.eof:
                return None

    def _body(self, start: int, length: int) -> bytes | None:
        """The body after the headers ending at `start`, or None when the frame was wrong (answered)."""
        scanned = start
        while True:
            header = _HEADER_IN_BODY.search(self.buffer, max(start, scanned - 64))
            if header and header.start() < start + length:
                del self.buffer[:header.start()]
                self.answer(f"a frame declared Content-Length {length:,} but the next frame's header came after "
                            f"{header.start() - start:,} bytes: the message was dropped")
                return None
            if len(self.buffer) >= start + length:
                break
            scanned = len(self.buffer)
            if not self._fill():
                self.answer(f"the input ended {start + length - len(self.buffer):,} bytes short of a frame's Content-Length")
                self.buffer.clear()
                return None
        body = bytes(self.buffer[start:start + length])
        del self.buffer[:start + length]
        return body

    def _skip(self, problem: str) -> None:
        """Answer a framing error and drop input up to the next `Content-Length:` header."""
        self.answer(f"malformed frame: {problem}; skipped to the next Content-Length header")
        del self.buffer[:1]
        while True:
            at = self.buffer.find(_HEADER)
            if at >= 0:
                del self.buffer[:at]
                return
            del self.buffer[:max(0, len(self.buffer) - len(_HEADER))]  # keep what may be the start of one
            if not self._fill():
                self.buffer.clear()
                return


def _content_length(headers: bytes, limit: int = MAX_BODY) -> tuple[int, str]:
    """(length, "") from a frame's header lines, or (0, why they are not a frame's headers)."""
    length = None
    for line in headers.split(b"\r\n"):
        name, colon, value = line.partition(b":")
        if not colon or not name.strip() or name != name.strip():
            return 0, f"{_shown(line)} is not a header line (NAME: VALUE)"
        if name.lower() == b"content-length":
            match = _LENGTH.fullmatch(value)
            if not match:
                return 0, f"Content-Length {_shown(value.strip())} is not a number of bytes"
            length = int(match[1])
    if length is None:
        return 0, "a frame without a Content-Length header"
    if length == 0:
        return 0, "Content-Length 0: an empty message"
    if length > limit:
        return 0, f"Content-Length {length:,} is over the {limit:,} bytes a message may have"
    return length, ""


def _shown(data: bytes) -> str:
    return repr(data[:40].decode("ascii", "backslashreplace")) + ("..." if len(data) > 40 else "")


def _utf8(body: bytes) -> bytes:
    """The body, with each byte that is not part of UTF-8 written as the JSON escape of a lone
    surrogate (U+DC80-U+DCFF, Python's surrogateescape), which the linter turns back into the byte."""
    try:
        body.decode("utf-8")
        return body
    except UnicodeDecodeError:
        text = body.decode("utf-8", "surrogateescape")
        return re.sub("[\udc80-\udcff]", lambda m: f"\\u{ord(m.group()):04x}", text).encode("utf-8")
