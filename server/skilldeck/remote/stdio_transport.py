"""A stdio transport for a *reading* MCP client that ends its server at once.

The SDK's ``stdio_client`` gives a server seconds to exit after stdin closes (a grace
period, then SIGTERM, then SIGKILL): right for a session that may hold state, too slow for
a skill source whose lookup must not outlast its timeout. Here the server gets
:data:`GRACE` seconds after stdin closes, then its whole process group is killed, also
when the lookup is cancelled.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
from collections.abc import AsyncIterator, Mapping, Sequence

import anyio
import mcp_types as types
from anyio.abc import Process
from mcp.client._transport import TransportStreams
from mcp.shared.message import SessionMessage

#: Seconds a server may take to exit on its own once its stdin is closed.
GRACE = 0.2


@contextlib.asynccontextmanager
async def quick_stdio(
    command: Sequence[str], env: Mapping[str, str]
) -> AsyncIterator[TransportStreams]:
    """Start ``command`` (its own process group, stderr discarded) and talk JSON-RPC lines."""
    process = await anyio.open_process(
        list(command), env=dict(env), stderr=subprocess.DEVNULL, start_new_session=True
    )
    to_session, read_stream = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    write_stream, from_session = anyio.create_memory_object_stream[SessionMessage](0)

    async def read() -> None:
        assert process.stdout is not None
        buffer = b""
        async with to_session:
            with contextlib.suppress(anyio.ClosedResourceError, anyio.BrokenResourceError):
                async for chunk in process.stdout:
                    *lines, buffer = (buffer + chunk).split(b"\n")
                    for line in lines:
                        if line.strip():
                            await to_session.send(_parse(line))

    async def write() -> None:
        assert process.stdin is not None
        async with from_session:
            with contextlib.suppress(anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
                async for message in from_session:
                    data = message.message.model_dump_json(by_alias=True, exclude_unset=True)
                    await process.stdin.send(data.encode("utf-8") + b"\n")

    try:
        async with anyio.create_task_group() as group:
            group.start_soon(read)
            group.start_soon(write)
            try:
                yield read_stream, write_stream
            finally:
                group.cancel_scope.cancel()
    finally:
        with anyio.CancelScope(shield=True):
            await _stop(process)
            for stream in (read_stream, write_stream, to_session, from_session):
                await stream.aclose()


def _parse(line: bytes) -> SessionMessage | Exception:
    try:
        return SessionMessage(types.jsonrpc_message_adapter.validate_json(line, by_name=False))
    except ValueError as error:
        return error


async def _stop(process: Process) -> None:
    """Close stdin, wait :data:`GRACE`, then kill the server's process group."""
    if process.stdin is not None:
        with contextlib.suppress(OSError, anyio.BrokenResourceError, anyio.ClosedResourceError):
            await process.stdin.aclose()
    with anyio.move_on_after(GRACE):
        await process.wait()
    if process.returncode is None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        with anyio.move_on_after(1.0):
            await process.wait()
    with contextlib.suppress(OSError, anyio.BrokenResourceError, anyio.ClosedResourceError):
        if process.stdout is not None:
            await process.stdout.aclose()
