"""A git source's cache under faults: a commit nested a thousand folders deep, a dead
run's deep checkout, a previous commit under a running reader, a damaged copy, and cache
files replaced by FIFOs. ``skilldeck`` runs are subprocesses; each has a time limit."""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest
from source_helpers import Run, TeamRepo, deep_chain, skill, source_config

from skilldeck.engine.config._skilldeck_config import SkilldeckConfig
from skilldeck.engine.config._source_spec import GitSourceSpec
from skilldeck.engine.registry._provider import LookupOptions, ProviderObservation
from skilldeck.engine.sources._git_cache import KEEP_OLD_REVS, prune_revisions, retired_at
from skilldeck.engine.sources._git_provider import GitSourceProvider
from skilldeck.engine.sources._status import update_sources

#: Deeper than Python's default recursion limit (1,000), as in the report.
DEEP = 1_100
HOUR_AGO = time.time() - 3600
pytestmark = pytest.mark.usefixtures("removes_deep_trees")


def _copy_folder(cache_dir: Path) -> Path:
    (folder,) = (cache_dir / "sources").iterdir()
    return folder


def _listed(run: Run) -> dict[str, dict[str, object]]:
    result = run("list", "--json")
    assert result.code == 0, result.stderr
    return {entry["name"]: entry for entry in json.loads(result.stdout)["skills"]}


def _status(run: Run) -> dict[str, object]:
    result = run("sources", "--json")
    (entry,) = json.loads(result.stdout)
    assert isinstance(entry, dict)
    return entry


# -- a very deep folder (defect 2) -----------------------------------------------------


def test_a_commit_nested_too_deep_is_a_fetch_error_and_the_last_good_copy_is_served(
    run: Run, project: Path, team: TeamRepo, cache_dir: Path
) -> None:
    source_config(project, team.file_url, path="skills", refresh_interval=0.001)
    assert set(_listed(run)) == {"team-review"}
    good = _status(run)["revision"]
    deep_chain(team.work / "deep", DEEP)
    bad = team.commit("a folder 1,100 levels deep")

    update = run("sources", "update")
    assert update.code == 1, update.stderr
    assert "internal error" not in update.stderr
    assert (
        f"skilldeck: source 'team' not updated: commit {bad[:12]} refused: its folders "
        "nest more than 256 deep" in update.stderr
    )
    listed = run("list")
    assert listed.code == 0, listed.stderr
    assert "team-review  git:team (350)" in listed.stdout
    assert "discovery was incomplete" in listed.stderr
    assert 'skill source "team": serving the last good copy' in listed.stderr
    status = _status(run)
    assert (status["health"], status["revision"]) == ("offline", good)
    assert "nest more than 256 deep" in str(status["error"])
    left = sorted(p.name for p in _copy_folder(cache_dir).iterdir())
    assert left == [f"rev-{good}", "state.json"]  # no checkout left behind


def test_a_dead_runs_deep_checkout_does_not_break_later_fetches(
    run: Run, project: Path, team: TeamRepo, cache_dir: Path
) -> None:
    source_config(project, team.file_url, path="skills")
    assert set(_listed(run)) == {"team-review"}
    folder = _copy_folder(cache_dir)
    dead = folder / "tmp-99999-deadbeef"
    deep_chain(dead, DEEP)
    os.utime(dead, (HOUR_AGO, HOUR_AGO))  # older than the 600 s a live fetch may take
    team.write("skills/team-deploy/SKILL.md", skill("team-deploy", "Deploy the way we do."))
    team.commit("deploy skill")

    update = run("sources", "update")
    assert update.code == 0, update.stderr
    assert "  ok" in update.stdout
    assert set(_listed(run)) == {"team-review", "team-deploy"}
    assert not dead.exists()


# -- the previous commit under a running reader (defect 3) -----------------------------


async def test_a_running_reader_keeps_the_previous_commit_after_an_update(
    team: TeamRepo, cache_dir: Path
) -> None:
    spec = GitSourceSpec(name="team", url=team.file_url, path="skills")
    provider = GitSourceProvider(spec, SkilldeckConfig(), cache_dir=cache_dir)
    listed = await provider.list(LookupOptions())
    assert not isinstance(listed, ProviderObservation)
    (candidate,) = listed
    folder = _copy_folder(cache_dir)
    (previous,) = folder.glob("rev-*")
    os.utime(previous, (HOUR_AGO, HOUR_AGO))  # fetched an hour ago (the default refresh)
    team.write("skills/team-review/SKILL.md", skill("team-review", "The new way to review."))
    team.commit("new review")

    assert await update_sources([spec], cache_dir) == [(spec, None)]
    # The reader that listed before the update still reads its skill's body.
    definition = await provider.get(candidate, LookupOptions())
    assert definition is not None
    assert definition.description == "Review a change the way the team does."
    assert "Body of team-review." in definition.content
    assert previous.is_dir()
    retired = retired_at(folder, previous.name.removeprefix("rev-"))
    assert retired is not None and time.time() - retired < KEEP_OLD_REVS


