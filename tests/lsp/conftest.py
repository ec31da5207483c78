"""Fixtures for language-server tests (helpers live in ``lsp_harness.py``).

``deck`` builds a layered workspace in ``tmp_path`` (a project with ``.git``, a private
``DSH_HOME`` / ``DSH_AGENTS_HOME``); ``start_server`` launches ``python -m skilldeck.lsp``
as a subprocess over stdio with a chosen capability set and initialises it; every client
it started is shut down at the end of the test.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from client_profiles import ClientProfile, watching_for
from lsp_harness import (
    SERVER_COMMAND,
    Deck,
    StartServer,
    plain,
    push_capabilities,
    stop_client,
    uri,
)
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient


@pytest.fixture
def deck(tmp_path: Path) -> Deck:
    """An empty layered workspace in ``tmp_path``."""
    return Deck(tmp_path)


@pytest.fixture
async def start_server(deck: Deck) -> AsyncIterator[StartServer]:
    """``await start_server(capabilities=..., settings=..., folders=[...], command=[...],
    profile=...)`` -> client (``command``: another server command line; ``profile``: a
    :class:`client_profiles.ClientProfile` whose capabilities the client announces and
    whose watching ``client.skilldeck_watching`` emulates)."""
    clients: list[LanguageClient] = []

    async def start(
        *,
        capabilities: types.ClientCapabilities | None = None,
        settings: dict[str, Any] | None = None,
        initialization_options: Any = None,
        folders: list[Path] | None = None,
        command: list[str] | None = None,
        profile: ClientProfile | None = None,
    ) -> LanguageClient:
        config = ClientServerConfig(server_command=command or SERVER_COMMAND, server_env=deck.env())
        client = await config.start()
        assert isinstance(client, LanguageClient)
        clients.append(client)
        changes: list[Any] = []

        def on_catalog_changed(params: Any) -> None:
            changes.append(plain(params))

        client.feature("skilldeck/catalogChanged")(on_catalog_changed)
        registrations: list[types.Registration] = []
        roots = folders if folders is not None else [deck.project]

        def send(events: list[types.FileEvent]) -> None:
            client.workspace_did_change_watched_files(
                types.DidChangeWatchedFilesParams(changes=events)
            )

        watching = watching_for(profile, [str(p) for p in roots], send) if profile else None

        def on_register(params: types.RegistrationParams) -> None:
            registrations.extend(params.registrations)
            if watching is not None:
                watching.register(params.registrations)

        client.feature(types.CLIENT_REGISTER_CAPABILITY)(on_register)
        setattr(client, "skilldeck_registrations", registrations)  # noqa: B010
        setattr(client, "skilldeck_catalog_changes", changes)  # noqa: B010
        setattr(client, "skilldeck_watching", watching)  # noqa: B010
        if profile is not None and capabilities is None:
            capabilities = profile.capabilities()
        if settings is not None:
            client.set_configuration(settings, section="skilldeck")
        result = await client.initialize_session(
            types.InitializeParams(
                capabilities=capabilities or push_capabilities(),
                workspace_folders=[types.WorkspaceFolder(uri=uri(p), name=p.name) for p in roots],
                initialization_options=initialization_options,
            )
        )
        setattr(client, "skilldeck_server_capabilities", result.capabilities)  # noqa: B010
        return client

    yield start
    for client in clients:
        await stop_client(client)
