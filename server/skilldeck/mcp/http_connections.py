"""The connections of ``skilldeck mcp --http``: a deadline per request, a cap per server,
a bounded log.

uvicorn (0.54) bounds neither the time a request may take to arrive nor, usefully, the
number of connections: ``timeout_keep_alive`` covers only the pause *between* requests
and is reset by every byte received (``H11Protocol.data_received`` calls
``_unset_keepalive_if_required`` first), and ``limit_concurrency`` answers 503 to the
next *complete* request, so connections that never finish their request line hold their
place and turn the authorized client away. The token guard (:mod:`http_serve`) can only
run once the headers are in. So, one level below the application, in uvicorn's h11
protocol (:func:`bounded_protocol`):

- **request deadline**: a connection has :attr:`HttpLimits.request_timeout_s` to deliver
  a whole request (request line, headers, body), counted from its opening or from the
  end of the previous answer; when it expires the connection is closed, after a
  ``408`` when part of a request came. A request fully received is never cut by it: a long
  answer (an event stream) runs as long as it needs.
- **connection cap**: at most :func:`connection_cap` connections per server. A
  connection beyond it closes the oldest connection still waiting for its request (a
  slow or idle one); when every connection is busy answering, the newcomer gets ``503``
  and is closed.
- **bounded log**: when the process runs out of file descriptors, asyncio's accept loop
  reports one traceback per connection it fails to accept, up to the listen backlog each
  time it retries (megabytes of stderr in seconds). :func:`accept_errors_logged_briefly`
  turns each into one line, and :class:`LogBudget` lets through at most a few lines per
  window and then says how many were held back; uvicorn's own warnings (one per
  malformed request) get the same budget.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, ClassVar

from uvicorn.config import Config
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.server import ServerState

_logger = logging.getLogger(__name__)

#: File descriptors kept free below the process's limit for what serving opens besides
#: connections (skill files, the watcher, worker threads, a scan's helper and its pipes).
FD_RESERVE = 64
#: How many connections asyncio accepts in one go (also the listen backlog); with the
#: cap, it bounds the descriptors held by connections about to be closed.
ACCEPT_BATCH = 128
_ACCEPT_FAILED = "socket.accept() out of system resource"


@dataclass(frozen=True, slots=True)
class HttpLimits:
    """What one HTTP server allows its connections (see the module docstring)."""

    #: Seconds a connection has to deliver one whole request.
    request_timeout_s: float = 10.0
    #: Connections open at once (lowered further by :func:`connection_cap`).
    max_connections: int = 100
    #: Seconds in-flight answers get to finish on SIGTERM or SIGINT (the streams of
    #: ``subscriptions/listen`` are ended first) before they are cancelled.
    shutdown_grace_s: int = 3


def connection_cap(wanted: int) -> int:
    """``wanted``, lowered so that the connections leave :data:`FD_RESERVE` descriptors
    and one accept batch free below the process's soft ``RLIMIT_NOFILE`` (at least 1)."""
    try:
        import resource  # noqa: PLC0415 - POSIX only
    except ImportError:  # pragma: no cover - Windows has no descriptor limit to mind
        return wanted
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return wanted
    try:
        in_use = len(os.listdir("/proc/self/fd"))
    except OSError:  # no /proc: assume a reserve's worth
        in_use = FD_RESERVE
    return max(1, min(wanted, soft - in_use - FD_RESERVE - ACCEPT_BATCH))


def bounded_protocol(limits: HttpLimits) -> type[H11Protocol]:
    """uvicorn's h11 protocol with the request deadline and the connection cap of
    ``limits``, for one server (the cap is counted per server)."""

    class ServerProtocol(_BoundedProtocol):
        request_timeout_s = limits.request_timeout_s
        cap = connection_cap(limits.max_connections)

    return ServerProtocol


