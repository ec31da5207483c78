"""Completion: frontmatter keys and values by profile, the new-file snippet, /name, paths."""

from __future__ import annotations

from pathlib import Path

import pytest
from client_text import apply_text_edits
from editing_fixtures import (
    doc_id,
    editing_capabilities,
    open_doc,
    pos,
    replace_doc,
    rng,
    start_editor,
)
from lsp_harness import SERVER_COMMAND, Deck, StartServer, skill_text, stop_client, uri
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from skilldeck.engine.text._positions import Encoding
from skilldeck.lsp.tool_names import CLAUDE_CODE_TOOLS

DSH_KEYS = [
    "name",
    "description",
    "whenToUse",
    "metadata",
    "disable-model-invocation",
    "user-invocable",
    "context",
    "arguments",
    "argument-hint",
    "allowed-tools",
    "disallowed-tools",
]


async def complete(client, path: Path, line: int, character: int):
    return await client.text_document_completion_async(
        types.CompletionParams(text_document=doc_id(path), position=pos(line, character))
    )


async def test_frontmatter_keys_not_yet_present_with_docs(
    deck: Deck, start_server: StartServer
) -> None:
    path = deck.write(deck.project_dsh, "review")
    client = await start_editor(start_server)
    text = "---\nname: review\ndescription: Reviews code.\nus\n---\n\nBody.\n"
    open_doc(client, path, text)

    result = await complete(client, path, 3, 2)

    assert result is not None and not result.is_incomplete
    labels = [item.label for item in result.items]
    assert labels == [k for k in DSH_KEYS if k not in ("name", "description")]
    item = next(i for i in result.items if i.label == "user-invocable")
    assert item.detail == "boolean · default true"
    assert item.text_edit == types.TextEdit(range=rng(3, 0, 3, 2), new_text="user-invocable: ")
    assert isinstance(item.documentation, types.MarkupContent)
    doc = item.documentation.value
    assert doc.startswith("**`user-invocable`**\n\nWhen `false`, a user's `/name` gesture")
    assert "Values: `true`, `false`" in doc
    assert "Default: `true`" in doc
    assert "Controls: user /name gesture" in doc
    assert "Enforced by skilldeck: yes" in doc
    context = next(i for i in result.items if i.label == "context")
    assert context.detail == "string · not enforced"


async def test_agentskills_profile_offers_only_its_keys(
    deck: Deck, start_server: StartServer
) -> None:
    path = deck.write(deck.project_agents, "forms")
    client = await start_editor(start_server, settings={"profile": "agentskills"})
    open_doc(client, path, "---\nname: forms\ndescription: Fill forms.\n\n---\n")

    result = await complete(client, path, 3, 0)

    assert result is not None
    assert [item.label for item in result.items] == [
        "license",
        "compatibility",
        "metadata",
        "allowed-tools",
    ]
    assert result.items[0].text_edit == types.TextEdit(range=rng(3, 0, 3, 0), new_text="license: ")


async def test_key_with_colon_already_written_replaces_only_the_key(
    deck: Deck, start_server: StartServer
) -> None:
    path = deck.write(deck.project_dsh, "review")
    client = await start_editor(start_server)
    open_doc(client, path, "---\nname: review\nwhen: x\n---\n")

    result = await complete(client, path, 2, 2)

    assert result is not None
    item = next(i for i in result.items if i.label == "whenToUse")
    assert item.text_edit == types.TextEdit(range=rng(2, 0, 2, 4), new_text="whenToUse")
    assert "description" in [i.label for i in result.items]


async def test_values_booleans_and_folder_name(deck: Deck, start_server: StartServer) -> None:
    path = deck.write(deck.project_dsh, "review")
    client = await start_editor(start_server)
    open_doc(
        client,
        path,
        "---\nname: \ndescription: Reviews.\nuser-invocable: tr\ndisable-model-invocation: \n---\n",
    )

    names = await complete(client, path, 1, 6)
    assert names is not None
    assert [(i.label, i.detail) for i in names.items] == [("review", "the skill's folder name")]
    assert names.items[0].text_edit == types.TextEdit(range=rng(1, 6, 1, 6), new_text="review")

    booleans = await complete(client, path, 3, 18)
    assert booleans is not None
    assert [(i.label, i.detail) for i in booleans.items] == [
        ("true", "default"),
        ("false", "user-invocable"),
    ]
    assert booleans.items[0].text_edit == types.TextEdit(range=rng(3, 16, 3, 18), new_text="true")

    disable = await complete(client, path, 4, 26)
    assert disable is not None
    assert [(i.label, i.detail) for i in disable.items] == [
        ("true", "disable-model-invocation"),
        ("false", "default"),
    ]


