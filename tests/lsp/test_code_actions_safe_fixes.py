"""Quick fixes and fix-all never break a valid skill (issue #15, item 6).

Each test starts from a file ``check`` accepts (or one that only has the fixable
finding), asks the server for its code actions over ``textDocument/codeAction`` and
applies what comes back as VS Code does: the edits of one ``TextDocumentEdit`` against
the original text. A fix either gives exactly the intended text, or it is not offered.
"""

from __future__ import annotations

import re
from pathlib import Path

from editing_fixtures import doc_id, open_doc, rng, start_editor
from lsp_harness import Deck, StartServer, diagnostics_of
from lsprotocol import types

FIX_ALL = "source.fixAll.skilldeck"


async def code_actions(
    client, path: Path, at: types.Range, only: list[str] | None = None
) -> list[types.CodeAction]:
    result = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=doc_id(path),
            range=at,
            context=types.CodeActionContext(diagnostics=[], only=only),
        )
    )
    return list(result or [])


def applied(text: str, action: types.CodeAction) -> str:
    """``text`` after ``action``'s one document edit, applied as VS Code applies it:
    ranges in UTF-16 code units, lines broken at ``\\n``, ``\\r\\n`` and ``\\r``."""
    assert action.edit is not None and action.edit.document_changes is not None
    [change] = action.edit.document_changes
    assert isinstance(change, types.TextDocumentEdit)
    starts = [0] + [m.end() for m in re.finditer(r"\r\n|\r|\n", text)]

    def offset(position: types.Position) -> int:
        index, units = starts[position.line], 0
        while units < position.character:
            units += 2 if ord(text[index]) > 0xFFFF else 1
            index += 1
        assert units == position.character, "a range splits a surrogate pair"
        return index

    pieces: list[str] = []
    done = 0
    for edit in change.edits:
        start, end = offset(edit.range.start), offset(edit.range.end)
        assert start >= done, "overlapping edits"
        pieces += [text[done:start], edit.new_text]
        done = end
    return "".join([*pieces, text[done:]])


def titles(actions: list[types.CodeAction]) -> list[str]:
    return [action.title for action in actions]


async def open_with(
    deck: Deck, start_server: StartServer, folder: str, text: str, *, codes: list[str]
) -> tuple[object, Path]:
    agentskills = any(code.startswith("SD6") for code in codes)
    root = deck.project_agents if agentskills else deck.project_dsh
    path = deck.write(root, folder, text)
    settings = {"profile": "agentskills"} if agentskills else None
    client = await start_editor(start_server, settings=settings)
    open_doc(client, path, text)
    await diagnostics_of(client, path, lambda d: sorted(str(x.code) for x in d) == codes)
    return client, path


async def test_rename_is_not_offered_when_an_alias_repeats_the_name(
    deck: Deck, start_server: StartServer
) -> None:
    text = "---\nname: &n alpha\ndescription: *n\n---\n\nBody.\n"
    client, path = await open_with(deck, start_server, "beta", text, codes=["SD206"])

    assert titles(await code_actions(client, path, rng(1, 10, 1, 10))) == []


async def test_rename_keeps_an_anchor_nothing_repeats(
    deck: Deck, start_server: StartServer
) -> None:
    text = "---\nname: &n alpha\ndescription: Does a thing.\n---\n\nBody.\n"
    client, path = await open_with(deck, start_server, "beta", text, codes=["SD206"])

    [rename, _] = await code_actions(client, path, rng(1, 10, 1, 10))

    assert rename.title == "Rename to 'beta'"
    assert applied(text, rename) == "---\nname: &n beta\ndescription: Does a thing.\n---\n\nBody.\n"


async def test_move_is_not_offered_when_metadata_has_the_key(
    deck: Deck, start_server: StartServer
) -> None:
    text = '---\nname: forms\ndescription: Fill.\nx-vendor: "1"\nmetadata:\n  x-vendor: "2"\n---\n'
    client, path = await open_with(deck, start_server, "forms", text, codes=["SD605"])

    assert titles(await code_actions(client, path, rng(3, 1, 3, 1))) == []


async def test_move_into_a_flow_metadata_mapping(deck: Deck, start_server: StartServer) -> None:
    text = '---\nname: forms\ndescription: Fill.\nx-vendor: 1\nmetadata:\n  {a: "b"}\n---\n'
    client, path = await open_with(deck, start_server, "forms", text, codes=["SD605"])

    [move, _] = await code_actions(client, path, rng(3, 1, 3, 1))

    assert move.title == "Move 'x-vendor' under metadata"
    assert applied(text, move) == (
        '---\nname: forms\ndescription: Fill.\nmetadata:\n  {x-vendor: "1", a: "b"}\n---\n'
    )


async def test_move_is_not_offered_for_an_anchored_value(
    deck: Deck, start_server: StartServer
) -> None:
    text = '---\nname: forms\ndescription: Fill.\nx-vendor: &v "1"\nx-copy: *v\n---\n'
    client, path = await open_with(deck, start_server, "forms", text, codes=["SD605", "SD605"])

    quick = [types.CodeActionKind.QuickFix]
    assert titles(await code_actions(client, path, rng(3, 1, 3, 1), quick)) == []


