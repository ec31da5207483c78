"""Delivering diagnostics: pushed (``publishDiagnostics``) or pulled, never both.

The mode is decided once, from the client's capabilities: a client that declares
``textDocument.diagnostic`` pulls (``textDocument/diagnostic``, ``workspace/diagnostic``)
and is told to re-pull with ``workspace/diagnostic/refresh`` after changes it did not
cause; every other client gets ``textDocument/publishDiagnostics`` for each changed file.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from skilldeck.lsp.diagnostics import to_diagnostics, uri_of
from skilldeck.lsp.open_documents import normal_path

if TYPE_CHECKING:
    from skilldeck.lsp.server import SkilldeckServer
    from skilldeck.lsp.session import Session

logger = logging.getLogger(__name__)


def as_handler(method: Any) -> Any:
    """See :func:`skilldeck.lsp.session.as_handler` (imported late: no import cycle)."""
    from skilldeck.lsp.session import as_handler as wrap  # noqa: PLC0415

    return wrap(method)


class Publisher:
    """Turns "these paths changed" into what the client needs to see."""

    def __init__(self, server: SkilldeckServer, session: Session) -> None:
        self.server = server
        self.session = session
        self.pull = False
        self.refresh_support = False
        self._nonempty: set[str] = set()
        #: The same files by path (push mode decides without building URIs).
        self._nonempty_paths: set[str] = set()

    def configure(self, capabilities: types.ClientCapabilities) -> None:
        """Choose push or pull from the client's capabilities; register pull handlers."""
        text = capabilities.text_document
        self.pull = text is not None and text.diagnostic is not None
        workspace = capabilities.workspace
        diagnostics = workspace.diagnostics if workspace is not None else None
        self.refresh_support = bool(diagnostics and diagnostics.refresh_support)
        if self.pull:
            options = types.DiagnosticOptions(
                inter_file_dependencies=True, workspace_diagnostics=True, identifier="skilldeck"
            )
            feature = self.server.feature
            feature(types.TEXT_DOCUMENT_DIAGNOSTIC, options)(as_handler(self.document_report))
            feature(types.WORKSPACE_DIAGNOSTIC)(as_handler(self.workspace_report))

    def diagnostics_for(self, uri: str) -> list[types.Diagnostic]:
        """The diagnostics of one document (empty when it is no skill file we index)."""
        path = _path_of(uri)
        if path is None:
            return []
        return self._diagnostics_at(path)

    def _diagnostics_at(self, path: str) -> list[types.Diagnostic]:
        findings = self.session.findings(path)
        if not findings:
            return []
        return to_diagnostics(
            findings, self.session.lines(path), self.session.encoding, self.session.lines
        )

    def changed(self, paths: Iterable[str], *, by_client: bool = False) -> None:
        """Tell the client about new diagnostics for ``paths``."""
        if self.pull:
            if not by_client and self.refresh_support:
                self.server.workspace_diagnostic_refresh(None)
            return
        for path in paths:
            # One bad entry (an odd path, a rule failing on a hostile file) must never
            # keep the files after it from being published.
            try:
                # By path: no URI round trip for the many files without findings.
                diagnostics = self._diagnostics_at(path)
                if not diagnostics and path not in self._nonempty_paths:
                    continue
                self._publish(uri_of(path), path, diagnostics)
            except Exception as error:
                logger.exception("skilldeck: publishing diagnostics of %r failed", path)
                self.server.log(f"skilldeck: publishing diagnostics of {path!r} failed: {error}")

    def _publish(self, uri: str, path: str, diagnostics: list[types.Diagnostic]) -> None:
        if diagnostics:
            self._nonempty.add(uri)
            self._nonempty_paths.add(path)
        else:
            self._nonempty.discard(uri)
            self._nonempty_paths.discard(path)
        document = self.session.documents.get(path)
        self.server.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(
                uri=uri,
                diagnostics=diagnostics,
                version=document.version if document is not None else None,
            )
        )

    async def document_report(
        self, params: types.DocumentDiagnosticParams
    ) -> types.RelatedFullDocumentDiagnosticReport:
        """``textDocument/diagnostic``: the full report of one document."""
        await self.session.wait_indexed()
        return types.RelatedFullDocumentDiagnosticReport(
            items=self.diagnostics_for(params.text_document.uri)
        )

    async def workspace_report(
        self, params: types.WorkspaceDiagnosticParams
    ) -> types.WorkspaceDiagnosticReport:
        """``workspace/diagnostic``: every skill file with findings, plus ones just cleared."""
        await self.session.wait_indexed()
        reported = {uri_of(path) for path in self.session.all_paths()}
        items: list[types.WorkspaceDocumentDiagnosticReport] = []
        for uri in sorted(reported | self._nonempty):
            try:
                diagnostics = self.diagnostics_for(uri)
            except Exception:  # one bad entry never hides the others
                logger.exception("skilldeck: diagnostics of %s failed", uri)
                continue
            if not diagnostics and uri not in self._nonempty:
                continue
            if diagnostics:
                self._nonempty.add(uri)
            else:
                self._nonempty.discard(uri)
            document = self.session.documents.by_uri(uri)
            items.append(
                types.WorkspaceFullDocumentDiagnosticReport(
                    uri=uri,
                    items=diagnostics,
                    version=document.version if document is not None else None,
                )
            )
        return types.WorkspaceDiagnosticReport(items=items)


def _path_of(uri: str) -> str | None:
    return normal_path(uri)
