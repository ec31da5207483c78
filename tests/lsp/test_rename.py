"""Renaming a skill: folder or flat file, name value and every /name mention; refusals."""

from __future__ import annotations

from pathlib import Path

import pytest
from editing_fixtures import (
    apply_edit,
    doc_id,
    editing_capabilities,
    open_doc,
    pos,
    replace_doc,
    rng,
    start_editor,
)
from lsp_harness import Deck, StartServer, skill_text, uri
from lsprotocol import types
from pygls.exceptions import JsonRpcException

CALLER_BODY = "Run /review now.\nThen /review\nNot /reviewer.\n"


async def rename(client, path: Path, line: int, character: int, new_name: str):
    return await client.text_document_rename_async(
        types.RenameParams(
            text_document=doc_id(path), position=pos(line, character), new_name=new_name
        )
    )


async def refused(client, path: Path, line: int, character: int, new_name: str) -> str:
    with pytest.raises(JsonRpcException) as raised:
        await rename(client, path, line, character, new_name)
    assert raised.value.code == -32803
    return raised.value.message


def layered(deck: Deck) -> tuple[Path, Path, Path]:
    winner = deck.write(deck.project_dsh, "review")
    shadowed = deck.write(deck.project_agents, "review")
    caller = deck.write(deck.project_agents, "deploy", skill_text("deploy") + CALLER_BODY)
    return winner, shadowed, caller


async def test_rename_the_winner_moves_folder_name_and_mentions(
    deck: Deck, start_server: StartServer
) -> None:
    winner, shadowed, caller = layered(deck)
    client = await start_editor(start_server)
    open_doc(client, caller, version=4)

    edit = await rename(client, winner, 1, 8, "code-review")

    assert edit is not None
    changes = list(edit.document_changes or [])
    new_file = deck.project_dsh / "code-review" / "SKILL.md"
    assert changes == [
        types.RenameFile(
            old_uri=uri(winner.parent),
            new_uri=uri(deck.project_dsh / "code-review"),
            options=types.RenameFileOptions(overwrite=False, ignore_if_exists=False),
        ),
        types.TextDocumentEdit(
            text_document=types.OptionalVersionedTextDocumentIdentifier(
                uri=uri(new_file), version=None
            ),
            edits=(types.TextEdit(range=rng(1, 6, 1, 12), new_text="code-review"),),
        ),
        types.TextDocumentEdit(
            text_document=types.OptionalVersionedTextDocumentIdentifier(uri=uri(caller), version=4),
            edits=(
                types.TextEdit(range=rng(8, 5, 8, 11), new_text="code-review"),
                types.TextEdit(range=rng(9, 6, 9, 12), new_text="code-review"),
            ),
        ),
    ]
    assert winner.exists(), "the server itself writes nothing"

    apply_edit(edit)
    assert new_file.read_text(encoding="utf-8") == skill_text("review").replace(
        "name: review", "name: code-review"
    )
    assert caller.read_text(encoding="utf-8").endswith(
        "Run /code-review now.\nThen /code-review\nNot /reviewer.\n"
    )
    assert shadowed.read_text(encoding="utf-8") == skill_text("review")


async def test_rename_from_a_mention_renames_the_winner(
    deck: Deck, start_server: StartServer
) -> None:
    winner, _, caller = layered(deck)
    client = await start_editor(start_server)

    prepared = await client.text_document_prepare_rename_async(
        types.PrepareRenameParams(text_document=doc_id(caller), position=pos(9, 8))
    )
    assert prepared == types.PrepareRenamePlaceholder(range=rng(9, 6, 9, 12), placeholder="review")

    edit = await rename(client, caller, 9, 8, "audit")
    assert edit is not None
    first = next(iter(edit.document_changes or []))
    assert isinstance(first, types.RenameFile)
    assert first.old_uri == uri(winner.parent)


