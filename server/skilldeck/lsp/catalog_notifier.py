"""``skilldeck/catalogChanged``: tell the client when a folder's catalog changed, or the
counts that explain it (:meth:`~skilldeck.lsp.index.FolderIndex.tally`: a shadowed copy
added changes what the Skills view shows, not the catalog).

Debounced: each change restarts the :data:`CATALOG_DELAY_S` wait, so the whole-deck
rebuild stays off the keystroke path while the user types; a steady stream of changes
still gets a check every :data:`CATALOG_MAX_WAIT_S`. Tests:
``tests/lsp/test_custom_requests.py``.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from skilldeck.lsp.diagnostics import uri_of
from skilldeck.lsp.index import current_catalog

if TYPE_CHECKING:
    from skilldeck.lsp.session import Session

CATALOG_CHANGED = "skilldeck/catalogChanged"
#: Quiet time after the last change before catalogs are re-rendered (off the keystroke path).
CATALOG_DELAY_S = 0.3
#: Longest a catalog check waits while changes keep coming (seconds).
CATALOG_MAX_WAIT_S = 1.0


class CatalogNotifier:
    """Re-renders every ready folder's catalog after changes; notifies what differs."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self._handle: asyncio.TimerHandle | None = None
        self._due: float | None = None

    def schedule(self) -> None:
        """Check the catalogs once changes pause (see the module doc)."""
        loop = asyncio.get_running_loop()
        now = loop.time()
        if self._due is None:
            self._due = now + CATALOG_MAX_WAIT_S
        if self._handle is not None:
            self._handle.cancel()
        delay = max(0.0, min(CATALOG_DELAY_S, self._due - now))
        self._handle = loop.call_later(delay, self._check)

    def _check(self) -> None:
        self._handle = None
        self._due = None
        self.session.spawn(self._notify())

    async def _notify(self) -> None:
        session = self.session
        for index in list(session.folders.values()):
            if not index.ready:
                continue
            state = await current_catalog(index)
            counts = index.tally(state.skill_count)
            told = index.notified_catalog
            # Equal tuples of mostly identical entries: one identity test each, in C. The
            # counts too: a shadowed copy or a broken file leaves the catalog as it was but
            # changes what the Skills view and the status item show (issue #41.1).
            if (
                told is not None
                and told[1] == state.complete
                and told[0] == state.entries
                and told[2] == counts
            ):
                continue
            index.notified_catalog = (state.entries, state.complete, counts)
            session.server.protocol.notify(
                CATALOG_CHANGED,
                {
                    "folderUri": uri_of(index.folder),
                    "complete": state.complete,
                    "tokenEstimate": state.token_estimate,
                    "skillCount": state.skill_count,
                    "counts": counts,
                },
            )
