"""Applying ``textDocument/didChange`` edits with the client's line model.

LSP clients break lines only at ``\\n``, ``\\r\\n`` and ``\\r``
(:data:`skilldeck.engine.text.LINE_BREAK`); pygls' ``TextDocument`` splits with
``str.splitlines()``, which also breaks at U+2028, U+2029, U+0085 and a few control
characters, so its copy of a document holding one of them drifts from the editor's
with every edit below it. The server applies edits here instead, for every open
document (:class:`skilldeck.lsp.open_documents.OpenDocuments`).

A position maps to an offset the way ``vscode-languageserver-textdocument`` does: a
line past the end is the end of the text; a column past the end of its line (or inside
its line break) is the end of that line; a column counts units of the negotiated
position encoding (a column inside a UTF-16 surrogate pair stops before the pair).
"""

from __future__ import annotations

from collections.abc import Iterable

from lsprotocol import types

from skilldeck.engine.text import Encoding, from_client_character, line_starts


def offset_at(text: str, starts: list[int], position: types.Position, encoding: Encoding) -> int:
    """The code-point offset in ``text`` of a client ``position`` (clamped, see module doc).

    ``starts`` is :func:`~skilldeck.engine.text.line_starts` of ``text``.
    """
    if position.line < 0:
        return 0
    if position.line >= len(starts):
        return len(text)
    start = starts[position.line]
    end = starts[position.line + 1] if position.line + 1 < len(starts) else len(text)
    line = text[start:end].rstrip("\r\n")
    return start + from_client_character(line, position.character, encoding)


def apply_change(
    text: str, change: types.TextDocumentContentChangeEvent, encoding: Encoding
) -> str:
    """``text`` after one content change (a whole-document change replaces it)."""
    if not isinstance(change, types.TextDocumentContentChangePartial):
        return change.text
    starts = line_starts(text)
    begin, end = sorted(
        offset_at(text, starts, position, encoding)
        for position in (change.range.start, change.range.end)
    )
    return text[:begin] + change.text + text[end:]


def apply_changes(
    text: str, changes: Iterable[types.TextDocumentContentChangeEvent], encoding: Encoding
) -> str:
    """``text`` after ``changes``, applied in order (each one on the previous result)."""
    for change in changes:
        text = apply_change(text, change, encoding)
    return text
