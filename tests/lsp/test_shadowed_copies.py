"""F12 and the code lens on a shadowed skill, as VS Code and Neovim ask for them (issue
#41, item 5): from a shadowed copy the winner alone (VS Code sorts several locations by
path and previewed a shadowed copy: seen in code-server 4.100.3), from the winner the
copies it shadows in rank order, never the document itself; the lens "shadowed by ..."
points at the winner alone."""

from __future__ import annotations

import pytest
from client_profiles import ClientProfile, profile_params
from editing_fixtures import doc_id, open_doc, pos
from lsp_harness import Deck, StartServer, indexed, uri
from lsprotocol import types


async def definition_uris(client, path, line: int, character: int) -> list[str]:
    result = await client.text_document_definition_async(
        types.DefinitionParams(text_document=doc_id(path), position=pos(line, character))
    )
    found = result if isinstance(result, list) else [result] if result is not None else []
    return [item.uri if isinstance(item, types.Location) else item.target_uri for item in found]


@pytest.mark.parametrize("profile", profile_params("vscode-1.100", "neovim-0.11"))
async def test_f12_on_a_shadowed_name_lands_on_the_winner(
    deck: Deck, start_server: StartServer, profile: ClientProfile
) -> None:
    winner = deck.write(deck.project_dsh, "review")  # rank 100
    middle = deck.write(deck.user_dsh, "review", flat=True)  # user-dsh, shadowed
    lowest = deck.write(deck.user_agents, "review")  # user-agents (rank 500), shadowed
    client = await start_server(profile=profile)
    await indexed(client)
    for path in (winner, middle, lowest):
        open_doc(client, path)

    # From either shadowed copy: the winner alone (one location: every client opens it).
    assert await definition_uris(client, lowest, 1, 8) == [uri(winner)]
    assert await definition_uris(client, middle, 1, 8) == [uri(winner)]
    # From the winner: the copies it shadows, in rank order.
    assert await definition_uris(client, winner, 1, 8) == [uri(middle), uri(lowest)]


async def test_only_the_winner_shadows_a_copy_in_the_lens(
    deck: Deck, start_server: StartServer
) -> None:
    from client_profiles import PROFILES  # noqa: PLC0415

    winner = deck.write(deck.project_dsh, "review")
    middle = deck.write(deck.user_dsh, "review", flat=True)
    lowest = deck.write(deck.user_agents, "review")
    client = await start_server(profile=PROFILES["vscode-1.100"])
    await indexed(client)
    open_doc(client, lowest)
    lenses = await client.text_document_code_lens_async(
        types.CodeLensParams(text_document=doc_id(lowest))
    )
    assert lenses is not None
    [lens] = lenses
    assert lens.command is not None
    assert lens.command.title == "shadowed by project-dsh (rank 100)"
    locations = lens.command.arguments[0]["locations"]
    assert [item["uri"] for item in locations] == [uri(winner)]
    assert uri(middle) not in str(locations)
