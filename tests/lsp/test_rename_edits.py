"""Rename changes exactly the name: applied as VS Code applies it, the files parse and
differ from before only where a name was (issue #15 items 2-5, #16 item 10)."""

from __future__ import annotations

from pathlib import Path

import pytest
from client_text import Editor
from editing_fixtures import doc_id, editing_capabilities, pos, start_editor
from lsp_harness import Deck, StartServer, skill_text, uri, wait_for
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import LanguageClient

from skilldeck.engine.files._skill_file import analyze_skill_text


def annotating_capabilities() -> types.ClientCapabilities:
    """An editing client that shows change annotations (as VS Code does)."""
    capabilities = editing_capabilities()
    assert capabilities.workspace is not None and capabilities.workspace.workspace_edit
    capabilities.workspace.workspace_edit.change_annotation_support = (
        types.ChangeAnnotationsSupportOptions(groups_on_label=True)
    )
    return capabilities


async def rename(
    client: LanguageClient, path: Path, line: int, character: int, new_name: str
) -> types.WorkspaceEdit:
    edit = await client.text_document_rename_async(
        types.RenameParams(
            text_document=doc_id(path), position=pos(line, character), new_name=new_name
        )
    )
    assert edit is not None
    return edit


def name_of(path: Path) -> str | None:
    text = path.read_bytes().decode("utf-8")
    return analyze_skill_text(text, path=str(path), expected_name=path.parent.name).name


@pytest.mark.parametrize(
    ("frontmatter", "renamed"),
    [
        ("name: >-\n  alpha\ndescription: d\n", "name: >-\n  gamma\ndescription: d\n"),
        ("name: |-\n  alpha\n\ndescription: d\n", "name: |-\n  gamma\n\ndescription: d\n"),
        ("name: &n alpha\ndescription: *n\n", "name: &n gamma\ndescription: *n\n"),
        (
            'name: !!str "alpha"  # the name\ndescription: d\n',
            'name: !!str "gamma"  # the name\ndescription: d\n',
        ),
        ("name: 'alpha'\ndescription: d\n", "name: 'gamma'\ndescription: d\n"),
        ("{name: alpha, description: d}\n", "{name: gamma, description: d}\n"),
    ],
    ids=["folded", "literal-blank-line", "anchor", "tag-quote-comment", "single", "flow"],
)
async def test_rename_replaces_only_the_name_text(
    deck: Deck, start_server: StartServer, frontmatter: str, renamed: str
) -> None:
    path = deck.write(deck.project_dsh, "alpha", f"---\n{frontmatter}---\n\nBody.\n")
    client = await start_editor(start_server)
    lines = frontmatter.split("\n")
    line = next(number for number, text in enumerate(lines) if "alpha" in text)
    character = lines[line].index("alpha") + 1  # rename works on the name's text

    edit = await rename(client, path, line + 1, character, "gamma")
    Editor(client).apply(edit)

    moved = deck.project_dsh / "gamma" / "SKILL.md"
    assert moved.read_text(encoding="utf-8") == f"---\n{renamed}---\n\nBody.\n"
    assert name_of(moved) == "gamma"


async def test_mentions_after_a_lone_carriage_return(deck: Deck, start_server: StartServer) -> None:
    deck.write(deck.project_dsh, "alpha")
    body = "Old mac line\rkeep this text\nThen run /alpha now.\n"
    caller = deck.write(deck.project_dsh, "caller", skill_text("caller") + body)
    client = await start_editor(start_server)

    edit = await rename(client, caller, 10, 11, "gamma")  # client lines: \r breaks a line
    Editor(client).apply(edit)

    expected = skill_text("caller") + body.replace("/alpha", "/gamma")
    assert caller.read_bytes().decode("utf-8") == expected


CODE_BODY = (
    "Clean up with /tmp first.\n\n"
    "```sh\nrm -rf /tmp /var/cache\n```\n\n"
    "~~~\n/tmp\n~~~\n\n"
    "Inline `rm /tmp` and `` /tmp `` stay; /tmp here too.\n"
)


async def test_code_is_not_a_mention(deck: Deck, start_server: StartServer) -> None:
    deck.write(deck.project_dsh, "tmp")
    caller = deck.write(deck.project_dsh, "cleanup", skill_text("cleanup") + CODE_BODY)
    client = await start_editor(start_server)
    body_line = 8  # first body line of skill_text + CODE_BODY

    references = await client.text_document_references_async(
        types.ReferenceParams(
            text_document=doc_id(caller),
            position=pos(body_line, 15),
            context=types.ReferenceContext(include_declaration=False),
        )
    )
    assert references is not None
    in_caller = [r for r in references if r.uri == uri(caller)]
    assert sorted((r.range.start.line, r.range.start.character) for r in in_caller) == [
        (body_line, 14),
        (body_line + 10, 38),
    ]
    for line, character in ((body_line + 3, 8), (body_line + 7, 1), (body_line + 10, 12)):
        with pytest.raises(JsonRpcException) as raised:
            await client.text_document_prepare_rename_async(
                types.PrepareRenameParams(
                    text_document=doc_id(caller), position=pos(line, character)
                )
            )
        assert raised.value.message.startswith("Rename works on a skill's 'name' value")

    edit = await rename(client, caller, body_line, 15, "scratch")
    Editor(client).apply(edit)

    expected = CODE_BODY.replace("with /tmp first", "with /scratch first").replace(
        "; /tmp here", "; /scratch here"
    )
    assert caller.read_text(encoding="utf-8") == skill_text("cleanup") + expected


