"""Diagnostics end to end: initial index, live typing, shadowing by a buffer, pull mode."""

from __future__ import annotations

import asyncio
import time

from lsp_harness import (
    HANG_S,
    Deck,
    StartServer,
    codes,
    diagnostics_of,
    indexed,
    pull_capabilities,
    skill_text,
    uri,
)
from lsprotocol import types

DOCS = "https://github.com/skilldeck/skilldeck/blob/main/docs/rules.md#"


async def test_initial_index_reports_every_root(deck: Deck, start_server: StartServer) -> None:
    winner = deck.write(deck.project_dsh, "review")
    shadowed = deck.write(deck.user_agents, "review")
    broken = deck.write(deck.user_dsh, "broken", "---\nname: broken\n---\n")
    custom = deck.base / "custom"
    odd = deck.write(custom, "odd", skill_text("Odd_Name"))
    client = await start_server(settings={"customSkillDirs": [str(custom)]})

    lost = await diagnostics_of(client, shadowed, lambda d: codes(d) == ["SD701"])
    assert lost[0].severity == types.DiagnosticSeverity.Information
    assert lost[0].source == "skilldeck"
    assert lost[0].range == types.Range(types.Position(1, 6), types.Position(1, 12))
    assert lost[0].code_description is not None
    assert lost[0].code_description.href == DOCS + "sd701-shadowed-skill"
    related = lost[0].related_information
    assert related is not None and related[0].location.uri == uri(winner)
    assert related[0].location.range == types.Range(types.Position(1, 6), types.Position(1, 12))

    won = await diagnostics_of(client, winner, lambda d: codes(d) == ["SD702"])
    assert won[0].data["code"] == "SD702"

    missing = await diagnostics_of(client, broken, lambda d: "SD204" in codes(d))
    assert [d.severity for d in missing if d.code == "SD204"] == [types.DiagnosticSeverity.Error]
    await diagnostics_of(client, odd, lambda d: "SD203" in codes(d))
    (reports,) = client.progress_reports.values()
    assert isinstance(reports[0], types.WorkDoneProgressBegin)
    assert isinstance(reports[-1], types.WorkDoneProgressEnd)


async def test_typing_an_error_then_fixing_it(deck: Deck, start_server: StartServer) -> None:
    path = deck.write(deck.project_agents, "notes")
    client = await start_server()
    await indexed(client)
    text = path.read_text(encoding="utf-8")
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            types.TextDocumentItem(uri=uri(path), language_id="markdown", version=1, text=text)
        )
    )
    # Type "Bad_" in front of the name: line 1 is "name: notes".
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri(path), version=2),
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(types.Position(1, 6), types.Position(1, 6)), text="Bad_"
                )
            ],
        )
    )
    bad = await diagnostics_of(client, path, lambda d: "SD203" in codes(d))
    invalid = next(d for d in bad if d.code == "SD203")
    assert invalid.range == types.Range(types.Position(1, 6), types.Position(1, 15))
    assert invalid.severity == types.DiagnosticSeverity.Error

    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri(path), version=3),
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(types.Position(1, 6), types.Position(1, 10)), text=""
                )
            ],
        )
    )
    await diagnostics_of(client, path, lambda d: d == [])


async def test_renaming_in_a_buffer_moves_shadowing(deck: Deck, start_server: StartServer) -> None:
    project = deck.write(deck.project_dsh, "draft", skill_text("draft"))
    user = deck.write(deck.user_dsh, "deploy")
    client = await start_server()
    await indexed(client)

    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            types.TextDocumentItem(
                uri=uri(project),
                language_id="markdown",
                version=1,
                text=skill_text("deploy"),
            )
        )
    )
    shadowed = await diagnostics_of(client, user, lambda d: codes(d) == ["SD701"])
    assert shadowed[0].related_information is not None
    assert shadowed[0].related_information[0].location.uri == uri(project)
    await diagnostics_of(client, project, lambda d: codes(d) == ["SD206", "SD702"])

    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri(project), version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(skill_text("draft"))],
        )
    )
    await diagnostics_of(client, user, lambda d: d == [])
    await diagnostics_of(client, project, lambda d: d == [])


async def test_shadowing_follows_the_name_when_a_buffer_moves_it(
    deck: Deck, start_server: StartServer
) -> None:
    winner = deck.write(deck.project_dsh, "review")
    shadowed = deck.write(deck.user_agents, "review")
    client = await start_server()
    await diagnostics_of(client, shadowed, lambda d: codes(d) == ["SD701"])

    # Two lines above the name and a longer indent: "name: review" becomes line 3.
    moved = "---\nlicense: MIT\nmodel: x\nname:   review\ndescription: Does a thing.\n---\n"
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            types.TextDocumentItem(uri=uri(shadowed), language_id="markdown", version=1, text=moved)
        )
    )
    name_range = types.Range(types.Position(3, 8), types.Position(3, 14))
    lost = await diagnostics_of(
        client, shadowed, lambda d: codes(d) == ["SD701"] and d[0].range == name_range
    )
    assert lost[0].range == name_range
    won = await diagnostics_of(
        client,
        winner,
        lambda d: (
            codes(d) == ["SD702"]
            and d[0].related_information is not None
            and d[0].related_information[0].location.range == name_range
        ),
    )
    assert won[0].range == types.Range(types.Position(1, 6), types.Position(1, 12))
    related = won[0].related_information
    assert related is not None and related[0].location.uri == uri(shadowed)


