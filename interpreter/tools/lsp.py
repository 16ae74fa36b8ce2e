"""``rules lsp``: a language server for game files, over stdin and stdout (pygls, the ``[lsp]``
extra). An editor gets, as a file is typed, every error ``rules validate`` gives (each with its
range, and its hint), hover text for the name under the cursor, and the names that complete the
word being typed (``author_help`` knows them; this module only speaks the protocol).

A document is checked as the file it is (its ``extends:`` read from beside it); an error found in
another file (a base the document extends) is shown at the document's first line, naming its place.
"""
from __future__ import annotations

from pathlib import Path

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from ..errors import RulesError
from . import author_help

KINDS = {"function": types.CompletionItemKind.Function, "function defined": types.CompletionItemKind.Function,
         "name": types.CompletionItemKind.Variable, "variable": types.CompletionItemKind.Variable,
         "option": types.CompletionItemKind.Constant, "zone": types.CompletionItemKind.Field,
         "move": types.CompletionItemKind.Method, "effect": types.CompletionItemKind.Keyword,
         "section": types.CompletionItemKind.Module, "phase": types.CompletionItemKind.EnumMember,
         "value": types.CompletionItemKind.Value}

server = LanguageServer("rules", "0.1.0", text_document_sync_kind=types.TextDocumentSyncKind.Full)


def run() -> None:
    server.start_io()


def diagnostics(path: str, text: str) -> list[types.Diagnostic]:
    return [_diagnostic(error, path) for error in author_help.problems(path, text)]


def _diagnostic(error: RulesError, path: str) -> types.Diagnostic:
    pos = error.pos
    message = error.message + (f"\nhint: {error.hint}" if error.hint else "")
    here = pos is not None and Path(pos.source.name).resolve() == Path(path).resolve()
    if here:
        assert pos is not None
        start = types.Position(pos.line - 1, pos.col - 1)
        end = types.Position(pos.line - 1, pos.col - 1 + max(pos.width, 1))
    else:
        start = end = types.Position(0, 0)
        if pos is not None:
            message = f"{pos.source.name}:{pos.line}:{pos.col}: {message}"
    return types.Diagnostic(types.Range(start, end), message, severity=types.DiagnosticSeverity.Error,
                            source="rules")


def _publish(ls: LanguageServer, uri: str) -> None:
    document = ls.workspace.get_text_document(uri)
    path = to_fs_path(uri) or uri
    ls.text_document_publish_diagnostics(
        types.PublishDiagnosticsParams(uri=uri, version=document.version, diagnostics=diagnostics(path, document.source)))


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: LanguageServer, params: types.DidOpenTextDocumentParams) -> None:
    _publish(ls, params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: LanguageServer, params: types.DidChangeTextDocumentParams) -> None:
    _publish(ls, params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: LanguageServer, params: types.DidSaveTextDocumentParams) -> None:
    _publish(ls, params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_HOVER)
def hover(ls: LanguageServer, params: types.HoverParams) -> types.Hover | None:
    document = ls.workspace.get_text_document(params.text_document.uri)
    line, column = params.position.line + 1, params.position.character + 1
    text = author_help.hover(document.source, line, column, to_fs_path(document.uri) or "game.yaml")
    if text is None:
        return None
    return types.Hover(types.MarkupContent(types.MarkupKind.Markdown, text))


@server.feature(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=["."]))
def completion(ls: LanguageServer, params: types.CompletionParams) -> types.CompletionList:
    document = ls.workspace.get_text_document(params.text_document.uri)
    line, column = params.position.line + 1, params.position.character + 1
    found = author_help.completions(document.source, line, column, to_fs_path(document.uri) or "game.yaml")
    items = [types.CompletionItem(e.name, kind=KINDS.get(e.kind), detail=e.detail,
                                  documentation=types.MarkupContent(types.MarkupKind.Markdown, e.doc) if e.doc else None)
             for e in found]
    return types.CompletionList(is_incomplete=False, items=items)
