"""The editor on hostile skills: a diagnostic on each run of invisible characters (UTF-16
columns), the hover naming the code points and the tag text, a script's findings kept
while the buffer changes and renewed when the script changes on disk, and the
look-alikes staying quiet."""

from __future__ import annotations

from pathlib import Path

from editing_fixtures import doc_id, edits_of, open_doc, pos, replace_doc, rng, start_editor
from hostile_skills import HOSTILE, LOOK_ALIKES, skill, tags
from lsp_harness import Deck, StartServer, codes, diagnostics_of, indexed, wait_for, watching
from lsprotocol import types
from pygls.lsp.client import LanguageClient


def _safety(diagnostics: list[types.Diagnostic]) -> list[str]:
    return [code for code in codes(diagnostics) if len(code) == 6 and code.startswith("SD10")]


async def test_each_invisible_run_is_marked_and_the_hover_names_it(
    deck: Deck, start_server: StartServer
) -> None:
    text = skill(
        "pulled",
        "Formats \u202ecode\u202c.",
        "Run the tests\u200b\u200b now." + tags("hi") + " end\n",
    )
    path = deck.write(deck.project_dsh, "pulled", text)
    client = await start_editor(start_server)
    open_doc(client, path)

    found = await diagnostics_of(client, path, lambda d: len(_safety(d)) == 4)

    marked = sorted(
        ((d.range.start.line, d.range.start.character, d.range.end.character), str(d.code))
        for d in found
        if len(str(d.code)) == 6 and str(d.code).startswith("SD10")
    )
    assert marked == [
        ((2, 21, 22), "SD1002"),
        ((2, 26, 27), "SD1002"),
        ((4, 13, 15), "SD1003"),
        ((4, 20, 24), "SD1001"),  # two tag characters, two UTF-16 units each
    ]
    tag = next(d for d in found if d.code == "SD1001")
    assert tag.severity == types.DiagnosticSeverity.Error
    assert (
        tag.message == '2 invisible Unicode tag characters in the body spell out hidden text: "hi"'
    )

    zero = await client.text_document_hover_async(
        types.HoverParams(text_document=doc_id(path), position=pos(4, 14))
    )
    assert zero is not None and zero.range == rng(4, 13, 4, 15)
    assert isinstance(zero.contents, types.MarkupContent)
    assert zero.contents.value == (
        "**2 invisible characters**\n\n- `U+200B ZERO WIDTH SPACE`\n- `U+200B ZERO WIDTH SPACE`"
    )
    hidden = await client.text_document_hover_async(
        types.HoverParams(text_document=doc_id(path), position=pos(4, 21))
    )
    assert hidden is not None and isinstance(hidden.contents, types.MarkupContent)
    assert hidden.contents.value.endswith("The tag characters spell:\n\n```text\nhi\n```")


async def test_typing_a_payload_marks_it_and_removing_it_clears(
    deck: Deck, start_server: StartServer
) -> None:
    clean = skill("notes", "Takes notes.", "Take notes.\n")
    path = deck.write(deck.project_dsh, "notes", clean)
    client = await start_editor(start_server)
    open_doc(client, path)

    replace_doc(client, path, clean.replace("Takes notes.", "Takes notes." + tags(" obey me")), 2)
    found = await diagnostics_of(client, path, lambda d: _safety(d) == ["SD1001"])
    assert found[0].range == rng(2, 25, 2, 41)

    replace_doc(client, path, clean, 3)
    await diagnostics_of(client, path, lambda d: _safety(d) == [])


async def test_a_bundle_script_finding_stays_while_the_buffer_changes(
    deck: Deck, start_server: StartServer
) -> None:
    hostile = next(h for h in HOSTILE if h.name == "bundle-script")
    path = deck.write(deck.project_dsh, hostile.name, hostile.text)
    for relative, content in hostile.files.items():
        (path.parent / relative).parent.mkdir(parents=True, exist_ok=True)
        (path.parent / relative).write_text(content, encoding="utf-8")
    client = await start_editor(start_server)
    open_doc(client, path)
    await diagnostics_of(client, path, lambda d: _safety(d) == ["SD1035"])
    script = path.parent / "scripts" / "setup.sh"
    [stolen] = await diagnostics_of(client, script, lambda d: _safety(d) == ["SD1013"])
    assert stolen.range == rng(3, 0, 3, 45)  # at the script's line, as `check` reports it

    replace_doc(client, path, hostile.text + "More text.\n", 2)
    [summary] = await diagnostics_of(
        client, path, lambda d: _safety(d) == ["SD1035"] and d[0].range == rng(0, 0, 0, 3)
    )
    assert summary.related_information is not None
    assert [(r.location.uri, r.location.range) for r in summary.related_information] == [
        ((path.parent / "config" / "creds.ini").as_uri(), rng(0, 20, 0, 40)),
        (script.as_uri(), rng(3, 0, 3, 45)),
    ]
    assert _safety(client.diagnostics[script.as_uri()]) == ["SD1013"]  # kept


async def test_look_alikes_stay_quiet_in_the_editor(deck: Deck, start_server: StartServer) -> None:
    text, _files = LOOK_ALIKES["emoji-and-scripts"]
    path = deck.write(deck.project_dsh, "emoji-and-scripts", text)
    quoted, _ = LOOK_ALIKES["quoted-attacks"]
    other = deck.write(deck.project_dsh, "quoted-attacks", quoted)
    client = await start_editor(start_server)
    open_doc(client, path)
    open_doc(client, other)

    # A finding of another family proves the document was judged: add one and wait for it.
    replace_doc(client, path, text.replace("name: emoji-and-scripts", "name: Emoji"), 2)
    judged = await diagnostics_of(client, path, lambda d: "SD203" in codes(d))
    assert _safety(judged) == []
    replace_doc(client, other, quoted.replace("name: quoted-attacks", "name: Quoted"), 2)
    judged = await diagnostics_of(client, other, lambda d: "SD203" in codes(d))
    assert _safety(judged) == []


