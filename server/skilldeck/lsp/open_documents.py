"""Open editor buffers, found by file path whatever spelling their URI has.

pygls keys open documents by the percent-*decoded* URI: ``sp%20ace`` is stored as
``sp ace``, and a non-UTF-8 byte (``caf%E9``) is stored as U+FFFD, so no URI the server
builds with :func:`~skilldeck.lsp.diagnostics.uri_of` finds it by string. Every lookup
of an open document goes through :class:`OpenDocuments`, which compares normalised
paths (:func:`~skilldeck.lsp.diagnostics.path_of` of the document's own URI).

One file, one identity: a workspace folder opened through a symlink and a file opened by
its real path (or the other way round) name the same file. :meth:`OpenDocuments.path_of`
gives every ``file:`` URI the spelling of the workspace folder that holds the file, so
the index, the buffers and the publisher agree on one path per file.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
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

    def __init__(
        self, server: LanguageServer, folders: Callable[[], Iterable[str]] = tuple
    ) -> None:
        self._server = server
        self._folders = folders
        #: ``folder -> os.path.realpath(folder)`` for the workspace folders seen so far.
        self._real_folders: dict[str, str] = {}
        #: ``document.uri -> self.path_of(document.uri)``, so a lookup parses each URI once.
        self._paths: dict[str, str | None] = {}

    def path_of(self, uri: str) -> str | None:
        """The path of a ``file:`` URI as the workspace folders spell it (None otherwise)."""
        path = normal_path(uri)
        return None if path is None else self.canonical(path)

    def canonical(self, path: str) -> str:
        """``path`` spelt through the workspace folder that holds its file.

        A path inside a folder (as the client named the folder) is kept. Another path
        whose real path is inside a folder's real path (the folder was opened through a
        symlink, or the file was) is given under that folder.
        """
        folders = list(self._folders())
        if not folders or any(_inside_or_equal(path, folder) for folder in folders):
            return path
        real = os.path.realpath(path)
        for folder in folders:
            real_folder = self._real_folders.get(folder)
            if real_folder is None:
                real_folder = self._real_folders[folder] = os.path.realpath(folder)
            if _inside_or_equal(real, real_folder):
                return os.path.normpath(os.path.join(folder, os.path.relpath(real, real_folder)))
        return path

    def _documents(self) -> list[TextDocument]:
        return list(self._server.workspace.text_documents.values())

    def _path(self, document: TextDocument) -> str | None:
        uri = document.uri
        if uri not in self._paths:
            if len(self._paths) > 64 + 4 * len(self._server.workspace.text_documents):
                self._paths.clear()  # forget closed documents now and then
            self._paths[uri] = self.path_of(uri)
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
        path = self.path_of(uri)
        return self.get(path) if path else None

    def items(self) -> list[tuple[str, TextDocument]]:
        """``(normalised path, document)`` for every open ``file:`` document."""
        result: list[tuple[str, TextDocument]] = []
        for document in self._documents():
            path = self._path(document)
            if path:
                result.append((path, document))
        return result


def _inside_or_equal(path: str, ancestor: str) -> bool:
    return path == ancestor or path.startswith(ancestor.rstrip(os.sep) + os.sep)
