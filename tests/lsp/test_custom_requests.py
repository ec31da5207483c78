"""skilldeck/catalog, skilldeck/skills, skilldeck/catalogChanged and settings changes."""

from __future__ import annotations

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
)
from lsprotocol import types


async def test_catalog_for_a_document(deck: Deck, start_server: StartServer) -> None:
    deck.write(deck.project_dsh, "beta", skill_text("beta", "Second <b> & more."))
    deck.write(deck.user_dsh, "alpha", skill_text("alpha", "First   skill."))
    deck.write(
        deck.user_dsh, "hidden", skill_text("hidden", extra="disable-model-invocation: true\n")
    )
    client = await start_server()
    result = await request(
        client, "skilldeck/catalog", {"uri": uri(deck.project_dsh / "beta" / "SKILL.md")}
    )
    assert result["entries"] == [
        {"name": "alpha", "description": "First skill."},
        {"name": "beta", "description": "Second <b> & more."},
    ]
    assert "- `alpha`: First skill.\n- `beta`: Second &lt;b&gt; &amp; more." in result["text"]
    assert result["complete"] is True
    assert result["skillCount"] == 2
    assert result["folderUri"] == uri(deck.project)
    assert result["tokenEstimate"] == -(-len(result["text"]) // 4)


async def test_skills_view_marks_winners_and_shadowed(
    deck: Deck, start_server: StartServer
) -> None:
    winner = deck.write(deck.project_dsh, "review")
    loser = deck.write(deck.user_agents, "review", flat=True)
    client = await start_server()
    result = await request(client, "skilldeck/skills", {"uri": uri(deck.project)})
    (folder,) = result["folders"]
    assert folder["folderUri"] == uri(deck.project)
    ranks = [(r["rank"], r["source"], r["exists"]) for r in folder["roots"]]
    assert ranks == [
        (100, "project-dsh", True),
        (200, "project-agents", False),
        (400, "user-dsh", False),
        (500, "user-agents", True),
    ]
    (top,) = folder["roots"][0]["skills"]
    (bottom,) = folder["roots"][3]["skills"]
    assert top["winner"] is True and top["shadowedBy"] is None
    assert top["shadows"] == [
        {"source": "user-agents", "rank": 500, "uri": uri(loser), "provider": None}
    ]
    assert top["layout"] == "bundle" and top["uri"] == uri(winner)
    assert bottom["winner"] is False and bottom["layout"] == "flat"
    assert bottom["shadowedBy"] == {
        "source": "project-dsh",
        "rank": 100,
        "uri": uri(winner),
        "provider": None,
    }
    assert bottom["modelInvocable"] is True and bottom["errorCount"] == 0


async def test_catalog_changed_follows_a_buffer(deck: Deck, start_server: StartServer) -> None:
    path = deck.write(deck.project_dsh, "one")
    client = await start_server()
    await indexed(client)
    first = catalog_changes(client)[0]
    assert first["skillCount"] == 1 and first["folderUri"] == uri(deck.project)

    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            types.TextDocumentItem(
                uri=uri(path),
                language_id="markdown",
                version=1,
                text=skill_text("one", extra="disable-model-invocation: true\n"),
            )
        )
    )
    await wait_for(lambda: len(catalog_changes(client)) == 2, what="a second catalogChanged")
    assert catalog_changes(client)[1]["skillCount"] == 0


async def test_catalog_changed_when_only_the_counts_change(
    deck: Deck, start_server: StartServer
) -> None:
    """Issue #41.1, seen in VS Code: a copy of a skill created in a root that did not
    exist (a shell's ``mkdir -p``) is shadowed, so the catalog stays the same; the Skills
    view, refreshed on ``catalogChanged``, kept saying the root was missing. The counts
    (``skillFiles``, ``shadowed``) changed, so the notification comes."""
    deck.write(deck.project_dsh, "review")
    client = await start_server()
    await indexed(client)
    first = catalog_changes(client)[0]
    assert first["counts"]["skillFiles"] == 1 and first["counts"]["shadowed"] == 0

    deck.write(deck.project_agents, "review")  # .agents/skills did not exist
    await wait_for(lambda: len(catalog_changes(client)) == 2, what="a second catalogChanged")
    second = catalog_changes(client)[1]
    assert second["skillCount"] == first["skillCount"] == 1
    assert second["counts"]["skillFiles"] == 2 and second["counts"]["shadowed"] == 1


async def test_configuration_change_reindexes(deck: Deck, start_server: StartServer) -> None:
    custom = deck.base / "extra"
    path = deck.write(custom, "extra", "---\nname: extra\n---\n")
    client = await start_server(settings={"catalogDescriptionMaxLength": 2})
    await wait_for(lambda: client.messages, what="a settings warning")
    assert "catalogDescriptionMaxLength" in client.messages[0].message
    await indexed(client)
    assert uri(path) not in client.diagnostics

    client.set_configuration(
        {"customSkillDirs": [str(custom)], "rules": {"missing-description": "warning"}},
        section="skilldeck",
    )
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    found = await diagnostics_of(client, path, lambda d: codes(d) == ["SD204"])
    assert found[0].severity == types.DiagnosticSeverity.Warning


async def test_an_unknown_profile_is_a_warning_and_the_default_applies(
    deck: Deck, start_server: StartServer
) -> None:
    path = deck.write(
        deck.project_dsh, "tidy", "---\nname: tidy\ndescription: Tidy.\nlicense: MIT\n---\n"
    )
    client = await start_server(settings={"profile": "default"})
    await wait_for(lambda: client.messages, what="a settings warning")
    assert client.messages[0].message == (
        "unknown profile \"default\" in 'skilldeck.profile' (known: agentskills, claude-code, "
        "codex, dsh); using the default."
    )
    await indexed(client)
    # The dsh profile: an unknown key such as `license` is fine.
    assert client.diagnostics.get(uri(path), []) == []


async def test_initialization_options_are_settings(deck: Deck, start_server: StartServer) -> None:
    custom = deck.base / "opts"
    path = deck.write(custom, "opt", "---\nname: opt\n---\n")
    client = await start_server(
        capabilities=types.ClientCapabilities(),
        initialization_options={"customSkillDirs": [str(custom)], "profile": "agentskills"},
    )
    await diagnostics_of(client, path, lambda d: codes(d) == ["SD204"])
