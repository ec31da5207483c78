"""Fixtures for reliability tests: raw-stdio and pytest-lsp servers, CLI runs, snapshots.

The workspace builder and capability sets are the language-server suite's
(``tests/lsp/lsp_harness.py``); this folder adds a byte-level client
(``raw_lsp.py``) and helpers to run ``skilldeck`` and to snapshot a tree.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import subprocess
import sys
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


@pytest.fixture
def deck(tmp_path: Path) -> Deck:
    """An empty layered workspace in ``tmp_path`` (user roots and cache inside it too)."""
    return Deck(tmp_path)


def server_env(deck: Deck, **extra: str) -> dict[str, str]:
    """The deck's environment with a private cache dir and a process mark."""
    env = deck.env()
    env["SKILLDECK_CACHE_DIR"] = str(deck.base / "cache")
    env.update(extra)
    return env


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


def run_cli(
    deck: Deck, *args: str, cwd: Path | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """``skilldeck ARGS`` as a subprocess in the deck's environment."""
    return subprocess.run(
        [sys.executable, "-m", "skilldeck", *args],
        cwd=cwd or deck.project,
        env=server_env(deck),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def check_json(deck: Deck, *args: str, cwd: Path | None = None) -> list[dict[str, Any]]:
    """The findings of ``skilldeck check --format json ARGS`` (exit 0 or 1)."""
    done = run_cli(deck, "check", "--format", "json", *args, cwd=cwd)
    assert done.returncode in (0, 1), done.stderr
    findings: list[dict[str, Any]] = json.loads(done.stdout)
    return findings


def snapshot(root: Path) -> dict[str, tuple[str, int, str]]:
    """Every entry under ``root``: kind, mtime in ns, and a content digest for files."""
    result: dict[str, tuple[str, int, str]] = {}
    for directory, dirs, files in os.walk(root):
        for name in dirs + files:
            path = os.path.join(directory, name)
            st = os.lstat(path)
            if os.path.islink(path):
                result[path] = ("link", st.st_mtime_ns, os.readlink(path))
            elif os.path.isdir(path):
                result[path] = ("dir", st.st_mtime_ns, "")
            else:
                digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()
                result[path] = ("file", st.st_mtime_ns, digest)
    return result
