"""Work-done progress of an index: one report per folder and about
:data:`PROGRESS_STEPS` ``done/total skill files`` reports while a folder is scanned.
Tests: ``tests/lsp/test_diagnostics.py::test_indexing_reports_skill_file_counts``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING

from lsprotocol import types

if TYPE_CHECKING:
    from skilldeck.lsp.server import SkilldeckServer

#: Roughly how many ``done/total skill files`` progress reports one folder's scan sends.
PROGRESS_STEPS = 50


class IndexProgress:
    """Progress reports for the client, when it accepts server-initiated progress."""

    def __init__(self, server: SkilldeckServer) -> None:
        self.server = server

    async def begin(self, generation: int) -> str | None:
        """Start an index's progress; its token, or ``None`` when the client shows none."""
        return await self.start(f"skilldeck-index-{generation}", "Indexing skills")

    async def start(self, token: str, title: str) -> str | None:
        """Start a progress named ``token``; the token, or ``None`` when the client
        shows none (also for the source refresh, :mod:`skilldeck.lsp.source_refresh`)."""
        window = self.server.client_capabilities.window
        if not (window and window.work_done_progress):
            return None
        try:
            await self.server.work_done_progress.create_async(token)
        except Exception:
            return None
        self.server.work_done_progress.begin(
            token, types.WorkDoneProgressBegin(title=title, percentage=0)
        )
        return token

    def report(self, token: str | None, message: str, percentage: int) -> None:
        """One report of a started progress (nothing without a token)."""
        if token is not None:
            self.server.work_done_progress.report(
                token, types.WorkDoneProgressReport(message=message, percentage=percentage)
            )

    def folder(self, token: str | None, message: str, number: int, folders: int) -> None:
        """Folder ``number`` of ``folders`` starts."""
        if token is None:
            return
        self.server.work_done_progress.report(
            token,
            types.WorkDoneProgressReport(
                message=message, percentage=int(100 * (number - 1) / max(1, folders))
            ),
        )

    def on_files(self, token: str | None) -> Callable[[int, int], None] | None:
        """``on_files`` for a scan in a worker thread: about :data:`PROGRESS_STEPS` reports
        ``done/total skill files`` per folder, each sent from the event loop."""
        if token is None:
            return None
        loop = asyncio.get_running_loop()

        def on_files(done: int, total: int) -> None:
            if done % max(1, total // PROGRESS_STEPS) == 0 or done == total:
                loop.call_soon_threadsafe(self._files, token, done, total)

        return on_files

    def _files(self, token: str, done: int, total: int) -> None:
        self.server.work_done_progress.report(
            token,
            types.WorkDoneProgressReport(
                message=f"{done:,}/{total:,} skill files",
                percentage=int(100 * done / max(1, total)),
            ),
        )

    def end(self, token: str | None, message: str = "Skills indexed") -> None:
        if token is not None:
            self.server.work_done_progress.end(token, types.WorkDoneProgressEnd(message=message))
