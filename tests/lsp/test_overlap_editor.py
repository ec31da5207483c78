"""Routing overlap in the editor: SD801 on both skills, kept current while the user types."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from editing_fixtures import doc_id, editing_capabilities, open_doc, pos, start_editor
from lsp_harness import (
    Deck,
    StartServer,
    codes,
    diagnostics_of,
    indexed,
    overlap_builds,
    skill_text,
    uri,
    wait_for,
)
from lsprotocol import types
from pytest_lsp import LanguageClient

TDD_WORKFLOW = (
    "Use this skill when writing new features, fixing bugs, or refactoring code. Enforces "
    "test-driven development with 80%+ coverage including unit, integration, and E2E tests."
)
TDD_GUIDE = (
    "Test-Driven Development specialist enforcing write-tests-first methodology. Use "
    "PROACTIVELY when writing new features, fixing bugs, or refactoring code."
)


def open_deck(client: LanguageClient, deck: Deck) -> None:
    """Open every skill file of the deck, as these tests follow SD801 on each: the editor
    shows it on open files only (skilldeck.lsp.presentation; the parity suite holds the
    difference)."""
    for root in (deck.project_dsh, deck.project_agents, deck.user_dsh, deck.user_agents):
        for path in sorted(root.glob("*/SKILL.md")):
            open_doc(client, path)


async def test_overlap_is_shown_on_both_skills_and_follows_typing(
    deck: Deck, start_server: StartServer
) -> None:
    workflow = deck.write(
        deck.project_dsh, "tdd-workflow", skill_text("tdd-workflow", TDD_WORKFLOW)
    )
    guide = deck.write(deck.user_dsh, "tdd-guide", skill_text("tdd-guide", TDD_GUIDE))
    client = await start_server()
    open_deck(client, deck)
    await indexed(client)

    on_guide = await diagnostics_of(client, guide, lambda d: codes(d) == ["SD801"])
    assert on_guide[0].severity == types.DiagnosticSeverity.Information
    assert on_guide[0].message.startswith(
        "`tdd-guide` and `tdd-workflow` describe overlapping tasks (score 0."
    )
    assert on_guide[0].range == types.Range(types.Position(1, 6), types.Position(1, 15))
    related = on_guide[0].related_information
    assert related is not None and related[0].location.uri == uri(workflow)
    assert related[0].location.range == types.Range(types.Position(1, 6), types.Position(1, 18))
    assert related[0].message.startswith("`tdd-workflow`: the skill it overlaps (score 0.")
    await diagnostics_of(client, workflow, lambda d: codes(d) == ["SD801"])

    # The author rewrites the description of one skill: both lose the finding.
    text = skill_text("tdd-workflow", TDD_WORKFLOW)
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            types.TextDocumentItem(uri=uri(workflow), language_id="markdown", version=1, text=text)
        )
    )
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri(workflow), version=2),
            content_changes=[
                types.TextDocumentContentChangeWholeDocument(
                    skill_text(
                        "tdd-workflow",
                        "Plan the weekly roadmap review with the team, collect open questions "
                        "from every squad, book the room and send the agenda a day ahead.",
                    )
                )
            ],
        )
    )
    await diagnostics_of(client, guide, lambda d: d == [])
    await diagnostics_of(client, workflow, lambda d: d == [])

    # Typing the old description back brings the finding back on both.
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri(workflow), version=3),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text)],
        )
    )
    await diagnostics_of(client, guide, lambda d: codes(d) == ["SD801"])
    await diagnostics_of(client, workflow, lambda d: codes(d) == ["SD801"])


def write_tdd_skills(deck: Deck, driven: str) -> tuple[Path, Path, Path]:
    """`tdd-workflow` (project), `tdd-guide` and `test-driven-development` (user) whose
    description is ``driven``."""
    workflow = deck.write(
        deck.project_dsh, "tdd-workflow", skill_text("tdd-workflow", TDD_WORKFLOW)
    )
    guide = deck.write(deck.user_dsh, "tdd-guide", skill_text("tdd-guide", TDD_GUIDE))
    text = skill_text("test-driven-development", driven)
    return workflow, guide, deck.write(deck.user_dsh, "test-driven-development", text)


async def nearest_section(client: LanguageClient, path: Path) -> str:
    """The "Nearest skills" section of the hover on ``path``'s description."""
    result = await client.text_document_hover_async(
        types.HoverParams(text_document=doc_id(path), position=pos(2, 20))
    )
    assert result is not None and isinstance(result.contents, types.MarkupContent)
    return result.contents.value.split("\n\n---\n\n")[-1]


