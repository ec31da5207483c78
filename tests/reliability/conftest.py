"""Fixtures for reliability tests: raw-stdio and pytest-lsp servers, CLI runs, snapshots.

The workspace builder and capability sets are the language-server suite's
(``tests/lsp/lsp_harness.py``); this folder adds a byte-level client
(``raw_lsp.py``) and helpers to run ``skilldeck`` and to snapshot a tree.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from lsp_harness import (
    SERVER_COMMAND,
    Deck,
    StartServer,
    push_capabilities,
    uri,
)
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient
from raw_lsp import MARK_VARIABLE, RawServer
from reliability_harness import server_env


@pytest.fixture
def deck(tmp_path: Path) -> Deck:
    """An empty layered workspace in ``tmp_path`` (user roots and cache inside it too)."""
    return Deck(tmp_path)


@pytest.fixture
def mark() -> str:
    """A value put in ``$SKILLDECK_RELIABILITY_MARK`` of every process a test starts."""
    return uuid.uuid4().hex


@pytest.fixture
def raw_server(deck: Deck, mark: str) -> Iterator[Any]:
    """``raw_server()`` -> a :class:`RawServer` on the deck (killed at the end)."""
    started: list[RawServer] = []

    def start(**extra: str) -> RawServer:
        server = RawServer(server_env(deck, **{MARK_VARIABLE: mark}, **extra), deck.project)
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


@pytest.fixture
async def start_server(deck: Deck, mark: str) -> AsyncIterator[StartServer]:
    """``await start_server(capabilities=..., folders=[...])`` -> initialised client."""
    clients: list[LanguageClient] = []

    async def start(
        *,
        capabilities: types.ClientCapabilities | None = None,
        folders: list[Path] | None = None,
        env: dict[str, str] | None = None,
    ) -> LanguageClient:
        config = ClientServerConfig(
            server_command=SERVER_COMMAND,
            server_env=env or server_env(deck, **{MARK_VARIABLE: mark}),
        )
        client = await config.start()
        assert isinstance(client, LanguageClient)
        clients.append(client)
        roots = folders if folders is not None else [deck.project]
        await client.initialize_session(
            types.InitializeParams(
                capabilities=capabilities or push_capabilities(),
                workspace_folders=[types.WorkspaceFolder(uri=uri(p), name=p.name) for p in roots],
            )
        )
        return client

    yield start
    for client in clients:
        try:
            await asyncio.wait_for(client.shutdown_session(), 10)
        except Exception:  # a test may have ended the server on purpose
            pass
        finally:
            await client.stop()
