"""The server publishes near-miss keys (SD404) and /name mentions that reach no skill
(SD704) or a hidden one (SD705), keeps them current as the deck changes, and offers the
engine's fixes as quick fixes."""

from __future__ import annotations

from editing_fixtures import doc_id, edits_of, open_doc, replace_doc, rng, start_editor
from lsp_harness import Deck, StartServer, codes, diagnostics_of, skill_text
from lsprotocol import types

A_TEXT = (
    "---\nname: a\ndescription: Alpha.\nuser_invocable: false\n---\n"
    "Use /b and /bb and /nonexistent now.\nThen /hidden and /a.\n"
)


async def quick_fixes(client, path, value):
    return list(
        await client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=doc_id(path),
                range=value,
                context=types.CodeActionContext(
                    diagnostics=[], only=[types.CodeActionKind.QuickFix]
                ),
            )
        )
        or []
    )


async def test_silent_mistakes_are_published_and_follow_the_deck(
    deck: Deck, start_server: StartServer
) -> None:
    root = deck.project_dsh
    a = deck.write(root, "a", A_TEXT)
    deck.write(root, "b")
    deck.write(root, "hidden", skill_text("hidden", extra="user-invocable: false\n"))
    client = await start_editor(start_server)

    found = await diagnostics_of(client, a, lambda d: "SD704" in codes(d))
    by_message = {d.message: (d.code, d.range, d.severity) for d in found}
    warning = types.DiagnosticSeverity.Warning
    assert by_message == {
        "'user_invocable' is not a key of the dsh profile: did you mean 'user-invocable'? "
        "ignored: the skill stays user-invocable": ("SD404", rng(3, 0, 3, 14), warning),
        "'/bb' names no skill in this deck; did you mean /b?": (
            "SD704",
            rng(5, 11, 5, 14),
            warning,
        ),
        "'/nonexistent' names no skill in this deck": ("SD704", rng(5, 19, 5, 31), warning),
        "'/hidden' names a skill with `user-invocable: false`: the /name gesture will not "
        "inject it": ("SD705", rng(6, 5, 6, 12), warning),
    }

    open_doc(client, a, version=3)
    [rename] = await quick_fixes(client, a, rng(3, 2, 3, 2))
    assert rename.title == "Rename to 'user-invocable'"
    assert edits_of(rename, a, 3) == [
        types.TextEdit(range=rng(3, 0, 3, 14), new_text="user-invocable")
    ]
    [replace_mention] = await quick_fixes(client, a, rng(5, 12, 5, 12))
    assert replace_mention.title == "Replace with '/b'"
    assert edits_of(replace_mention, a, 3) == [
        types.TextEdit(range=rng(5, 12, 5, 14), new_text="b")
    ]

    # A skill named bb appears (an unsaved buffer in the root): /bb now reaches it, and
    # making /hidden user-invocable clears SD705, without touching a.
    bb = root / "bb" / "SKILL.md"
    bb.parent.mkdir()
    open_doc(client, bb, skill_text("bb"))
    hidden = root / "hidden" / "SKILL.md"
    open_doc(client, hidden, version=1)
    replace_doc(client, hidden, skill_text("hidden"), version=2)
    after = await diagnostics_of(client, a, lambda d: codes(d) == ["SD404", "SD704"])
    assert [d.message for d in after if d.code == "SD704"] == [
        "'/nonexistent' names no skill in this deck"
    ]


async def test_every_near_miss_family_is_published(deck: Deck, start_server: StartServer) -> None:
    text = (
        "---\nname: a\ndescription: Alpha.\nallowed_tools: Bash\nUserInvocable: false\n"
        "Disable-Model-Invocation: true\ndescripton: typo\nlicense: MIT\nmodel: opus\n---\nBody.\n"
    )
    a = deck.write(deck.project_dsh, "a", text)
    client = await start_editor(start_server)
    found = await diagnostics_of(client, a, lambda d: "SD404" in codes(d))
    assert sorted((d.range.start.line, d.message.split("?")[0]) for d in found) == [
        (3, "'allowed_tools' is not a key of the dsh profile: did you mean 'allowed-tools'"),
        (4, "'UserInvocable' is not a key of the dsh profile: did you mean 'user-invocable'"),
        (
            5,
            "'Disable-Model-Invocation' is not a key of the dsh profile: did you mean "
            "'disable-model-invocation'",
        ),
        (6, "'descripton' is not a key of the dsh profile: did you mean 'description'"),
    ]  # license and model (other agents' keys) stay quiet
