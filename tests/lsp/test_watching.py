"""Files changing on disk behind the editor's back: created, changed, deleted; new roots."""

from __future__ import annotations

import asyncio
import shutil

from lsp_harness import (
    Deck,
    StartServer,
    catalog_changes,
    codes,
    diagnostics_of,
    indexed,
    request,
    skill_text,
    uri,
    wait_for,
    wait_until,
)
from lsprotocol import types


async def skills_named(client, name: str) -> list[dict]:
    result = await request(client, "skilldeck/skills", {})
    return [
        skill
        for folder in result["folders"]
        for root in folder["roots"]
        for skill in root["skills"]
        if skill["name"] == name
    ]


async def test_external_create_change_delete(deck: Deck, start_server: StartServer) -> None:
    deck.write(deck.project_dsh, "anchor")
    client = await start_server()
    await indexed(client)

    created = deck.write(deck.user_agents, "ghost", "---\nname: ghost\n---\n")
    await diagnostics_of(client, created, lambda d: codes(d) == ["SD204"])

    created.write_text(skill_text("ghost"), encoding="utf-8")
    await diagnostics_of(client, created, lambda d: d == [])

    shadow = deck.write(deck.project_agents, "ghost")
    await diagnostics_of(client, created, lambda d: codes(d) == ["SD701"])
    shutil.rmtree(shadow.parent)
    await diagnostics_of(client, created, lambda d: d == [])

    created.unlink()

    async def gone() -> bool:
        return not await skills_named(client, "ghost")

    await wait_until(gone, what="the deleted skill gone from the index")


async def test_root_created_after_start(deck: Deck, start_server: StartServer) -> None:
    client = await start_server()
    await indexed(client)
    assert not deck.project_dsh.exists()

    late = deck.write(deck.project_dsh, "late", "---\nname: late\n---\n")
    await diagnostics_of(client, late, lambda d: codes(d) == ["SD204"])


async def test_client_file_events_refresh_the_index(deck: Deck, start_server: StartServer) -> None:
    path = deck.write(deck.project_dsh, "evented")
    client = await start_server()
    await indexed(client)
    path.write_text("---\nname: evented\n---\n", encoding="utf-8")
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=path.as_uri(), type=types.FileChangeType.Changed)]
        )
    )
    await diagnostics_of(client, path, lambda d: codes(d) == ["SD204"])


async def test_root_deleted_and_recreated(deck: Deck, start_server: StartServer) -> None:
    first = deck.write(deck.project_dsh, "phoenix", "---\nname: phoenix\n---\n")
    client = await start_server()
    await diagnostics_of(client, first, lambda d: codes(d) == ["SD204"])
    # Deleted at once: before or after the watch is live (it lists the root before the
    # index and reports what changed since once it is live), the deletion is seen.
    shutil.rmtree(deck.project_dsh)
    await diagnostics_of(client, first, lambda d: d == [])
    again = deck.write(deck.project_dsh, "phoenix", "---\nname: phoenix\ndescription: 1\n---\n")
    assert again == first
    await diagnostics_of(client, first, lambda d: codes(d) == ["SD205"] or codes(d) == [])
    deck.write(deck.project_dsh, "phoenix", "---\nname: Phoenix\ndescription: back\n---\n")
    await diagnostics_of(client, first, lambda d: "SD203" in codes(d))


