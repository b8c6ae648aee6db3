"""`clusterlint server`: a Language Server over stdio (pygls) that shows findings as you type.

Each open buffer is linted by the same `run.check` as `clusterlint check` (configuration discovery,
workload and contract settings, suppressions, baseline), fed the editor's text instead of the file on
disk. Diagnostics are published on open, on save and after a pause in typing (`DEBOUNCE`).

Which buffers are linted: YAML that holds a `clusterlint/` document, and text or Markdown
contracts whose path names a contract (`contract` in a folder or file name) or that the
configuration names as its `contract`.

Memory is bounded: a buffer over the file size limit is not kept (`_limit`), and at most
`MAX_DOCUMENTS` buffers holding `MAX_TEXT` characters in all are followed; past either, the buffers
the client touched least recently are dropped (their text forgotten, one diagnostic saying so) until
the client reopens them.

Rule links (`codeDescription`) point at the rule's anchor in the repository's docs/rules.md
(`RULE_DOCS` + `ncc001-rule-name`, the anchors `clusterlint rules --format markdown` writes); rules
from user files and plugins have no page there and get no link.
"""

from __future__ import annotations

import asyncio
import os
import re
from urllib.parse import unquote

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from clusterlint import __version__
from clusterlint.model import units
from clusterlint.model.findings import Finding
from clusterlint.readers.file_kinds import YAML_SUFFIXES, is_prose
from clusterlint.check import Options, UsageError, check

RULE_DOCS = "https://github.com/clusterlint/clusterlint/blob/main/docs/rules.md#"
DEBOUNCE = 0.03  # seconds of quiet after a change before linting: edits within it are linted once
MAX_DOCUMENTS = 64  # open buffers followed at once; an editor rarely shows more
MAX_TEXT = 2**26  # characters in all the buffers followed (64 Mi; one buffer may hold up to the 4 MiB file limit)
EXIT_GRACE = 5.0  # seconds the server may take to stop after its input ends, before the process is ended
SEVERITY = {"error": lsp.DiagnosticSeverity.Error, "warning": lsp.DiagnosticSeverity.Warning, "info": lsp.DiagnosticSeverity.Information}
_CLUSTERLINT_DOC = re.compile(r"^[\"']?apiVersion[\"']?[ \t]*:[ \t]*[\"']?clusterlint/", re.MULTILINE)
_IGNORE_IDS = re.compile(r"clusterlint\s*:\s*ignore(?:-file)?\[(?P<ids>[^\]]*)\]")
_RULE_ID = re.compile(r"[A-Z]+[0-9]+")
_DECIMAL_BYTE_RATE = re.compile(r"^(?P<number>[0-9.eE+-]+)\s*(?P<prefix>[KMGT])B(?:/s|ps)$")

server = LanguageServer("clusterlint", __version__, text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental)
_pending: dict[str, asyncio.Task] = {}
_too_big: dict[str, str] = {}  # uri -> why its buffer was emptied (over the size limit)
_recent: dict[str, None] = {}  # the buffers followed, least recently opened or changed first


class Outcome:
    """What one lint of a buffer found: its findings, the rules that applied, or why it could not run."""

    def __init__(self, findings=(), rules=None, error: str = ""):
        self.findings, self.rules, self.error = list(findings), rules or {}, error


def lint(path: str, text: str) -> Outcome:
    """Lint `text` as the content of `path`, exactly as `clusterlint check path` would."""
    from clusterlint.config.settings import ConfigError
    from clusterlint.engine.registry import RuleError

    try:
        report = check(Options(paths=(path,), buffers={path: _encoded(text)}))
    except (UsageError, RuleError, ConfigError) as exc:
        return Outcome(error=str(exc))
    except Exception as exc:  # as check's last line of defence: said in the editor, never a silent pass
        return Outcome(error=f"internal error: {type(exc).__name__}: {exc} (please report it)")
    mine = os.path.abspath(path)
    results = [r for r in report.results if os.path.abspath(r.file) == mine]
    rules = results[0].settings.rules if results and results[0].settings else report.rules
    return Outcome([f for r in results for f in r.findings], rules)