async def test_utf16_columns_after_astral_characters(deck: Deck, start_server: StartServer) -> None:
    path = deck.write(deck.project_dsh, "emoji", "---\nname: \U0001f600bad\ndescription: x\n---\n")
    client = await start_server()
    found = await diagnostics_of(client, path, lambda d: "SD203" in codes(d))
    invalid = next(d for d in found if d.code == "SD203")
    # One astral character is two UTF-16 code units: "😀bad" spans columns 6..11.
    assert invalid.range == types.Range(types.Position(1, 6), types.Position(1, 11))


async def test_pull_client_gets_reports_and_no_pushes(
    deck: Deck, start_server: StartServer
) -> None:
    bad = deck.write(deck.project_dsh, "bad", "---\nname: bad\n---\n")
    good = deck.write(deck.project_dsh, "good")
    client = await start_server(capabilities=pull_capabilities())

    report = await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri(bad)))
    )
    assert isinstance(report, types.RelatedFullDocumentDiagnosticReport)
    assert codes(list(report.items)) == ["SD204"]

    workspace = await client.workspace_diagnostic_async(
        types.WorkspaceDiagnosticParams(previous_result_ids=[])
    )
    by_uri = {item.uri: codes(list(item.items)) for item in workspace.items}
    assert by_uri[uri(bad)] == ["SD204"]
    assert uri(good) not in by_uri
    assert client.diagnostics == {}


async def test_pulled_reports_carry_result_ids_and_unchanged_ones_are_not_resent(
    deck: Deck, start_server: StartServer
) -> None:
    bad = deck.write(deck.project_dsh, "bad", "---\nname: bad\n---\n")
    other = deck.write(deck.project_dsh, "other", "---\nname: other\n---\n")
    deck.write(deck.project_dsh, "good")
    client = await start_server(capabilities=pull_capabilities())

    def previous(report: types.WorkspaceDiagnosticReport) -> list[types.PreviousResultId]:
        return [types.PreviousResultId(uri=i.uri, value=i.result_id or "") for i in report.items]

    first = await client.workspace_diagnostic_async(
        types.WorkspaceDiagnosticParams(previous_result_ids=[])
    )
    assert sorted(i.uri for i in first.items) == sorted([uri(bad), uri(other)])
    assert all(i.result_id for i in first.items)
    # Nothing changed: a pull with those ids gets nothing back.
    again = await client.workspace_diagnostic_async(
        types.WorkspaceDiagnosticParams(previous_result_ids=previous(first))
    )
    assert list(again.items) == []
    bad_id = next(i.result_id for i in first.items if i.uri == uri(bad))
    unchanged = await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(
            text_document=types.TextDocumentIdentifier(uri(bad)), previous_result_id=bad_id
        )
    )
    assert isinstance(unchanged, types.RelatedUnchangedDocumentDiagnosticReport)
    assert unchanged.result_id == bad_id

    # Fix "bad" in a buffer: only it comes back, cleared, with a new id.
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            types.TextDocumentItem(
                uri=uri(bad), language_id="markdown", version=1, text=skill_text("bad")
            )
        )
    )
    deadline = time.monotonic() + HANG_S  # the re-judged buffer, however loaded the machine
    while True:
        fresh = await client.text_document_diagnostic_async(
            types.DocumentDiagnosticParams(
                text_document=types.TextDocumentIdentifier(uri(bad)), previous_result_id=bad_id
            )
        )
        if isinstance(fresh, types.RelatedFullDocumentDiagnosticReport):
            break
        if time.monotonic() > deadline:
            break
        await asyncio.sleep(0.02)
    assert isinstance(fresh, types.RelatedFullDocumentDiagnosticReport)
    assert (list(fresh.items), fresh.result_id != bad_id) == ([], True)
    later = await client.workspace_diagnostic_async(
        types.WorkspaceDiagnosticParams(previous_result_ids=previous(first))
    )
    assert [(i.uri, list(i.items), i.result_id) for i in later.items] == [
        (uri(bad), [], fresh.result_id)
    ]
    assert later.items[0].version == 1


async def test_indexing_reports_skill_file_counts(deck: Deck, start_server: StartServer) -> None:
    for number in range(120):
        deck.write(deck.project_dsh, f"skill-{number:03d}")
    for number in range(30):
        deck.write(deck.project_agents, f"other-{number:03d}", flat=True)
    client = await start_server()
    await indexed(client)

    (reports,) = client.progress_reports.values()
    counts = [
        report.message
        for report in reports
        if isinstance(report, types.WorkDoneProgressReport)
        and report.message is not None
        and report.message.endswith("skill files")
    ]
    assert counts[-1] == "150/150 skill files"
    assert len(counts) >= 10  # a 6 s scan of 2,000 files shows it moving, not one jump
    done = [int(message.split("/")[0].replace(",", "")) for message in counts]
    assert done == sorted(done) and done[0] < 150
    percentages = [r.percentage for r in reports if isinstance(r, types.WorkDoneProgressReport)]
    assert percentages[-1] == 100
    assert isinstance(reports[-1], types.WorkDoneProgressEnd)
