"""Answering malformed JSON-RPC lines on a stream transport (stdio).

The MCP SDK (2.3) hands a line it cannot decode to the server loop as an exception,
which drops it without a word, so a host that sent a broken line waits for an answer
that never comes. JSON-RPC 2.0 asks for an error response with ``"id": null``: a line
that is not JSON gets ``-32700`` (parse error), JSON that is not a JSON-RPC message
gets ``-32600`` (invalid request). The connection then goes on as before.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import anyio
import mcp_types as types
from mcp.shared._stream_protocols import ReadStream, WriteStream
from mcp.shared.message import SessionMessage
from pydantic import ValidationError

Incoming = SessionMessage | Exception


def malformed_line_error(error: Exception) -> types.JSONRPCError:
    """The error response for a line the SDK could not decode into a message."""
    not_json = isinstance(error, ValidationError) and any(
        item.get("type") == "json_invalid" for item in error.errors()
    )
    if not_json or isinstance(error, UnicodeDecodeError):
        data = types.ErrorData(
            code=types.PARSE_ERROR, message="Parse error: the line is not valid JSON"
        )
    else:
        data = types.ErrorData(
            code=types.INVALID_REQUEST,
            message="Invalid request: the line is JSON but not a JSON-RPC 2.0 message",
        )
    return types.JSONRPCError(jsonrpc="2.0", id=None, error=data)


@asynccontextmanager
async def answering_malformed_lines(
    read_stream: ReadStream[Incoming], write_stream: WriteStream[SessionMessage]
) -> AsyncIterator[ReadStream[Incoming]]:
    """A read stream with the decodable messages of ``read_stream``; each malformed line
    is answered on ``write_stream`` instead of being passed on."""
    sender, receiver = anyio.create_memory_object_stream[Incoming](0)

    async def pump() -> None:
        async with sender:
            async for item in read_stream:
                if isinstance(item, Exception):
                    await write_stream.send(SessionMessage(malformed_line_error(item)))
                else:
                    await sender.send(item)

    async with anyio.create_task_group() as group:
        group.start_soon(pump)
        try:
            yield receiver
        finally:
            group.cancel_scope.cancel()
