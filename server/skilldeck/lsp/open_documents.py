"""Open editor buffers, found by file path whatever spelling their URI has.

pygls keys open documents by the percent-*decoded* URI: ``sp%20ace`` is stored as
``sp ace``, and a non-UTF-8 byte (``caf%E9``) is stored as U+FFFD, so no URI the server
builds with :func:`~skilldeck.lsp.diagnostics.uri_of` finds it by string. Every lookup
of an open document goes through :class:`OpenDocuments`, which compares normalised
paths (:func:`~skilldeck.lsp.diagnostics.path_of` of the document's own URI).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING
from urllib.parse import unquote

from skilldeck.lsp.diagnostics import path_of, uri_of

if TYPE_CHECKING:
    from pygls.lsp.server import LanguageServer
    from pygls.workspace import TextDocument


def normal_path(uri: str) -> str | None:
    """The normalised file-system path of a ``file:`` URI (None for other URIs)."""
    try:
        path = path_of(uri)
    except Exception:  # a URI no parser accepts names no file
        return None
    return os.path.normpath(path) if path else None


class OpenDocuments:
    """The server's open documents, looked up by path (see the module doc)."""

    def __init__(self, server: LanguageServer) -> None:
        self._server = server
        #: ``document.uri -> normal_path(document.uri)``, so a lookup parses each URI once.
        self._paths: dict[str, str | None] = {}

    def _documents(self) -> list[TextDocument]:
        return list(self._server.workspace.text_documents.values())

    def _path(self, document: TextDocument) -> str | None:
        uri = document.uri
        if uri not in self._paths:
            if len(self._paths) > 64 + 4 * len(self._server.workspace.text_documents):
                self._paths.clear()  # forget closed documents now and then
            self._paths[uri] = normal_path(uri)
        return self._paths[uri]

    def get(self, path: str) -> TextDocument | None:
        """The open document of the file ``path``, or None when it is not open."""
        target = os.path.normpath(path)
        documents = self._server.workspace.text_documents
        guess: TextDocument | None = documents.get(
            unquote(uri_of(target))
        )  # pygls' own key, usually right
        if guess is not None and self._path(guess) == target:
            return guess
        for document in self._documents():
            if self._path(document) == target:
                return document
        return None

    def by_uri(self, uri: str) -> TextDocument | None:
        """The open document a client URI names, however it is percent-encoded."""
        path = normal_path(uri)
        return self.get(path) if path else None

    def items(self) -> list[tuple[str, TextDocument]]:
        """``(normalised path, document)`` for every open ``file:`` document."""
        result: list[tuple[str, TextDocument]] = []
        for document in self._documents():
            path = self._path(document)
            if path:
                result.append((path, document))
        return result