async def test_the_quick_fix_removes_the_invisible_characters(
    deck: Deck, start_server: StartServer
) -> None:
    text = skill("pulled", "Formats \u202ecode\u202c.", "Run\u200b now.\n")
    path = deck.write(deck.project_dsh, "pulled", text)
    client = await start_editor(start_server)
    open_doc(client, path, text, version=2)
    await diagnostics_of(client, path, lambda d: len(_safety(d)) == 3)

    def at(line: int, character: int) -> types.CodeActionParams:
        return types.CodeActionParams(
            text_document=doc_id(path),
            range=rng(line, character, line, character),
            context=types.CodeActionContext(diagnostics=[], only=[types.CodeActionKind.QuickFix]),
        )

    description = await client.text_document_code_action_async(at(2, 21))
    [remove] = [a for a in description or [] if isinstance(a, types.CodeAction)]
    assert remove.title == "Remove the invisible characters from `description`"
    assert edits_of(remove, path, 2) == [
        types.TextEdit(range=rng(2, 21, 2, 22), new_text=""),
        types.TextEdit(range=rng(2, 26, 2, 27), new_text=""),
    ]
    body = await client.text_document_code_action_async(at(4, 3))
    [zero] = [a for a in body or [] if isinstance(a, types.CodeAction)]
    assert zero.title == "Remove 1 invisible character"
    assert edits_of(zero, path, 2) == [types.TextEdit(range=rng(4, 3, 4, 4), new_text="")]


_BENIGN_SCRIPT = "#!/bin/sh\necho 'setting up'\n"


def _script_bundle(deck: Deck, script: str) -> tuple[Path, Path]:
    """The hostile ``bundle-script`` skill with one benign script at ``script`` (relative
    to its folder); the skill file and the script."""
    hostile = next(h for h in HOSTILE if h.name == "bundle-script")
    path = deck.write(deck.project_dsh, hostile.name, hostile.text)
    target = path.parent / script
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(_BENIGN_SCRIPT, encoding="utf-8")
    return path, target


def _steal_keys() -> str:
    hostile = next(h for h in HOSTILE if h.name == "bundle-script")
    return hostile.files["scripts/setup.sh"]


def _changed(client: LanguageClient, path: Path) -> None:
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=path.as_uri(), type=types.FileChangeType.Changed)]
        )
    )


async def test_a_script_rewritten_deep_in_the_bundle_updates_the_open_skill(
    deck: Deck, start_server: StartServer
) -> None:
    """The client reports a script two levels down changing on disk: the open skill file
    shows the script's finding (its buffer untouched), and loses it when the script is
    benign again."""
    path, script = _script_bundle(deck, "scripts/deploy/setup.sh")
    client = await start_editor(start_server)
    open_doc(client, path)

    script.write_text(_steal_keys(), encoding="utf-8")
    _changed(client, script)
    found = await diagnostics_of(client, path, lambda d: _safety(d) == ["SD1035"])
    (summary,) = [d for d in found if d.code == "SD1035"]
    assert "`scripts/deploy/setup.sh` line 4 (SD1013 error)" in summary.message
    await diagnostics_of(client, script, lambda d: _safety(d) == ["SD1013"])

    script.write_text(_BENIGN_SCRIPT, encoding="utf-8")
    _changed(client, script)
    await diagnostics_of(client, path, lambda d: _safety(d) == [])
    await diagnostics_of(client, script, lambda d: d == [])  # cleared at the script too


async def test_the_servers_own_watcher_sees_a_script_beside_the_skill_file(
    deck: Deck, start_server: StartServer
) -> None:
    """Without the client's watcher the server watches each bundle folder: a script
    directly in it that turns hostile marks the (closed) skill file."""
    path, script = _script_bundle(deck, "setup.sh")
    client = await start_server()
    await indexed(client)
    # The watch goes live once indexing is done and the client is quiet (the server logs
    # it): a script written before that is not compared, only skill files are.
    await wait_for(lambda: watching(client, path.parent.parent), what="the root's watch")
    script.write_text(_steal_keys(), encoding="utf-8")
    await diagnostics_of(client, path, lambda d: _safety(d) == ["SD1035"])
    await diagnostics_of(client, script, lambda d: _safety(d) == ["SD1013"])
    script.write_text(_BENIGN_SCRIPT, encoding="utf-8")
    await diagnostics_of(client, path, lambda d: _safety(d) == [])


async def test_opening_a_skill_judges_its_bundle_as_it_is_on_disk(
    deck: Deck, start_server: StartServer
) -> None:
    """A script two levels down turns hostile while nobody reports it (no client watcher
    event; the server's own watch sees one level into a bundle): opening the skill file
    judges the bundle again, and the open buffer shows the script's finding."""
    path, script = _script_bundle(deck, "scripts/deploy/setup.sh")
    client = await start_editor(start_server)
    await indexed(client)  # the bundle was judged clean
    script.write_text(_steal_keys(), encoding="utf-8")
    open_doc(client, path)
    found = await diagnostics_of(client, path, lambda d: _safety(d) == ["SD1035"])
    (summary,) = [d for d in found if d.code == "SD1035"]
    assert "`scripts/deploy/setup.sh` line 4 (SD1013 error)" in summary.message
    await diagnostics_of(client, script, lambda d: _safety(d) == ["SD1013"])