async def test_flat_skill_name_value_is_the_file_stem(
    deck: Deck, start_server: StartServer
) -> None:
    path = deck.write(deck.project_dsh, "notes", flat=True)
    client = await start_editor(start_server)
    open_doc(client, path, "---\nname: n\ndescription: Notes.\n---\n")

    result = await complete(client, path, 1, 7)

    assert result is not None
    assert [(i.label, i.detail) for i in result.items] == [("notes", "the skill's file name")]
    assert result.items[0].text_edit == types.TextEdit(range=rng(1, 6, 1, 7), new_text="notes")


async def test_snippet_for_an_unsaved_empty_skill_file(
    deck: Deck, start_server: StartServer, tmp_path: Path
) -> None:
    deck.write(deck.project_dsh, "review")
    path = deck.project_dsh / "new-skill" / "SKILL.md"  # never written to disk
    client = await start_editor(start_server)
    open_doc(client, path, "--")

    result = await complete(client, path, 0, 2)

    assert result is not None
    [item] = result.items
    assert item.label == "skill frontmatter"
    assert item.insert_text_format == types.InsertTextFormat.Snippet
    assert item.text_edit == types.TextEdit(
        range=rng(0, 0, 0, 2),
        new_text="---\nname: ${1:new-skill}\n"
        "description: ${2:Describe what this skill does and when to use it.}\n---\n\n# ${1}\n\n$0",
    )
    assert not path.exists()


async def test_plain_frontmatter_without_snippet_support(
    deck: Deck, start_server: StartServer
) -> None:
    path = deck.project_agents / "fresh" / "SKILL.md"
    client = await start_editor(start_server, capabilities=editing_capabilities(snippets=False))
    open_doc(client, path, "")

    result = await complete(client, path, 0, 0)

    assert result is not None
    [item] = result.items
    assert item.insert_text_format == types.InsertTextFormat.PlainText
    assert item.text_edit is not None
    assert item.text_edit.new_text == (
        "---\nname: fresh\ndescription: Describe what this skill does and when to use it.\n"
        "---\n\n# fresh\n\n"
    )


async def test_mentions_offer_user_invocable_winners(deck: Deck, start_server: StartServer) -> None:
    path = deck.write(deck.project_dsh, "review")
    deck.write(deck.user_agents, "review", skill_text("review", "An older review."))
    deck.write(deck.user_dsh, "deploy", skill_text("deploy", "Ships   it."))
    deck.write(
        deck.project_agents,
        "manual",
        skill_text("manual", "Only by hand.", extra="disable-model-invocation: true\n"),
    )
    deck.write(
        deck.project_agents,
        "hidden",
        skill_text("hidden", "Model only.", extra="user-invocable: false\n"),
    )
    client = await start_editor(start_server)
    open_doc(client, path, skill_text("review") + "Then run /\n")

    result = await complete(client, path, 8, 10)

    assert result is not None and not result.is_incomplete
    assert [(i.label, i.detail) for i in result.items] == [
        ("/deploy", "user-dsh (rank 400)"),
        ("/manual", "project-agents (rank 200) · only by /name"),
        ("/review", "project-dsh (rank 100)"),
    ]
    deploy = result.items[0]
    assert deploy.text_edit == types.TextEdit(range=rng(8, 9, 8, 10), new_text="/deploy")
    assert deploy.documentation == "Ships it."

    open_doc(client, path, skill_text("review") + "Then run /de\n", version=2)
    typed = await complete(client, path, 8, 12)
    assert typed is not None
    assert [i.label for i in typed.items] == ["/deploy"]
    assert typed.items[0].text_edit == types.TextEdit(range=rng(8, 9, 8, 12), new_text="/deploy")


def _bundle_with_resources(deck: Deck, outside: Path) -> Path:
    path = deck.write(deck.project_dsh, "forms")
    folder = path.parent
    (folder / "reference.md").write_text("ref\n", encoding="utf-8")
    (folder / "scripts").mkdir()
    (folder / "scripts" / "fill.py").write_text("print()\n", encoding="utf-8")
    (folder / ".hidden").write_text("x\n", encoding="utf-8")
    outside.mkdir()
    (outside / "secret.txt").write_text("no\n", encoding="utf-8")
    (folder / "escape").symlink_to(outside, target_is_directory=True)
    return path


