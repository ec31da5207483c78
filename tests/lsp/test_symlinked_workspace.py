"""A workspace opened through a symlink: one file, one identity, whatever path names it."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from lsp_harness import (
    HANG_S,
    Deck,
    StartServer,
    codes,
    diagnostics_of,
    pull_capabilities,
    request,
    skill_text,
    uri,
)
from lsprotocol import types
from pytest_lsp import LanguageClient


def open_buffer(client: LanguageClient, path: Path, text: str) -> None:
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            types.TextDocumentItem(uri=uri(path), language_id="markdown", version=1, text=text)
        )
    )


def change_buffer(client: LanguageClient, path: Path, text: str, version: int) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri(path), version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text)],
        )
    )


@pytest.mark.parametrize("opened_by", ["link", "real"])
async def test_a_file_opened_by_its_other_path_is_the_indexed_file(
    deck: Deck, start_server: StartServer, opened_by: str
) -> None:
    link = deck.base / "link"
    link.symlink_to(deck.project, target_is_directory=True)
    real_file = deck.write(deck.project_dsh, "alpha", skill_text("Alpha_Bad"))
    link_file = link / real_file.relative_to(deck.project)
    # The folder is opened by one path, the file by the other.
    folder, indexed_as, buffer = (
        (link, link_file, real_file)
        if opened_by == "real"
        else (deck.project, real_file, link_file)
    )
    client = await start_server(folders=[folder])
    assert codes(await diagnostics_of(client, indexed_as, bool)) == ["SD203"]

    open_buffer(client, buffer, skill_text("Alpha_Worse"))
    found = await diagnostics_of(client, buffer, bool)
    assert codes(found) == ["SD203"]
    assert "Alpha_Worse" in found[0].message
    # Published under the URI the client has open, and gone from the other one.
    await diagnostics_of(client, indexed_as, lambda d: d == [])

    change_buffer(client, buffer, skill_text("alpha"), 2)
    await diagnostics_of(client, buffer, lambda d: d == [])
    assert list(client.diagnostics[uri(indexed_as)]) == []

    async def catalogued() -> bool:
        result = await request(client, "skilldeck/catalog", {"uri": uri(folder)})
        return bool(result["skillCount"] == 1 and "alpha" in result["text"])

    await wait_for_async(catalogued)
    hover = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri(buffer)), types.Position(1, 8))
    )
    assert hover is not None


async def wait_for_async(check: Callable[[], Awaitable[bool]], *, timeout: float = HANG_S) -> None:
    """Poll an async ``check`` until it is true."""
    deadline = time.monotonic() + timeout
    while not await check():
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        await asyncio.sleep(0.05)


async def test_pulled_reports_follow_the_buffer_uri(deck: Deck, start_server: StartServer) -> None:
    link = deck.base / "link"
    link.symlink_to(deck.project, target_is_directory=True)
    real_file = deck.write(deck.project_dsh, "alpha", skill_text("Alpha_Bad"))
    link_file = link / real_file.relative_to(deck.project)
    client = await start_server(capabilities=pull_capabilities(), folders=[link])

    first = await client.workspace_diagnostic_async(
        types.WorkspaceDiagnosticParams(previous_result_ids=[])
    )
    assert [(i.uri, codes(list(i.items))) for i in first.items] == [(uri(link_file), ["SD203"])]

    open_buffer(client, real_file, skill_text("alpha"))

    async def cleared() -> bool:
        report = await client.text_document_diagnostic_async(
            types.DocumentDiagnosticParams(
                text_document=types.TextDocumentIdentifier(uri(real_file))
            )
        )
        return isinstance(report, types.RelatedFullDocumentDiagnosticReport) and not report.items

    await wait_for_async(cleared)
    held = [types.PreviousResultId(uri=i.uri, value=i.result_id or "") for i in first.items]
    later = await client.workspace_diagnostic_async(
        types.WorkspaceDiagnosticParams(previous_result_ids=held)
    )
    # The buffer's URI is reported clean, and so is the other URI the client still holds.
    assert sorted((i.uri, list(i.items)) for i in later.items) == sorted(
        [(uri(real_file), []), (uri(link_file), [])]
    )
