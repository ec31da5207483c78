"""The LSP lifecycle: a request before ``initialize`` is ``ServerNotInitialized``, a
second ``initialize`` and any request after ``shutdown`` are ``InvalidRequest``; each
is answered (never left waiting) and ``exit`` still ends the server."""

from __future__ import annotations

import asyncio

import pytest
from lsp_harness import (
    HANG_S,
    SERVER_COMMAND,
    Deck,
    StartServer,
    indexed,
    raw_request,
    skill_text,
    uri,
)
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import ClientServerConfig, LanguageClient

HOVER = {
    "textDocument": {"uri": "file:///nowhere/SKILL.md"},
    "position": {"line": 0, "character": 0},
}


async def test_a_request_before_initialize_is_server_not_initialized(deck: Deck) -> None:
    path = deck.write(deck.project_dsh, "alpha")
    config = ClientServerConfig(server_command=SERVER_COMMAND, server_env=deck.env())
    client = await config.start()
    assert isinstance(client, LanguageClient)
    try:
        with pytest.raises(JsonRpcException) as refused:
            await raw_request(client, "textDocument/hover", HOVER, msg_id="early-1")
        assert refused.value.code == -32002  # ServerNotInitialized
        assert "before 'initialize'" in str(refused.value)
        # The server is fine: it initializes and answers as usual.
        await client.initialize_session(
            types.InitializeParams(
                capabilities=types.ClientCapabilities(),
                workspace_folders=[types.WorkspaceFolder(uri=uri(deck.project), name="project")],
            )
        )
        hover = await client.text_document_hover_async(
            types.HoverParams(
                text_document=types.TextDocumentIdentifier(uri=uri(path)),
                position=types.Position(line=1, character=7),
            )
        )
        assert hover is not None
    finally:
        await asyncio.wait_for(client.shutdown_session(), HANG_S)
        await asyncio.wait_for(client.stop(), HANG_S)


async def test_a_second_initialize_and_requests_after_shutdown_are_invalid(
    deck: Deck, start_server: StartServer
) -> None:
    deck.write(deck.project_dsh, "alpha", skill_text("alpha"))
    client = await start_server()
    await indexed(client)
    with pytest.raises(JsonRpcException) as again:
        await raw_request(client, "initialize", {"capabilities": {}}, msg_id="init-2")
    assert again.value.code == -32600  # InvalidRequest
    assert "already" in str(again.value)

    await client.shutdown_async(None)
    for number, method in enumerate(("textDocument/hover", "shutdown")):
        with pytest.raises(JsonRpcException) as late:
            await raw_request(
                client, method, HOVER if method != "shutdown" else None, msg_id=f"late-{number}"
            )
        assert late.value.code == -32600  # InvalidRequest
        assert "shut down" in str(late.value)
    client.exit(None)
    process = client._server
    assert process is not None
    assert await asyncio.wait_for(process.wait(), HANG_S) == 0


async def test_the_client_leaving_during_the_first_index_ends_the_server_quietly(
    deck: Deck, capfd: pytest.CaptureFixture[str]
) -> None:
    """stdin closed right after ``initialized``, while the first index runs: the server
    exits with status 0 and writes no traceback (the cancelled index just ends)."""
    for number in range(300):  # enough files that the index is still running
        deck.write(deck.project_dsh, f"skill-{number:03}")
    config = ClientServerConfig(server_command=SERVER_COMMAND, server_env=deck.env())
    client = await config.start()
    assert isinstance(client, LanguageClient)
    await client.initialize_session(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(),
            workspace_folders=[types.WorkspaceFolder(uri=uri(deck.project), name="project")],
        )
    )
    process = client._server
    assert process is not None and process.stdin is not None
    process.stdin.close()
    await asyncio.wait_for(process.wait(), HANG_S)
    await asyncio.wait_for(client.stop(), HANG_S)  # the stderr forwarder reads to the end
    err = capfd.readouterr().err
    assert "Traceback" not in err and "CancelledError" not in err, err
