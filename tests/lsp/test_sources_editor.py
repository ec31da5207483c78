"""A git source (``[[sources]]``) in the editor: its skills appear in the Skills view under
their origin label, and a local file they shadow is told so (diagnostic and hover)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from lsp_harness import Deck, StartServer, diagnostics_of, indexed, request, skill_text, uri
from lsprotocol import types

_GIT_ENV = {"GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null", "PATH": "/usr/bin:/bin"}
_IDENTITY = ("-c", "user.name=Team", "-c", "user.email=team@example.invalid")


def _team_repository(folder: Path) -> Path:
    """A bare repository whose ``skills/team-review`` is the team's skill."""
    work = folder / "work"
    (work / "skills" / "team-review").mkdir(parents=True)
    (work / "skills" / "team-review" / "SKILL.md").write_text(
        skill_text("team-review", "Review the way the team does."), encoding="utf-8"
    )
    bare = folder / "team.git"
    for args in (
        ("init", "-q", "-b", "main", str(work)),
        ("-C", str(work), "add", "-A"),
        ("-C", str(work), "commit", "-q", "-m", "skills"),
        ("clone", "-q", "--bare", str(work), str(bare)),
    ):
        subprocess.run(["git", *_IDENTITY, *args], check=True, env=_GIT_ENV, capture_output=True)
    return bare


async def test_a_git_source_shows_its_label_and_shadows_a_user_skill(
    deck: Deck, start_server: StartServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SKILLDECK_CACHE_DIR", str(tmp_path / "cache"))
    bare = _team_repository(tmp_path / "team")
    (deck.project / "skilldeck.toml").write_text(
        f'[[sources]]\nname = "team"\ntype = "git"\nurl = "{bare.as_uri()}"\npath = "skills"\n',
        encoding="utf-8",
    )
    mine = deck.write(deck.user_dsh, "team-review", skill_text("team-review", "A personal review."))
    client = await start_server()
    await indexed(client)
    result = await request(client, "skilldeck/skills", {"uri": uri(deck.project)})
    (folder,) = result["folders"]
    rows = {(row["rank"], row["source"]): row for row in folder["roots"]}
    team = rows[(350, "git:team")]
    assert team["provider"] == "git:team"
    (skill,) = team["skills"]
    assert skill["name"] == "team-review" and skill["winner"] is True
    user = rows[(400, "user-dsh")]
    (shadowed,) = user["skills"]
    assert shadowed["shadowedBy"]["source"] == "git:team"

    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            types.TextDocumentItem(uri(mine), "markdown", 1, mine.read_text(encoding="utf-8"))
        )
    )
    (shadowing,) = await diagnostics_of(
        client, mine, lambda found: any("git:team" in d.message for d in found)
    )
    assert shadowing.message.startswith("shadowed by git:team skill at "), shadowing.message
    hover = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri(mine)), types.Position(1, 7))
    )
    assert hover is not None
    assert isinstance(hover.contents, types.MarkupContent)
    # This client lists no hover format: plain text (Markdown's link as "text (url)").
    assert "Shadowed by the git:team skill from provider git:team (file:" in hover.contents.value
    assert "(rank 350): the model never sees this skill." in hover.contents.value
    assert "- `team-review`: Review the way the team does." in hover.contents.value


async def test_a_failing_source_is_a_warning_on_the_config_file(
    deck: Deck, start_server: StartServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SKILLDECK_CACHE_DIR", str(tmp_path / "cache"))
    missing = (tmp_path / "no-such-repo.git").as_uri()
    config = deck.project / "skilldeck.toml"
    config.write_text(
        f'profile = "dsh"\n\n[[sources]]\ntype = "git"\nname = "team"\nurl = "{missing}"\n',
        encoding="utf-8",
    )
    deck.write(deck.project_dsh, "local-one")
    client = await start_server()
    await indexed(client)
    (warning,) = await diagnostics_of(client, config, bool)
    assert warning.severity == types.DiagnosticSeverity.Warning
    assert warning.code == "source"
    assert warning.message.startswith(
        'skill source "team" (git:team) is never fetched, it contributes no skill: '
        "git fetch failed: "
    )
    assert warning.range == types.Range(types.Position(4, 0), types.Position(4, 13))
    result = await request(client, "skilldeck/skills", {"uri": uri(deck.project)})
    names = [s["name"] for r in result["folders"][0]["roots"] for s in r["skills"]]
    assert names == ["local-one"]  # the server keeps serving the local deck

    # The repository appears; the next index fetches it and the warning goes away.
    made = _team_repository(tmp_path / "later")
    made.rename(tmp_path / "no-such-repo.git")
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={}))
    assert await diagnostics_of(client, config, lambda found: not found) == []


async def test_a_removed_folder_takes_its_config_file_warnings_along(
    deck: Deck, start_server: StartServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SKILLDECK_CACHE_DIR", str(tmp_path / "cache"))
    missing = (tmp_path / "no-such-repo.git").as_uri()
    config = deck.project / "skilldeck.toml"
    config.write_text(
        f'[[sources]]\ntype = "git"\nname = "team"\nurl = "{missing}"\n', encoding="utf-8"
    )
    client = await start_server()
    await indexed(client)
    (warning,) = await diagnostics_of(client, config, bool)
    assert warning.code == "source"
    client.workspace_did_change_workspace_folders(
        types.DidChangeWorkspaceFoldersParams(
            event=types.WorkspaceFoldersChangeEvent(
                added=[],
                removed=[types.WorkspaceFolder(uri=uri(deck.project), name="project")],
            )
        )
    )
    assert await diagnostics_of(client, config, lambda found: not found) == []
