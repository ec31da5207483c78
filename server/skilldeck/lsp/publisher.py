"""Delivering diagnostics: pushed (``publishDiagnostics``) or pulled, never both.

The mode is decided once, from the client's capabilities: a client that declares
``textDocument.diagnostic`` *and* ``workspace.diagnostics.refreshSupport`` pulls
(``textDocument/diagnostic``, ``workspace/diagnostic``) and is told to re-pull with
``workspace/diagnostic/refresh`` after changes it did not cause; every other client gets
``textDocument/publishDiagnostics`` for each changed file.

Pulled reports carry result ids: ``<server instance>:<generation>``, where a file's
generation moves whenever :meth:`Publisher.changed` names it (every change of findings
goes through there, as push mode requires). A document pull whose previous id is current
gets an *unchanged* report; a workspace pull leaves out every document whose current id
the client already holds. VS Code pulls the workspace every two seconds for as long as
it runs, so on a 10,000-skill deck that is the difference between re-sending ~3,000
reports each time and sending nothing.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING

from lsprotocol import types

from skilldeck.engine.filesystem import QuietWindow
from skilldeck.engine.overlap import SLICE_PAUSE_SECONDS, TimeSlice
from skilldeck.lsp.diagnostics import RelatedMemo, to_diagnostics, uri_of
from skilldeck.lsp.handlers import as_handler
from skilldeck.lsp.presentation import shown_findings

if TYPE_CHECKING:
    from skilldeck.lsp.server import SkilldeckServer
    from skilldeck.lsp.session import Session

logger = logging.getLogger(__name__)


#: :meth:`Publisher.changed_soon` publishes once the client has been quiet this long
#: (seconds; a keystroke every 50-200 ms is typing), or once it waited the longest.
SOON_QUIET_S = 0.1
SOON_MAX_WAIT_S = 1.0


class Publisher:
    """Turns "these paths changed" into what the client needs to see."""

    def __init__(self, server: SkilldeckServer, session: Session) -> None:
        self.server = server
        self.session = session
        self.pull = False
        self.refresh_support = False
        #: The files the client shows diagnostics for, by path, with the URI they are under.
        self._shown: dict[str, str] = {}
        #: The same paths (push mode decides without building URIs).
        self._nonempty_paths: set[str] = set()
        #: Pull mode: this server instance (result ids of another one never match) and
        #: each path's generation (0 until :meth:`changed` first names it).
        self._instance = f"{os.getpid():x}.{time.time_ns():x}"
        self._counter = 0
        self._generation: dict[str, int] = {}
        self._uris: dict[str, str] = {}  # path -> the URI reports name it by
        self._paths: dict[str, str] = {}  # and back
        #: Push mode: paths to publish on the next turn of the loop (:meth:`changed_soon`).
        self._soon: set[str] = set()
        #: Push mode: asked when the client pauses, for more paths (:meth:`settle_soon`).
        self._settlers: set[Callable[[], set[str]]] = set()
        self._soon_task: asyncio.Task[None] | None = None

    def configure(self, capabilities: types.ClientCapabilities) -> None:
        """Choose push or pull from the client's capabilities; register pull handlers.

        Pull only when the client also takes ``workspace/diagnostic/refresh``: a file's
        findings change with other files (a rename in another layer, an overlapping
        description), and a client that cannot be told to pull again shows the old ones
        until the file is typed in (Neovim 0.11 announces ``textDocument.diagnostic``
        without ``workspace.diagnostics.refreshSupport``). Such a client gets pushes."""
        text = capabilities.text_document
        workspace = capabilities.workspace
        diagnostics = workspace.diagnostics if workspace is not None else None
        self.refresh_support = bool(diagnostics and diagnostics.refresh_support)
        self.pull = text is not None and text.diagnostic is not None and self.refresh_support
        if self.pull:
            options = types.DiagnosticOptions(
                inter_file_dependencies=True, workspace_diagnostics=True, identifier="skilldeck"
            )
            feature = self.server.feature
            feature(types.TEXT_DOCUMENT_DIAGNOSTIC, options)(as_handler(self.document_report))
            feature(types.WORKSPACE_DIAGNOSTIC)(as_handler(self.workspace_report))

    def diagnostics_for(self, uri: str) -> list[types.Diagnostic]:
        """The diagnostics of one document (empty when it is no skill file we index)."""
        path = self.session.documents.path_of(uri)
        if path is None:
            return []
        return self._diagnostics_at(path)

    def _diagnostics_at(self, path: str, memo: RelatedMemo | None = None) -> list[types.Diagnostic]:
        verdict = self.session.findings(path)
        if not verdict:
            return []
        # The engine's verdict, as the editor presents it (skilldeck.lsp.presentation).
        findings = shown_findings(verdict, self.session.documents.get(path))
        if not findings:
            return []
        return to_diagnostics(
            findings, self.session.lines(path), self.session.encoding, self.session.lines, memo
        )

    def result_id(self, path: str | None) -> str:
        """The result id of the current diagnostics of ``path`` (pull mode)."""
        generation = self._generation.get(path, 0) if path is not None else 0
        return f"{self._instance}:{generation}"

    def changed(self, paths: Iterable[str], *, by_client: bool = False) -> None:
        """Tell the client about new diagnostics for ``paths``."""
        if self.pull:
            self._counter += 1
            for path in paths:
                self._generation[path] = self._counter
            if not by_client and self.refresh_support:
                self.server.workspace_diagnostic_refresh(None)
            return
        for _ in self.push_steps(paths, None):
            pass

    def push_steps(self, paths: Iterable[str], clock: TimeSlice | None) -> Iterator[None]:
        """Push mode: publish ``paths``, yielding whenever ``clock`` says its slice is
        spent (the caller lets the loop serve a keystroke, then resumes: each file is
        published as it is then)."""
        memo: RelatedMemo = {}  # nothing changes while these are published
        for path in paths:
            # One bad entry (an odd path, a rule failing on a hostile file) must never
            # keep the files after it from being published.
            try:
                # By path: no URI round trip for the many files without findings.
                diagnostics = self._diagnostics_at(path, memo)
                if diagnostics or path in self._nonempty_paths:
                    self._publish(path, diagnostics)
            except Exception as error:
                logger.exception("skilldeck: publishing diagnostics of %r failed", path)
                self.server.log(f"skilldeck: publishing diagnostics of {path!r} failed: {error}")
            if clock is not None and clock.over():
                yield
                memo = {}  # the text may have changed meanwhile
                clock.restart()

    def changed_soon(self, paths: Iterable[str]) -> None:
        """:meth:`changed` for ``paths`` (the files a client's edit told something: the
        edited copy's family, its competitors), once the client pauses for
        :data:`SOON_QUIET_S` (:data:`SOON_MAX_WAIT_S` at the longest): a family of copies
        whose message flips with each keystroke is published once per pause, not once
        per keystroke, and never before the edited buffer's own diagnostics. Each file
        is published as it is then, a time slice at a time."""
        if self.pull:
            self.changed(paths, by_client=True)
            return
        self._soon.update(paths)
        self._start_soon()

    def settle_soon(self, settle: Callable[[], set[str]]) -> None:
        """:meth:`changed_soon` for the paths ``settle()`` returns when the client pauses
        (asked then, once however often it was given meanwhile): which files an edit told
        something is found in the pause, not in the keystroke. Pull mode asks at once."""
        if self.pull:
            self.changed(settle(), by_client=True)
            return
        self._settlers.add(settle)
        self._start_soon()

    def _start_soon(self) -> None:
        if (self._soon or self._settlers) and self._soon_task is None:
            self._soon_task = self.session.spawn(self._publish_soon())

    async def _publish_soon(self) -> None:
        try:
            while (self._soon or self._settlers) and not self.session.closed:
                window = QuietWindow.from_now(
                    lambda: self.server.last_client_message_at,
                    quiet_s=SOON_QUIET_S,
                    within_s=SOON_MAX_WAIT_S,
                )
                while (wait := window.wait_s()) > 0:
                    await asyncio.sleep(wait)
                paths, self._soon = self._soon, set()
                settlers, self._settlers = self._settlers, set()
                for settle in settlers:
                    try:
                        paths |= settle()
                    except Exception:  # one index failing must not keep the rest unpublished
                        logger.exception("skilldeck: settling what an edit told failed")
                await self.push_in_slices(sorted(paths))
        finally:
            self._soon_task = None

    async def push_in_slices(self, paths: Iterable[str]) -> None:
        """Push mode: publish ``paths`` a time slice at a time, letting the loop serve the
        client in between (a keystroke never waits behind a batch); stops if the session
        closes."""
        for _ in self.push_steps(paths, TimeSlice()):
            # While the user is at work, a real pause: back-to-back slices starved the
            # reader thread of the next keystroke (20-40 ms behind ~100 files).
            await asyncio.sleep(SLICE_PAUSE_SECONDS if self.session.client_at_work() else 0)
            if self.session.closed:
                return

    def _track(self, uri: str, path: str, diagnostics: list[types.Diagnostic]) -> None:
        """Remember whether the client now shows diagnostics for this file."""
        if diagnostics:
            self._shown[path] = uri
            self._nonempty_paths.add(path)
        else:
            self._shown.pop(path, None)
            self._nonempty_paths.discard(path)

    def _publish(self, path: str, diagnostics: list[types.Diagnostic]) -> None:
        """Publish under the URI the client has the file open by (else the index's path),
        and clear what an earlier publish left under another URI of the same file."""
        document = self.session.documents.get(path)
        uri = document.uri if document is not None else uri_of(path)
        earlier = self._shown.get(path)
        if earlier is not None and earlier != uri:
            self.server.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=earlier, diagnostics=[])
            )
        self._track(uri, path, diagnostics)
        self.server.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(
                uri=uri,
                diagnostics=diagnostics,
                version=document.version if document is not None else None,
            )
        )

    async def document_report(
        self, params: types.DocumentDiagnosticParams
    ) -> types.RelatedFullDocumentDiagnosticReport | types.RelatedUnchangedDocumentDiagnosticReport:
        """``textDocument/diagnostic``: one document's report, *unchanged* when the client
        already holds its current result id."""
        await self.session.wait_indexed()
        uri = params.text_document.uri
        result_id = self.result_id(self.session.documents.path_of(uri))
        if params.previous_result_id == result_id:
            return types.RelatedUnchangedDocumentDiagnosticReport(result_id=result_id)
        return types.RelatedFullDocumentDiagnosticReport(
            items=self.diagnostics_for(uri), result_id=result_id
        )

    async def workspace_report(
        self, params: types.WorkspaceDiagnosticParams
    ) -> types.WorkspaceDiagnosticReport:
        """``workspace/diagnostic``: the skill files whose diagnostics the client does not
        hold yet: new findings, findings just cleared, anything changed since its result
        id. Clean files the client never saw are left out, as are unchanged ones."""
        await self.session.wait_indexed()
        # By path: a client may spell a URI it was given differently (escapes, case).
        known: dict[str, str] = {}
        for item in params.previous_result_ids:
            known_path = self._paths.get(item.uri) or self.session.documents.path_of(item.uri)
            if known_path is not None:
                known[known_path] = item.value
        items: list[types.WorkspaceDocumentDiagnosticReport] = []
        memo: RelatedMemo = {}  # no await below: nothing changes meanwhile
        for path in self.session.all_paths() | self._nonempty_paths:
            result_id = self.result_id(path)
            if known.get(path) == result_id:
                continue  # the client holds these diagnostics already
            try:
                diagnostics = self._diagnostics_at(path, memo)
            except Exception:  # one bad entry never hides the others
                logger.exception("skilldeck: diagnostics of %r failed", path)
                continue
            if not diagnostics and path not in self._nonempty_paths and path not in known:
                continue  # clean, and never reported
            document = self.session.documents.get(path)
            uri = document.uri if document is not None else self._uris.get(path)
            if uri is None:
                uri = self._uris[path] = uri_of(path)
            self._paths[uri] = path
            earlier = self._shown.get(path)
            if earlier is not None and earlier != uri:  # the file's other URI: clear it
                items.append(
                    types.WorkspaceFullDocumentDiagnosticReport(
                        uri=earlier, items=[], version=None, result_id=result_id
                    )
                )
            self._track(uri, path, diagnostics)
            items.append(
                types.WorkspaceFullDocumentDiagnosticReport(
                    uri=uri,
                    items=diagnostics,
                    version=document.version if document is not None else None,
                    result_id=result_id,
                )
            )
        items.sort(key=lambda item: item.uri)
        return types.WorkspaceDiagnosticReport(items=items)
