"""Running a :class:`~skilldeck.mcp.deck_server.DeckServer` over stdio (the default)."""

from __future__ import annotations

from mcp.server.stdio import stdio_server

from skilldeck.mcp.deck_server import DeckServer


async def serve_stdio(deck: DeckServer) -> None:
    """Serve one client on this process's stdin/stdout until it closes them."""
    await deck.start()
    async with stdio_server() as (read_stream, write_stream):
        await deck.server.run(read_stream, write_stream, deck.initialization_options())
