"""The engine's newer fixes reach the editor as code actions: ``"yes"`` -> ``true``
(SD303) and quoting a value YAML misread (SD205), each with its diagnostic and exact edit."""

from __future__ import annotations

from editing_fixtures import doc_id, edits_of, open_doc, rng, start_editor
from lsp_harness import Deck, StartServer, diagnostics_of
from lsprotocol import types


async def quick_fixes(client, path, at: types.Range) -> list[types.CodeAction]:
    result = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=doc_id(path),
            range=at,
            context=types.CodeActionContext(diagnostics=[], only=[types.CodeActionKind.QuickFix]),
        )
    )
    return list(result or [])


async def test_yes_to_true_arrives_as_a_quick_fix(deck: Deck, start_server: StartServer) -> None:
    path = deck.write(deck.project_dsh, "notes")
    client = await start_editor(start_server)
    text = '---\nname: notes\ndescription: Takes notes.\nuser-invocable: "yes"\n---\n\nBody.\n'
    open_doc(client, path, text, version=3)  # unsaved: the disk has no invocation key

    [hint] = await diagnostics_of(client, path, lambda d: [x.code for x in d] == ["SD303"])
    assert hint.severity == types.DiagnosticSeverity.Hint
    assert hint.range == rng(3, 16, 3, 21)
    assert hint.message == (
        "'user-invocable' is \"yes\", which skilldeck reads as true; "
        "write true so every YAML tool reads the same boolean"
    )

    [action] = await quick_fixes(client, path, rng(3, 18, 3, 18))

    assert (action.title, action.kind, action.is_preferred) == (
        "Replace with 'true'",
        types.CodeActionKind.QuickFix,
        True,
    )
    assert action.diagnostics is not None
    assert [(d.code, d.range) for d in action.diagnostics] == [("SD303", rng(3, 16, 3, 21))]
    assert edits_of(action, path, 3) == [types.TextEdit(range=rng(3, 16, 3, 21), new_text="true")]


async def test_quote_a_value_yaml_misread(deck: Deck, start_server: StartServer) -> None:
    path = deck.write(deck.project_dsh, "release")
    client = await start_editor(start_server)
    open_doc(client, path, "---\nname: release\ndescription: 3.10\n---\n", version=2)

    [error] = await diagnostics_of(client, path, lambda d: [x.code for x in d] == ["SD205"])
    assert error.message == (
        "'description' must be a non-empty string, found the number 3.1 "
        "(YAML read the unquoted '3.10' as a number; quote it to keep the text) (skill not loaded)"
    )

    [action] = await quick_fixes(client, path, rng(2, 13, 2, 13))

    assert action.title == "Quote the value"
    assert edits_of(action, path, 2) == [types.TextEdit(range=rng(2, 13, 2, 17), new_text='"3.10"')]
