"""A gate that keeps a deck's root watches from going live until a front end opens it.

The filesystem provider takes each root's listing before a scan and lets the watches go
live after it (:meth:`~skilldeck.engine.filesystem._watch.RootWatcher.hold`). Going live builds the
native watcher: one inotify watch per bundle folder, added by watchfiles' ``RustNotify``
constructor with the GIL held (watchfiles 1.3.0: the 7,941 bundle folders of a
10,000-skill deck in five roots took ~0.5 s, root after root, in which the event loop
could not run; built on a worker thread instead, other threads still barely run Python,
so that does not free the loop). A front end whose first answer follows the
first read (``skilldeck mcp``: the catalog is its ``instructions``) passes a closed gate
to the registry and opens it once that answer is out, so the answer does not wait behind
the watches. Nothing is lost meanwhile: whatever changed between a root's listing and
the moment its watch is live is reported then.

Even one at a time (:data:`~skilldeck.engine.filesystem._watch.LIVE_GAP_S`), each root's
build stalls the loop for a moment (~0.1 s for 1,600 bundle folders), so a front end
lets the watches go live when its user is quiet, in a :class:`QuietWindow` (the language
server after each index, ``skilldeck mcp`` through :meth:`WatchGate.open_when_quiet` after its first
answer): each root's watch is built once no activity was seen for :data:`QUIET_S` since
the window was asked for, and at the latest :data:`QUIET_WITHIN_S` after it, so the
watches always go live (:meth:`~skilldeck.engine.filesystem._watch.RootWatcher.release`). Each front
end gives only its clock of activity (when its client last spoke).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field

_log = logging.getLogger(__name__)

#: Seconds without activity after which the watches may go live (keystrokes come well
#: within it; a user who stopped typing or reading answers is past it).
QUIET_S = 0.5
#: Seconds after which they go live anyway (a user typing without a pause).
QUIET_WITHIN_S = 3.0


@dataclass(frozen=True)
class QuietWindow:
    """When held watches may go live: once ``last_activity()`` (a time of ``clock``, 0
    for none) and ``asked_at`` are both ``quiet_s`` old, and at ``deadline`` at the
    latest. The request counts as activity: it is made when work ends (an index, a
    first answer), which is when a user who waited for it starts again. ``clock`` is
    ``time.monotonic`` (a test drives its own)."""

    last_activity: Callable[[], float]
    asked_at: float
    deadline: float
    quiet_s: float = QUIET_S
    clock: Callable[[], float] = field(default=time.monotonic)

    @classmethod
    def from_now(
        cls,
        last_activity: Callable[[], float],
        *,
        quiet_s: float = QUIET_S,
        within_s: float = QUIET_WITHIN_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> QuietWindow:
        """A window asked for now, ending ``within_s`` from now at the latest."""
        now = clock()
        return cls(last_activity, now, now + within_s, quiet_s, clock)

    def wait_s(self) -> float:
        """Seconds until it is quiet (0 or less: now)."""
        active = max(self.last_activity(), self.asked_at)
        return min(active + self.quiet_s, self.deadline) - self.clock()


class QuietCall:
    """Runs ``callback`` once (on the running loop) when ``window`` is quiet
    (:class:`QuietWindow`). :meth:`cancel` drops it."""

    def __init__(self, callback: Callable[[], None], window: QuietWindow) -> None:
        self._loop = asyncio.get_running_loop()
        self._callback = callback
        self.window = window
        self._handle: asyncio.TimerHandle | None = None
        self._done = False
        self._check()

    @property
    def pending(self) -> bool:
        """Whether the callback has neither run nor been cancelled."""
        return not self._done

    def cancel(self) -> None:
        """Do not run the callback (idempotent)."""
        self._done = True
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None

    def _check(self) -> None:
        self._handle = None
        if self._done:
            return
        wait = self.window.wait_s()
        if wait > 0:
            self._handle = self._loop.call_later(wait, self._check)
            return
        self._done = True
        _run(self._callback)


class WatchGate:
    """Closed until :meth:`open` (idempotent); :meth:`when_open` runs a callback then."""

    def __init__(self) -> None:
        self._open = False
        self._waiting: list[Callable[[], None]] = []
        #: Set by :meth:`open_when_quiet`: the watches behind the gate go live a root at
        #: a time within it too (:meth:`RootWatcher.release`).
        self.quiet: QuietWindow | None = None

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

    def open_when_quiet(
        self, last_activity: Callable[[], float], *, within_s: float = QUIET_WITHIN_S
    ) -> QuietCall:
        """Open the gate once ``last_activity()`` is quiet (:class:`QuietWindow`)."""
        self.quiet = QuietWindow.from_now(last_activity, within_s=within_s)
        return QuietCall(self.open, self.quiet)

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