def _encoded(text: str) -> bytes:
    """The buffer as the file's bytes: a byte that was not UTF-8 (see framing) is that byte again,
    a lone surrogate from the client stays one (invalid UTF-8), so that the loader reports either as
    a finding at its place instead of the encoding failing."""
    try:
        return text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogatepass")


def _opened(ls: LanguageServer, uri: str):
    """The client's open buffer at `uri`, or None: the server never reads a document from disk
    (pygls would, for a never-opened URI, and a FIFO there would block it)."""
    return ls.workspace.text_documents.get(unquote(uri))


def wanted(path: str, text: str) -> bool:
    if path.endswith(YAML_SUFFIXES):
        return bool(_CLUSTERLINT_DOC.search(text))
    if is_prose(path) and not path.lower().endswith(".pdf"):
        if "contract" in path.lower():
            return True
        from clusterlint.config.settings import Resolver

        try:
            configured = Resolver({}, None, False).for_path(path).values.get("contract")
        except Exception:  # a broken configuration is reported on the YAML buffers that use it
            return False
        return bool(configured) and os.path.abspath(configured) == os.path.abspath(path)
    return False


def _span(lines: list[str], finding: Finding) -> lsp.Range:
    line = max(finding.line - 1, 0)
    text = lines[line] if line < len(lines) else ""
    start = min(max(finding.column - 1, 0), len(text))
    if finding.length:
        end = start + finding.length
    else:  # to the end of the value: the line without its trailing comment
        comment = re.search(r"\s+#", text[start:])
        end = start + (comment.start() if comment else len(text[start:].rstrip()))
    return lsp.Range(lsp.Position(line, start), lsp.Position(line, max(end, start + 1)))


def diagnostic(finding: Finding, path: str, lines: list[str], rules: dict) -> lsp.Diagnostic:
    rule = rules.get(finding.rule)
    link = lsp.CodeDescription(href=f"{RULE_DOCS}{finding.rule.lower()}-{rule.name}") if rule and rule.origin == "built-in" else None
    related = [lsp.DiagnosticRelatedInformation(  # the workload or contract line a quote's finding reads
        location=lsp.Location(uri=from_fs_path(os.path.abspath(r.file)), range=lsp.Range(*[lsp.Position(max(r.line - 1, 0), max(r.column - 1, 0))] * 2)),
        message=f"{r.message} in {r.file}:{r.line}:{r.column}",
    ) for r in finding.related] or None
    where = _span(lines, finding)
    return lsp.Diagnostic(
        range=where, message=finding.message, severity=SEVERITY[finding.severity], code=finding.rule, source="clusterlint",
        code_description=link, related_information=related, data={"own": related is None},  # own line: the suppression and unit fixes apply
    )


def _first_line(message: str, code: str | None = None) -> lsp.Diagnostic:
    return lsp.Diagnostic(range=lsp.Range(lsp.Position(0, 0), lsp.Position(0, 1)), severity=lsp.DiagnosticSeverity.Error,
                          message=message, source="clusterlint", code=code)


def _limit(ls: LanguageServer, uri: str) -> None:
    """Keep an open buffer under the size limit of a file: one over it is emptied (its text is not
    kept) and reported until the client sends the whole text again or reopens it."""
    from clusterlint.readers.loader import MAX_BYTES, too_big

    document = _opened(ls, uri)
    if document is not None and len(document.source) > MAX_BYTES // 4:  # under a quarter of the limit in characters: under it in bytes
        problem = too_big(_encoded(document.source))
        if problem:
            _too_big[uri] = problem.message
            ls.workspace.put_text_document(lsp.TextDocumentItem(uri=uri, language_id=document.language_id or "", version=document.version or 0, text=""))


