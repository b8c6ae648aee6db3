"""`clusterlint server` end to end: a real LSP client (pygls') talks to the server over stdio."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls", reason="the lsp extra (pygls) is not installed")

from lsprotocol import types as lsp  # noqa: E402
from pygls.lsp.client import LanguageClient  # noqa: E402
from pygls.uris import from_fs_path  # noqa: E402

FIXTURES = Path(__file__).parent / "fixtures"


class Session:
    """A server process and a client that collects every published diagnostic list."""

    def __init__(self):
        self.client = LanguageClient("clusterlint-test", "1")
        self.published: asyncio.Queue = asyncio.Queue()

        @self.client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def on_diagnostics(params):
            self.published.put_nowait(params)

    async def __aenter__(self):
        await self.client.start_io(sys.executable, "-m", "clusterlint", "server")
        await self.client.initialize_async(lsp.InitializeParams(capabilities=lsp.ClientCapabilities(), process_id=None))
        self.client.initialized(lsp.InitializedParams())
        return self

    async def __aexit__(self, *exc):
        await self.client.shutdown_async(None)
        self.client.exit(None)
        await self.client.stop()

    async def open(self, uri: str, text: str, language: str = "yaml") -> lsp.PublishDiagnosticsParams:
        """Open a buffer; returns its first publish."""
        self.client.text_document_did_open(lsp.DidOpenTextDocumentParams(
            text_document=lsp.TextDocumentItem(uri=uri, language_id=language, version=1, text=text)))
        return await self.next(uri)

    async def next(self, uri: str) -> lsp.PublishDiagnosticsParams:
        while True:
            params = await asyncio.wait_for(self.published.get(), 20)
            if params.uri == uri:
                return params


def _ids(params) -> list:
    return sorted(d.code for d in params.diagnostics)


def _run(coro):
    return asyncio.run(coro)


def test_net003_appears_at_its_place_goes_away_when_fixed_and_is_silenced_by_the_code_action(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    quote = tmp_path / "quote.yaml"
    text = (FIXTURES / "NET003" / "bad.yaml").read_text(encoding="utf-8")
    quote.write_text(text, encoding="utf-8")
    uri = from_fs_path(str(quote))
    lines = text.splitlines()
    nic = next(i for i, line in enumerate(lines) if "nic_speed: 400Gbps" in line)  # 0-based line 18
    assert nic == 18

    async def scenario():
        async with Session() as s:
            opened = await s.open(uri, text)
            net003 = [d for d in opened.diagnostics if d.code == "NET003"]
            assert len(net003) == 1
            found = net003[0]
            assert (found.range.start.line, found.range.start.character) == (18, 17)  # check says 19:18
            assert (found.range.end.line, found.range.end.character) == (18, 24)  # the value 400Gbps
            assert found.severity == lsp.DiagnosticSeverity.Warning  # NET003 is a warning
            assert found.source == "clusterlint"
            assert found.code_description.href == (
                "https://github.com/clusterlint/clusterlint/blob/main/docs/rules.md#net003-low-inter-node-bandwidth")
            assert found.message.startswith("4 x 400 Gbps / 8 accelerators = 200 Gbps per accelerator")

            # a buffer edit, never saved: the file on disk still says 4 x 400Gbps
            at = lsp.Range(lsp.Position(18, 17), lsp.Position(18, 24))
            s.client.text_document_did_change(lsp.DidChangeTextDocumentParams(
                text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=2),
                content_changes=[lsp.TextDocumentContentChangePartial(range=at, text="800Gbps")]))
            changed = await s.next(uri)
            assert "NET003" not in _ids(changed)
            assert changed.version == 2

            # back to the slow NIC, then take the suppression the server offers
            s.client.text_document_did_change(lsp.DidChangeTextDocumentParams(
                text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=3),
                content_changes=[lsp.TextDocumentContentChangePartial(range=at, text="400Gbps")]))
            again = await s.next(uri)
            found = next(d for d in again.diagnostics if d.code == "NET003")
            actions = await s.client.text_document_code_action_async(lsp.CodeActionParams(
                text_document=lsp.TextDocumentIdentifier(uri=uri), range=found.range,
                context=lsp.CodeActionContext(diagnostics=[found])))
            titles = [a.title for a in actions]
            assert titles == ["Suppress NET003 on this line (write the reason)"]  # no unit rewrite for a real slow NIC
            (edit,) = actions[0].edit.changes[uri]
            assert edit.new_text == "      # clusterlint: ignore[NET003] <reason>\n"
            assert (edit.range.start.line, edit.range.start.character) == (18, 0)
            s.client.text_document_did_change(lsp.DidChangeTextDocumentParams(
                text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=4),
                content_changes=[lsp.TextDocumentContentChangePartial(range=edit.range, text=edit.new_text)]))
            silenced = await s.next(uri)
            assert "NET003" not in _ids(silenced)
            assert not [d for d in silenced.diagnostics if d.code.startswith("SUP")]

            # hover on the id in the new comment shows the rule's summary
            hover = await s.client.text_document_hover_async(lsp.HoverParams(
                text_document=lsp.TextDocumentIdentifier(uri=uri), position=lsp.Position(18, 30)))  # inside "NET003"
            assert hover.contents.value.startswith("**NET003** `low-inter-node-bandwidth` (warning, built-in)\n\nMulti-node training over")
            assert (hover.range.start.character, hover.range.end.character) == (28, 34)
        assert quote.read_text(encoding="utf-8") == text  # the file on disk was never touched

    _run(scenario())


def test_unit_quick_fix_only_where_the_unit_is_unambiguous(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    quote = tmp_path / "quote.yaml"
    text = (FIXTURES / "UNI001" / "bad.yaml").read_text(encoding="utf-8").replace("400GB/s  # expect: UNI001", "400GB/s")
    text = text.replace("memory: 2TB", "memory: 2048")  # SPEC005: GB or GiB? no fix offered
    quote.write_text(text, encoding="utf-8")
    uri = from_fs_path(str(quote))

    async def scenario():
        async with Session() as s:
            opened = await s.open(uri, text)
            by_rule = {d.code: d for d in opened.diagnostics}
            assert set(by_rule) == {"SPEC005"}  # an invalid document is not reviewed: fix it first
            actions = await s.client.text_document_code_action_async(lsp.CodeActionParams(
                text_document=lsp.TextDocumentIdentifier(uri=uri), range=by_rule["SPEC005"].range,
                context=lsp.CodeActionContext(diagnostics=[by_rule["SPEC005"]])))
            assert [a.title for a in actions] == ["Suppress SPEC005 on this line (write the reason)"]

            fixed_memory = text.replace("memory: 2048", "memory: 2TB")
            s.client.text_document_did_change(lsp.DidChangeTextDocumentParams(
                text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=2),
                content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=fixed_memory)]))
            changed = await s.next(uri)
            uni = next(d for d in changed.diagnostics if d.code == "UNI001")
            actions = await s.client.text_document_code_action_async(lsp.CodeActionParams(
                text_document=lsp.TextDocumentIdentifier(uri=uri), range=uni.range, context=lsp.CodeActionContext(diagnostics=[uni])))
            assert actions[0].title == "Write 400Gbps instead of 400GB/s"
            (edit,) = actions[0].edit.changes[uri]
            assert edit.new_text == "400Gbps"
            assert fixed_memory.splitlines()[uni.range.start.line][uni.range.start.character:uni.range.end.character] == "400GB/s"

    _run(scenario())


def test_percent_is_the_one_bare_number_with_an_obvious_unit():
    from clusterlint.server.lsp import unit_fix
    from clusterlint.model.units import KIND_HINTS

    assert unit_fix("SPEC005", f"spec.sla.availability: 99.5 has no unit; expected {KIND_HINTS['percent']}", "99.5") == "99.5%"
    assert unit_fix("SPEC005", f"spec.x: 400 has no unit; expected {KIND_HINTS['rate']}", "400") is None
    assert unit_fix("UNI001", "storage read_bandwidth 200Gbps is written in bits (25 GB/s); ...", "200Gbps") is None
    assert unit_fix("UNI001", "nic_speed 400GiB/s = ...", "400GiB/s") is None  # binary prefix: no bit unit says it
    assert unit_fix("UNI003", "bandwidth 7200GB/s ...", "7200GB/s") is None


def test_check_never_imports_the_language_server(tmp_path):
    code = ("import sys\nfrom clusterlint.cli import main\n"
            "try:\n    main(['check', sys.argv[1]])\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pygls', 'lsprotocol') or m == 'clusterlint.server.lsp'))")
    out = subprocess.run([sys.executable, "-c", code, str(FIXTURES / "NET003" / "bad.yaml")], capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == "[]"


def test_server_without_pygls_says_how_to_install_it(tmp_path):
    blocker = tmp_path / "pygls"
    blocker.mkdir()
    (blocker / "__init__.py").write_text("raise ImportError('No module named pygls')\n")
    env = {"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-m", "clusterlint", "server"], capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL)
    assert out.returncode == 2
    assert "install it with: pip install 'clusterlint[lsp]'" in out.stderr


def test_a_workload_caused_finding_points_at_the_workload_line_from_the_configuration(tmp_path, monkeypatch):
    """The configuration's workload applies as in check; CST002 is the quote's finding (at its
    metadata.name) and carries the workload line it reads as related information."""
    monkeypatch.chdir(tmp_path)
    documents = (FIXTURES / "CST002" / "bad.yaml").read_text(encoding="utf-8").split("---\n")
    cluster, workload = documents[0], documents[1]
    (tmp_path / "workload.yaml").write_text(workload, encoding="utf-8")
    (tmp_path / ".clusterlint.yaml").write_text("workload: workload.yaml\n", encoding="utf-8")
    quote = tmp_path / "quote.yaml"
    quote.write_text(cluster, encoding="utf-8")
    uri = from_fs_path(str(quote))
    deadline = next(i for i, line in enumerate(workload.splitlines()) if "deadline: 1d" in line)
    name = next(i for i, line in enumerate(cluster.splitlines()) if line.startswith("metadata:"))

    async def scenario():
        async with Session() as s:
            opened = await s.open(uri, cluster)
            (cst002,) = [d for d in opened.diagnostics if d.code == "CST002"]
            assert cst002.range.start.line == name
            (related,) = cst002.related_information
            assert related.location.uri == from_fs_path(str(tmp_path / "workload.yaml"))
            assert related.location.range.start.line == deadline
            assert related.message.startswith(f"workload spec.deadline in workload.yaml:{deadline + 1}:")

    _run(scenario())


def test_a_markdown_contract_gets_what_check_reports(tmp_path, monkeypatch):
    from conftest import check_json

    monkeypatch.chdir(tmp_path)
    text = (Path(__file__).parent.parent / "specs" / "nimbus-gpu-cloud-sla.md").read_text(encoding="utf-8")
    contract = tmp_path / "vendor-contract.md"
    contract.write_text(text, encoding="utf-8")
    expected = sorted((f["rule"], f["line"] - 1, f["column"] - 1) for f in check_json(str(contract))["findings"])
    assert ("CON002", 13, 3) in expected  # at the heading "## 2. Capacity and Delivery"
    uri = from_fs_path(str(contract))

    async def scenario():
        async with Session() as s:
            opened = await s.open(uri, text, "markdown")
            assert sorted((d.code, d.range.start.line, d.range.start.character) for d in opened.diagnostics) == expected

    _run(scenario())
