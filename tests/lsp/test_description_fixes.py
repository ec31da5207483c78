"""SD204 (missing description) fixed from the editor (issue #41, item 4), through VS Code's
and eglot's real capabilities: a misspelt ``descripton:`` is offered its rename there too,
and the placeholder the other fix inserts is selected where the client takes snippet
edits, and raises no SD207 until the file is saved with it."""

from __future__ import annotations

import re

import pytest
from client_profiles import ClientProfile, profile_params
from client_text import apply_text_edits
from editing_fixtures import doc_id, open_doc, replace_doc, rng
from lsp_harness import Deck, StartServer, codes, indexed, seen_diagnostics, uri
from lsprotocol import types

from skilldeck.engine.checks import DESCRIPTION_PLACEHOLDER
from skilldeck.engine.text._positions import Encoding


async def quick_fixes(client, path, diagnostics) -> list[types.CodeAction]:
    result = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=doc_id(path),
            range=rng(0, 0, 0, 3),
            context=types.CodeActionContext(
                diagnostics=diagnostics, only=[types.CodeActionKind.QuickFix]
            ),
        )
    )
    return [a for a in result or [] if isinstance(a, types.CodeAction)]


def edits_of(action: types.CodeAction) -> list[types.TextEdit | types.SnippetTextEdit]:
    assert action.edit is not None
    if action.edit.document_changes:
        (change,) = action.edit.document_changes
        assert isinstance(change, types.TextDocumentEdit)
        return list(change.edits)  # type: ignore[arg-type]
    assert action.edit.changes is not None
    (edits,) = action.edit.changes.values()
    return list(edits)


def expanded(edit: types.TextEdit | types.SnippetTextEdit) -> types.TextEdit:
    """What the client writes for ``edit`` (a snippet's placeholders as their text)."""
    if isinstance(edit, types.SnippetTextEdit):
        text = re.sub(r"\$\{\d+:([^}]*)\}", r"\1", edit.snippet.value)
        return types.TextEdit(range=edit.range, new_text=text)
    return edit


@pytest.mark.parametrize("profile", profile_params("vscode-1.100", "eglot-1.9"))
async def test_a_misspelt_description_is_offered_its_rename_on_sd204(
    deck: Deck, start_server: StartServer, profile: ClientProfile
) -> None:
    text = "---\nname: notes\ndescripton: Takes notes.\n---\n\nBody.\n"
    path = deck.write(deck.project_dsh, "notes", text)
    client = await start_server(profile=profile)
    await indexed(client)
    open_doc(client, path)
    diagnostics = await seen_diagnostics(client, path, lambda d: "SD204" in codes(d))
    sd204 = [d for d in diagnostics if d.code == "SD204"]

    actions = await quick_fixes(client, path, sd204)
    titles = [a.title for a in actions if a.diagnostics and a.diagnostics[0].code == "SD204"]
    assert titles == ["Rename to 'description'", "Add a description"]
    rename = next(a for a in actions if a.title == "Rename to 'description'")
    fixed = apply_text_edits(text, [expanded(e) for e in edits_of(rename)], Encoding.UTF16)
    assert fixed == "---\nname: notes\ndescription: Takes notes.\n---\n\nBody.\n"


@pytest.mark.parametrize("profile", profile_params("vscode-1.100", "eglot-1.9"))
async def test_the_placeholder_is_selected_and_raises_nothing_until_saved(
    deck: Deck, start_server: StartServer, profile: ClientProfile
) -> None:
    text = "---\nname: notes\n---\n\nBody.\n"
    path = deck.write(deck.project_dsh, "notes", text)
    client = await start_server(profile=profile)
    await indexed(client)
    open_doc(client, path)
    diagnostics = await seen_diagnostics(client, path, lambda d: codes(d) == ["SD204"])

    (add,) = [
        a for a in await quick_fixes(client, path, diagnostics) if a.title == "Add a description"
    ]
    (edit,) = edits_of(add)
    snippets = bool(profile.raw()["workspace"]["workspaceEdit"].get("snippetEditSupport"))
    if snippets:  # VS Code selects the placeholder: typing replaces it
        assert isinstance(edit, types.SnippetTextEdit)
        assert edit.snippet.value == f"description: ${{1:{DESCRIPTION_PLACEHOLDER}}}\n"
    else:
        assert isinstance(edit, types.TextEdit)
        assert edit.new_text == f"description: {DESCRIPTION_PLACEHOLDER}\n"

    fixed = apply_text_edits(text, [expanded(edit)], Encoding.UTF16)
    replace_doc(client, path, fixed, 2)
    # The error is gone, and the placeholder the user was just handed is not a warning.
    await seen_diagnostics(client, path, lambda d: codes(d) == [])

    path.write_text(fixed, encoding="utf-8")  # saved as it is: now it is reported
    client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=doc_id(path)))
    saved = await seen_diagnostics(client, path, lambda d: codes(d) == ["SD207"])
    assert uri(path) and saved[0].range.start.line == 2
