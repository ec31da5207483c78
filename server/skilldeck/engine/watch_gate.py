"""A gate that keeps a deck's root watches from going live until a front end opens it.

The filesystem provider takes each root's listing before a scan and lets the watches go
live after it (:meth:`~skilldeck.engine.watch.RootWatcher.hold`). Going live builds the
native watcher: one inotify watch per bundle folder, added by watchfiles' ``RustNotify``
constructor with the GIL held (watchfiles 1.3.0: the 7,941 bundle folders of a
10,000-skill deck in five roots took ~0.5 s, root after root, in which the event loop
could not run; built on a worker thread instead, other threads still barely run Python,
so that does not free the loop). A front end whose first answer follows the
first read (``skilldeck mcp``: the catalog is its ``instructions``) passes a closed gate
to the registry and opens it once that answer is out, so the answer does not wait behind
the watches. Nothing is lost meanwhile: whatever changed between a root's listing and
the moment its watch is live is reported then.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

_log = logging.getLogger(__name__)


class WatchGate:
    """Closed until :meth:`open` (idempotent); :meth:`when_open` runs a callback then."""

    def __init__(self) -> None:
        self._open = False
        self._waiting: list[Callable[[], None]] = []

    @property
    def is_open(self) -> bool:
        """Whether :meth:`open` was called."""
        return self._open

    def open(self) -> None:
        """Open the gate: run every waiting callback (once), and later ones at once."""
        if self._open:
            return
        self._open = True
        waiting, self._waiting = self._waiting, []
        for callback in waiting:
            _run(callback)

    def when_open(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` now if the gate is open, else when it opens."""
        if self._open:
            _run(callback)
        else:
            self._waiting.append(callback)


def _run(callback: Callable[[], None]) -> None:
    try:
        callback()
    except Exception:  # one failing listener must not keep the others' watches held
        _log.exception("skilldeck: a watch gate callback failed")
