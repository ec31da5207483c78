"""How ``skilldeck mcp`` starts: the deck's first read runs while the MCP library loads.

Importing the official MCP SDK (its package imports its client, its high-level server
and the pydantic models of two protocol revisions) took 0.4-0.75 s on the 2-core
benchmark machine; the first read of a 10,000-skill deck with no index cache took
1.5-2.5 s there (a scan thread plus forked helper processes). One after the other,
they add up before the first answer. Here the first read starts before anything of
the SDK is imported (its scan runs in a worker thread and forks its helpers), and the
SDK is imported on another worker thread meanwhile; serving starts once both are done
(the first answer carries the catalog as ``instructions``, so it waits for the read).

What this buys depends on where the read spends its time. When it waits for the disk
(a cold page cache), the import fills that wait. When the files are in the page cache,
the read is CPU-bound Python and the import competes with the scan thread for the
interpreter: on the 2-core benchmark machine (shared, load 2-4) the cold first answer
was the same within the noise either way (docs/mcp.md, *Start*).

This module imports nothing of the SDK itself; :mod:`skilldeck.mcp.serve` is loaded
on the worker thread.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import anyio
import anyio.to_thread

from skilldeck.mcp.deck_view import DeckState

Serve = Callable[[DeckState], Awaitable[None]]


async def serve_stdio_early(state: DeckState) -> None:
    """Start reading the deck, load the MCP server meanwhile, then serve it over stdio."""
    async with anyio.create_task_group() as group:
        group.start_soon(state.current)  # the first read: its scan thread starts now
        serve = await anyio.to_thread.run_sync(_load_stdio_server)
        await serve(state)


def _load_stdio_server() -> Serve:
    from skilldeck.mcp.serve import serve_state_stdio  # noqa: PLC0415 - the point of this module

    return serve_state_stdio
