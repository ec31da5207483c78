"""Open editor buffers: their text, kept equal to the editor's, found by file path.

The server owns the text of every open document (pygls' ``TextDocument`` is not used
for it: it splits lines with ``str.splitlines()``, see :mod:`skilldeck.lsp.text_sync`).
``didOpen`` stores a buffer, ``didChange`` applies its edits in version order with the
LSP line model, ``didClose`` forgets it.

Buffers are keyed by the normalised file-system path of their URI
(:func:`~skilldeck.lsp.diagnostics.path_of`), so any spelling of a URI (``sp%20ace``,
``caf%E9``, a drive letter's case) finds the same buffer, and a URI the server builds
with :func:`~skilldeck.lsp.diagnostics.uri_of` finds it too.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from lsprotocol import types

from skilldeck.engine.positions import Encoding
from skilldeck.lsp.diagnostics import path_of
from skilldeck.lsp.text_sync import apply_changes


def normal_path(uri: str) -> str | None:
    """The normalised file-system path of a ``file:`` URI (None for other URIs)."""
    try:
        path = path_of(uri)
    except Exception:  # a URI no parser accepts names no file
        return None
    return os.path.normpath(path) if path else None


@dataclass(frozen=True)
class OpenDocument:
    """One open buffer: the client's URI for it, its version and its whole text."""

    uri: str
    version: int | None
    source: str


class OpenDocuments:
    """The server's open documents, looked up by path (see the module doc)."""

    def __init__(self) -> None:
        self._documents: dict[str, OpenDocument] = {}

    # -- text sync -----------------------------------------------------------------

    def open(self, item: types.TextDocumentItem) -> None:
        """``didOpen``: remember the buffer (a ``file:`` URI; others are not skills)."""
        path = normal_path(item.uri)
        if path is not None:
            self._documents[path] = OpenDocument(item.uri, item.version, item.text)

    def change(self, params: types.DidChangeTextDocumentParams, encoding: Encoding) -> str | None:
        """``didChange``: apply the edits; a log line saying why when they are ignored.

        A change for a document that is not open, or older than the version last
        applied (stale or out of order), is ignored: applying it would corrupt the buffer.
        """
        identifier = params.text_document
        path = normal_path(identifier.uri)
        document = self._documents.get(path) if path is not None else None
        if path is None or document is None:
            return f"ignored didChange for {identifier.uri}: not open"
        last = document.version
        if last is not None and identifier.version is not None and identifier.version < last:
            return (
                f"ignored stale didChange for {identifier.uri}: version "
                f"{identifier.version} after {last}"
            )
        text = apply_changes(document.source, params.content_changes, encoding)
        self._documents[path] = OpenDocument(document.uri, identifier.version, text)
        return None

    def close(self, uri: str) -> None:
        """``didClose``: forget the buffer (the file on disk is the truth again)."""
        path = normal_path(uri)
        if path is not None:
            self._documents.pop(path, None)

    # -- lookups -------------------------------------------------------------------

    def get(self, path: str) -> OpenDocument | None:
        """The open document of the file ``path``, or None when it is not open."""
        return self._documents.get(os.path.normpath(path))

    def by_uri(self, uri: str) -> OpenDocument | None:
        """The open document a client URI names, however it is percent-encoded."""
        path = normal_path(uri)
        return self.get(path) if path else None

    def items(self) -> list[tuple[str, OpenDocument]]:
        """``(normalised path, document)`` for every open ``file:`` document."""
        return list(self._documents.items())