async def test_renaming_a_shadowed_skill_leaves_mentions_alone(
    deck: Deck, start_server: StartServer
) -> None:
    _, shadowed, _ = layered(deck)
    client = await start_editor(start_server)

    edit = await rename(client, shadowed, 1, 7, "old-review")

    assert edit is not None
    changes = list(edit.document_changes or [])
    assert [type(c).__name__ for c in changes] == ["RenameFile", "TextDocumentEdit"]


async def test_flat_skill_renames_its_file(deck: Deck, start_server: StartServer) -> None:
    path = deck.write(deck.project_dsh, "notes", flat=True)
    client = await start_editor(start_server)
    text = skill_text("notes") + "Me: /notes\n"
    open_doc(client, path, text, version=3)  # unsaved buffer, same as disk

    edit = await rename(client, path, 1, 7, "journal")

    assert edit is not None
    new = deck.project_dsh / "journal.md"
    assert list(edit.document_changes or []) == [
        types.RenameFile(
            old_uri=uri(path),
            new_uri=uri(new),
            options=types.RenameFileOptions(overwrite=False, ignore_if_exists=False),
        ),
        types.TextDocumentEdit(
            text_document=types.OptionalVersionedTextDocumentIdentifier(uri=uri(new), version=None),
            edits=(
                types.TextEdit(range=rng(1, 6, 1, 11), new_text="journal"),
                types.TextEdit(range=rng(8, 5, 8, 10), new_text="journal"),
            ),
        ),
    ]


async def test_refusals(deck: Deck, start_server: StartServer) -> None:
    winner, _, caller = layered(deck)
    deck.write(deck.project_dsh, "audit")
    (deck.project_dsh / "stray").mkdir()
    deck.write(deck.user_dsh, "elsewhere")
    client = await start_editor(start_server)

    assert await refused(client, winner, 1, 8, "Code_Review") == (
        "'Code_Review' is not a valid skill name: uppercase letter 'C' at position 1. Use "
        "lowercase letters, digits and single hyphens, e.g. 'pdf-forms'."
    )
    assert await refused(client, winner, 1, 8, "audit") == (
        f"'audit' is already taken in the project-dsh root ({deck.project_dsh}) by "
        f"{deck.project_dsh / 'audit' / 'SKILL.md'}."
    )
    assert await refused(client, winner, 1, 8, "stray") == (
        f"'stray' is already taken in the project-dsh root: {deck.project_dsh / 'stray'} exists."
    )
    assert await refused(client, caller, 7, 1, "x") == (
        "Rename works on a skill's 'name' value or on a '/name' mention in a skill body."
    )
    # A name used in another root is fine: the renamed skill then shadows it.
    edit = await rename(client, winner, 1, 8, "elsewhere")
    assert edit is not None
    assert winner.exists()


async def test_refused_without_file_rename_support(deck: Deck, start_server: StartServer) -> None:
    path = deck.write(deck.project_dsh, "review")
    client = await start_editor(start_server, capabilities=editing_capabilities(renames=False))

    message = await refused(client, path, 1, 8, "audit")

    assert message.startswith("Renaming a skill renames its folder or file")


async def test_a_name_the_file_system_cannot_hold_is_refused(
    deck: Deck, start_server: StartServer
) -> None:
    # Issue #32.13: the folder rename of such an edit cannot succeed, and it came
    # bundled with edits to the other files' /name mentions.
    winner, _, caller = layered(deck)
    flat = deck.write(deck.project_dsh, "notes", flat=True)
    client = await start_editor(start_server)
    longest = "-".join(["abcdefg"] * 32)[:255].rstrip("-")  # a valid name of 255 bytes
    too_long = longest + "x"

    assert await refused(client, winner, 1, 8, too_long) == (
        f"'{too_long[:20]}...{too_long[-20:]} (256 characters)' is too "
        f"long for a folder name in {deck.project_dsh}: 256 bytes, and the file system allows "
        "at most 255 bytes per name. Choose a shorter name."
    )
    assert await refused(client, caller, 9, 8, too_long) == await refused(
        client, winner, 1, 8, too_long
    )
    # A flat skill's file name carries ".md": three bytes fewer for the name.
    message = await refused(client, flat, 1, 7, longest[:253])
    assert message.startswith("'abcdefg-abcdefg-abcd...")
    assert f"too long for a file name in {deck.project_dsh}: 256 bytes" in message
    # The longest name that fits is still offered.
    edit = await rename(client, winner, 1, 8, longest)
    assert edit is not None
    first = next(iter(edit.document_changes or []))
    assert isinstance(first, types.RenameFile)
    assert first.new_uri == uri(deck.project_dsh / longest)