async def test_a_previous_commit_is_removed_once_its_retention_has_passed(
    team: TeamRepo, cache_dir: Path
) -> None:
    spec = GitSourceSpec(name="team", url=team.file_url, path="skills")
    assert await update_sources([spec], cache_dir) == [(spec, None)]
    folder = _copy_folder(cache_dir)
    (previous,) = folder.glob("rev-*")
    team.write("skills/team-review/SKILL.md", skill("team-review", "The new way to review."))
    current = team.commit("new review")
    assert await update_sources([spec], cache_dir) == [(spec, None)]
    retired = retired_at(folder, previous.name.removeprefix("rev-"))
    assert retired is not None

    prune_revisions(folder, now=retired + KEEP_OLD_REVS - 1)
    assert previous.is_dir()
    prune_revisions(folder, now=retired + KEEP_OLD_REVS + 1)
    assert sorted(p.name for p in folder.iterdir()) == [f"rev-{current}", "state.json"]


# -- a damaged copy (defect 10) --------------------------------------------------------


def test_a_skill_folder_deleted_from_the_cached_copy_is_fetched_again(
    run: Run, project: Path, team: TeamRepo, cache_dir: Path
) -> None:
    team.write("skills/team-deploy/SKILL.md", skill("team-deploy", "Deploy the way we do."))
    team.commit("deploy skill")
    source_config(project, team.file_url, path="skills")
    assert set(_listed(run)) == {"team-review", "team-deploy"}
    (rev,) = _copy_folder(cache_dir).glob("rev-*")
    shutil.rmtree(rev / "skills" / "team-deploy")

    damaged = _status(run)
    assert (damaged["health"], damaged["revision"]) == ("damaged", None)
    assert set(_listed(run)) == {"team-review", "team-deploy"}
    assert _status(run)["health"] == "ok"


def test_a_file_changed_in_size_in_the_cached_copy_is_fetched_again(
    run: Run, project: Path, team: TeamRepo, cache_dir: Path
) -> None:
    source_config(project, team.file_url, path="skills")
    assert set(_listed(run)) == {"team-review"}
    (rev,) = _copy_folder(cache_dir).glob("rev-*")
    changed = rev / "skills" / "team-review" / "SKILL.md"
    changed.write_text(skill("team-review", "Changed in the cache."), encoding="utf-8")

    assert _status(run)["health"] == "damaged"
    listed = _listed(run)
    assert listed["team-review"]["description"] == "Review a change the way the team does."
    assert _status(run)["health"] == "ok"


def test_a_same_size_edit_of_the_cached_copy_is_replaced_by_the_next_fetch(
    run: Run, project: Path, team: TeamRepo, cache_dir: Path
) -> None:
    source_config(project, team.file_url, path="skills")
    assert set(_listed(run)) == {"team-review"}
    (rev,) = _copy_folder(cache_dir).glob("rev-*")
    changed = rev / "skills" / "team-review" / "SKILL.md"
    original = changed.read_text(encoding="utf-8")
    edited = original.replace("the way the team does", "the way I like it, ok")
    assert len(edited) == len(original) and edited != original
    changed.write_text(edited, encoding="utf-8")
    # Sizes are all a use checks (cheap); the fetch of the same commit compares bytes.
    update = run("sources", "update")
    assert update.code == 0, update.stderr
    assert changed.read_text(encoding="utf-8") == original
    assert _listed(run)["team-review"]["description"] == "Review a change the way the team does."


# -- cache files replaced by FIFOs (defect 11) ------------------------------------------


def test_cache_files_replaced_by_fifos_hang_neither_list_nor_check(
    run: Run, project: Path, team: TeamRepo, cache_dir: Path
) -> None:
    source_config(project, team.file_url, path="skills")
    local = project / ".agents" / "skills" / "local-one" / "SKILL.md"
    local.parent.mkdir(parents=True)
    local.write_text(skill("local-one", "A skill of the project."), encoding="utf-8")
    os.utime(local, (HOUR_AGO, HOUR_AGO))  # old enough for the index cache to keep it
    expected_list = run("list", "--json")
    expected_check = run("check", ".")
    assert expected_check.code == 0, expected_check.stderr
    run("check", ".")  # a warm run writes the deck and output memos
    replaced = []
    for path in sorted(cache_dir.rglob("*")):
        if path.is_file() and (path.suffix == ".json" or path.name == ".skilldeck-rev"):
            path.unlink()
            os.mkfifo(path)
            replaced.append(path.relative_to(cache_dir).as_posix())
    assert any(name.startswith("root-") for name in replaced), replaced
    assert any(name.endswith("/state.json") for name in replaced), replaced
    assert any(name.endswith("/.skilldeck-rev") for name in replaced), replaced

    listed = run("list", "--json")  # the fixture's runs end within 60 s or fail
    assert listed.code == 0, listed.stderr
    assert json.loads(listed.stdout) == json.loads(expected_list.stdout)
    checked = run("check", ".")
    assert (checked.code, checked.stdout) == (expected_check.code, expected_check.stdout)
    assert _status(run)["health"] == "ok"
