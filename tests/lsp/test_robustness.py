"""Faults: bad params, unknown documents and methods; the server keeps serving and exits."""

from __future__ import annotations

import asyncio
import time

import pytest
from lsp_harness import (
    HANG_S,
    Deck,
    StartServer,
    indexed,
    raw_request,
    request,
    skill_text,
    uri,
)
from lsprotocol import types
from pygls.exceptions import JsonRpcException


async def test_bad_params_get_errors_and_server_keeps_serving(
    deck: Deck, start_server: StartServer
) -> None:
    deck.write(deck.project_dsh, "fine")
    client = await start_server()
    with pytest.raises(JsonRpcException, match="'uri' must be a file: URI"):
        await request(client, "skilldeck/catalog", {"uri": 42})
    with pytest.raises(JsonRpcException, match="'uri' is required"):
        await request(client, "skilldeck/catalog", {})
    with pytest.raises(JsonRpcException, match="in no workspace folder"):
        await request(client, "skilldeck/catalog", {"uri": "file:///elsewhere"})
    with pytest.raises(JsonRpcException):
        await request(client, "skilldeck/noSuchMethod", {})
    with pytest.raises(JsonRpcException, match="Invalid params"):
        await raw_request(client, "textDocument/diagnostic", {"textDocument": 7}, msg_id="bad-1")
    result = await request(client, "skilldeck/catalog", {"uri": uri(deck.project)})
    assert result["skillCount"] == 1


async def test_unknown_documents_and_positions(deck: Deck, start_server: StartServer) -> None:
    client = await start_server()
    await indexed(client)
    ghost = uri(deck.project / "nowhere.md")
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=ghost, version=9),
            content_changes=[types.TextDocumentContentChangeWholeDocument("x")],
        )
    )
    client.text_document_did_close(
        types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(ghost))
    )
    path = deck.project_dsh / "odd" / "SKILL.md"
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            types.TextDocumentItem(uri=uri(path), language_id="markdown", version=1, text="")
        )
    )
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri(path), version=2),
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(types.Position(99, 5), types.Position(120, 0)), text="z"
                )
            ],
        )
    )
    result = await request(client, "skilldeck/skills", {"uri": ghost})
    assert result["folders"][0]["folderUri"] == uri(deck.project)


async def test_server_exits_when_stdin_closes(deck: Deck, start_server: StartServer) -> None:
    client = await start_server()
    await indexed(client)
    process = client._server
    assert process is not None and process.stdin is not None
    process.stdin.close()
    assert await asyncio.wait_for(process.wait(), 10) is not None


async def test_malformed_json_is_skipped(deck: Deck, start_server: StartServer) -> None:
    deck.write(deck.project_dsh, "fine")
    client = await start_server()
    writer = client.protocol.writer
    assert writer is not None
    for body in (b"{not json", b'{"jsonrpc": "2.0", "id": 5}', b"[1, 2, 3]"):
        writer.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
    result = await request(client, "skilldeck/catalog", {"uri": uri(deck.project)})
    assert result["skillCount"] == 1


async def test_rapid_edits_with_disk_churn_end_like_a_fresh_index(
    deck: Deck, start_server: StartServer
) -> None:
    edited = deck.write(deck.project_dsh, "typing")
    for number in range(20):
        deck.write(deck.user_agents, f"churn-{number}")
    client = await start_server()
    await indexed(client)
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            types.TextDocumentItem(
                uri=uri(edited), language_id="markdown", version=1, text=skill_text("typing")
            )
        )
    )
    for version in range(2, 1002):
        name = "churn-3" if version % 2 else f"typing-{version}"
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(
                    uri=uri(edited), version=version
                ),
                content_changes=[types.TextDocumentContentChangeWholeDocument(skill_text(name))],
            )
        )
        if version % 100 == 0:
            number = version // 100
            deck.write(deck.user_agents, f"churn-{number}", skill_text("churn-3"))
            await asyncio.sleep(0)
    # Final buffer names "churn-3" (version 1001 is odd); disk now has many churn-3 copies.
    final = await request(client, "skilldeck/skills", {})
    # The reference: a fresh server over the same disk, the buffer's text saved. Nothing
    # changes on disk after this, so its first index is final.
    edited.write_text(skill_text("churn-3"), encoding="utf-8")
    fresh_client = await start_server()
    await indexed(fresh_client)
    fresh = await request(fresh_client, "skilldeck/skills", {})
    # The live server follows the churn (watches, re-indexes) in its own time: wait until
    # its view matches, however long a loaded machine takes (a 1.5 s sleep did not).
    live = await request(client, "skilldeck/skills", {})
    deadline = time.monotonic() + HANG_S
    while summary(live) != summary(fresh) and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
        live = await request(client, "skilldeck/skills", {})
    assert final["complete"] is True
    assert summary(live) == summary(fresh)


def summary(view: dict) -> list[tuple]:
    return [
        (root["source"], s["name"], s["winner"], s["errorCount"], s["warningCount"])
        for folder in view["folders"]
        for root in folder["roots"]
        for s in root["skills"]
    ]