NOT_A_NAME = "Rename works on a skill's 'name' value or on a '/name' mention in a skill body."
EDGE_BODY = "日本 /alpha and /nope 😀"
EDGE = "---\nname: edge\ndescription: 😀 edge doc\nuser-invocable: yes\n---\n" + EDGE_BODY


async def test_rename_only_on_the_name_value_or_a_mention(
    deck: Deck, start_server: StartServer
) -> None:
    # Session 14: F2 anywhere in the frontmatter (a description word, a key, a `---`
    # line) offered to rename the skill, with a range on another line than the cursor.
    path = deck.write(deck.project_dsh, "edge", EDGE)
    deck.write(deck.project_dsh, "alpha")
    client = await start_editor(start_server)
    open_doc(client, path)

    async def prepare(line: int, character: int):
        return await client.text_document_prepare_rename_async(
            types.PrepareRenameParams(text_document=doc_id(path), position=pos(line, character))
        )

    async def prepare_refused(line: int, character: int) -> tuple[int, str]:
        with pytest.raises(JsonRpcException) as raised:
            await prepare(line, character)
        return raised.value.code, raised.value.message

    on_name = types.PrepareRenamePlaceholder(range=rng(1, 6, 1, 10), placeholder="edge")
    for character in (6, 8, 10):  # the value's text, both ends included
        assert await prepare(1, character) == on_name
    # "日本 /alpha": UTF-16 columns; the range is the name without its slash.
    assert await prepare(5, 6) == types.PrepareRenamePlaceholder(
        range=rng(5, 4, 5, 9), placeholder="alpha"
    )
    for line, character in ((0, 0), (1, 0), (1, 3), (1, 5), (2, 5), (2, 14), (3, 3), (4, 1)):
        assert await prepare_refused(line, character) == (-32803, NOT_A_NAME), (line, character)
    assert await refused(client, path, 2, 14, "zz-top") == NOT_A_NAME
    assert await refused(client, path, 1, 0, "zz-top") == NOT_A_NAME

    # A quoted name: the text between the quotes, not the quotes' outer sides.
    replace_doc(client, path, EDGE.replace("name: edge", 'name: "edge"'), version=2)
    quoted = types.PrepareRenamePlaceholder(range=rng(1, 7, 1, 11), placeholder="edge")
    assert [await prepare(1, c) for c in (7, 9, 11)] == [quoted] * 3
    assert await prepare_refused(1, 6) == (-32803, NOT_A_NAME)
    assert await prepare_refused(1, 12) == (-32803, NOT_A_NAME)
    edit = await rename(client, path, 1, 9, "zz-top")
    assert edit is not None
    changes = list(edit.document_changes or [])
    assert isinstance(changes[0], types.RenameFile)
    assert isinstance(changes[1], types.TextDocumentEdit)
    assert list(changes[1].edits) == [types.TextEdit(range=rng(1, 7, 1, 11), new_text="zz-top")]

    # Go to definition still answers from anywhere in the frontmatter.
    found = await client.text_document_definition_async(
        types.DefinitionParams(text_document=doc_id(path), position=pos(2, 14))
    )
    assert found == [types.Location(uri=uri(path), range=rng(1, 6, 1, 12))]  # the value
