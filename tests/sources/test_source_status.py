"""What ``skilldeck sources`` reports, from the engine: revision, age and health of a git
source's copy, read from the cache without touching the network."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from source_helpers import TeamRepo, git

from skilldeck.engine.config._source_spec import GitSourceSpec
from skilldeck.engine.sources._git_cache import FetchError, fetch
from skilldeck.engine.sources._status import source_status


def test_health_follows_the_copy_age_and_the_last_fetch(team: TeamRepo, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    spec = GitSourceSpec(name="team", url=team.file_url, path="skills", refresh_interval=60)
    never = source_status(spec, cache)
    assert (never.health, never.revision, never.age) == ("never fetched", None, None)

    commit = asyncio.run(fetch(spec, cache))
    assert commit == git("rev-parse", "HEAD", cwd=team.work).strip()
    fresh = source_status(spec, cache)
    assert (fresh.health, fresh.revision, fresh.error) == ("ok", commit, None)
    assert fresh.age is not None and fresh.age < 60
    assert fresh.location == team.file_url

    later = source_status(spec, cache, now=time.time() + 61)
    assert later.health == "stale"

    gone = GitSourceSpec(name="team", url=team.file_url, path="skills", refresh_interval=60)
    (team.bare / "HEAD").unlink()  # the remote is now unreadable
    with pytest.raises(FetchError) as failed:
        asyncio.run(fetch(gone, cache))
    message = str(failed.value)
    offline = source_status(gone, cache)
    assert offline.health == "offline"
    assert offline.revision == commit  # the last good copy is still served
    assert offline.error == message and message.startswith("git fetch failed: ")


def test_a_failed_fetch_says_what_git_said(tmp_path: Path) -> None:
    # git's reason is its fatal: line, not the advice that follows it.
    missing = tmp_path / "no-such-repo"
    spec = GitSourceSpec(name="gone", url=str(missing))
    with pytest.raises(FetchError) as failed:
        asyncio.run(fetch(spec, tmp_path / "cache"))
    assert str(failed.value).startswith(
        f"git fetch failed: fatal: '{missing}' does not appear to be a git repository"
    )
