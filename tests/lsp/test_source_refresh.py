"""Remote sources in the editor: sources from editor settings (``skilldeck.sources``),
the background refresh of git sources (with progress), ``skilldeck.sources.update``, and
a failing source that never stops the server nor opens a dialog."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from lsp_harness import (
    Deck,
    StartServer,
    catalog_changes,
    diagnostics_of,
    indexed,
    request,
    skill_text,
    uri,
    wait_for,
)
from lsprotocol import types
from pytest_lsp import LanguageClient
from source_helpers import TeamRepo, skill


@pytest.fixture(autouse=True)
def _cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SKILLDECK_CACHE_DIR", str(tmp_path / "cache"))


async def _source_skills(client: LanguageClient, deck: Deck, label: str) -> list[str]:
    result = await request(client, "skilldeck/skills", {"uri": uri(deck.project)})
    return sorted(
        skill["name"]
        for folder in result["folders"]
        for root in folder["roots"]
        if root["source"] == label
        for skill in root["skills"]
    )


def _source_progress(client: LanguageClient) -> list[list[Any]]:
    """The progress events of each source refresh that has begun. A token is known from
    its ``window/workDoneProgress/create`` on, before its first event: such an empty list
    is left out, so a caller may look at each list's last event."""
    return [
        events
        for token, events in client.progress_reports.items()
        if str(token).startswith("skilldeck-sources-") and events
    ]


def _warnings_logged(client: LanguageClient, text: str) -> list[str]:
    return [
        m.message
        for m in client.log_messages
        if m.type == types.MessageType.Warning and text in m.message
    ]


async def test_an_editor_source_serves_its_skills_and_a_new_commit_arrives_in_the_background(
    deck: Deck, start_server: StartServer, tmp_path: Path
) -> None:
    team = TeamRepo.create(tmp_path / "team")
    mine = deck.write(deck.user_dsh, "deploy-check", skill_text("deploy-check", "Mine."))
    settings = {
        "sources": [
            {
                "name": "team",
                "type": "git",
                "url": team.file_url,
                "path": "skills",
                "refresh-interval": 0.5,
            }
        ]
    }
    client = await start_server(settings=settings)
    await indexed(client)
    assert await _source_skills(client, deck, "git:team") == ["team-review"]
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            types.TextDocumentItem(uri(mine), "markdown", 1, mine.read_text(encoding="utf-8"))
        )
    )
    changes = len(catalog_changes(client))

    # The team adds a skill of the same name: the next background refresh brings it,
    # the user's own copy is told it is shadowed, the catalog changes.
    team.write("skills/deploy-check/SKILL.md", skill("deploy-check", "The team's check."))
    team.commit("deploy check")
    (shadowed,) = await diagnostics_of(
        client, mine, lambda found: any("git:team" in d.message for d in found)
    )
    assert shadowed.message.startswith("shadowed by git:team skill at "), shadowed.message
    assert await _source_skills(client, deck, "git:team") == ["deploy-check", "team-review"]
    await wait_for(lambda: len(catalog_changes(client)) > changes, what="a catalog change")

    # Progress: begin, a report naming the source, end.
    progress = await wait_for(
        lambda: [
            e for e in _source_progress(client) if isinstance(e[-1], types.WorkDoneProgressEnd)
        ],
        what="a finished source refresh",
    )
    events = progress[0]
    assert isinstance(events[0], types.WorkDoneProgressBegin)
    assert events[0].title == "Refreshing skill sources"
    reports = [e.message for e in events if isinstance(e, types.WorkDoneProgressReport)]
    assert 'fetching "team" (git:team)' in reports
    assert events[-1].message == "Skill sources refreshed"
    assert client.messages == []  # no dialog


async def test_a_failing_file_source_is_a_warning_and_the_last_good_copy_is_served(
    deck: Deck, start_server: StartServer, tmp_path: Path
) -> None:
    team = TeamRepo.create(tmp_path / "team")
    config = deck.project / "skilldeck.toml"
    config.write_text(
        f'[[sources]]\nname = "team"\ntype = "git"\nurl = "{team.file_url}"\npath = "skills"\n'
        "refresh-interval = 0.3\n",
        encoding="utf-8",
    )
    client = await start_server()
    await indexed(client)
    assert await _source_skills(client, deck, "git:team") == ["team-review"]

    moved = team.bare.with_name("gone.git")
    team.bare.rename(moved)  # the network goes down
    (warning,) = await diagnostics_of(client, config, bool)
    assert warning.severity == types.DiagnosticSeverity.Warning
    assert warning.message.startswith(
        'skill source "team" (git:team) is offline, serving its last good copy: git fetch failed: '
    ), warning.message
    assert warning.range.start.line == 1
    assert await _source_skills(client, deck, "git:team") == ["team-review"]
    failed = await wait_for(
        lambda: [
            e[-1].message
            for e in _source_progress(client)
            if isinstance(e[-1], types.WorkDoneProgressEnd)
            and e[-1].message == "1 skill source(s) failed"
        ],
        what="a failed refresh's progress",
    )
    assert failed

    moved.rename(team.bare)  # back online: the next refresh clears the warning
    assert await diagnostics_of(client, config, lambda found: not found) == []
    assert client.messages == []  # never a dialog, however often it failed


