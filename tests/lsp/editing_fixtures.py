"""Helpers for the editing-feature tests (completion, hover, navigation, rename, ...).

Built on ``tests/lsp/conftest.py``: the same ``deck`` and ``start_server`` fixtures, plus
a client that declares what an editor with snippets, hierarchical symbols and file
renames in workspace edits declares, and small helpers to open and edit buffers.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lsp_harness import StartServer, indexed, uri
from lsprotocol import types
from pytest_lsp import LanguageClient

MARKUP = [types.MarkupKind.Markdown, types.MarkupKind.PlainText]


def editing_capabilities(
    *, snippets: bool = True, renames: bool = True
) -> types.ClientCapabilities:
    """A client like VS Code's for the editing features (pushed diagnostics)."""
    operations = [types.ResourceOperationKind.Rename] if renames else []
    return types.ClientCapabilities(
        workspace=types.WorkspaceClientCapabilities(
            configuration=True,
            workspace_edit=types.WorkspaceEditClientCapabilities(
                document_changes=renames,
                resource_operations=operations,
                failure_handling=types.FailureHandlingKind.Undo,
            ),
        ),
        text_document=types.TextDocumentClientCapabilities(
            publish_diagnostics=types.PublishDiagnosticsClientCapabilities(
                related_information=True, code_description_support=True, data_support=True
            ),
            completion=types.CompletionClientCapabilities(
                completion_item=types.ClientCompletionItemOptions(
                    snippet_support=snippets, documentation_format=MARKUP
                )
            ),
            hover=types.HoverClientCapabilities(content_format=MARKUP),
            document_symbol=types.DocumentSymbolClientCapabilities(
                hierarchical_document_symbol_support=True
            ),
        ),
    )


async def start_editor(start_server: StartServer, **options: Any) -> LanguageClient:
    """Start a server for an editing client and wait until its first index is applied."""
    options.setdefault("capabilities", editing_capabilities())
    client = await start_server(**options)
    await indexed(client)
    return client


def open_doc(client: LanguageClient, path: Path, text: str | None = None, version: int = 1) -> str:
    """Open ``path`` in the client (``text`` defaults to the file's content); its URI."""
    content = path.read_text(encoding="utf-8") if text is None else text
    target = uri(path)
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            types.TextDocumentItem(
                uri=target, language_id="markdown", version=version, text=content
            )
        )
    )
    return target


def replace_doc(client: LanguageClient, path: Path, text: str, version: int) -> None:
    """Replace the whole buffer of an open document (unsaved)."""
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri(path), version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


def pos(line: int, character: int) -> types.Position:
    """An LSP position."""
    return types.Position(line=line, character=character)


def rng(line: int, start: int, end_line: int, end: int) -> types.Range:
    """An LSP range."""
    return types.Range(start=pos(line, start), end=pos(end_line, end))


def doc_id(path: Path) -> types.TextDocumentIdentifier:
    """The text document identifier of ``path``."""
    return types.TextDocumentIdentifier(uri=uri(path))


def apply_edit(edit: types.WorkspaceEdit) -> None:
    """Apply a workspace edit to disk in order, as a client would (test helper).

    ``RenameFile`` never overwrites; text edits use the ranges as code points, which
    equals UTF-16 for the ASCII texts of these tests.
    """
    for change in edit.document_changes or []:
        if isinstance(change, types.RenameFile):
            old, new = Path(_fs(change.old_uri)), Path(_fs(change.new_uri))
            assert not new.exists(), f"{new} exists"
            old.rename(new)
            continue
        assert isinstance(change, types.TextDocumentEdit)
        path = Path(_fs(change.text_document.uri))
        lines = path.read_text(encoding="utf-8").split("\n")
        for text_edit in sorted(
            change.edits,
            key=lambda e: (e.range.start.line, e.range.start.character),
            reverse=True,
        ):
            start, end = text_edit.range.start, text_edit.range.end
            head = "\n".join([*lines[: start.line], lines[start.line][: start.character]])
            tail = "\n".join([lines[end.line][end.character :], *lines[end.line + 1 :]])
            lines = (head + text_edit.new_text + tail).split("\n")
        path.write_text("\n".join(lines), encoding="utf-8")


def _fs(value: str) -> str:
    from pygls.uris import to_fs_path  # noqa: PLC0415

    path = to_fs_path(value)
    assert path is not None
    return path


def edits_of(action: types.CodeAction, path: Path, version: int | None) -> list[types.TextEdit]:
    """The text edits of a code action that edits exactly one document, ``path`` at ``version``."""
    assert action.edit is not None and action.edit.document_changes is not None
    [change] = action.edit.document_changes
    assert isinstance(change, types.TextDocumentEdit)
    assert change.text_document == types.OptionalVersionedTextDocumentIdentifier(
        uri=uri(path), version=version
    )
    return list(change.edits)
