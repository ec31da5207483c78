"""A path setting the OS cannot use (a NUL inside) is named, ignored, and never hangs the server."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from lsp_harness import Deck, StartServer, codes, diagnostics_of, request, skill_text, uri
from lsprotocol import types


@pytest.mark.parametrize(
    ("settings", "setting"),
    [
        ({"customSkillDirs": ["team\u0000skills"]}, "skilldeck.customSkillDirs"),
        ({"dshHome": "home\u0000dsh"}, "skilldeck.dshHome"),
        ({"agentsHome": "home\u0000agents"}, "skilldeck.agentsHome"),
        ({"bundledSkillDir": "b\u0000"}, "skilldeck.bundledSkillDir"),
    ],
)
async def test_a_nul_in_a_path_setting_is_named_and_ignored(
    deck: Deck, start_server: StartServer, settings: dict[str, Any], setting: str
) -> None:
    good = deck.write(deck.project_dsh, "good")
    bad = deck.write(deck.project_dsh, "bad", skill_text("Bad Name"))
    client = await start_server(settings=settings)

    # Diagnostics are published and requests answer promptly (no 30 s silence).
    found = await diagnostics_of(client, bad, bool)
    assert codes(found) == ["SD203"]
    catalog = await asyncio.wait_for(
        request(client, "skilldeck/catalog", {"uri": uri(deck.project)}), 5
    )
    assert catalog["skillCount"] == 1  # "Bad Name" is not catalogued
    hover = await asyncio.wait_for(
        client.text_document_hover_async(
            types.HoverParams(types.TextDocumentIdentifier(uri(good)), types.Position(1, 8))
        ),
        5,
    )
    assert hover is not None
    warnings = [m.message for m in client.log_messages if m.type == types.MessageType.Warning]
    assert [w for w in warnings if setting in w] == [
        f"'{setting}' must not contain a NUL character; using the default."
    ]
    assert not [m for m in client.log_messages if m.type == types.MessageType.Error]


async def test_a_nul_in_the_config_file_is_named_and_the_file_ignored(
    deck: Deck, start_server: StartServer
) -> None:
    (deck.project / "skilldeck.toml").write_text('custom-skill-dirs = ["team\\u0000skills"]\n')
    deck.write(deck.project_dsh, "good")
    bad = deck.write(deck.project_dsh, "bad", skill_text("Bad Name"))
    client = await start_server()

    found = await diagnostics_of(client, bad, bool)
    assert codes(found) == ["SD203"]
    catalog = await asyncio.wait_for(
        request(client, "skilldeck/catalog", {"uri": uri(deck.project)}), 5
    )
    assert catalog["skillCount"] == 1
    warnings = [m.message for m in client.log_messages if m.type == types.MessageType.Warning]
    assert any(
        "'custom-skill-dirs' must not contain a NUL character; left out; the rest of the file"
        " applies." in w
        for w in warnings
    ), warnings


async def test_a_workspace_folder_uri_with_a_nul_is_ignored(
    deck: Deck, start_server: StartServer
) -> None:
    deck.write(deck.project_dsh, "good")
    bad = deck.write(deck.project_dsh, "bad", skill_text("Bad Name"))
    client = await start_server(folders=[deck.project, deck.base / "a\0b"])

    assert codes(await diagnostics_of(client, bad, bool)) == ["SD203"]
    catalog = await asyncio.wait_for(
        request(client, "skilldeck/catalog", {"uri": uri(deck.project)}), 5
    )
    assert catalog["skillCount"] == 1
    assert not [m for m in client.log_messages if m.type == types.MessageType.Error]
