"""Quick fixes from the engine's fixes, fix-all for a file, and the agentskills move."""

from __future__ import annotations

from editing_fixtures import doc_id, edits_of, open_doc, rng, start_editor
from lsp_harness import Deck, StartServer, uri
from lsprotocol import types

BROKEN = "---\nname: Review_Notes\nuserInvocable: false\n---\n\nBody.\n"


async def actions(client, path, value, only=None):
    return list(
        await client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=doc_id(path),
                range=value,
                context=types.CodeActionContext(diagnostics=[], only=only),
            )
        )
        or []
    )


async def test_quick_fixes_on_an_unsaved_buffer(deck: Deck, start_server: StartServer) -> None:
    path = deck.write(deck.project_dsh, "review")
    client = await start_editor(start_server)
    open_doc(client, path, BROKEN, version=7)

    # SD204 sits on the opening `---` line only (#31): its fix is offered there, not on
    # every line of the frontmatter before the fix of the line's own problem.
    on_opening = await actions(client, path, rng(0, 1, 0, 1), only=[types.CodeActionKind.QuickFix])
    [add] = on_opening
    assert (add.title, add.is_preferred) == ("Add a description", True)
    assert edits_of(add, path, 7) == [
        types.TextEdit(
            range=rng(2, 0, 2, 0),
            new_text="description: Describe what this skill does and when to use it.\n",
        )
    ]
    assert add.diagnostics is not None
    assert [(d.code, d.range) for d in add.diagnostics] == [("SD204", rng(0, 0, 0, 3))]

    on_name = await actions(client, path, rng(1, 8, 1, 8))
    titles = [(a.title, a.kind, a.is_preferred) for a in on_name]
    assert titles == [
        ("Rename to 'review-notes'", types.CodeActionKind.QuickFix, True),
        ("Fix all skilldeck problems", "source.fixAll.skilldeck", None),
    ]
    rename = on_name[0]
    assert edits_of(rename, path, 7) == [
        types.TextEdit(range=rng(1, 6, 1, 18), new_text="review-notes")
    ]
    assert rename.diagnostics is not None
    [diagnostic] = rename.diagnostics
    assert (diagnostic.code, diagnostic.range) == ("SD203", rng(1, 6, 1, 18))

    on_key = await actions(client, path, rng(2, 3, 2, 3), only=[types.CodeActionKind.QuickFix])
    assert [a.title for a in on_key] == ["Rename to 'user-invocable'"]
    assert edits_of(on_key[0], path, 7) == [
        types.TextEdit(range=rng(2, 0, 2, 13), new_text="user-invocable")
    ]


async def test_a_misspelt_description_offers_the_rename_first(
    deck: Deck, start_server: StartServer
) -> None:
    path = deck.write(deck.project_dsh, "review")
    client = await start_editor(start_server)
    open_doc(client, path, "---\nname: review\ndescripton: Reviews code.\n---\n")

    on_typo = await actions(client, path, rng(2, 4, 2, 4), only=[types.CodeActionKind.QuickFix])

    assert next(a.title for a in on_typo) == "Rename to 'description'"
    assert "Add a description" not in [a.title for a in on_typo]


async def test_fix_all_applies_every_first_fix(deck: Deck, start_server: StartServer) -> None:
    path = deck.write(deck.project_dsh, "review")
    client = await start_editor(start_server)
    open_doc(client, path, BROKEN)

    [fix_all] = await actions(client, path, rng(0, 0, 0, 0), only=["source.fixAll"])

    assert fix_all.kind == "source.fixAll.skilldeck"
    assert edits_of(fix_all, path, 1) == [
        types.TextEdit(range=rng(1, 6, 1, 18), new_text="review-notes"),
        types.TextEdit(
            range=rng(2, 0, 2, 0),
            new_text="description: Describe what this skill does and when to use it.\n",
        ),
        types.TextEdit(range=rng(2, 0, 2, 13), new_text="user-invocable"),
    ]
    assert sorted(str(d.code) for d in fix_all.diagnostics or []) == ["SD203", "SD204", "SD301"]
    assert path.read_text(encoding="utf-8") != BROKEN  # the server never wrote the file


async def test_agentskills_moves_vendor_keys_under_metadata(
    deck: Deck, start_server: StartServer
) -> None:
    text = "---\nname: forms\ndescription: Fill forms.\nx-vendor: 1\n---\n"
    path = deck.write(deck.project_agents, "forms", text)
    client = await start_editor(start_server, settings={"profile": "agentskills"})

    [move, _] = await actions(client, path, rng(3, 1, 3, 1))

    assert move.title == "Move 'x-vendor' under metadata"
    assert edits_of(move, path, None) == [
        types.TextEdit(range=rng(3, 0, 4, 0), new_text=""),
        types.TextEdit(range=rng(4, 0, 4, 0), new_text='metadata:\n  x-vendor: "1"\n'),
    ]


async def test_plain_changes_for_clients_without_document_changes(
    deck: Deck, start_server: StartServer
) -> None:
    path = deck.write(deck.project_dsh, "review")
    client = await start_editor(start_server, capabilities=types.ClientCapabilities())
    open_doc(client, path, BROKEN)

    [rename, _] = await actions(client, path, rng(1, 8, 1, 8))

    assert rename.edit is not None and rename.edit.document_changes is None
    assert {k: list(v) for k, v in (rename.edit.changes or {}).items()} == {
        uri(path): [types.TextEdit(range=rng(1, 6, 1, 18), new_text="review-notes")]
    }