async def test_paths_inside_the_skill_folder_only(
    deck: Deck, start_server: StartServer, tmp_path: Path
) -> None:
    path = _bundle_with_resources(deck, tmp_path / "outside")
    client = await start_editor(start_server)
    body = skill_text("forms") + "See [the reference](\nRun scripts/\nUp ../\n"
    open_doc(client, path, body)

    top = await complete(client, path, 8, 20)
    assert top is not None
    assert [(i.label, i.kind) for i in top.items] == [
        ("reference.md", types.CompletionItemKind.File),
        ("scripts/", types.CompletionItemKind.Folder),
    ]
    assert top.items[0].text_edit == types.TextEdit(
        range=rng(8, 20, 8, 20), new_text="reference.md"
    )

    scripts = await complete(client, path, 9, 12)
    assert scripts is not None
    assert [i.label for i in scripts.items] == ["fill.py"]
    assert scripts.items[0].detail == "scripts/fill.py"
    assert scripts.items[0].text_edit == types.TextEdit(range=rng(9, 12, 9, 12), new_text="fill.py")

    assert await complete(client, path, 10, 6) is None


async def test_no_path_completion_for_flat_skills(deck: Deck, start_server: StartServer) -> None:
    path = deck.write(deck.project_dsh, "notes", flat=True)
    deck.write(deck.project_dsh, "other", flat=True)
    client = await start_editor(start_server)
    open_doc(client, path, skill_text("notes") + "See [x](\n")

    assert await complete(client, path, 8, 8) is None


async def typed(client, path: Path, line: int, character: int, char: str):
    """Completion as VS Code asks for it while typing ``char`` (a trigger character)."""
    return await client.text_document_completion_async(
        types.CompletionParams(
            text_document=doc_id(path),
            position=pos(line, character),
            context=types.CompletionContext(
                trigger_kind=types.CompletionTriggerKind.TriggerCharacter, trigger_character=char
            ),
        )
    )


async def test_letters_and_dash_are_trigger_characters(deck: Deck) -> None:
    client = await ClientServerConfig(server_command=SERVER_COMMAND, server_env=deck.env()).start()
    assert isinstance(client, LanguageClient)
    try:
        result = await client.initialize_session(
            types.InitializeParams(
                capabilities=editing_capabilities(),
                workspace_folders=[types.WorkspaceFolder(uri=uri(deck.project), name="project")],
            )
        )
        provider = result.capabilities.completion_provider
        assert provider is not None and provider.trigger_characters is not None
        assert {"/", "-", "d", "e", "n", "T"} <= set(provider.trigger_characters)
    finally:
        await stop_client(client)


async def test_typing_a_key_prefix_offers_keys_as_you_type(
    deck: Deck, start_server: StartServer
) -> None:
    path = deck.write(deck.project_dsh, "review")
    client = await start_editor(start_server)
    open_doc(client, path, "---\nname: review\nde\n---\n\nBody.\n")

    result = await typed(client, path, 2, 2, "e")

    assert result is not None
    assert "description" in [item.label for item in result.items]
    body = await typed(client, path, 5, 4, "y")
    assert body is None


async def test_typing_the_opening_dashes_offers_no_snippet_for_enter_to_accept(
    deck: Deck, start_server: StartServer
) -> None:
    # #31: Enter after a typed `---` accepted the whole snippet, and the next line typed
    # landed in its placeholder (`name: name: PDF-Forms`).
    deck.write(deck.project_dsh, "review")
    path = deck.project_dsh / "lone" / "SKILL.md"
    client = await start_editor(start_server)
    for version, text in enumerate(["-", "--", "---"], start=1):
        if version == 1:
            open_doc(client, path, text)
        else:
            replace_doc(client, path, text, version=version)
        assert await typed(client, path, 0, len(text), "-") is None

    # Asked for (Ctrl+Space), the snippet is there, on the `---` line and the line after.
    on_dashes = await complete(client, path, 0, 3)
    assert on_dashes is not None
    [item] = on_dashes.items
    assert item.label == "skill frontmatter" and not item.preselect
    assert item.text_edit is not None and item.text_edit.range == rng(0, 0, 0, 3)
    assert item.text_edit.new_text.startswith("---\nname: ${1:lone}\n")

    replace_doc(client, path, "---\n\n", version=4)
    next_line = await complete(client, path, 1, 0)
    assert next_line is not None
    snippet = next(i for i in next_line.items if i.label == "skill frontmatter")
    assert snippet.text_edit is not None and snippet.text_edit.range == rng(0, 0, 2, 0)
    assert "name" in [i.label for i in next_line.items]


