"""The schemas in a real editor: yaml-language-server (npm) on a file made by `clusterlint init`.

The server is looked up in .ci/node (where .ci/run installs it: npm install --prefix .ci/node
yaml-language-server), or at $CLUSTERLINT_YAML_LS; when it is missing and npm is here, the test
installs it there. Skipped only where node is absent.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import run_cli

pytest.importorskip("pygls", reason="the lsp extra (pygls) drives the client")

from lsprotocol import types as lsp  # noqa: E402
from pygls.lsp.client import LanguageClient  # noqa: E402
from pygls.uris import from_fs_path  # noqa: E402

PREFIX = Path(__file__).resolve().parent.parent / ".ci" / "node"
SERVER = Path(os.environ.get("CLUSTERLINT_YAML_LS", PREFIX / "node_modules" / "yaml-language-server" / "bin" / "yaml-language-server"))


@pytest.fixture(scope="module")
def yaml_ls() -> Path:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: yaml-language-server cannot run")
    if not SERVER.exists():
        npm = shutil.which("npm")
        assert npm, "node without npm: install yaml-language-server with npm install --prefix .ci/node yaml-language-server"
        subprocess.run([npm, "install", "--silent", "--no-audit", "--no-fund", "--prefix", str(PREFIX), "yaml-language-server"], check=True)
    return SERVER


async def _session(server: Path, path: Path, text: str, complete_at: lsp.Position):
    client = LanguageClient("clusterlint-test", "1")
    published: asyncio.Queue = asyncio.Queue()

    @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_diagnostics(params):
        published.put_nowait(params)

    @client.feature(lsp.WORKSPACE_CONFIGURATION)
    def configuration(params):
        return [{"validate": True, "completion": True, "hover": True} if item.section == "yaml" else None for item in params.items]

    await client.start_io(shutil.which("node"), str(server), "--stdio")
    await client.initialize_async(lsp.InitializeParams(
        capabilities=lsp.ClientCapabilities(workspace=lsp.WorkspaceClientCapabilities(configuration=True)),
        process_id=None, root_uri=from_fs_path(str(path.parent))))
    client.initialized(lsp.InitializedParams())
    client.workspace_did_change_configuration(lsp.DidChangeConfigurationParams(
        settings={"yaml": {"validate": True, "completion": True, "hover": True}}))
    uri = from_fs_path(str(path))
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(
        text_document=lsp.TextDocumentItem(uri=uri, language_id="yaml", version=1, text=text)))
    try:
        while True:
            diagnostics = await asyncio.wait_for(published.get(), 30)
            if diagnostics.uri == uri and diagnostics.diagnostics:
                break
        completion = await client.text_document_completion_async(lsp.CompletionParams(
            text_document=lsp.TextDocumentIdentifier(uri=uri), position=complete_at))
    finally:
        await client.shutdown_async(None)
        client.exit(None)
        await client.stop()
    items = completion.items if isinstance(completion, lsp.CompletionList) else completion
    return diagnostics.diagnostics, [item.label for item in items]


def test_init_file_completes_keys_under_spec_and_explains_a_missing_unit(yaml_ls, tmp_path):
    quote = tmp_path / "quote.yaml"
    assert run_cli("init", str(quote))[0] == 0
    lines = quote.read_text(encoding="utf-8").splitlines()
    spec = lines.index("spec:")
    memory = next(i for i, line in enumerate(lines) if line.strip().startswith("memory: 2TB"))
    lines[memory] = lines[memory].replace("memory: 2TB", "memory: 512")
    lines.insert(spec + 1, "  ")  # the cursor, on an empty key line under spec:
    memory += 1
    text = "\n".join(lines) + "\n"
    diagnostics, labels = asyncio.run(_session(yaml_ls, quote, text, lsp.Position(spec + 1, 2)))
    assert "location" in labels, (labels, diagnostics)  # the one ClusterSpec key the starter does not write
    assert "node_pools" not in labels  # already there
    assert [(d.range.start.line, d.message) for d in diagnostics] == [
        (memory, "write a unit: a data size, e.g. 80GB or 1.5TiB")]
