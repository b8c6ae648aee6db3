"""Benchmark (not a test): edit-to-diagnostics latency of `clusterlint server` with raw LSP frames.

    python tests/bench/lsp_raw_latency.py [FILE] [EDITS]

Starts `python -m clusterlint server` as an editor would (stdio, no client library), opens FILE
(default specs/forge-h100-quote.yaml, at its own path so its configuration applies), waits for the
first publish, then sends EDITS (default 50) incremental didChange notifications, each flipping
the first NIC speed between two values, and times each from the write of the didChange frame to
the arrival of the publishDiagnostics of that version. The time includes the server's debounce
(`clusterlint.server.lsp.DEBOUNCE`). Issue 36's target is a median of 60 ms.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


class Server:
    def __init__(self):
        self.process = subprocess.Popen([sys.executable, "-m", "clusterlint", "server"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=ROOT)

    def send(self, message: dict) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def receive(self) -> dict:
        length = 0
        while (line := self.process.stdout.readline()) not in (b"\r\n", b""):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return json.loads(self.process.stdout.read(length))

    def until(self, wanted) -> dict:
        while not wanted(message := self.receive()):
            pass
        return message


def measure(path: Path, edits: int) -> list[float]:
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    row = next(i for i, line in enumerate(lines) if "nic_speed: " in line)
    column = lines[row].index("nic_speed: ") + len("nic_speed: ")
    first = lines[row][column:].split(",")[0].split()[0]
    uri = path.resolve().as_uri()
    server = Server()
    server.send({"id": 1, "method": "initialize", "params": {"processId": None, "capabilities": {}, "rootUri": None}})
    server.until(lambda m: m.get("id") == 1)
    server.send({"method": "initialized", "params": {}})
    server.send({"method": "textDocument/didOpen", "params": {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}}})
    server.until(lambda m: m.get("method") == "textDocument/publishDiagnostics")
    times, current = [], first
    for version in range(2, edits + 2):
        new = "200Gbps" if current == first else first
        at = {"start": {"line": row, "character": column}, "end": {"line": row, "character": column + len(current)}}
        sent = time.perf_counter()
        server.send({"method": "textDocument/didChange", "params": {"textDocument": {"uri": uri, "version": version},
                                                                     "contentChanges": [{"range": at, "text": new}]}})
        server.until(lambda m, version=version: m.get("method") == "textDocument/publishDiagnostics" and m["params"].get("version") == version)
        times.append(time.perf_counter() - sent)
        current = new
    server.send({"id": 2, "method": "shutdown", "params": None})
    server.until(lambda m: m.get("id") == 2)
    server.send({"method": "exit", "params": None})
    server.process.stdin.close()
    server.process.wait(timeout=30)
    return times


def main() -> None:
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "specs" / "forge-h100-quote.yaml"
    edits = int(sys.argv[2]) if len(sys.argv) > 2 else 50
    ms = sorted(t * 1000 for t in measure(path, edits))
    print(f"{path.name}, {edits} edits: median {statistics.median(ms):.1f} ms, p90 {ms[int(len(ms) * 0.9) - 1]:.1f} ms, "
          f"min {ms[0]:.1f} ms, max {ms[-1]:.1f} ms (target: median 60 ms)")


if __name__ == "__main__":
    main()