async def test_hover_on_description_lists_the_three_nearest_skills(
    deck: Deck, start_server: StartServer
) -> None:
    workflow, guide, driven = write_tdd_skills(deck, "Use before writing implementation code.")
    deck.write(deck.user_dsh, "release-notes", skill_text("release-notes", "Draft the notes."))
    client = await start_editor(start_server)
    open_deck(client, deck)
    # The overlap index is built after the scan is served: its findings say it is ready.
    await diagnostics_of(client, guide, lambda d: "SD801" in codes(d))
    open_doc(client, workflow)

    section = await nearest_section(client, workflow)

    lines = section.split("\n")
    assert lines[0] == "**Nearest skills** (reported as overlapping from 0.23):"
    assert lines[1].startswith(f"- [`tdd-guide`]({uri(guide)}) · score 0.")
    assert f"[`test-driven-development`]({uri(driven)})" in section
    assert "release-notes" not in section
    scores = [float(line.split(" · score ")[1].split(" ")[0]) for line in lines[1:]]
    assert scores == sorted(scores, reverse=True) and len(scores) <= 3


async def test_an_edit_right_after_indexing_outlasts_the_overlap_rebuild(
    deck: Deck, start_server: StartServer
) -> None:
    # Not named tdd-*: two names that share "tdd" compete whatever the edited text says.
    workflow = deck.write(
        deck.project_dsh, "feature-workflow", skill_text("feature-workflow", TDD_WORKFLOW)
    )
    guide = deck.write(deck.user_dsh, "tdd-guide", skill_text("tdd-guide", TDD_GUIDE))
    for number in range(40):  # some work for the rebuild
        deck.write(
            deck.user_agents, f"chore-{number}", skill_text(f"chore-{number}", f"Chore {number}.")
        )
    client = await start_server()
    open_deck(client, deck)
    await indexed(client)
    # Right after the scan is served (the overlap index may still be building):
    distinct = skill_text("feature-workflow", "Plan the weekly roadmap review with the team.")
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            types.TextDocumentItem(
                uri=uri(workflow), language_id="markdown", version=1, text=distinct
            )
        )
    )
    await diagnostics_of(client, workflow, lambda d: d == [])
    await diagnostics_of(client, guide, lambda d: d == [])
    # Still true once the overlap index is built (the built index agrees with the buffer):
    # the build's log line follows its diagnostics.
    await wait_for(lambda: overlap_builds(client), what="the overlap build's log line")
    assert list(client.diagnostics[uri(guide)]) == []
    assert list(client.diagnostics[uri(workflow)]) == []


async def test_a_pair_declared_distinct_is_not_reported_and_hover_marks_it(
    deck: Deck, start_server: StartServer
) -> None:
    """`[overlap] distinct` in the project's skilldeck.toml: the editor reads the same
    setting as `check` (no SD801 between the two), and hover still shows the score,
    marked declared distinct."""
    (deck.project / "skilldeck.toml").write_text('[overlap]\ndistinct = [["tdd-*"]]\n')
    workflow, guide, driven = write_tdd_skills(
        deck, "Test-Driven Development, tests first, when writing new features."
    )
    client = await start_editor(start_server)
    open_deck(client, deck)
    on_driven = await diagnostics_of(client, driven, lambda d: len(codes(d)) == 2)
    assert sorted(d.message.split(" describe")[0] for d in on_driven) == [
        "`test-driven-development` and `tdd-guide`",
        "`test-driven-development` and `tdd-workflow`",
    ]
    on_guide = await diagnostics_of(client, guide, lambda d: codes(d) == ["SD801"])
    assert "`tdd-guide` and `test-driven-development`" in on_guide[0].message
    open_doc(client, workflow)

    section = await nearest_section(client, workflow)

    guide_line = next(line for line in section.split("\n") if "`tdd-guide`" in line)
    assert guide_line.endswith(" · declared distinct")
    driven_line = next(line for line in section.split("\n") if "`test-driven-dev" in line)
    assert "declared distinct" not in driven_line


