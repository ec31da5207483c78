"""Code lens on the name line: "shadows <source>/<name>" / "shadowed by <source> (rank R)"."""

from __future__ import annotations

from editing_fixtures import doc_id, open_doc, rng, start_editor
from lsp_harness import Deck, StartServer, skill_text, uri
from lsprotocol import types

NAME = {"start": {"line": 1, "character": 6}, "end": {"line": 1, "character": 12}}


async def lenses(client, path):
    return await client.text_document_code_lens_async(
        types.CodeLensParams(text_document=doc_id(path))
    )


async def test_winner_and_shadowed_lenses(deck: Deck, start_server: StartServer) -> None:
    winner = deck.write(deck.project_dsh, "review")
    flat = deck.write(deck.user_dsh, "review", flat=True)
    bundle = deck.write(deck.user_agents, "review")
    alone = deck.write(deck.project_dsh, "solo")
    client = await start_editor(start_server)

    [top] = await lenses(client, winner)
    assert top.range == rng(1, 6, 1, 12)
    assert top.command is not None
    assert (top.command.title, top.command.command) == (
        "shadows user-dsh/review, user-agents/review",
        "skilldeck.showShadowing",
    )
    assert list(top.command.arguments or []) == [
        {
            "uri": uri(winner),
            "position": {"line": 1, "character": 6},
            "locations": [
                {"uri": uri(flat), "range": NAME},
                {"uri": uri(bundle), "range": NAME},
            ],
        }
    ]
    [low] = await lenses(client, bundle)
    assert low.command is not None
    assert low.command.title == "shadowed by project-dsh (rank 100)"
    assert low.command.arguments is not None
    # Only the winner shadows it: the user-dsh copy between them is shadowed too.
    assert [item["uri"] for item in low.command.arguments[0]["locations"]] == [uri(winner)]
    assert list(await lenses(client, alone) or []) == []


async def test_lens_follows_an_unsaved_rename(deck: Deck, start_server: StartServer) -> None:
    winner = deck.write(deck.project_dsh, "review")
    deck.write(deck.user_agents, "review")
    other = deck.write(deck.user_agents, "audit")
    client = await start_editor(start_server)
    open_doc(client, winner, skill_text("audit"))

    [lens] = await lenses(client, winner)
    assert lens.command is not None and lens.command.title == "shadows user-agents/audit"
    assert lens.range == rng(1, 6, 1, 11)
    assert lens.command.arguments is not None
    assert lens.command.arguments[0]["locations"][0]["uri"] == uri(other)


async def test_lens_names_two_shadowed_skills_then_counts(
    deck: Deck, start_server: StartServer
) -> None:
    winner = deck.write(deck.project_dsh, "review")
    deck.write(deck.project_agents, "review")
    deck.write(deck.user_dsh, "review")
    deck.write(deck.user_agents, "review")
    client = await start_editor(start_server)

    [lens] = await lenses(client, winner)

    assert lens.command is not None
    assert lens.command.title == "shadows project-agents/review, user-dsh/review and 1 more"