def _touch(ls: LanguageServer, uri: str) -> None:
    """Mark `uri` as the buffer used last, then drop the least recently used ones while more than
    MAX_DOCUMENTS are open or their text is over MAX_TEXT characters (never `uri` itself)."""
    _recent.pop(uri, None)
    _recent[uri] = None
    documents = ls.workspace.text_documents
    for stale in [u for u in _recent if u not in documents]:  # closed, or never opened (a change to an unknown URI)
        del _recent[stale]
    total = sum(len(d.source) for d in documents.values())
    while len(_recent) > 1 and (len(documents) > MAX_DOCUMENTS or total > MAX_TEXT):
        oldest = next(iter(_recent))
        total -= len(documents[oldest].source)
        _forget(ls, oldest)
        ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=oldest, diagnostics=[lsp.Diagnostic(
            range=lsp.Range(lsp.Position(0, 0), lsp.Position(0, 1)), severity=lsp.DiagnosticSeverity.Information, source="clusterlint",
            message=f"not followed any more: more than {MAX_DOCUMENTS} buffers or {MAX_TEXT // 2**20} MiB of text open "
                    "(this one was touched least recently); reopen it to lint it again")]))


def _forget(ls: LanguageServer, uri: str) -> None:
    """Stop following `uri`: its text, its size note and its pending lint go."""
    ls.workspace.remove_text_document(uri)
    _recent.pop(uri, None)
    _too_big.pop(uri, None)
    task = _pending.pop(uri, None)
    if task:
        task.cancel()


def publish(ls: LanguageServer, uri: str) -> None:
    document = _opened(ls, uri)
    if document is None:  # closed since: its diagnostics were cleared then
        return
    path = to_fs_path(uri)
    if uri in _too_big:
        ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(
            uri=uri, diagnostics=[_first_line(f"{_too_big[uri]}: not reviewed (the buffer is not kept)", "SPEC001")], version=document.version))
        return
    if not path or not wanted(path, document.source):
        ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=[], version=document.version))
        return  # not (or no longer) a clusterlint document: clear what an earlier version showed
    lines = document.source.splitlines()
    outcome = lint(path, document.source)
    if outcome.error:
        diagnostics = [_first_line(f"clusterlint could not lint this file: {outcome.error}")]
    else:
        diagnostics = [diagnostic(f, path, lines, outcome.rules) for f in outcome.findings]
    ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics, version=document.version))


async def _later(ls: LanguageServer, uri: str) -> None:
    await asyncio.sleep(DEBOUNCE)
    _pending.pop(uri, None)
    publish(ls, uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: LanguageServer, params: lsp.DidOpenTextDocumentParams) -> None:
    _too_big.pop(params.text_document.uri, None)
    _limit(ls, params.text_document.uri)
    _touch(ls, params.text_document.uri)
    publish(ls, params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: LanguageServer, params: lsp.DidSaveTextDocumentParams) -> None:
    publish(ls, params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: LanguageServer, params: lsp.DidChangeTextDocumentParams) -> None:
    uri = params.text_document.uri
    if any(isinstance(change, lsp.TextDocumentContentChangeWholeDocument) for change in params.content_changes):
        _too_big.pop(uri, None)  # the whole text again: judge it afresh
    _limit(ls, uri)
    _touch(ls, uri)
    if uri in _pending:
        _pending[uri].cancel()
    _pending[uri] = asyncio.ensure_future(_later(ls, uri))


@server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: LanguageServer, params: lsp.DidCloseTextDocumentParams) -> None:
    _forget(ls, params.text_document.uri)
    ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[]))


def unit_fix(rule: str, message: str, value: str) -> str | None:
    """The value rewritten in its intended unit, only when that unit is unambiguous.

    UNI001 on a NIC: NICs are sold in bits, so 400GB/s was meant as 400Gbps (the rule says so).
    SPEC005 on a percentage: `%` is the only unit a percentage has. Every other bare number
    (bits or bytes? GB or GiB? which currency?), storage written in bits, and the aggregate and
    bidirectional figures of UNI002/UNI003 (a different number, not a different unit) get no fix.
    """
    if rule == "UNI001" and message.startswith("nic_speed "):
        match = _DECIMAL_BYTE_RATE.match(value)
        return match and f"{match['number']}{match['prefix']}bps"
    if rule == "SPEC005" and message.endswith(units.KIND_HINTS["percent"]) and re.fullmatch(r"[0-9]+(?:\.[0-9]+)?", value):
        return value + "%"
    return None


