"""Running a :class:`~skilldeck.mcp.deck_server.DeckServer` over stdio (the default)."""

from __future__ import annotations

import os
import sys

from mcp.server.stdio import stdio_server

from skilldeck.mcp.deck_server import DeckServer
from skilldeck.mcp.malformed_lines import answering_malformed_lines


async def serve_stdio(deck: DeckServer) -> None:
    """Serve one client on this process's stdin/stdout until it closes them.

    A host that goes away mid-answer (its end of stdout closed) ends the server quietly:
    a broken pipe is how the conversation ends, not an internal error.
    """
    await deck.start()
    try:
        async with (
            stdio_server() as (read_stream, write_stream),
            answering_malformed_lines(read_stream, write_stream) as messages,
        ):
            await deck.server.run(messages, write_stream, deck.initialization_options())
    except Exception as error:
        if not _host_left(error):
            raise
        # nothing can be written any more: keep the interpreter's final flush quiet
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


def _host_left(error: BaseException) -> bool:
    """True for a broken pipe or reset, alone or as the only errors of a task group."""
    if isinstance(error, (BrokenPipeError, ConnectionResetError)):
        return True
    inner = getattr(error, "exceptions", None)
    return isinstance(inner, tuple) and bool(inner) and all(_host_left(item) for item in inner)
