"""Fetching settings at startup: a slow client, and a client that answers nonsense.

A document opened while the server still waits for ``workspace/configuration`` must be
judged with the fetched settings (never with defaults in an index of its own); a client
answering ``null`` or a wrong shape must not stop the server from indexing.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from lsp_harness import (
    SERVER_COMMAND,
    Deck,
    codes,
    diagnostics_of,
    plain,
    push_capabilities,
    request,
    stop_client,
    uri,
    wait_for,
)
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

VENDOR = "---\nname: forms\ndescription: Fill forms.\nx-vendor: 1\n---\n"

#: ``answer(params) -> result`` of the client's ``workspace/configuration`` handler.
Answer = Callable[[types.ConfigurationParams], Awaitable[Any]]
Start = Callable[..., Awaitable[LanguageClient]]


@pytest.fixture
async def start_client(deck: Deck) -> AsyncIterator[Start]:
    """``await start_client(answer, initialization_options=...)`` -> initialised client.

    The client records every ``publishDiagnostics`` (in ``published``) and every
    ``skilldeck/catalogChanged`` (in ``catalog_changes``).
    """
    clients: list[LanguageClient] = []

    async def start(answer: Answer, *, initialization_options: Any = None) -> LanguageClient:
        config = ClientServerConfig(server_command=SERVER_COMMAND, server_env=deck.env())
        client = await config.start()
        assert isinstance(client, LanguageClient)
        clients.append(client)
        published: list[types.PublishDiagnosticsParams] = []
        changes: list[Any] = []

        async def on_configuration(params: types.ConfigurationParams) -> Any:
            return await answer(params)

        def on_publish(params: types.PublishDiagnosticsParams) -> None:
            published.append(params)
            client.diagnostics[params.uri] = params.diagnostics

        # Replace pytest-lsp's own handlers (it allows one handler per method).
        features = client.protocol.fm.features
        features[types.WORKSPACE_CONFIGURATION] = on_configuration
        features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = on_publish
        client.feature("skilldeck/catalogChanged")(lambda params: changes.append(plain(params)))
        setattr(client, "published", published)  # noqa: B010
        setattr(client, "catalog_changes", changes)  # noqa: B010
        await client.initialize_session(
            types.InitializeParams(
                capabilities=push_capabilities(),
                workspace_folders=[types.WorkspaceFolder(uri=uri(deck.project), name="project")],
                initialization_options=initialization_options,
            )
        )
        return client

    yield start
    for client in clients:
        await stop_client(client)


def open_doc(client: LanguageClient, path: Path) -> None:
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            types.TextDocumentItem(
                uri=uri(path),
                language_id="markdown",
                version=1,
                text=path.read_text(encoding="utf-8"),
            )
        )
    )


async def test_a_document_opened_while_settings_load_gets_the_fetched_profile(
    deck: Deck, start_client: Start
) -> None:
    path = deck.write(deck.project_agents, "forms", VENDOR)
    opened = asyncio.Event()

    async def slow_answer(params: types.ConfigurationParams) -> Any:
        await opened.wait()  # answered only once the document is open (sent first)
        return [{"profile": "agentskills"}]

    client = await start_client(slow_answer)
    open_doc(client, path)  # the server is still waiting for workspace/configuration
    opened.set()

    found = await diagnostics_of(client, path, lambda d: codes(d) == ["SD605"])
    assert found[0].range == types.Range(types.Position(3, 0), types.Position(3, 8))
    changes: list[Any] = getattr(client, "catalog_changes")  # noqa: B009
    # The catalog notification follows the index (debounced): wait for it. Then a later
    # edit of the buffer (a second unknown key): once its diagnostics are out, a publish
    # of the first version can no longer come.
    await wait_for(lambda: changes, what="the first catalogChanged")
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri(path), version=2),
            content_changes=[
                types.TextDocumentContentChangeWholeDocument(
                    text=VENDOR.replace("x-vendor: 1\n", "x-vendor: 1\ny-vendor: 2\n")
                )
            ],
        )
    )
    await diagnostics_of(client, path, lambda d: codes(d) == ["SD605", "SD605"])
    published: list[types.PublishDiagnosticsParams] = getattr(client, "published")  # noqa: B009
    mine = [p for p in published if p.uri == uri(path)]
    first = [p for p in mine if p.version == 1]
    # Never judged with the default profile, and the version of the buffer is carried.
    assert first and [codes(list(p.diagnostics)) for p in first] == [["SD605"]] * len(first)
    assert [p.version for p in mine] == [1] * len(first) + [2] * (len(mine) - len(first))
    # Only the workspace folder is indexed: no folder of its own for the early document.
    assert {change["folderUri"] for change in changes} == {uri(deck.project)}
    skills = await request(client, "skilldeck/skills", {})
    assert [folder["folderUri"] for folder in skills["folders"]] == [uri(deck.project)]


@pytest.mark.parametrize("answer", [None, {"profile": "dsh"}, ["a", "b"], "oops"])
async def test_a_configuration_answer_it_cannot_read_falls_back_to_initialization_options(
    deck: Deck, start_client: Start, answer: Any
) -> None:
    path = deck.write(deck.project_agents, "forms", VENDOR)

    async def bad_answer(params: types.ConfigurationParams) -> Any:
        return answer

    client = await start_client(bad_answer, initialization_options={"profile": "agentskills"})

    await diagnostics_of(client, path, lambda d: codes(d) == ["SD605"])
    warnings = [
        m.message
        for m in client.log_messages
        if m.type == types.MessageType.Warning and "workspace/configuration" in m.message
    ]
    assert warnings == [
        f"skilldeck: workspace/configuration answered {answer!r} instead of a list of one "
        "value; keeping the initialization options or defaults."
    ]


async def test_a_client_that_never_answers_configuration_is_given_up_on(
    deck: Deck, start_client: Start
) -> None:
    path = deck.write(deck.project_agents, "forms", VENDOR)
    answered = asyncio.Event()
    clients: list[LanguageClient] = []

    def gave_up() -> bool:
        return any("got no answer" in m.message for c in clients for m in c.log_messages)

    async def late_answer(params: types.ConfigurationParams) -> Any:
        # After the server has given up (it says so), however slow the machine: the
        # answer is then ignored. (A sleep past its 2 s raced with its timer under load.)
        await wait_for(gave_up, what="the server giving up on workspace/configuration")
        # Set after this handler's task is done, when its answer has been written.
        asyncio.get_running_loop().call_soon(answered.set)
        return [{"profile": "dsh"}]

    client = await start_client(late_answer, initialization_options={"profile": "agentskills"})
    clients.append(client)

    await diagnostics_of(client, path, lambda d: codes(d) == ["SD605"])
    await answered.wait()
    # The server reads messages in order: once this is answered, it has read the late
    # answer to workspace/configuration.
    await request(client, "skilldeck/skills", {})
    assert [d.code for d in client.diagnostics[uri(path)]] == ["SD605"]
    assert not [m for m in client.log_messages if m.type == types.MessageType.Error]
    assert [m.message for m in client.log_messages if "workspace/configuration" in m.message] == [
        "skilldeck: workspace/configuration got no answer within 2 s; keeping the "
        "initialization options or defaults."
    ]
