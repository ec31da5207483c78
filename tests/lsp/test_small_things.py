"""Issue #41's small things, through the editors' real capabilities: an unknown key is a
hint (SD405) as ``check`` says it; a bad setting is quoted as TOML writes it; a rename
updates ``/old-name`` in other skills' descriptions; the Skills view and the catalog say
why their counts differ (items 6 and 7)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from client_profiles import PROFILES, ClientProfile, profile_params
from editing_fixtures import apply_edit, doc_id, open_doc, pos
from lsp_harness import (
    Deck,
    StartServer,
    codes,
    diagnostics_of,
    indexed,
    request,
    seen_diagnostics,
    skill_text,
)
from lsprotocol import types

VSCODE = PROFILES["vscode-1.100"]


@pytest.mark.parametrize("profile", profile_params("vscode-1.100", "neovim-0.11"))
async def test_an_unknown_key_is_a_hint_in_the_editor_and_in_check(
    deck: Deck, start_server: StartServer, profile: ClientProfile
) -> None:
    path = deck.write(deck.project_dsh, "notes", skill_text("notes", extra="tags: [a, b]\n"))
    client = await start_server(profile=profile)
    await indexed(client)
    open_doc(client, path)
    [hint] = await seen_diagnostics(client, path, lambda d: codes(d) == ["SD405"])
    assert hint.severity == types.DiagnosticSeverity.Hint
    assert hint.range == types.Range(start=pos(3, 0), end=pos(3, 4))
    assert hint.message == (
        "'tags' is not a key of the dsh profile and no agent skilldeck knows reads it: "
        "it is kept as written and nothing acts on it"
    )
    check = subprocess.run(
        [sys.executable, "-m", "skilldeck", "check", "--format", "json"],
        cwd=deck.project,
        env=deck.env(),
        capture_output=True,
        text=True,
        check=False,
    )
    [finding] = json.loads(check.stdout)
    assert (finding["code"], finding["severity"], finding["message"]) == (
        "SD405",
        "hint",
        hint.message,
    )


async def test_a_bad_setting_is_quoted_as_toml_writes_it(
    deck: Deck, start_server: StartServer
) -> None:
    config = deck.project / "skilldeck.toml"
    config.write_text("[rules]\nSD801 = false\n", encoding="utf-8")
    deck.write(deck.project_dsh, "alpha")
    client = await start_server(profile=PROFILES["neovim-0.11"])

    [problem] = await diagnostics_of(client, config, lambda d: codes(d) == ["SD008"])
    assert "not false" in problem.message and "False" not in problem.message, problem.message
    assert '"error", "warning"' in problem.message, problem.message


async def test_a_rename_updates_the_name_in_other_skills_descriptions(
    deck: Deck, start_server: StartServer
) -> None:
    target = deck.write(deck.project_dsh, "alpha")
    caller = deck.write(
        deck.project_dsh,
        "beta",
        "---\nname: beta\ndescription: Run after /alpha, never before /alpha-two.\n"
        'whenToUse: "once /alpha is done"\n---\n\nThen /alpha again.\n',
    )
    client = await start_server(profile=VSCODE)
    await indexed(client)
    open_doc(client, target)
    edit = await client.text_document_rename_async(
        types.RenameParams(text_document=doc_id(target), position=pos(1, 7), new_name="gamma")
    )
    assert edit is not None
    apply_edit(edit)
    renamed = caller.read_text(encoding="utf-8")
    assert renamed == (
        "---\nname: beta\ndescription: Run after /gamma, never before /alpha-two.\n"
        'whenToUse: "once /gamma is done"\n---\n\nThen /gamma again.\n'
    )


async def test_the_skills_view_and_the_catalog_say_why_their_counts_differ(
    deck: Deck, start_server: StartServer
) -> None:
    deck.write(deck.project_dsh, "kept")
    deck.write(deck.project_dsh, "twice")
    deck.write(deck.user_agents, "twice")  # shadowed
    deck.write(deck.project_dsh, "broken", "---\nname: broken\n---\n")  # not loaded
    deck.write(
        deck.project_dsh,
        "manual",
        skill_text("manual", extra="disable-model-invocation: true\n"),
    )
    client = await start_server(profile=VSCODE)
    await indexed(client)
    catalog = await request(client, "skilldeck/catalog", {"uri": deck.project.as_uri()})
    expected = {
        "skillFiles": 5,
        "inCatalog": 2,
        "fromFiles": 2,
        "provided": 0,
        "shadowed": 1,
        "notLoaded": 1,
        "notModelInvocable": 1,
    }
    assert catalog["skillCount"] == 2
    assert catalog["counts"] == expected
    view = await request(client, "skilldeck/skills", {})
    (folder,) = view["folders"]
    assert folder["counts"] == expected
    listed = [skill for root in folder["roots"] for skill in root["skills"]]
    assert len(listed) == expected["skillFiles"]