async def test_no_skill_completion_inside_code(deck: Deck, start_server: StartServer) -> None:
    deck.write(deck.project_dsh, "tmp")
    text = skill_text("cleanup") + "```sh\nrm /t\n```\nRun /t\n"
    caller = deck.write(deck.project_dsh, "cleanup", text)
    client = await start_editor(start_server)

    async def labels(line: int, character: int) -> list[str]:
        result = await client.text_document_completion_async(
            types.CompletionParams(text_document=doc_id(caller), position=pos(line, character))
        )
        items = result.items if isinstance(result, types.CompletionList) else result or []
        return [item.label for item in items]

    assert "/tmp" not in await labels(9, 5)  # inside the fence
    assert "/tmp" in await labels(11, 6)


async def test_rename_refuses_a_skill_outside_the_workspace(
    deck: Deck, start_server: StartServer
) -> None:
    helper = deck.write(deck.user_dsh, "helper")
    caller = deck.write(deck.project_dsh, "caller", skill_text("caller") + "Use /helper now.\n")
    client = await start_editor(start_server)

    message = (
        f"'helper' is defined in {helper}, outside the workspace folders; it is a user-level "
        f"skill (user-dsh root) every project shares. Open {deck.user_dsh} as a workspace "
        "folder to rename it there."
    )
    with pytest.raises(JsonRpcException) as raised:
        await client.text_document_prepare_rename_async(
            types.PrepareRenameParams(text_document=doc_id(caller), position=pos(8, 6))
        )
    assert (raised.value.code, raised.value.message) == (-32803, message)
    with pytest.raises(JsonRpcException) as raised:
        await rename(client, caller, 8, 6, "assistant")
    assert (raised.value.code, raised.value.message) == (-32803, message)
    assert helper.read_text(encoding="utf-8") == skill_text("helper")
    # The refusal is the user's answer: logged at info level, no traceback.
    logged = await wait_for(
        lambda: [m for m in client.log_messages if "refused" in m.message],
        what="the refusal log line",
    )
    assert logged[0].type == types.MessageType.Info
    assert "Traceback" not in logged[0].message
    assert not [m for m in client.log_messages if m.type == types.MessageType.Error]


async def test_mentions_outside_the_workspace_need_confirmation(
    deck: Deck, start_server: StartServer
) -> None:
    skill = deck.write(deck.project_dsh, "alpha")
    user = deck.write(deck.user_dsh, "notes", skill_text("notes") + "See /alpha now.\n")

    plain = await start_editor(start_server)
    with pytest.raises(JsonRpcException) as raised:
        await rename(plain, skill, 1, 7, "gamma")
    assert raised.value.message.startswith(
        f"Renaming 'alpha' would also edit /alpha mentions in 1 file(s) outside the "
        f"workspace folders ({user})"
    )

    client = await start_editor(start_server, capabilities=annotating_capabilities())
    edit = await rename(client, skill, 1, 7, "gamma")
    assert edit.change_annotations is not None
    outside = edit.change_annotations["skilldeck.outsideWorkspace"]
    assert outside.needs_confirmation is True
    (user_edit,) = [
        c
        for c in edit.document_changes or []
        if isinstance(c, types.TextDocumentEdit) and c.text_document.uri == uri(user)
    ]
    assert [(e.annotation_id, e.new_text) for e in user_edit.edits] == [  # type: ignore[union-attr]
        ("skilldeck.outsideWorkspace", "gamma")
    ]


async def test_renaming_a_winner_says_which_skill_wins_the_old_name(
    deck: Deck, start_server: StartServer
) -> None:
    winner = deck.write(deck.project_dsh, "review")
    shadowed = deck.write(deck.user_dsh, "review")
    client = await start_editor(start_server, capabilities=annotating_capabilities())

    edit = await rename(client, winner, 1, 7, "audit")

    assert edit.change_annotations is not None
    promotes = edit.change_annotations["skilldeck.promotes"]
    assert promotes.description == (
        f"After this rename, 'review' from {shadowed} (user-dsh, rank 400) is no longer "
        "shadowed and becomes the 'review' skill; the /review mentions in this workspace are "
        "renamed to /audit."
    )
    name_edit = next(
        c for c in edit.document_changes or [] if isinstance(c, types.TextDocumentEdit)
    )
    assert [getattr(e, "annotation_id", None) for e in name_edit.edits] == ["skilldeck.promotes"]

    plain = await start_editor(start_server)
    await rename(plain, winner, 1, 7, "audit")
    shown = await wait_for(lambda: plain.messages, what="the promotion message")
    assert shown[0].message == promotes.description
