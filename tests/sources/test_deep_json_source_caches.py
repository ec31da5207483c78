"""A source cache file nested too deep is a damaged copy: read again or written again,
never a crash. 1,100 nested arrays in a git source's ``state.json`` (the source never
served again) or a retirement record (every fetch failed), or an mcp source's
``listing.json`` (the provider failed), raised ``RecursionError``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from source_helpers import Run, TeamRepo, skill, source_config

RELAY = Path(__file__).with_name("mcp_proxy.py")


def nested(levels: int = 1_100) -> str:
    return "[" * levels + "]" * levels


def _names(run: Run) -> set[str]:
    result = run("list", "--json")
    assert result.code == 0, result.stderr
    return {entry["name"] for entry in json.loads(result.stdout)["skills"]}


def test_a_deep_state_file_is_a_damaged_copy_fetched_again(
    run: Run, project: Path, team: TeamRepo, cache_dir: Path
) -> None:
    source_config(project, team.file_url, path="skills")
    assert _names(run) == {"team-review"}
    (state,) = cache_dir.glob("sources/team-*/state.json")
    state.write_text(nested())

    assert _names(run) == {"team-review"}
    status = run("sources", "--json")
    assert status.code == 0, status.stderr
    assert json.loads(status.stdout)[0]["health"] == "ok"
    assert isinstance(json.loads(state.read_text()), dict)  # written again


def test_a_deep_retirement_record_is_written_again(
    run: Run, project: Path, team: TeamRepo, cache_dir: Path
) -> None:
    source_config(project, team.file_url, path="skills")
    assert _names(run) == {"team-review"}
    team.write("skills/team-review/SKILL.md", skill("team-review", "Review it, v2."))
    team.commit("v2")
    assert run("sources", "update").code == 0
    (record,) = cache_dir.glob("sources/team-*/retired-*")
    record.write_text(nested())
    team.write("skills/team-review/SKILL.md", skill("team-review", "Review it, v3."))
    team.commit("v3")

    update = run("sources", "update")

    assert update.code == 0, update.stdout + update.stderr
    assert "internal error" not in update.stderr
    assert isinstance(json.loads(record.read_text()), dict)  # the commit's record, again
    assert _names(run) == {"team-review"}


def test_a_deep_mcp_listing_is_not_served(
    run: Run, project: Path, tmp_path: Path, cache_dir: Path
) -> None:
    hub = tmp_path / "hub"
    path = hub / ".agents" / "skills" / "hub-review" / "SKILL.md"
    path.parent.mkdir(parents=True)
    path.write_text(skill("hub-review", "Review as the hub says."), encoding="utf-8")
    (hub / ".git").mkdir()
    command = [sys.executable, str(RELAY), "--cwd", str(hub)]
    (project / "skilldeck.toml").write_text(
        # a generous timeout: the relay starts `skilldeck mcp`, slow on a loaded machine
        f'[[sources]]\nname = "hub"\ntype = "mcp"\ncommand = {json.dumps(command)}\n'
        "timeout = 120\n",
        encoding="utf-8",
    )
    first = run("list", "--json", env={"PROXY_MODE": "relay"})
    assert {entry["name"] for entry in json.loads(first.stdout)["skills"]} == {"hub-review"}
    (listing,) = cache_dir.glob("sources/mcp-hub-*/listing.json")
    listing.write_text(nested())

    down = run("list", "--json", env={"PROXY_MODE": "die-on-list"})

    assert down.code == 0, down.stderr
    # The listing counts as missing: the source says why it has none (it used to fail
    # as a provider, "list() failed: RecursionError").
    assert 'skill source "hub": never read: ' in down.stderr
    assert "RecursionError" not in down.stderr
    assert json.loads(down.stdout) == {"complete": False, "skills": []}
    back = run("list", "--json", env={"PROXY_MODE": "relay"})
    assert {entry["name"] for entry in json.loads(back.stdout)["skills"]} == {"hub-review"}
    assert isinstance(json.loads(listing.read_text()), dict)  # the good listing, stored again
