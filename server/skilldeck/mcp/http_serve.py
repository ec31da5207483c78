"""Serving a deck over streamable HTTP (``skilldeck mcp --http HOST:PORT``), at ``/mcp``.

The guard in front of the SDK's app, checked on every request before anything else:

- a bearer token, when one is configured (``--token-env``; required by the command for
  any address but loopback): a request without ``Authorization: Bearer <token>`` gets
  401 with ``WWW-Authenticate: Bearer`` (tokens compared in constant time);
- CORS closed: no ``Access-Control-Allow-*`` header is ever sent, and a request that
  carries an ``Origin`` other than a loopback one (a web page's script) gets 403, as a
  preflight (``OPTIONS``) does.

On loopback the SDK's DNS-rebinding protection checks ``Host`` as well. What each
connection may cost (a deadline per request, a cap per server, a bounded log) is
:mod:`skilldeck.mcp.http_connections`'s.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import socket
import sys
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

import uvicorn
from mcp.server.transport_security import TransportSecuritySettings

from skilldeck.mcp.deck_server import DeckServer
from skilldeck.mcp.http_connections import (
    ACCEPT_BATCH,
    HttpLimits,
    accept_errors_logged_briefly,
    bounded_protocol,
)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
Asgi = Callable[[Scope, Receive, Send], Awaitable[None]]

LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
#: Open sessions at most (a host opens one or a few): past it a new ``initialize`` gets
#: ``503`` until one ends. The SDK's 10,000 let one local client hold ~470 MB and lock
#: every other one out.
MAX_SESSIONS = 100
#: A session with no request in flight and no open event stream for this long ends (its
#: client gets ``404`` and starts a new one, as the transport says it must).
SESSION_IDLE_S = 300.0
DEFAULT_LIMITS = HttpLimits()


def guarded_app(inner: Asgi, token: str | None) -> Asgi:
    """``inner`` behind the token and origin checks of the module docstring."""
    expected = token.encode() if token is not None else None

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await inner(scope, receive, send)
            return
        headers = {key.lower(): value for key, value in scope.get("headers", [])}
        origin = headers.get(b"origin")
        if scope.get("method") == "OPTIONS" or (
            origin is not None and not _loopback_origin(origin)
        ):
            await _refuse(send, 403, "cross-origin requests are not served", {})
            return
        if expected is not None and not _bearer(headers.get(b"authorization", b""), expected):
            await _refuse(
                send,
                401,
                "a bearer token is required (Authorization: Bearer <token>)",
                {b"www-authenticate": b'Bearer realm="skilldeck"'},
            )
            return
        await inner(scope, receive, send)

    return app


def _bearer(authorization: bytes, token: bytes) -> bool:
    """Whether ``authorization`` presents ``token`` as a bearer credential: the scheme
    in any case (RFC 7235, 2.1), the token compared in constant time."""
    scheme, _, credential = authorization.partition(b" ")
    return scheme.lower() == b"bearer" and hmac.compare_digest(credential.strip(b" "), token)


def _loopback_origin(origin: bytes) -> bool:
    try:
        host = urlsplit(origin.decode("latin-1")).hostname
    except ValueError:
        return False
    return host in LOOPBACK_HOSTS


async def _refuse(send: Send, status: int, message: str, extra: dict[bytes, bytes]) -> None:
    body = json.dumps({"error": message}).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        *extra.items(),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def deck_http_app(deck: DeckServer, host: str, port: int, token: str | None) -> Asgi:
    """The guarded ASGI app serving ``deck`` at ``/mcp``."""
    if host in LOOPBACK_HOSTS:
        security = TransportSecuritySettings(
            enable_dns_rebinding_protection=True,
            allowed_hosts=[f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}"],
            allowed_origins=[
                f"http://127.0.0.1:{port}",
                f"http://localhost:{port}",
                f"http://[::1]:{port}",
            ],
        )
    else:  # the token guards it; any Host name may reach a public address
        security = TransportSecuritySettings(enable_dns_rebinding_protection=False)
    inner: Asgi = deck.server.streamable_http_app(
        host=host,
        transport_security=security,
        max_sessions=MAX_SESSIONS,
        session_idle_timeout=SESSION_IDLE_S,
    )
    return guarded_app(inner, token)


def listen_socket(host: str, port: int) -> socket.socket:
    """A socket bound and listening at ``host:port`` (``OSError`` when it cannot be)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    return socket.create_server((host, port), family=family)


async def serve_http(
    deck: DeckServer,
    listener: socket.socket,
    token: str | None,
    limits: HttpLimits = DEFAULT_LIMITS,
) -> None:
    """Serve ``deck`` at ``http://HOST:PORT/mcp`` on ``listener`` until SIGTERM or SIGINT
    (then: the listener closes, ``subscriptions/listen`` streams end, and answers still
    under way get ``limits.shutdown_grace_s`` seconds before they are cancelled)."""
    host, port = listener.getsockname()[:2]
    await deck.start()
    config = uvicorn.Config(
        deck_http_app(deck, host, port, token),
        http=bounded_protocol(limits),
        ws="none",
        backlog=ACCEPT_BATCH,
        timeout_graceful_shutdown=limits.shutdown_grace_s,
        log_level="warning",
        access_log=False,
        lifespan="on",
    )
    shown = f"[{host}]" if ":" in host else host
    print(f"skilldeck mcp: serving http://{shown}:{port}/mcp", file=sys.stderr, flush=True)
    loop = asyncio.get_running_loop()
    with accept_errors_logged_briefly(loop, logging.getLogger("uvicorn.error")):
        await _DeckHttpServer(config, deck).serve(sockets=[listener])


class _DeckHttpServer(uvicorn.Server):
    """uvicorn's server that ends the deck's event streams as its shutdown begins: an
    open ``subscriptions/listen`` stream would otherwise keep its connection, and the
    process, alive (uvicorn waits for every connection before the app's shutdown)."""

    def __init__(self, config: uvicorn.Config, deck: DeckServer) -> None:
        super().__init__(config)
        self._deck = deck

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        self._deck.close()
        await super().shutdown(sockets)
