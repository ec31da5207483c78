"""Definition, declaration and references across layers, mentions and resource paths."""

from __future__ import annotations

from pathlib import Path

from editing_fixtures import doc_id, open_doc, pos, rng, start_editor
from lsp_harness import Deck, StartServer, skill_text, uri
from lsprotocol import types

NAME = rng(1, 6, 1, 12)  # the value of "name: review"


def loc(path: Path, value: types.Range) -> types.Location:
    return types.Location(uri=uri(path), range=value)


def layered(deck: Deck) -> tuple[Path, Path, Path, Path]:
    winner = deck.write(deck.project_dsh, "review")
    flat = deck.write(deck.user_dsh, "review", flat=True)
    bundle = deck.write(deck.user_agents, "review")
    caller = deck.write(
        deck.project_agents,
        "deploy",
        skill_text("deploy") + "Run /review first.\nAfter /review ship.\nNot a/review.\n",
    )
    return winner, flat, bundle, caller


async def test_definition_in_frontmatter_is_the_winner_or_what_it_shadows(
    deck: Deck, start_server: StartServer
) -> None:
    winner, flat, bundle, _ = layered(deck)
    client = await start_editor(start_server)

    # From a shadowed copy: the winner alone (test_shadowed_copies.py says why).
    found = await client.text_document_definition_async(
        types.DefinitionParams(text_document=doc_id(bundle), position=pos(2, 3))
    )
    assert found == [loc(winner, NAME)]

    declared = await client.text_document_declaration_async(
        types.DeclarationParams(text_document=doc_id(flat), position=pos(0, 1))
    )
    assert declared == [loc(winner, NAME)]

    # From the winner: the copies it shadows, in rank order, not the document itself.
    shadowed = await client.text_document_definition_async(
        types.DefinitionParams(text_document=doc_id(winner), position=pos(2, 3))
    )
    assert shadowed == [loc(flat, NAME), loc(bundle, NAME)]


async def test_definition_on_a_mention_is_the_winner(deck: Deck, start_server: StartServer) -> None:
    winner, _, _, caller = layered(deck)
    client = await start_editor(start_server)

    found = await client.text_document_definition_async(
        types.DefinitionParams(text_document=doc_id(caller), position=pos(8, 6))
    )
    assert found == [loc(winner, NAME)]
    nothing = await client.text_document_definition_async(
        types.DefinitionParams(text_document=doc_id(caller), position=pos(10, 7))
    )
    assert nothing is None


async def test_references_are_skills_then_mentions(deck: Deck, start_server: StartServer) -> None:
    winner, flat, bundle, caller = layered(deck)
    client = await start_editor(start_server)
    # An unsaved mention in the winner's own body counts too.
    open_doc(client, winner, skill_text("review") + "See also /review\n")

    found = await client.text_document_references_async(
        types.ReferenceParams(
            text_document=doc_id(caller),
            position=pos(9, 9),
            context=types.ReferenceContext(include_declaration=True),
        )
    )
    assert list(found or []) == [
        loc(winner, NAME),
        loc(flat, NAME),
        loc(bundle, NAME),
        loc(winner, rng(8, 9, 8, 16)),
        loc(caller, rng(8, 4, 8, 11)),
        loc(caller, rng(9, 6, 9, 13)),
    ]

    without = await client.text_document_references_async(
        types.ReferenceParams(
            text_document=doc_id(winner),
            position=pos(1, 8),
            context=types.ReferenceContext(include_declaration=False),
        )
    )
    assert list(without or []) == list(found or [])[1:]


async def test_resource_paths_resolve_inside_the_folder_only(
    deck: Deck, start_server: StartServer, tmp_path: Path
) -> None:
    path = deck.write(deck.project_dsh, "forms")
    (path.parent / "reference.md").write_text("ref\n", encoding="utf-8")
    (tmp_path / "secret.md").write_text("no\n", encoding="utf-8")
    (path.parent / "leak.md").symlink_to(tmp_path / "secret.md")
    client = await start_editor(start_server)
    open_doc(
        client,
        path,
        skill_text("forms") + "Read [it](reference.md#top), ../../secret.md, leak.md\n",
    )

    found = await client.text_document_definition_async(
        types.DefinitionParams(text_document=doc_id(path), position=pos(8, 12))
    )
    assert found == [loc(path.parent / "reference.md", rng(0, 0, 0, 0))]
    for column in (32, 47):
        refused = await client.text_document_definition_async(
            types.DefinitionParams(text_document=doc_id(path), position=pos(8, column))
        )
        assert refused is None