async def test_a_failing_editor_source_is_logged_once_and_the_server_keeps_serving(
    deck: Deck, start_server: StartServer, tmp_path: Path
) -> None:
    deck.write(deck.project_dsh, "local-one")
    missing = (tmp_path / "no-such.git").as_uri()
    settings = {
        "sources": [{"name": "team", "type": "git", "url": missing, "refresh-interval": 0.2}]
    }
    client = await start_server(settings=settings)
    await indexed(client)
    await wait_for(lambda: len(_source_progress(client)) >= 3, what="three refreshes")
    (logged,) = _warnings_logged(client, 'skill source "team"')
    assert logged.startswith(
        'skilldeck: skill source "team" (git:team, from skilldeck.sources) is never fetched: '
        "git fetch failed: "
    ), logged
    result = await request(client, "skilldeck/skills", {"uri": uri(deck.project)})
    names = [s["name"] for r in result["folders"][0]["roots"] for s in r["skills"]]
    assert names == ["local-one"]
    assert client.messages == []


async def test_update_command_fetches_now_and_answers_each_sources_status(
    deck: Deck, start_server: StartServer, tmp_path: Path
) -> None:
    team = TeamRepo.create(tmp_path / "team")
    settings = {
        "sources": [{"name": "team", "type": "git", "url": team.file_url, "path": "skills"}]
    }
    client = await start_server(settings=settings)
    await indexed(client)
    team.write("skills/later/SKILL.md", skill("later"))
    commit = team.commit("later")
    result = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="skilldeck.sources.update")
    )
    (status,) = result["sources"] if isinstance(result, dict) else result.sources
    status = status if isinstance(status, dict) else status._asdict()
    assert (status["label"], status["health"], status["revision"]) == ("git:team", "ok", commit)
    assert await _source_skills(client, deck, "git:team") == ["later", "team-review"]


@pytest.mark.parametrize(
    ("url", "sent_as", "message"),
    [
        (
            "ext::sh -c id",
            "settings",
            "'skilldeck.sources[0].url': the 'ext::' transport is not allowed (use one of "
            "https, http, ssh, git, file or a local path); only the config file's sources "
            "are used.",
        ),
        # A malformed IPv6 literal once failed ``initialize`` itself (-32603: no server).
        (
            "ssh://[x/repo",
            "initialization_options",
            "'skilldeck.sources[0].url' is not a valid URL: Invalid IPv6 URL; only the "
            "config file's sources are used.",
        ),
    ],
)
async def test_a_bad_editor_source_is_named_once_and_the_file_sources_stay(
    deck: Deck, start_server: StartServer, tmp_path: Path, url: str, sent_as: str, message: str
) -> None:
    team = TeamRepo.create(tmp_path / "team")
    (deck.project / "skilldeck.toml").write_text(
        f'[[sources]]\nname = "team"\ntype = "git"\nurl = "{team.file_url}"\npath = "skills"\n',
        encoding="utf-8",
    )
    sources = {"sources": [{"name": "mine", "type": "git", "url": url}]}
    client = await start_server(**{sent_as: sources})
    await indexed(client)
    assert [m.message for m in client.messages] == [message]
    assert await _source_skills(client, deck, "git:team") == ["team-review"]


async def test_editor_sources_merge_with_the_file_sources_by_name(
    deck: Deck, start_server: StartServer, tmp_path: Path
) -> None:
    team = TeamRepo.create(tmp_path / "team")
    mine = TeamRepo.create(tmp_path / "mine")
    mine.write("skills/my-own/SKILL.md", skill("my-own"))
    mine.commit("mine")
    config = deck.project / "skilldeck.toml"
    missing = (tmp_path / "no-such.git").as_uri()
    config.write_text(
        f'[[sources]]\nname = "team"\ntype = "git"\nurl = "{missing}"\n\n'
        f'[[sources]]\nname = "docs"\ntype = "git"\nurl = "{team.file_url}"\npath = "skills"\n',
        encoding="utf-8",
    )
    settings = {
        "sources": [
            # replaces the file's broken "team" ...
            {"name": "team", "type": "git", "url": mine.file_url, "path": "skills"},
            # ... and adds a source that fails: logged, not put on the file
            {"name": "extra", "type": "git", "url": missing},
        ]
    }
    client = await start_server(settings=settings)
    await indexed(client)
    assert await _source_skills(client, deck, "git:team") == ["my-own", "team-review"]
    assert await _source_skills(client, deck, "git:docs") == ["team-review"]
    await wait_for(lambda: _warnings_logged(client, 'skill source "extra"'), what="the log")
    assert client.diagnostics.get(uri(config), []) == []
