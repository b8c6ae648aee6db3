"""`clusterlint server` under a hostile or broken client: raw frames on its standard input."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time

import pytest

pytest.importorskip("pygls", reason="the lsp extra (pygls) is not installed")

from pygls.uris import from_fs_path  # noqa: E402

QUOTE = "apiVersion: clusterlint/v1\nkind: Cluster\nmetadata: {name: q}\nspec:\n  node_pools: []\n"


def frame(message: dict) -> bytes:
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


class Raw:
    """A server process, written to as bytes; what it writes is parsed into messages on a thread."""

    def __init__(self, cwd):
        self.process = subprocess.Popen([sys.executable, "-m", "clusterlint", "server"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=cwd)
        self.messages: queue.Queue = queue.Queue()
        self.seen: list = []  # received, not yet waited for
        threading.Thread(target=self._read, daemon=True).start()
        self.request(0, "initialize", {"processId": None, "capabilities": {}, "rootUri": None})
        self.send(frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}))

    def _read(self):
        out = self.process.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    return
                if line == b"\r\n":
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            self.messages.put(json.loads(out.read(length)))

    def send(self, data: bytes) -> None:
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def request(self, msg_id, method: str, params: dict) -> dict:
        self.send(frame({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params}))
        return self.wait(lambda m: m.get("id") == msg_id and "method" not in m)

    def notify(self, method: str, params: dict) -> None:
        self.send(frame({"jsonrpc": "2.0", "method": method, "params": params}))

    def wait(self, wanted, timeout: float = 20) -> dict:
        """The first message, received or to come, that `wanted` accepts; each is returned once."""
        for i, message in enumerate(self.seen):
            if wanted(message):
                return self.seen.pop(i)
        end = time.monotonic() + timeout
        while True:
            message = self.messages.get(timeout=max(0.01, end - time.monotonic()))
            if wanted(message):
                return message
            self.seen.append(message)

    def open(self, uri: str, text: str) -> dict:
        self.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}})
        return self.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri)["params"]

    def close(self) -> int:
        self.process.stdin.close()
        return self.process.wait(timeout=20)


@pytest.fixture
def raw(tmp_path):
    server = Raw(tmp_path)
    yield server
    if server.process.poll() is None:
        server.process.kill()
        server.process.wait()


def _framing_error(message: dict) -> bool:
    return message.get("id") is None and message.get("error", {}).get("code") == -32700


@pytest.mark.parametrize("bad, says", [
    (b"Content-Length: abc\r\n\r\n{}", "Content-Length 'abc' is not a number of bytes"),
    (b"Content-Length: 99999999999999999999\r\n\r\n{}", "Content-Length 99,999,999,999,999,999,999 is over the 33,554,432 bytes"),
    (b"Content-Length: 1000000\r\n\r\n{\"jsonrpc\"", "declared Content-Length 1,000,000 but the next frame's header came after 10 bytes"),
    (b"Content-Type: text/plain\r\n\r\n{}", "a frame without a Content-Length header"),
    (b"garbage\r\n\r\n", "'garbage' is not a header line (NAME: VALUE)"),
])
def test_a_malformed_frame_is_answered_and_the_next_request_is_served(raw, bad, says):
    raw.send(bad)
    answer = raw.request(7, "shutdown", None)  # a request after the bad frame: still answered
    assert answer == {"jsonrpc": "2.0", "id": 7, "result": None}
    error = raw.wait(_framing_error, timeout=5)
    assert says in error["error"]["message"]
    assert raw.process.poll() is None
    assert raw.close() in (0, 1)


def test_hover_on_a_never_opened_uri_does_not_read_the_disk(raw, tmp_path):
    fifo = tmp_path / "quote.yaml"
    os.mkfifo(fifo)  # reading it would block the server for good
    started = time.monotonic()
    answer = raw.request(3, "textDocument/hover", {"textDocument": {"uri": from_fs_path(str(fifo))}, "position": {"line": 0, "character": 0}})
    assert answer["result"] is None
    actions = raw.request(4, "textDocument/codeAction", {
        "textDocument": {"uri": from_fs_path(str(fifo))}, "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 1}},
        "context": {"diagnostics": []}})
    assert actions["result"] == []
    assert time.monotonic() - started < 10


def test_the_server_exits_when_its_input_ends(raw):
    started = time.monotonic()
    raw.process.stdin.close()  # the client is gone: no shutdown, no exit notification
    raw.process.wait(timeout=20)
    assert time.monotonic() - started < 20


def test_a_lone_surrogate_in_a_buffer_is_a_finding_not_an_internal_error(raw, tmp_path):
    uri = from_fs_path(str(tmp_path / "quote.yaml"))
    text = QUOTE.replace("name: q", "name: q\\ud800")
    body = json.dumps({"jsonrpc": "2.0", "method": "textDocument/didOpen",
                       "params": {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": "@@"}}})
    raw.send(frame(json.loads(body.replace('"@@"', json.dumps(text).replace("\\\\ud800", "\\ud800")))))
    published = raw.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics")["params"]
    messages = [(d.get("code"), d["message"]) for d in published["diagnostics"]]
    assert messages and all("internal error" not in m for _, m in messages)
    assert messages[0][0] == "SPEC001" and "UTF-8" in messages[0][1]
    assert published["diagnostics"][0]["range"]["start"]["line"] == 2  # the line with the surrogate


def test_bytes_that_are_not_utf8_in_a_frame_are_a_finding(raw, tmp_path):
    uri = from_fs_path(str(tmp_path / "quote.yaml"))
    body = json.dumps({"jsonrpc": "2.0", "method": "textDocument/didOpen",
                       "params": {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": QUOTE}}}).encode()
    body = body.replace(b"name: q", b"name: q\xff")
    raw.send(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    published = raw.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics")["params"]
    first = published["diagnostics"][0]
    assert first["code"] == "SPEC001" and "UTF-8" in first["message"] and "internal error" not in first["message"]


def test_a_buffer_over_the_size_limit_is_reported_and_not_kept(raw, tmp_path):
    uri = from_fs_path(str(tmp_path / "quote.yaml"))
    big = QUOTE + "# " + "x" * (4 * 2**20) + "\n"
    published = raw.open(uri, big)
    assert [(d["code"], d["message"]) for d in published["diagnostics"]] == [
        ("SPEC001", "file is 4.0 MiB, over the 4 MiB limit: not reviewed (the buffer is not kept)")]
    # the whole text again, under the limit: reviewed as usual
    raw.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": QUOTE}]})
    again = raw.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["version"] == 2)["params"]
    assert "over the 4 MiB limit" not in json.dumps(again)


def test_the_least_recently_used_buffer_is_dropped_past_the_document_cap(raw, tmp_path):
    from clusterlint.server.lsp import MAX_DOCUMENTS

    uris = [from_fs_path(str(tmp_path / f"notes{i}.yaml")) for i in range(MAX_DOCUMENTS + 1)]
    for uri in uris[:MAX_DOCUMENTS]:
        raw.open(uri, "a: 1\n")  # not a clusterlint document: published empty at once
    raw.notify("textDocument/didChange", {"textDocument": {"uri": uris[0], "version": 2}, "contentChanges": [{"text": "a: 2\n"}]})
    raw.open(uris[-1], "a: 1\n")  # one over the cap: notes1 (touched least recently; notes0 was just changed) is dropped
    dropped = raw.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["diagnostics"])["params"]
    assert dropped["uri"] == uris[1]
    assert dropped["diagnostics"][0]["message"] == (
        f"not followed any more: more than {MAX_DOCUMENTS} buffers or 64 MiB of text open (this one was touched least recently); "
        "reopen it to lint it again")
    assert raw.open(uris[1], QUOTE)["diagnostics"]  # reopened: linted again (and notes2 dropped in turn)
    assert raw.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uris[2])["params"]["diagnostics"]
    assert raw.process.poll() is None


def test_the_buffers_text_in_all_is_bounded(raw, tmp_path):
    from clusterlint.server.lsp import MAX_TEXT

    big = "a: 1\n" + "# " + "x" * (3 * 2**20) + "\n"  # under the 4 MiB file limit, kept
    count = MAX_TEXT // len(big) + 1
    uris = [from_fs_path(str(tmp_path / f"big{i}.yaml")) for i in range(count)]
    for uri in uris:
        raw.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": big}})
    dropped = raw.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["diagnostics"], timeout=60)["params"]
    assert dropped["uri"] == uris[0] and "not followed any more" in dropped["diagnostics"][0]["message"]


def test_the_process_ends_when_its_input_ends_even_if_a_thread_hangs(tmp_path):
    from clusterlint.server.lsp import EXIT_GRACE

    code = ("import threading, time\n"
            "threading.Thread(target=time.sleep, args=(3600,)).start()  # a worker that never returns\n"
            "from clusterlint.server.lsp import main\nmain()\n")
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-c", code], stdin=subprocess.DEVNULL, capture_output=True, cwd=tmp_path, timeout=EXIT_GRACE + 60)
    assert done.returncode == 1 and b"Traceback" not in done.stderr
    assert time.monotonic() - started < EXIT_GRACE + 30


def test_a_change_to_a_never_opened_uri_leaves_the_server_serving(raw, tmp_path):
    uri = from_fs_path(str(tmp_path / "quote.yaml"))
    raw.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": QUOTE}]})
    assert raw.request(9, "shutdown", None) == {"jsonrpc": "2.0", "id": 9, "result": None}
    assert raw.process.poll() is None
