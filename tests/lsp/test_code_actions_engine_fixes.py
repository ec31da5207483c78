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


async def test_yaml_errors_arrive_in_the_authors_words_with_their_fixes(
    deck: Deck, start_server: StartServer
) -> None:
    path = deck.write(deck.project_dsh, "forms")
    client = await start_editor(start_server)
    text = "---\nname: forms\ndescription: Fills forms.\nmetadata:\n\tv: '1'\n\tw: '2'\n---\n"
    open_doc(client, path, text, version=4)

    [error] = await diagnostics_of(client, path, lambda d: [x.code for x in d] == ["SD103"])
    assert error.message == (
        "invalid YAML in frontmatter: tab used for indentation; YAML needs spaces "
        "(skill not loaded)"
    )
    assert error.range == rng(4, 0, 4, 1)

    [action] = await quick_fixes(client, path, rng(4, 0, 4, 0))
    assert action.title == "Replace the indentation tabs with spaces"
    assert edits_of(action, path, 4) == [
        types.TextEdit(range=rng(4, 0, 4, 1), new_text="  "),
        types.TextEdit(range=rng(5, 0, 5, 1), new_text="  "),
    ]

    quoted = '---\nname: forms\ndescription: "Fills forms\n---\n'
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=doc_id(path).uri, version=5),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=quoted)],
        )
    )
    [unclosed] = await diagnostics_of(
        client, path, lambda d: [x.range for x in d] == [rng(2, 13, 2, 14)]
    )
    assert unclosed.message == (
        "invalid YAML in frontmatter: double quote opened at 3:14 is never closed "
        "(skill not loaded)"
    )
    [close] = await quick_fixes(client, path, rng(2, 13, 2, 13))
    assert edits_of(close, path, 5) == [types.TextEdit(range=rng(2, 25, 2, 25), new_text='"')]
