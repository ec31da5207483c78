"""``skilldeck mcp [--http HOST:PORT [--token-env NAME]]``: the deck as an MCP server.

stdio by default (the host starts the command); ``--http`` serves streamable HTTP,
on ``127.0.0.1`` unless told otherwise, and any other address needs a bearer token
read from the environment variable ``--token-env`` names. The deck is the one the
other commands read (same settings flags, ``--provider`` included), watched live.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
from typing import Any

from skilldeck.cli.errors import CliError
from skilldeck.cli.settings import Location, add_registry_options

_LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})


def register(subparsers: Any) -> None:
    """Add the ``mcp`` subcommand."""
    parser = subparsers.add_parser(
        "mcp",
        help="serve the deck to MCP hosts (skill tool, prompts, Skills extension)",
        description="Serve the deck over the Model Context Protocol: the skill tool, the "
        "catalog as instructions and as a prompt, one prompt per user-invocable skill, "
        "skill:// resources and the Skills extension. stdio unless --http is given.",
    )
    parser.add_argument(
        "--http",
        metavar="HOST:PORT",
        default=None,
        help="serve streamable HTTP at HOST:PORT (path /mcp) instead of stdio; a HOST "
        "other than 127.0.0.1, localhost or ::1 requires --token-env",
    )
    parser.add_argument(
        "--token-env",
        metavar="NAME",
        default=None,
        help="require the bearer token held by the environment variable NAME on every HTTP request",
    )
    parser.add_argument(
        "--max-description-length",
        metavar="N",
        type=int,
        default=None,
        help="cap catalog descriptions at N characters (as `skilldeck catalog`)",
    )
    parser.add_argument(
        "--require-safe",
        action="store_true",
        default=None,
        help="do not serve skills with error-level safety findings (SD10xx); skills/list "
        "names them and why in its _meta (config: mcp-require-safe = true)",
    )
    add_registry_options(parser)
    parser.set_defaults(run=run)


def http_address(value: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:PORT`` for IPv6) split; a clear error otherwise."""
    host, sep, port = value.rpartition(":")
    host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if not sep or not host or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise CliError(f"--http: expected HOST:PORT, got {value!r}")
    return host, int(port)


def bearer_token(args: argparse.Namespace, host: str) -> str | None:
    """The token ``--token-env`` names; refused when missing, empty, or needed but absent."""
    name: str | None = args.token_env
    if name is None:
        if host not in _LOOPBACK:
            raise CliError(
                f"--http {host}: serving beyond this machine requires a bearer token "
                "(--token-env NAME, the token in the environment variable NAME)"
            )
        return None
    token = os.environ.get(name, "")
    if not token.strip():
        raise CliError(f"--token-env {name}: the environment variable is unset or empty")
    return token


def run(args: argparse.Namespace) -> int:
    """Serve until the client closes stdin (stdio) or the process is interrupted (HTTP)."""
    address = http_address(args.http) if args.http is not None else None
    if address is None and args.token_env is not None:
        raise CliError("--token-env applies to --http only")
    token = bearer_token(args, address[0]) if address is not None else None

    import anyio  # noqa: PLC0415 - only this command runs the MCP server

    from skilldeck.engine.deck import default_registry  # noqa: PLC0415
    from skilldeck.engine.filesystem import (  # noqa: PLC0415
        WatchGate,
        usable_cpus,
    )
    from skilldeck.mcp.deck_server import DeckServer  # noqa: PLC0415
    from skilldeck.remote import mcp_source_factory  # noqa: PLC0415

    location = Location.from_args(args)
    cwd = location.cwd
    config = location.config(
        cwd,
        catalog_max_description_length=args.max_description_length,
        mcp_require_safe=args.require_safe,
    )
    cache = location.cache()
    # The watches go live once the first answer is out (DeckServer opens the gate).
    gate = WatchGate()
    registry = default_registry(
        config,
        cache=cache,
        watch=True,
        providers=location.providers(),
        processes=usable_cpus(),  # a cold first read forks helpers, as check and the LSP do
        watch_gate=gate,
        mcp_sources=mcp_source_factory,
    )
    deck = DeckServer(
        registry,
        cwd=cwd,
        max_description_length=config.catalog_max_description_length,
        watch_gate=gate,
        require_safe=config.mcp_require_safe,
        settings=config.rule_settings(),
    )
    if address is None:
        from skilldeck.mcp.serve import serve_stdio  # noqa: PLC0415

        async def serve() -> None:
            await deck.start()
            collect_from_now_on()
            await serve_stdio(deck)

        anyio.run(serve)
        return 0
    from skilldeck.mcp.http_serve import listen_socket, serve_http  # noqa: PLC0415

    try:
        listener = listen_socket(*address)
    except OSError as error:
        raise CliError(
            f"--http {args.http}: cannot listen there: {error.strerror or error}"
        ) from error

    async def serve_on_http() -> None:
        await deck.start()
        collect_from_now_on()
        await serve_http(deck, listener, token)

    with listener, contextlib.suppress(KeyboardInterrupt):
        anyio.run(serve_on_http)
    return 0


def collect_from_now_on() -> None:
    """Resume the cyclic collector for the rest of a long-running server's life.

    ``cli/main`` pauses it for every command but ``serve``: right for the one-shot ones,
    and for the MCP server's first read (a collection would walk the deck it builds). But
    the server then runs for hours: what the first read built is frozen (never walked
    again) and the collector runs again, so the cycles a long session makes are freed.

    What survives a full collection afterwards is frozen too (:func:`_freeze_survivors`):
    the entries a ``skills/list`` walk builds are kept for the deck view, and every full
    collection walked them again (~40 ms at 10,000 skills: warm page p95 48-54 ms
    against 14-18 ms with them frozen). Frozen objects are still freed when their last
    reference goes; only a cycle among them that becomes garbage later is kept.
    """
    gc.freeze()
    if _freeze_survivors not in gc.callbacks:
        gc.callbacks.append(_freeze_survivors)
    gc.enable()


def _freeze_survivors(phase: str, info: dict[str, int]) -> None:
    """A ``gc.callbacks`` hook: once a full collection is over, what it kept is live and
    long-lived; freeze it so later collections do not walk it again."""
    if phase == "stop" and info.get("generation") == 2:
        gc.freeze()
