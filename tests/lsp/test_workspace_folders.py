"""Workspace folders coming and going, and skill files outside every folder's roots.

A removed folder's diagnostics leave the client (unless a remaining folder still reports
on the file); an open ``SKILL.md`` outside every skill root is judged alone, as
``skilldeck check <file>`` judges it; a folder the server made up while the workspace had
none goes once a real folder arrives.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from editing_fixtures import doc_id, open_doc, pos, replace_doc
from lsp_harness import (
    Deck,
    StartServer,
    codes,
    diagnostics_of,
    indexed,
    request,
    skill_text,
    uri,
    wait_until,
)
from lsprotocol import types
from pytest_lsp import LanguageClient


def folder(path: Path) -> types.WorkspaceFolder:
    return types.WorkspaceFolder(uri=uri(path), name=path.name)


def change_folders(
    client: LanguageClient, *, added: Sequence[Path] = (), removed: Sequence[Path] = ()
) -> None:
    client.workspace_did_change_workspace_folders(
        types.DidChangeWorkspaceFoldersParams(
            event=types.WorkspaceFoldersChangeEvent(
                added=[folder(p) for p in added], removed=[folder(p) for p in removed]
            )
        )
    )


def second_project(deck: Deck) -> Path:
    """Another project next to ``deck.project`` (its own ``.git``)."""
    other = deck.base / "second"
    (other / ".git").mkdir(parents=True)
    return other


async def folders_listed(client: LanguageClient) -> list[str]:
    result = await request(client, "skilldeck/skills", {})
    return sorted(f["folderUri"] for f in result["folders"])


async def test_a_removed_folder_takes_its_diagnostics_along(
    deck: Deck, start_server: StartServer
) -> None:
    """Open or not, the removed folder's files are cleared; a user skill both folders
    index keeps the verdict of the folder that remains."""
    other = second_project(deck)
    agents = other / ".agents" / "skills"
    # Open: its only finding is the deck's (a mention of no skill), so once the folder
    # is gone it is a lone SKILL.md without findings.
    beta = deck.write(agents, "beta", skill_text("beta") + "Then run /ghost now.\n")
    gamma = deck.write(agents, "gamma", "---\nname: gamma\n---\n")  # not open: SD204
    user = deck.write(deck.user_agents, "mine", "---\nname: mine\n---\n")  # both folders
    client = await start_server(folders=[deck.project, other])
    await indexed(client)
    open_doc(client, beta)
    await diagnostics_of(client, beta, lambda d: codes(d) == ["SD704"])
    await diagnostics_of(client, gamma, lambda d: codes(d) == ["SD204"])
    await diagnostics_of(client, user, lambda d: codes(d) == ["SD204"])

    change_folders(client, removed=[other])
    await diagnostics_of(client, gamma, lambda d: d == [])
    await diagnostics_of(client, beta, lambda d: d == [])
    assert codes(client.diagnostics[uri(user)]) == ["SD204"]
    assert await folders_listed(client) == [uri(deck.project)]

    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=doc_id(beta), position=pos(1, 7))
    )
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    assert "not in any skill root of this workspace" in hover.contents.value


async def test_a_skill_file_outside_every_root_is_judged_as_check_judges_it(
    deck: Deck, start_server: StartServer
) -> None:
    """``skilldeck check docs/thing/SKILL.md`` reports SD203 and SD204 for it: so does the
    editor while the file is open (with the folder's name as the expected name), and the
    quick fix's diagnostic is one the client was sent. Closing it clears them."""
    deck.write(deck.project_dsh, "anchor")
    loose = deck.project / "docs" / "thing" / "SKILL.md"
    loose.parent.mkdir(parents=True)
    text = "---\nname: Bad_Loose\n---\n\n# Bad\n"
    loose.write_text(text, encoding="utf-8")
    client = await start_server()
    await indexed(client)
    open_doc(client, loose, text)
    found = await diagnostics_of(client, loose, lambda d: codes(d) == ["SD203", "SD204"])
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=doc_id(loose),
            range=types.Range(start=pos(0, 0), end=pos(3, 0)),
            context=types.CodeActionContext(diagnostics=found),
        )
    )
    attached = [
        (d.code, d.range, d.message)
        for action in actions or []
        if isinstance(action, types.CodeAction)
        for d in action.diagnostics or []
    ]
    assert attached and all(
        item in [(d.code, d.range, d.message) for d in found] for item in attached
    )

    replace_doc(client, loose, "---\nname: thing\ndescription: Fixed.\n---\n", 2)
    await diagnostics_of(client, loose, lambda d: d == [])
    replace_doc(client, loose, text, 3)
    await diagnostics_of(client, loose, lambda d: codes(d) == ["SD203", "SD204"])
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=doc_id(loose)))
    await diagnostics_of(client, loose, lambda d: d == [])


async def test_a_skill_file_outside_every_folder_is_judged_with_the_editors_settings(
    deck: Deck, start_server: StartServer
) -> None:
    """The user's ``skilldeck.profile`` reaches a ``SKILL.md`` no workspace folder holds:
    under ``codex`` an unquoted ``: `` is what ``check --profile codex`` says of the file
    (a warning: Codex 0.171.0 loads it), not the default profile's "(skill not loaded)"."""
    deck.write(deck.project_dsh, "anchor")
    outside = deck.base / "elsewhere" / "thing" / "SKILL.md"
    outside.parent.mkdir(parents=True)
    text = "---\nname: thing\ndescription: Deploys: the app.\n---\n\nBody.\n"
    outside.write_text(text, encoding="utf-8")
    client = await start_server(settings={"profile": "codex"})
    await indexed(client)
    open_doc(client, outside, text)
    found = await diagnostics_of(client, outside, lambda d: codes(d) == ["SD103"])
    assert found[0].severity == types.DiagnosticSeverity.Warning
    assert "Codex 0.171.0 reads the value as written and loads the skill" in found[0].message
    assert "(skill not loaded)" not in found[0].message


async def test_a_skill_file_opened_without_workspace_folders_is_judged(
    deck: Deck, start_server: StartServer
) -> None:
    outside = deck.base / "elsewhere" / "thing" / "SKILL.md"
    outside.parent.mkdir(parents=True)
    text = "---\nname: Bad_Loose\n---\n"
    outside.write_text(text, encoding="utf-8")
    client = await start_server(folders=[])
    open_doc(client, outside, text)
    await diagnostics_of(client, outside, lambda d: codes(d) == ["SD203", "SD204"])


async def test_the_folder_made_up_without_folders_goes_when_a_real_one_comes(
    deck: Deck, start_server: StartServer
) -> None:
    """With the last folder removed, an open skill's own folder is indexed instead; once
    a real folder is back, that stand-in goes (the Skills view lists each deck once)."""
    alpha = deck.write(deck.project_agents, "alpha")
    client = await start_server()
    await indexed(client)
    open_doc(client, alpha)
    change_folders(client, removed=[deck.project])
    replace_doc(client, alpha, skill_text("alpha") + "More.\n", 2)
    stand_in = uri(alpha.parent)
    await wait_for_folders(client, [stand_in])
    change_folders(client, added=[deck.project])
    await wait_for_folders(client, [uri(deck.project)])


async def wait_for_folders(client: LanguageClient, expected: list[str]) -> None:
    async def listed() -> bool:
        return await folders_listed(client) == sorted(expected)

    await wait_until(listed, what=f"the folders {sorted(expected)}")