def _declare_actions(result: object) -> list[types.CodeAction]:
    actions = [a for a in (result or []) if isinstance(a, types.CodeAction)]  # type: ignore[attr-defined]
    return [a for a in actions if a.title.startswith("Declare ")]


async def _declare_with(client: LanguageClient, path: Path, other: str) -> types.CodeAction | None:
    """The "Declare ... distinct" action on ``path``'s name line naming ``other``."""
    found = [a for a in await _actions_on_name(client, path) if f"`{other}`" in a.title]
    return found[0] if found else None


async def _actions_on_name(client: LanguageClient, path: Path) -> list[types.CodeAction]:
    result = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=doc_id(path),
            range=types.Range(pos(1, 8), pos(1, 8)),
            context=types.CodeActionContext(diagnostics=[]),
        )
    )
    return _declare_actions(result)


async def test_declare_distinct_quick_fix_edits_the_config_file_and_the_finding_goes(
    deck: Deck, start_server: StartServer
) -> None:
    """On SD801, "Declare `a` and `b` distinct" adds the pair to `[overlap] distinct` of
    the project's skilldeck.toml, keeping what the file says; once saved, the two skills
    are no longer reported to each other."""
    config = deck.project / "skilldeck.toml"
    config.write_text("# team settings\n[overlap]\nthreshold = 0.2  # tuned\n")
    workflow, guide, _driven = write_tdd_skills(deck, "Plan the weekly roadmap.")
    client = await start_editor(start_server)
    open_deck(client, deck)
    await diagnostics_of(client, guide, lambda d: "SD801" in codes(d))
    open_doc(client, guide)

    action = await _declare_with(client, guide, "tdd-workflow")

    assert action is not None and action.title == (
        "Declare `tdd-guide` and `tdd-workflow` distinct ([overlap] distinct in skilldeck.toml)"
    )
    assert action.kind == types.CodeActionKind.QuickFix
    assert action.diagnostics and action.diagnostics[0].code == "SD801"
    assert action.edit is not None and action.edit.document_changes is not None
    (change,) = action.edit.document_changes
    assert isinstance(change, types.TextDocumentEdit)
    assert change.text_document.uri == uri(config)
    (edit,) = change.edits
    assert edit.range == types.Range(pos(0, 0), pos(3, 0))
    assert edit.new_text == (
        '# team settings\n[overlap]\nthreshold = 0.2  # tuned\ndistinct = [["tdd-guide", '
        '"tdd-workflow"]]\n'
    )
    assert config.read_text() == "# team settings\n[overlap]\nthreshold = 0.2  # tuned\n"

    config.write_text(edit.new_text)  # the user accepts and saves; the editor reports it
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=uri(config), type=types.FileChangeType.Changed)]
        )
    )

    def pairs_with(other: str) -> Callable[[list[types.Diagnostic]], bool]:
        return lambda found: not any(f"`{other}`" in d.message for d in found)

    await diagnostics_of(client, guide, pairs_with("tdd-workflow"))
    await diagnostics_of(client, workflow, pairs_with("tdd-guide"))
    assert await _declare_with(client, guide, "tdd-workflow") is None


