"""Open editor buffers: their text, kept equal to the editor's, found by file path.

The server owns the text of every open document (pygls' ``TextDocument`` is not used
for it: it splits lines with ``str.splitlines()``, see :mod:`skilldeck.lsp.text_sync`).
``didOpen`` stores a buffer, ``didChange`` applies its edits in version order with the
LSP line model, ``didClose`` forgets it.

Buffers are keyed by the normalised file-system path of their URI
(:func:`~skilldeck.lsp.diagnostics.path_of`), so any spelling of a URI (``sp%20ace``,
``caf%E9``, a drive letter's case) finds the same buffer, and a URI the server builds
with :func:`~skilldeck.lsp.diagnostics.uri_of` finds it too.

One file, one identity: a workspace folder opened through a symlink and a file opened by
its real path (or the other way round) name the same file. :meth:`OpenDocuments.path_of`
gives every ``file:`` URI the spelling of the workspace folder that holds the file, so
the index, the buffers and the publisher agree on one path per file.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from lsprotocol import types

from skilldeck.engine.text import Encoding
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
    """One open buffer: the client's URI for it, its version and its whole text;
    ``saved`` is the text as of the last open or save (the file on disk, as far as the
    client told: ``unsaved`` says whether the buffer differs from it)."""

    uri: str
    version: int | None
    source: str
    saved: str = ""

    @property
    def unsaved(self) -> bool:
        """Whether the buffer holds edits not saved yet."""
        return self.source is not self.saved and self.source != self.saved


class OpenDocuments:
    """The server's open documents, looked up by path (see the module doc)."""

    def __init__(self, folders: Callable[[], Iterable[str]] = tuple) -> None:
        self._documents: dict[str, OpenDocument] = {}
        self._folders = folders
        #: ``folder -> os.path.realpath(folder)`` for the workspace folders seen so far.
        self._real_folders: dict[str, str] = {}

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

    # -- text sync -----------------------------------------------------------------

    def open(self, item: types.TextDocumentItem) -> None:
        """``didOpen``: remember the buffer (a ``file:`` URI; others are not skills)."""
        path = self.path_of(item.uri)
        if path is not None:
            self._documents[path] = OpenDocument(item.uri, item.version, item.text, item.text)

    def change(self, params: types.DidChangeTextDocumentParams, encoding: Encoding) -> str | None:
        """``didChange``: apply the edits; a log line saying why when they are ignored.

        A change for a document that is not open, or older than the version last
        applied (stale or out of order), is ignored: applying it would corrupt the buffer.
        """
        identifier = params.text_document
        path = self.path_of(identifier.uri)
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
        self._documents[path] = OpenDocument(document.uri, identifier.version, text, document.saved)
        return None

    def saved(self, uri: str) -> str | None:
        """``didSave``: the buffer is the file now; its path (None when not open)."""
        path = self.path_of(uri)
        document = self._documents.get(path) if path is not None else None
        if path is None or document is None:
            return None
        self._documents[path] = replace(document, saved=document.source)
        return path

    def close(self, uri: str) -> None:
        """``didClose``: forget the buffer (the file on disk is the truth again)."""
        path = self.path_of(uri)
        if path is not None:
            self._documents.pop(path, None)

    # -- lookups -------------------------------------------------------------------

    def get(self, path: str) -> OpenDocument | None:
        """The open document of the file ``path``, or None when it is not open."""
        return self._documents.get(os.path.normpath(path))

    def by_uri(self, uri: str) -> OpenDocument | None:
        """The open document a client URI names, however it is percent-encoded."""
        path = self.path_of(uri)
        return self.get(path) if path else None

    def items(self) -> list[tuple[str, OpenDocument]]:
        """``(normalised path, document)`` for every open ``file:`` document."""
        return list(self._documents.items())


def _inside_or_equal(path: str, ancestor: str) -> bool:
    return path == ancestor or path.startswith(ancestor.rstrip(os.sep) + os.sep)