async def test_a_value_typed_whole_or_otherwise_leaves_no_item_for_enter(
    deck: Deck, start_server: StartServer
) -> None:
    # #31: Enter after `name: PDF-Forms` accepted `pdf-forms` and swallowed the newline.
    path = deck.write(deck.project_dsh, "pdf-forms")
    client = await start_editor(start_server)
    open_doc(client, path, "---\nname: PDF-Forms\n---\n")
    assert await typed(client, path, 1, 15, "s") is None

    replace_doc(client, path, "---\nname: pdf-forms\n---\n", version=2)
    assert await typed(client, path, 1, 15, "s") is None

    replace_doc(client, path, "---\nname: pdf\n---\n", version=3)
    start = await typed(client, path, 1, 9, "f")
    assert start is not None and start.is_incomplete  # asked again at the next character
    assert [i.label for i in start.items] == ["pdf-forms"]


async def test_allowed_tools_offers_claude_codes_tools_for_the_entry_typed(
    deck: Deck, start_server: StartServer
) -> None:
    # #41.2: `allowed-tools: Read` + Enter became `ReadingList`, a word of the body: the
    # server had nothing to offer, so VS Code fell back to the document's words.
    path = deck.write(deck.project_dsh, "review")
    client = await start_editor(start_server)
    open_doc(client, path, "---\nname: review\nallowed-tools: \n---\n\nReadingList.\n")

    asked = await complete(client, path, 2, 15)
    assert asked is not None and asked.is_incomplete
    assert [i.label for i in asked.items] == list(CLAUDE_CODE_TOOLS)
    assert {i.detail for i in asked.items} == {"Claude Code 2.1.332 tool"}
    assert asked.items[0].text_edit == types.TextEdit(range=rng(2, 15, 2, 15), new_text="Agent")

    replace_doc(client, path, "---\nname: review\nallowed-tools: Re\n---\n", version=2)
    start = await typed(client, path, 2, 17, "e")
    assert start is not None and start.is_incomplete
    assert [i.label for i in start.items] == ["Read", "ReportFindings"]
    assert start.items[0].text_edit == types.TextEdit(range=rng(2, 15, 2, 17), new_text="Read")

    # Typed whole: nothing for Enter to take.
    replace_doc(client, path, "---\nname: review\nallowed-tools: Read\n---\n", version=3)
    assert await typed(client, path, 2, 19, "d") is None

    # The entry the cursor is in, in any list form, less the tools already written.
    line = "allowed-tools: Read, Bash(git status:*) We"
    replace_doc(client, path, f"---\nname: review\n{line}\n---\n", version=4)
    later = await typed(client, path, 2, len(line), "e")
    assert later is not None
    assert [i.label for i in later.items] == ["WebFetch", "WebSearch"]
    assert later.items[0].text_edit == types.TextEdit(
        range=rng(2, len(line) - 2, 2, len(line)), new_text="WebFetch"
    )
    line = "disallowed-tools: [Read, W]"
    replace_doc(client, path, f"---\nname: review\n{line}\n---\n", version=5)
    flow = await complete(client, path, 2, len(line) - 1)
    assert flow is not None
    labels = [i.label for i in flow.items]
    assert "Read" not in labels and "Write" in labels and "Bash" in labels
    write = next(i for i in flow.items if i.label == "Write")
    assert write.text_edit == types.TextEdit(
        range=rng(2, len(line) - 2, 2, len(line) - 1), new_text="Write"
    )

    # Inside a rule's parentheses no tool name fits.
    line = "allowed-tools: Bash(git s"
    replace_doc(client, path, f"---\nname: review\n{line}\n---\n", version=6)
    assert await complete(client, path, 2, len(line)) is None


async def test_accepting_a_key_with_values_suggests_its_value(
    deck: Deck, start_server: StartServer
) -> None:
    path = deck.write(deck.project_dsh, "review")
    client = await start_editor(start_server)
    open_doc(client, path, "---\nn\n---\n")

    result = await typed(client, path, 1, 1, "n")

    assert result is not None
    by_label = {item.label: item for item in result.items}
    name = by_label["name"]
    assert name.text_edit == types.TextEdit(range=rng(1, 0, 1, 1), new_text="name: ")
    assert name.command is not None and name.command.command == "editor.action.triggerSuggest"
    # #41.2: opened as typing opens it, so a list filtered to nothing closes instead of
    # standing on "No suggestions." and taking the next Enter.
    assert list(name.command.arguments or []) == [{"auto": True}]
    flag = by_label["user-invocable"]
    assert flag.command is not None and flag.command.command == "editor.action.triggerSuggest"
    tools = by_label["allowed-tools"]
    assert tools.command is not None and tools.command.command == "editor.action.triggerSuggest"
    assert by_label["description"].command is None  # free text: nothing to suggest