async def test_declare_distinct_makes_a_config_file_only_where_the_client_can(
    deck: Deck, start_server: StartServer
) -> None:
    _workflow, guide, _driven = write_tdd_skills(deck, "Plan the weekly roadmap.")
    capabilities = editing_capabilities()
    assert capabilities.workspace is not None and capabilities.workspace.workspace_edit
    capabilities.workspace.workspace_edit.resource_operations = [types.ResourceOperationKind.Create]
    client = await start_editor(start_server, capabilities=capabilities)
    open_deck(client, deck)
    await diagnostics_of(client, guide, lambda d: "SD801" in codes(d))
    open_doc(client, guide)

    action = await _declare_with(client, guide, "tdd-workflow")

    assert action is not None and action.edit is not None
    assert action.edit.document_changes is not None
    create, change = action.edit.document_changes
    config = deck.project / "skilldeck.toml"
    assert isinstance(create, types.CreateFile) and create.uri == uri(config)
    assert isinstance(change, types.TextDocumentEdit)
    assert [e.new_text for e in change.edits] == [
        '[overlap]\ndistinct = [["tdd-guide", "tdd-workflow"]]\n'
    ]
    assert not config.exists()

    plain = await start_editor(start_server)  # renames only: no file can be made
    open_deck(plain, deck)
    await diagnostics_of(plain, guide, lambda d: "SD801" in codes(d))
    open_doc(plain, guide)
    assert await _actions_on_name(plain, guide) == []


async def test_declare_distinct_replaces_the_open_config_buffer_whole(
    deck: Deck, start_server: StartServer
) -> None:
    """The edit spans the config file's open buffer (``\\r\\n`` line breaks) whole, and
    carries the buffer's version."""
    config = deck.project / "skilldeck.toml"
    text = "# team\r\n[overlap]\r\nthreshold = 0.2\r\n"
    config.write_bytes(text.encode())
    _workflow, guide, _driven = write_tdd_skills(deck, "Plan the weekly roadmap.")
    client = await start_editor(start_server)
    open_deck(client, deck)
    await diagnostics_of(client, guide, lambda d: "SD801" in codes(d))
    open_doc(client, config, text, version=7)
    open_doc(client, guide)

    action = await _declare_with(client, guide, "tdd-workflow")

    assert action is not None and action.edit is not None
    assert action.edit.document_changes is not None
    (change,) = action.edit.document_changes
    assert isinstance(change, types.TextDocumentEdit)
    assert change.text_document.version == 7
    assert [e.range for e in change.edits] == [types.Range(pos(0, 0), pos(3, 0))]


async def test_hover_names_the_generalist_of_a_pair(deck: Deck, start_server: StartServer) -> None:
    """`review` says the task alone: it catches F# review requests whatever the two
    descriptions say, and the hover on `fsharp-reviewer` says which one is the generalist."""
    review = deck.write(
        deck.project_dsh,
        "review",
        skill_text("review", "PR Reviewer agent. Reviews implemented code, outputs a report."),
    )
    fsharp = deck.write(
        deck.user_dsh,
        "fsharp-reviewer",
        skill_text(
            "fsharp-reviewer", "Expert F# code reviewer for functional idioms and type safety."
        ),
    )
    client = await start_editor(start_server)
    open_deck(client, deck)
    on_review = await diagnostics_of(client, review, lambda d: codes(d) == ["SD801"])
    assert on_review[0].message.startswith("`review` and `fsharp-reviewer` describe overlapping")
    open_doc(client, fsharp)

    section = await nearest_section(client, fsharp)

    (line,) = [line for line in section.split("\n") if "`review`" in line]
    assert line.startswith(f"- [`review`]({uri(review)}) · score ")
    assert float(line.split(" · score ")[1].split(" ")[0]) >= 0.3
    assert line.endswith(" · generalist: `review` (named for the task alone)")


def _family_message(count: int, names: list[str]) -> str:
    shown = ", ".join(f"`{name}`" for name in names)
    return f"{count} skills have the same description: {shown}; the model cannot tell them apart"


