"""The server's copy of an open document equals the editor's after any edits.

The applier (``skilldeck.lsp.text_sync``) is checked against a reference written the
way ``vscode-languageserver-textdocument`` applies edits: over UTF-16 code units, with
lines broken only at ``\\n``, ``\\r\\n`` and ``\\r``. Then one end-to-end run shows the
server's view (diagnostics, catalog) right after edits below a U+2028.
"""

from __future__ import annotations

from pathlib import Path

from client_text import apply_text_edits, reference_apply
from editing_fixtures import doc_id, open_doc, start_editor
from hypothesis import given, settings
from hypothesis import strategies as st
from lsp_harness import Deck, StartServer, codes, diagnostics_of, request, uri
from lsprotocol import types

from skilldeck.engine.text._positions import Encoding
from skilldeck.lsp.text_sync import apply_changes

#: Every character some line splitter treats as a line break, plus astral and wide ones.
LINE_LIKE = "\n\r\u2028\u2029\u0085\x0c\x0b\x1c\x1d\x1e"
ALPHABET = LINE_LIKE + "ab \t-:" + "é\u00a0中😀\U00010348"


positions = st.builds(
    types.Position, line=st.integers(min_value=0, max_value=8), character=st.integers(0, 12)
)
partial_changes = st.builds(
    types.TextDocumentContentChangePartial,
    range=st.builds(types.Range, start=positions, end=positions),
    text=st.text(alphabet=ALPHABET, max_size=8),
)
changes = st.lists(
    st.one_of(
        partial_changes,
        partial_changes,
        partial_changes,
        st.builds(
            types.TextDocumentContentChangeWholeDocument,
            text=st.text(alphabet=ALPHABET, max_size=20),
        ),
    ),
    max_size=6,
)


@settings(max_examples=300, deadline=None)
@given(
    text=st.text(alphabet=ALPHABET, max_size=40),
    edits=changes,
    encoding=st.sampled_from(list(Encoding)),
)
def test_applier_matches_the_clients_line_model(
    text: str, edits: list[types.TextDocumentContentChangeEvent], encoding: Encoding
) -> None:
    assert apply_changes(text, edits, encoding) == reference_apply(text, edits, encoding)


def test_a_change_below_a_line_separator_lands_on_the_clients_line() -> None:
    text = '---\ndescription: "one\u2028two"\nname: alpha\n---\n'
    change = types.TextDocumentContentChangePartial(
        range=types.Range(start=types.Position(2, 6), end=types.Position(2, 7)), text="A"
    )
    assert apply_changes(text, [change], Encoding.UTF16) == text.replace("alpha", "Alpha")


async def test_server_view_follows_edits_below_a_line_separator(
    deck: Deck, start_server: StartServer
) -> None:
    text = (
        '---\ndescription: "Line one\u2028still the description"\n'
        "name: alpha\n---\n\n# alpha\n\nBody.\n"
    )
    path: Path = deck.write(deck.project_dsh, "alpha", text)
    client = await start_editor(start_server)
    open_doc(client, path, version=1)

    def edit(version: int, line: int, start: int, end: int, new: str) -> None:
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri(path), version=version),
                content_changes=[
                    types.TextDocumentContentChangePartial(
                        range=types.Range(
                            start=types.Position(line, start), end=types.Position(line, end)
                        ),
                        text=new,
                    )
                ],
            )
        )

    edit(2, 2, 6, 7, "A")  # name: alpha -> name: Alpha (client lines: \u2028 is no break)
    found = await diagnostics_of(client, path, lambda d: "SD203" in codes(d))
    (bad,) = [d for d in found if d.code == "SD203"]
    assert bad.range.start.line == 2
    edit(3, 2, 6, 7, "a")  # and back
    await diagnostics_of(client, path, lambda d: "SD203" not in codes(d))
    edit(4, 1, 14, 22, "Line 1")  # "Line one" -> "Line 1" on the line holding U+2028

    async def catalog() -> list[dict[str, str]]:
        result = await request(client, "skilldeck/catalog", {"uri": uri(path)})
        entries: list[dict[str, str]] = result["entries"]
        return entries

    entries = await catalog()
    assert entries == [{"name": "alpha", "description": "Line 1 still the description"}]


async def test_sd605_fix_after_edits_below_a_line_separator(
    deck: Deck, start_server: StartServer
) -> None:
    text = '---\ndescription: "Line one\u2028two"\nname: alpha\nbogus: 1\n---\n\nBody.\n'
    path = deck.write(deck.project_agents, "alpha", text)
    client = await start_editor(start_server, settings={"profile": "agentskills"})
    open_doc(client, path, version=1)
    change = types.TextDocumentContentChangePartial(
        range=types.Range(start=types.Position(3, 7), end=types.Position(3, 8)), text="2"
    )
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri(path), version=2),
            content_changes=[change],
        )
    )
    text = reference_apply(text, [change], Encoding.UTF16)
    await diagnostics_of(client, path, lambda d: "SD605" in codes(d))

    result = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=doc_id(path),
            range=types.Range(start=types.Position(3, 1), end=types.Position(3, 1)),
            context=types.CodeActionContext(diagnostics=[]),
        )
    )
    move = next(a for a in result or [] if isinstance(a, types.CodeAction) and "bogus" in a.title)
    assert move.edit is not None and move.edit.document_changes is not None
    [edit] = move.edit.document_changes
    assert isinstance(edit, types.TextDocumentEdit)
    fixed = apply_text_edits(
        text, [e for e in edit.edits if isinstance(e, types.TextEdit)], Encoding.UTF16
    )
    assert fixed == (
        '---\ndescription: "Line one\u2028two"\nname: alpha\nmetadata:\n  bogus: "2"\n---\n'
        "\nBody.\n"
    )