@server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION, lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix]))
def code_actions(ls: LanguageServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
    uri = params.text_document.uri
    document = _opened(ls, uri)
    if document is None:
        return []
    lines = document.source.splitlines()
    actions = []
    for diag in params.context.diagnostics:
        if diag.source != "clusterlint" or not diag.code or not isinstance(diag.data, dict) or not diag.data.get("own"):
            continue
        line = diag.range.start.line
        text = lines[line] if line < len(lines) else ""
        value = text[diag.range.start.character:diag.range.end.character]
        fixed = unit_fix(str(diag.code), diag.message, value)
        if fixed:
            actions.append(lsp.CodeAction(
                title=f"Write {fixed} instead of {value}", kind=lsp.CodeActionKind.QuickFix, diagnostics=[diag], is_preferred=True,
                edit=lsp.WorkspaceEdit(changes={uri: [lsp.TextEdit(range=diag.range, new_text=fixed)]}),
            ))
        indent = text[: len(text) - len(text.lstrip())]
        comment = f"{indent}# clusterlint: ignore[{diag.code}] <reason>\n"
        at = lsp.Position(line, 0)
        actions.append(lsp.CodeAction(
            title=f"Suppress {diag.code} on this line (write the reason)", kind=lsp.CodeActionKind.QuickFix, diagnostics=[diag],
            edit=lsp.WorkspaceEdit(changes={uri: [lsp.TextEdit(range=lsp.Range(at, at), new_text=comment)]}),
        ))
    return actions


@server.feature(lsp.TEXT_DOCUMENT_HOVER)
def hover(ls: LanguageServer, params: lsp.HoverParams) -> lsp.Hover | None:
    uri = params.text_document.uri
    document = _opened(ls, uri)
    if document is None:
        return None
    lines = document.source.splitlines()
    line, char = params.position.line, params.position.character
    text = lines[line] if line < len(lines) else ""
    for comment in _IGNORE_IDS.finditer(text):
        for rule_id in _RULE_ID.finditer(comment["ids"]):
            start, end = comment.start("ids") + rule_id.start(), comment.start("ids") + rule_id.end()
            if start <= char <= end:
                return _rule_hover(to_fs_path(uri) or ".", rule_id.group(), lsp.Range(lsp.Position(line, start), lsp.Position(line, end)))
    return None


def _rule_hover(path: str, rule_id: str, where: lsp.Range) -> lsp.Hover:
    from clusterlint.config.settings import Resolver

    rule = Resolver({}, None, False).for_path(path).rules.get(rule_id)
    if rule is None:
        text = f"**{rule_id}**: no such rule (see `clusterlint rules`)"
    else:
        text = f"**{rule.id}** `{rule.name}` ({rule.severity}, {rule.origin})\n\n{rule.summary}\n\nFix: {rule.fix}"
        if rule.origin == "built-in":
            text += f"\n\n[Documentation]({RULE_DOCS}{rule.id.lower()}-{rule.name})"
    return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text), range=where)


def main() -> None:
    """Serve over stdio through the bounded framing layer; return when the client's input ends, and
    end the process should a thread (a lint, a pygls worker) still hold it EXIT_GRACE seconds later."""
    import sys
    import threading

    from clusterlint.server.framing import Frames, Writer

    def at_end() -> None:
        timer = threading.Timer(EXIT_GRACE, os._exit, (1,))
        timer.daemon = True
        timer.start()

    writer = Writer(sys.stdout.buffer)
    server.start_io(stdin=Frames(sys.stdin.buffer, writer.answer, at_end=at_end), stdout=writer)