async def test_a_family_of_copies_is_one_finding_on_each_and_follows_typing(
    deck: Deck, start_server: StartServer
) -> None:
    """Three copies: one SD802 on each naming the family, pointing at the two others; one
    copy rewritten as the user types leaves a family of two (and the rewritten file
    alone), typed back it rejoins; the hover on a description lists its family."""
    names = ["tdd-copy-a", "tdd-copy-b", "tdd-copy-c"]
    paths = [deck.write(deck.project_dsh, name, skill_text(name, TDD_GUIDE)) for name in names]
    client = await start_editor(start_server)
    open_deck(client, deck)
    for path in paths:
        (finding,) = await diagnostics_of(client, path, lambda d: codes(d) == ["SD802"])
        assert finding.message == _family_message(3, names)
        assert finding.severity == types.DiagnosticSeverity.Warning
        assert finding.related_information is not None
        assert [(r.location.uri, r.message) for r in finding.related_information] == [
            (uri(other), f"`{other.parent.name}`: the same description")
            for other in paths
            if other != path
        ]
    open_doc(client, paths[0])
    section = (await nearest_section(client, paths[0])).split("\n")
    assert section == [
        "**2 other skills with the same description** (one family, SD802):",
        f"- [`tdd-copy-b`]({uri(paths[1])})",
        f"- [`tdd-copy-c`]({uri(paths[2])})",
    ]

    rewritten = skill_text(names[0], "Plan the weekly roadmap review with the team.")
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri(paths[0]), version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(rewritten)],
        )
    )
    await diagnostics_of(client, paths[0], lambda d: d == [])
    for path in paths[1:]:
        await diagnostics_of(
            client,
            path,
            lambda d: [x.message for x in d] == [_family_message(2, names[1:])],
        )
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri(paths[0]), version=3),
            content_changes=[
                types.TextDocumentContentChangeWholeDocument(skill_text(names[0], TDD_GUIDE))
            ],
        )
    )
    for path in paths:
        await diagnostics_of(
            client, path, lambda d: [x.message for x in d] == [_family_message(3, names)]
        )


async def test_typing_in_a_copy_tells_its_family_and_competitor_only_when_it_moves(
    deck: Deck, start_server: StartServer
) -> None:
    """A keystroke re-publishes the edited copy's family and competitors only when what
    they are told moves (not every copy on every keystroke): typing a few words one
    character at a time turns two copies into a family of nearly the same descriptions,
    typing them away again makes them copies again, and the competing skill's SD801
    comes back as it was."""
    names = ["tdd-copy-a", "tdd-copy-b"]
    paths = [deck.write(deck.project_dsh, name, skill_text(name, TDD_GUIDE)) for name in names]
    workflow = deck.write(
        deck.project_dsh, "tdd-workflow", skill_text("tdd-workflow", TDD_WORKFLOW)
    )
    client = await start_editor(start_server)
    open_deck(client, deck)
    for path in paths:
        await diagnostics_of(
            client, path, lambda d: [x.message for x in d][:1] == [_family_message(2, names)]
        )
    (rival,) = await diagnostics_of(client, workflow, lambda d: codes(d) == ["SD801"])
    open_doc(client, paths[0])
    line = skill_text(names[0], TDD_GUIDE).split("\n")[2]
    typed = " Also for katas."
    version = 1
    for end in [*range(1, len(typed) + 1), *range(len(typed) - 1, -1, -1)]:
        version += 1
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(
                    uri=uri(paths[0]), version=version
                ),
                content_changes=[
                    types.TextDocumentContentChangePartial(
                        range=types.Range(pos(2, 0), pos(2, 10_000)), text=line + typed[:end]
                    )
                ],
            )
        )
        if end == len(typed):
            for path in paths:
                await diagnostics_of(
                    client,
                    path,
                    lambda d: [x.message for x in d][:1] == [_nearly(names)],
                )
    for path in paths:
        await diagnostics_of(
            client, path, lambda d: [x.message for x in d][:1] == [_family_message(2, names)]
        )
    await diagnostics_of(client, workflow, lambda d: d == [rival])


def _nearly(names: list[str]) -> str:
    shown = ", ".join(f"`{name}`" for name in names)
    count = len(names)
    how = "nearly the same description"
    return f"{count} skills have {how}: {shown}; the model cannot tell them apart"