class _BoundedProtocol(H11Protocol):
    request_timeout_s: ClassVar[float]
    cap: ClassVar[int]

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        #: Set while the connection waits for (the rest of) a request.
        self._deadline: asyncio.TimerHandle | None = None
        self._waiting_since = 0.0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._follow()
        others = [
            other
            for other in self.connections
            if isinstance(other, _BoundedProtocol)
            and other is not self
            and not other.transport.is_closing()
        ]
        if len(others) < self.cap:
            return
        waiting = [other for other in others if other._deadline is not None]
        if waiting:
            min(waiting, key=lambda other: other._waiting_since)._close(
                408, "closed to make room: the request did not arrive in time"
            )
        else:
            self._close(503, "too many connections: try again shortly")

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._follow()

    def on_response_complete(self) -> None:
        self._disarm()  # the next request has a deadline of its own
        super().on_response_complete()  # may start a pipelined request
        self._follow()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _follow(self) -> None:
        """Arm the deadline while a request is awaited or arriving; disarm it once the
        request is all in."""
        if self.transport.is_closing():
            self._disarm()
            return
        cycle = self.cycle
        if cycle is not None and not cycle.response_complete and not cycle.more_body:
            self._disarm()
        elif self._deadline is None:
            self._waiting_since = time.monotonic()
            self._deadline = self.loop.call_later(self.request_timeout_s, self._expire)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expire(self) -> None:
        self._deadline = None
        self._close(408, f"the request did not arrive within {self.request_timeout_s:g} s")

    def _close(self, status: int, reason: str) -> None:
        """Close the connection; with a short plain answer when a request (or part of
        one) came and no answer is under way. An idle connection is closed silently, as
        uvicorn closes one after ``timeout_keep_alive``: a client may be sending its next
        request on it at that moment and must not take the answer for that request's."""
        self._disarm()
        if self.transport.is_closing():
            return
        cycle = self.cycle
        answering = cycle is not None and cycle.response_started and not cycle.response_complete
        arriving = cycle is not None and not cycle.response_complete
        if not answering and (arriving or self.conn.trailing_data[0] or status == 503):
            self.transport.write(_plain_answer(status, reason))
        self.transport.close()


def _plain_answer(status: int, reason: str) -> bytes:
    phrase = {408: "Request Timeout", 503: "Service Unavailable"}[status]
    body = f"{reason}\n".encode()
    head = (
        f"HTTP/1.1 {status} {phrase}\r\ncontent-type: text/plain; charset=utf-8\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
    )
    return head.encode("ascii") + body


class LogBudget(logging.Filter):
    """Lets at most ``burst`` records through per ``window_s`` seconds; the first record
    of the next window says how many were held back."""

    def __init__(
        self,
        burst: int = 5,
        window_s: float = 10.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__()
        self.burst = burst
        self.window_s = window_s
        self._clock = clock
        self._window_start = -window_s
        self._passed = 0
        self._held = 0

    def filter(self, record: logging.LogRecord) -> bool:
        now = self._clock()
        if now - self._window_start >= self.window_s:
            self._window_start = now
            self._passed = 0
            if self._held:
                record.msg = f"{record.msg} ({self._held} similar messages held back)"
                self._held = 0
        if self._passed >= self.burst:
            self._held += 1
            return False
        self._passed += 1
        return True


@contextmanager
def accept_errors_logged_briefly(
    loop: asyncio.AbstractEventLoop, *loggers: logging.Logger
) -> Iterator[None]:
    """While inside: a failed ``accept`` is one line on this module's logger (no
    traceback), and this logger and ``loggers`` each get a :class:`LogBudget`."""
    previous = loop.get_exception_handler()

    def handle(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if context.get("message") == _ACCEPT_FAILED:
            error = context.get("exception")
            _logger.warning("cannot accept a connection: %s (retried in a second)", error)
        elif previous is not None:
            previous(loop, context)
        else:
            loop.default_exception_handler(context)

    budgets = [(each, LogBudget()) for each in (_logger, *loggers)]
    for each, budget in budgets:
        each.addFilter(budget)
    loop.set_exception_handler(handle)
    try:
        yield
    finally:
        loop.set_exception_handler(previous)
        for each, budget in budgets:
            each.removeFilter(budget)
