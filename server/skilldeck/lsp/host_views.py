"""What the agents of a ``hosts`` setting make of each folder's deck (SD901 / SD902),
recomputed off the loop once a burst of file changes is over (never on the keystroke
path: unsaved buffers count once saved). Tests: ``tests/lsp/test_host_diagnostics.py``.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from skilldeck.lsp.file_events import RESCAN_DELAY_S
from skilldeck.lsp.index import hosts_of

if TYPE_CHECKING:
    from skilldeck.lsp.session import Session


class HostViews:
    """Schedules and applies the hosts refresh of every folder that configures agents."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self._handle: asyncio.TimerHandle | None = None

    def schedule(self) -> None:
        """Recompute the agents' view shortly (a burst of changes is one refresh)."""
        session = self.session
        if not any(tuple(i.config.hosts) != ("dsh",) for i in session.folders.values()):
            return
        if self._handle is not None:
            self._handle.cancel()
        loop = asyncio.get_running_loop()
        self._handle = loop.call_later(RESCAN_DELAY_S, lambda: session.spawn(self._refresh()))

    def close(self) -> None:
        """Cancel a pending refresh."""
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None

    async def _refresh(self) -> None:
        session = self.session
        self._handle = None
        generation = session.generation
        for index in list(session.folders.values()):
            if not index.ready or tuple(index.config.hosts) == ("dsh",):
                continue
            view, found = await asyncio.to_thread(
                hosts_of,
                index.config,
                index.folder,
                index.entries(),
                session.index_cache(),
                tuple(index.strays()),
            )
            if generation != session.generation:
                return
            session.publisher.changed(index.set_hosts(view, found))