async def test_move_stays_inside_a_document_ended_by_dots(
    deck: Deck, start_server: StartServer
) -> None:
    text = "---\nname: forms\nx-vendor: 1\ndescription: Fill.\n...\n---\n\nBody.\n"
    client, path = await open_with(deck, start_server, "forms", text, codes=["SD605"])

    [move, _] = await code_actions(client, path, rng(2, 1, 2, 1))

    assert applied(text, move) == (
        '---\nname: forms\ndescription: Fill.\nmetadata:\n  x-vendor: "1"\n...\n---\n\nBody.\n'
    )


async def test_move_keeps_the_trailing_comment(deck: Deck, start_server: StartServer) -> None:
    text = "---\nname: forms\ndescription: Fill.\nx-vendor: 1  # the vendor's id\n---\n"
    client, path = await open_with(deck, start_server, "forms", text, codes=["SD605"])

    [move, _] = await code_actions(client, path, rng(3, 1, 3, 1))

    assert applied(text, move) == (
        "---\nname: forms\ndescription: Fill.\n"
        'metadata:\n  x-vendor: "1"  # the vendor\'s id\n---\n'
    )


async def test_true_is_not_offered_for_an_aliased_value(
    deck: Deck, start_server: StartServer
) -> None:
    text = (
        '---\nname: notes\ndescription: Takes notes.\nuser-invocable: &u "yes"\n'
        "whenToUse: *u\n---\n"
    )
    client, path = await open_with(deck, start_server, "notes", text, codes=["SD303"])

    assert titles(await code_actions(client, path, rng(3, 20, 3, 20))) == []


async def test_add_a_description_to_a_one_line_flow_mapping(
    deck: Deck, start_server: StartServer
) -> None:
    text = "---\n{name: alpha}\n---\n\nBody.\n"
    client, path = await open_with(deck, start_server, "alpha", text, codes=["SD204"])

    [add, _] = await code_actions(client, path, rng(0, 0, 0, 0))

    assert add.title == "Add a description"
    assert applied(text, add) == (
        "---\n{name: alpha, description: Describe what this skill does and when to use it.}"
        "\n---\n\nBody.\n"
    )


async def test_add_a_description_to_a_multi_line_flow_mapping(
    deck: Deck, start_server: StartServer
) -> None:
    text = "---\n{\n  name: alpha\n}\n---\n"
    client, path = await open_with(deck, start_server, "alpha", text, codes=["SD204"])

    [add, _] = await code_actions(client, path, rng(0, 0, 0, 0))

    assert applied(text, add) == (
        "---\n{\n  name: alpha, description: Describe what this skill does and when to use it.\n"
        "}\n---\n"
    )


async def test_add_a_name_to_an_indented_mapping(deck: Deck, start_server: StartServer) -> None:
    text = "---\n  description: Does a thing.\n  whenToUse: Often.\n---\n"
    client, path = await open_with(deck, start_server, "alpha", text, codes=["SD201"])

    [add, _] = await code_actions(client, path, rng(0, 0, 0, 0))

    assert add.title == "Add 'name: alpha'"
    assert applied(text, add) == (
        "---\n  name: alpha\n  description: Does a thing.\n  whenToUse: Often.\n---\n"
    )


async def test_add_a_description_to_an_indented_mapping(
    deck: Deck, start_server: StartServer
) -> None:
    text = "---\n  name: alpha\n---\n"
    client, path = await open_with(deck, start_server, "alpha", text, codes=["SD204"])

    [add, _] = await code_actions(client, path, rng(0, 0, 0, 0))

    assert applied(text, add) == (
        "---\n  name: alpha\n"
        "  description: Describe what this skill does and when to use it.\n---\n"
    )


async def test_fix_all_renames_only_one_legacy_invocation_key(
    deck: Deck, start_server: StartServer
) -> None:
    text = (
        "---\nname: notes\ndescription: Takes notes.\n"
        "disableModelInvocation: true\nmodelInvocable: false\n---\n"
    )
    client, path = await open_with(deck, start_server, "notes", text, codes=["SD301", "SD301"])

    [fix_all] = await code_actions(client, path, rng(0, 0, 0, 0), only=[FIX_ALL])

    assert applied(text, fix_all) == (
        "---\nname: notes\ndescription: Takes notes.\n"
        "disable-model-invocation: true\nmodelInvocable: false\n---\n"
    )
    [diagnostic] = fix_all.diagnostics or []
    assert diagnostic.code == "SD301"
    # The fixes travel in the code action only, never in every diagnostic's data.
    assert diagnostic.data == {"code": "SD301", "dropsSkill": True}


async def test_fix_all_in_a_crlf_flow_mapping_counts_utf16_units(
    deck: Deck, start_server: StartServer
) -> None:
    text = '---\r\n{name: alpha, x: "\U0001f600", user-invocable: "yes"}\r\n---\r\n'
    client, path = await open_with(
        deck, start_server, "alpha", text, codes=["SD204", "SD303", "SD405"]
    )

    [fix_all] = await code_actions(client, path, rng(0, 0, 0, 0), only=[FIX_ALL])

    assert applied(text, fix_all) == (
        "---\r\n{name: alpha, description: Describe what this skill does and when to use it., "
        'x: "\U0001f600", user-invocable: true}\r\n---\r\n'
    )
