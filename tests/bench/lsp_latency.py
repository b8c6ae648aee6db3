"""Benchmark (not a test): how long after a change `clusterlint server` publishes diagnostics.

    python tests/bench/lsp_latency.py [CHANGES]

Starts the server over stdio with pygls' client, opens a 200-line quote (a Cluster with many node
pools, its Workload and Contract), waits for the first publish, then edits the NIC speed CHANGES
times (default 30), each time timing from the didChange notification to the publish of that
version. The time includes the server's debounce (`clusterlint.server.DEBOUNCE`). The target is a
median within 150 ms.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path

ROOT = Path(__file__).resolve().parents[2]
LINES = 200


def quote() -> str:
    """The NET003 fixture with extra node pools until it is LINES lines long."""
    text = (ROOT / "tests" / "fixtures" / "NET003" / "bad.yaml").read_text(encoding="utf-8")
    head, sep, tail = text.partition("  network:\n")
    pools, n = [], 0
    while len((head + "".join(pools) + sep + tail).splitlines()) < LINES:
        n += 1
        pools.append(f"    - name: extra-{n}\n      count: 2\n      spares: 0\n      accelerator: {{model: H100-SXM, count: 8}}\n"
                     f"      cpu: {{sockets: 2, cores_per_socket: 56}}\n      memory: 2TB\n      local_storage:\n"
                     f"        - {{type: nvme, capacity: 30TB}}\n")
    return head + "".join(pools) + sep + tail


async def measure(changes: int) -> tuple[int, list[float]]:
    text = quote()
    lines = text.splitlines()
    nic = next(i for i, line in enumerate(lines) if "nic_speed: 400Gbps" in line)
    column = lines[nic].index("400Gbps")
    published: asyncio.Queue = asyncio.Queue()
    client = LanguageClient("lsp-latency", "1")

    @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_diagnostics(params):
        published.put_nowait((time.perf_counter(), params))

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "quote.yaml"
        path.write_text(text, encoding="utf-8")
        uri = from_fs_path(str(path))
        await client.start_io(sys.executable, "-m", "clusterlint", "server")
        await client.initialize_async(lsp.InitializeParams(capabilities=lsp.ClientCapabilities(), process_id=None))
        client.initialized(lsp.InitializedParams())
        client.text_document_did_open(lsp.DidOpenTextDocumentParams(
            text_document=lsp.TextDocumentItem(uri=uri, language_id="yaml", version=1, text=text)))
        await published.get()
        times = []
        for version in range(2, changes + 2):
            speed = "800Gbps" if version % 2 else "400Gbps"
            at = lsp.Range(lsp.Position(nic, column), lsp.Position(nic, column + 7))
            sent = time.perf_counter()
            client.text_document_did_change(lsp.DidChangeTextDocumentParams(
                text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[lsp.TextDocumentContentChangePartial(range=at, text=speed)]))
            while True:
                received, params = await published.get()
                if params.version == version:
                    break
            times.append(received - sent)
        await client.shutdown_async(None)
        client.exit(None)
        await client.stop()
    return len(lines), times


def main() -> None:
    changes = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    lines, times = asyncio.run(measure(changes))
    ms = sorted(t * 1000 for t in times)
    print(f"{lines}-line quote, {changes} changes: median {statistics.median(ms):.0f} ms, "
          f"p90 {ms[int(len(ms) * 0.9) - 1]:.0f} ms, max {ms[-1]:.0f} ms (target: median within 150 ms)")


if __name__ == "__main__":
    main()