async def test_a_server_that_can_watch_registers_nothing_with_the_client(
    deck: Deck, start_server: StartServer
) -> None:
    """With watchfiles the server watches every root itself, even for a client that
    offers to watch (issue #41: Helix, eglot and VS Code each miss changes a shell makes);
    the client is asked to watch nothing (the bundled server's case: test_pure_server)."""
    capabilities = types.ClientCapabilities(
        workspace=types.WorkspaceClientCapabilities(
            did_change_watched_files=types.DidChangeWatchedFilesClientCapabilities(
                dynamic_registration=True
            )
        )
    )
    inside = deck.write(deck.project_dsh, "inside")
    client = await start_server(capabilities=capabilities)
    await indexed(client)
    assert getattr(client, "skilldeck_registrations") == []  # noqa: B009

    inside.write_text("---\nname: inside\n---\n", encoding="utf-8")
    await diagnostics_of(client, inside, lambda d: codes(d) == ["SD204"])
    outside = deck.write(deck.user_dsh, "home-made", "---\nname: home-made\n---\n")
    await diagnostics_of(client, outside, lambda d: codes(d) == ["SD204"])
    (deck.project / "skilldeck.toml").write_text('[rules]\nSD204 = "warning"\n', encoding="utf-8")
    await diagnostics_of(
        client, outside, lambda d: [x.severity for x in d] == [types.DiagnosticSeverity.Warning]
    )


async def test_a_client_that_never_pauses_still_gets_live_watches(
    deck: Deck, start_server: StartServer
) -> None:
    """Watches go live when the client is quiet, but also if it never is (within
    ``QUIET_WITHIN_S``, 3 s; the wait allows a loaded machine more)."""
    path = deck.write(deck.user_agents, "busy")
    client = await start_server()
    await indexed(client)

    async def keep_talking() -> None:
        while True:  # a request every 0.1 s: never 0.5 s of quiet
            await request(client, "skilldeck/skills", {})
            await asyncio.sleep(0.1)

    talking = asyncio.create_task(keep_talking())
    try:
        path.write_text("---\nname: busy\n---\n", encoding="utf-8")
        await diagnostics_of(client, path, lambda d: codes(d) == ["SD204"])
    finally:
        talking.cancel()


def edit_anchor(client, path, version: int, text: str) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri(path), version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


async def test_open_skill_whose_folder_is_deleted_leaves_the_deck(
    deck: Deck, start_server: StartServer
) -> None:
    """A skill whose folder is deleted while its tab is open leaves the Skills tree and
    the count: the buffer is judged by its text only while its file exists. A change in
    the orphaned buffer does not bring it back; saving it again (the file returns) does."""
    anchor = deck.write(deck.project_dsh, "anchor")
    doomed = deck.write(deck.project_dsh, "doomed")
    client = await start_server()
    await indexed(client)
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            types.TextDocumentItem(
                uri=uri(anchor), language_id="markdown", version=1, text=skill_text("anchor")
            )
        )
    )
    text = skill_text("doomed")
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            types.TextDocumentItem(uri=uri(doomed), language_id="markdown", version=1, text=text)
        )
    )
    assert await skills_named(client, "doomed")

    shutil.rmtree(doomed.parent)
    client.workspace_did_change_watched_files(  # as VS Code reports a deleted folder
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=uri(doomed.parent), type=types.FileChangeType.Deleted)]
        )
    )
    await wait_for(
        lambda: catalog_changes(client) and catalog_changes(client)[-1]["skillCount"] == 1,
        what="the count without the deleted skill",
    )
    assert not await skills_named(client, "doomed")

    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri(doomed), version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text + "more\n")],
        )
    )
    # Then an edit of another open skill that changes its diagnostics: its flush comes no
    # earlier than the orphan's (the orphan's change was sent first), so once its
    # diagnostics arrive the orphan's change has been judged.
    edit_anchor(client, anchor, 2, "---\nname: anchor\n---\n")
    await diagnostics_of(client, anchor, lambda d: codes(d) == ["SD204"])
    assert not await skills_named(client, "doomed")
    edit_anchor(client, anchor, 3, skill_text("anchor"))
    await diagnostics_of(client, anchor, lambda d: d == [])

    deck.write(deck.project_dsh, "doomed", text + "more\n")
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=uri(doomed), type=types.FileChangeType.Created)]
        )
    )
    await wait_for(
        lambda: catalog_changes(client)[-1]["skillCount"] == 2, what="the saved skill back"
    )
    assert await skills_named(client, "doomed")


