"""Open buffers reach the index: a buffer opened or changed is re-judged soon after
(bursts coalesce into one pass on the event loop); a closed buffer gives the file on
disk back its say. The text itself is kept by :class:`~skilldeck.lsp.open_documents.
OpenDocuments`. Tests: ``tests/lsp/test_text_sync.py``, ``tests/lsp/test_diagnostics.py``.
"""

from __future__ import annotations

import asyncio
import os
from typing import TYPE_CHECKING

from lsprotocol import types

from skilldeck.engine.config import SkilldeckConfig
from skilldeck.lsp.index import FolderIndex
from skilldeck.lsp.presentation import PLACEHOLDER

if TYPE_CHECKING:
    from skilldeck.lsp.session import Session


class DocumentSync:
    """Routes buffer changes to the folder indexes and the publisher."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self._pending: set[str] = set()
        self._flush_handle: asyncio.Handle | None = None

    def on_document(
        self, params: types.DidOpenTextDocumentParams | types.DidChangeTextDocumentParams
    ) -> None:
        """A buffer opened or changed: re-judge it soon (bursts coalesce); an opened skill
        file's bundle is judged again from disk too.

        Before ``initialized`` has set up the folder indexes the buffer waits: the first
        index applies it.
        """
        session = self.session
        uri = params.text_document.uri
        if session.setting_up:
            return
        if not session.folders:
            if self.index_open_documents_alone():
                session.spawn(session.reindex())
            return
        self._pending.add(uri)
        if self._flush_handle is None:
            self._flush_handle = asyncio.get_running_loop().call_soon(self._flush)
        if isinstance(params, types.DidOpenTextDocumentParams):
            path = session.documents.path_of(uri)
            if path:
                session.loose.opened(path)
                session.file_events.on_opened(path)

    def on_save(self, params: types.DidSaveTextDocumentParams) -> None:
        """``didSave``: the buffer is the file now (what the editor holds back on an
        unsaved buffer shows: :mod:`skilldeck.lsp.presentation`)."""
        path = self.session.documents.saved(params.text_document.uri)
        if path is not None:
            # A pull client need not pull again on a save: told to when a held finding
            # (SD207 on the placeholder) now shows.
            held = any(f.code == PLACEHOLDER for f in self.session.findings(path))
            self.session.publisher.changed({path}, by_client=not held)

    def on_close(self, params: types.DidCloseTextDocumentParams) -> None:
        """A buffer closed: the file on disk is the truth again. A file outside every
        root was judged only while open (LooseSkills): its diagnostics go."""
        session = self.session
        path = session.documents.path_of(params.text_document.uri)
        if not path:
            return
        session.loose.forget(path)
        if not any(index.entry(path) is not None for index in session.folders.values()):
            session.publisher.changed({path}, by_client=True)
        session.file_events.on_paths_changed({path})

    def index_open_documents_alone(self) -> bool:
        """Without workspace folders, index each open document's own folder instead."""
        session = self.session
        added = False
        for path, _ in session.documents.items():
            folder = os.path.dirname(path)
            if folder not in session.folders:
                session.folders[folder] = FolderIndex(folder, SkilldeckConfig())
                session.stand_ins.add(folder)
                added = True
        return added

    def _flush(self) -> None:
        session = self.session
        self._flush_handle = None
        uris, self._pending = self._pending, set()
        for uri in uris:
            document = session.documents.by_uri(uri)
            path = session.documents.path_of(uri)
            if document is None or not path:
                continue
            changed: set[str] = set()
            on_disk = os.path.isfile(path)  # a buffer whose file was deleted is no skill
            for index in session.folders.values():
                if index.ready and on_disk and index.classify(path) is not None:
                    changed |= index.update_text(path, document.source, defer_related=True)
                    session.publisher.settle_soon(index.settle_overlap)
            if not changed and (
                session.not_a_skill(path) is not None or session.loose.is_loose(path)
            ):
                changed.add(path)  # SD007, or a SKILL.md outside every root (judged alone)
            # The buffer being typed in first; the files the edit told something (a
            # family of copies, its competitors) right after, on the next turn of the
            # loop: their diagnostics move with the edit, the typist waits for none.
            session.publisher.changed(changed & {path}, by_client=True)
            session.publisher.changed_soon(changed - {path})
        session.catalogs.schedule()