async def test_a_near_miss_being_typed_offers_the_right_key(
    deck: Deck, start_server: StartServer
) -> None:
    path = deck.write(deck.project_dsh, "review")
    client = await start_editor(start_server)
    text = "---\nname: review\ndescription: Reviews code.\nuser_inv\n---\n\nBody.\n"
    open_doc(client, path, text)

    result = await complete(client, path, 3, 8)

    assert result is not None
    meant = [i for i in result.items if i.filter_text == "user_inv"]
    assert [(i.label, i.preselect) for i in meant] == [("user-invocable", True)]
    assert meant[0].text_edit == types.TextEdit(range=rng(3, 0, 3, 8), new_text="user-invocable: ")
    others = [i for i in result.items if i.label != "user-invocable"]
    assert all(i.filter_text == i.label and i.preselect is None for i in others)

    typo = "---\nname: review\ndescripton\n---\n"
    replace_doc(client, path, typo, version=2)
    fixed = await complete(client, path, 2, 10)
    assert fixed is not None
    assert [i.label for i in fixed.items if i.filter_text == "descripton"] == ["description"]

    # A plain prefix is no near miss: the client's own filtering finds the key.
    replace_doc(client, path, "---\nname: review\nus\n---\n", version=3)
    prefix = await complete(client, path, 2, 2)
    assert prefix is not None
    assert all(i.filter_text == i.label and i.preselect is None for i in prefix.items)


MIDWORD = (
    "---\nname: mid\ndescription: d\n---\n"
    "see [ref](ref.md) and /alpha now\n"  # 4
    "😀 [x](sub/😀.md) 日本 /alpha\n"  # 5
)


def _units(text: str, encoding: Encoding) -> int:
    """The length of ``text`` in ``encoding``'s code units."""
    if encoding is Encoding.UTF8:
        return len(text.encode("utf-8"))
    if encoding is Encoding.UTF16:
        return len(text.encode("utf-16-le")) // 2
    return len(text)


def _midword_capabilities(encoding: Encoding, insert_replace: bool) -> types.ClientCapabilities:
    capabilities = editing_capabilities()
    assert capabilities.text_document is not None
    completion = capabilities.text_document.completion
    assert completion is not None and completion.completion_item is not None
    completion.completion_item.insert_replace_support = insert_replace
    capabilities.general = types.GeneralClientCapabilities(position_encodings=[encoding.value])
    return capabilities


@pytest.mark.parametrize("encoding", list(Encoding), ids=lambda e: e.value)
async def test_completing_inside_a_word_replaces_the_whole_token(
    deck: Deck, start_server: StartServer, encoding: Encoding
) -> None:
    # Session 14: `/al|pha` became `/alphapha` and `ref|.md` became `ref.md.md`.
    path = deck.write(deck.project_dsh, "mid", MIDWORD)
    (path.parent / "ref.md").write_text("r\n", encoding="utf-8")
    (path.parent / "sub").mkdir()
    (path.parent / "sub" / "😀.md").write_text("e\n", encoding="utf-8")
    deck.write(deck.project_dsh, "alpha")
    lines = MIDWORD.split("\n")
    cases = [  # (line, the token, where the cursor is in it, the item taken)
        (4, "/alpha", 3, "/alpha"),
        (4, "ref.md", 3, "ref.md"),
        (5, "😀.md", 0, "😀.md"),
        (5, "/alpha", 2, "/alpha"),
    ]
    for insert_replace in (False, True):
        client = await start_editor(
            start_server, capabilities=_midword_capabilities(encoding, insert_replace)
        )
        open_doc(client, path)
        for line, token, inside, label in cases:
            start = lines[line].rindex(token)
            cursor = _units(lines[line][: start + inside], encoding)
            result = await complete(client, path, line, cursor)
            assert result is not None, (line, token)
            [item] = [i for i in result.items if i.label == label]
            edit = item.text_edit
            if insert_replace:
                assert isinstance(edit, types.InsertReplaceEdit), (line, token)
                replaced, inserted = edit.replace, edit.insert
            else:
                assert isinstance(edit, types.TextEdit), (line, token)
                replaced = inserted = edit.range
            after = apply_text_edits(
                MIDWORD, [types.TextEdit(range=replaced, new_text=edit.new_text)], encoding
            )
            assert after == MIDWORD, (insert_replace, line, token)
            # Insert mode replaces what is typed before the cursor, and keeps the rest.
            first = _units(lines[line][:start], encoding)
            if insert_replace:
                assert inserted == rng(line, first, line, cursor), (line, token)
            # The client filters on the text from the range's start to the cursor.
            typed = lines[line][start : start + inside]
            assert (item.filter_text or item.label).startswith(typed)