async def test_config_file_edits_reach_a_client_that_watches_nothing(
    deck: Deck, start_server: StartServer
) -> None:
    """A client without file watching (Neovim 0.7, Helix) still has the project's
    ``skilldeck.toml`` followed: created, changed, each re-reads the settings."""
    path = deck.write(deck.project_dsh, "alpha", skill_text("alpha-x"))  # SD206: name != folder
    client = await start_server()
    await indexed(client)
    [before] = await diagnostics_of(client, path, lambda d: codes(d) == ["SD206"])
    assert before.severity != types.DiagnosticSeverity.Error

    config = deck.project / "skilldeck.toml"
    config.write_text('[rules]\nSD206 = "error"\n', encoding="utf-8")
    await diagnostics_of(
        client, path, lambda d: [x.severity for x in d] == [types.DiagnosticSeverity.Error]
    )
    config.write_text('[rules]\nSD206 = "off"\n', encoding="utf-8")
    await diagnostics_of(client, path, lambda d: d == [])
    config.unlink()
    await diagnostics_of(client, path, lambda d: codes(d) == ["SD206"])


async def test_hover_on_an_open_skill_whose_file_is_deleted_says_it_is_not_loaded(
    deck: Deck, start_server: StartServer
) -> None:
    """The deck leaves out an open skill whose file is deleted; hover agrees (it never
    shows the catalog line the model no longer sees) until the buffer is saved again."""
    deck.write(deck.project_dsh, "anchor")
    doomed = deck.write(deck.project_dsh, "doomed")
    client = await start_server()
    await indexed(client)
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            types.TextDocumentItem(
                uri=uri(doomed), language_id="markdown", version=1, text=skill_text("doomed")
            )
        )
    )
    assert await skills_named(client, "doomed")
    doomed.unlink()
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=uri(doomed), type=types.FileChangeType.Deleted)]
        )
    )
    await wait_for(
        lambda: catalog_changes(client) and catalog_changes(client)[-1]["skillCount"] == 1,
        what="the count without the deleted skill",
    )
    hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri(doomed)),
            position=types.Position(line=1, character=7),
        )
    )
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    shown = hover.contents.value
    assert shown.startswith("doomed · not loaded: its file is no longer on disk"), shown
    assert "Catalog line" not in shown and "rank" not in shown


async def test_an_agents_own_settings_file_changed_on_disk_is_read_again(
    deck: Deck, start_server: StartServer
) -> None:
    """A change the client reports to an agent's own settings file (Claude Code's
    ``~/.claude/settings.json``, in no folder the deck watches) re-reads them: the
    agent's verdict in the diagnostics follows (SD901, as ``check --host claude-code``
    says it)."""
    (deck.project / "skilldeck.toml").write_text(
        'hosts = ["dsh", "claude-code"]\ncustom-skill-dirs = [".claude/skills"]\n',
        encoding="utf-8",
    )
    # The user roots exist: the server's own watcher watches them, not their parent (a
    # missing root is watched from its nearest folder, which would see ~/.claude too).
    deck.user_agents.mkdir(parents=True)
    deck.user_dsh.mkdir(parents=True)
    path = deck.write(deck.project / ".claude" / "skills", "deploy")
    long = deck.write(
        deck.project / ".claude" / "skills",
        "long",
        "---\nname: long\ndescription: " + "Long text. " * 150 + "\n---\n\nBody.\n",
    )
    client = await start_server()
    await indexed(client)
    # the agents' verdicts are in (Claude Code cuts the long entry) before the change
    await diagnostics_of(client, long, lambda d: "SD902" in codes(d))
    settings = deck.base / "home" / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text('{"skillOverrides": {"deploy": "off"}}', encoding="utf-8")
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=settings.as_uri(), type=types.FileChangeType.Created)]
        )
    )
    await diagnostics_of(
        client,
        path,
        lambda d: (
            [(x.code, x.message.split(" (source")[0]) for x in d]
            == [
                (
                    "SD901",
                    "Claude Code does not load this skill: turned off by skillOverrides "
                    "(settings.json)",
                )
            ]
        ),
    )
