"""A git source end to end: ``skilldeck`` runs (subprocesses) against a bare repository made
in the test, over ``file://`` and ``git daemon`` on 127.0.0.1."""

from __future__ import annotations

import concurrent.futures
import json
import shutil
from pathlib import Path

import pytest
from source_helpers import Daemon, Run, TeamRepo, git, ipv6_loopback, skill, source_config


def _listed(run: Run) -> dict[str, dict[str, object]]:
    result = run("list", "--json")
    assert result.code == 0, result.stderr
    return {entry["name"]: entry for entry in json.loads(result.stdout)["skills"]}


def _body(run: Run, name: str) -> str:
    result = run("load", name)
    assert result.code == 0, result.stderr
    return result.stdout


def test_first_fetch_lists_the_team_skill_with_its_origin(
    run: Run, project: Path, team: TeamRepo
) -> None:
    source_config(project, team.file_url, path="skills")
    result = run("list")
    assert result.code == 0, result.stderr
    assert "team-review  git:team (350)" in result.stdout
    listed = _listed(run)
    assert listed["team-review"]["source"] == "git:team"
    assert listed["team-review"]["provider"] == "git:team"
    assert "Body of team-review." in _body(run, "team-review")
    catalog = run("catalog")
    assert "- `team-review`: Review a change the way the team does." in catalog.stdout


def test_a_new_commit_is_served_after_sources_update(
    run: Run, project: Path, team: TeamRepo
) -> None:
    source_config(project, team.file_url, path="skills")
    first = run("sources")
    assert "never fetched" in first.stdout
    assert set(_listed(run)) == {"team-review"}
    team.write("skills/team-deploy/SKILL.md", skill("team-deploy", "Deploy the way we do."))
    commit = team.commit("deploy skill")
    # The copy is fresh (refresh interval: one hour): no fetch, the old commit is served.
    assert set(_listed(run)) == {"team-review"}
    update = run("sources", "update")
    assert update.code == 0, update.stderr
    assert commit[:12] in update.stdout
    assert "  ok" in update.stdout
    assert set(_listed(run)) == {"team-review", "team-deploy"}


def test_a_copy_older_than_the_refresh_interval_is_fetched_again(
    run: Run, project: Path, team: TeamRepo
) -> None:
    source_config(project, team.file_url, path="skills", refresh_interval=0.001)
    assert set(_listed(run)) == {"team-review"}
    team.write("skills/team-deploy/SKILL.md", skill("team-deploy", "Deploy the way we do."))
    team.commit("deploy skill")
    assert set(_listed(run)) == {"team-review", "team-deploy"}


def test_a_ref_pinned_to_a_tag_stays_on_the_tag(run: Run, project: Path, team: TeamRepo) -> None:
    team.tag("v1")
    team.write("skills/team-review/SKILL.md", skill("team-review", "Changed after the tag."))
    team.commit("change after v1")
    source_config(project, team.file_url, path="skills", ref="v1", refresh_interval=0.001)
    listed = _listed(run)
    assert listed["team-review"]["description"] == "Review a change the way the team does."
    status = run("sources")
    assert "@v1" in status.stdout


def test_only_the_sub_folder_is_read(run: Run, project: Path, team: TeamRepo) -> None:
    team.write("other/elsewhere/SKILL.md", skill("elsewhere"))
    team.write("skills/flat-one.md", skill("flat-one", "A flat skill of the team's."))
    team.commit("a skill outside the sub-folder")
    source_config(project, team.file_url, path="skills")
    assert set(_listed(run)) == {"team-review", "flat-one"}


def test_network_down_serves_the_last_good_copy_as_incomplete(
    run: Run, project: Path, daemon: Daemon, team: TeamRepo
) -> None:
    source_config(project, daemon.url("repo.git"), path="skills", refresh_interval=0.001)
    assert set(_listed(run)) == {"team-review"}
    daemon.stop()
    result = run("list")
    assert result.code == 0
    assert "team-review  git:team (350)" in result.stdout
    assert "discovery was incomplete" in result.stderr
    assert 'skill source "team": serving the last good copy' in result.stderr
    status = run("sources")
    assert "offline" in status.stdout


def test_a_source_never_fetched_contributes_nothing_and_says_why(
    run: Run, project: Path, daemon: Daemon
) -> None:
    source_config(project, daemon.url("repo.git"), path="skills")
    daemon.stop()
    result = run("list", "--json")
    assert json.loads(result.stdout) == {"complete": False, "skills": []}
    assert 'skill source "team": never fetched: git fetch failed' in result.stderr
    status = run("sources", "--json")
    (entry,) = json.loads(status.stdout)
    assert entry["health"] == "never fetched"
    assert entry["revision"] is None
    assert "git fetch failed" in entry["error"]


def test_a_damaged_cache_copy_is_fetched_again(
    run: Run, project: Path, team: TeamRepo, cache_dir: Path
) -> None:
    source_config(project, team.file_url, path="skills")
    assert set(_listed(run)) == {"team-review"}
    (folder,) = (cache_dir / "sources").iterdir()
    (folder / "state.json").write_text("{not json", encoding="utf-8")
    for rev in folder.glob("rev-*"):
        shutil.rmtree(rev / "skills")
    assert set(_listed(run)) == {"team-review"}
    assert "ok" in run("sources").stdout


def test_concurrent_runs_share_one_cache(
    run: Run, project: Path, team: TeamRepo, cache_dir: Path
) -> None:
    source_config(project, team.file_url, path="skills")
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda _: run("list", "--json"), range(4)))
    for result in results:
        assert result.code == 0, result.stderr
        assert result.stderr == ""
        assert [entry["name"] for entry in json.loads(result.stdout)["skills"]] == ["team-review"]
    (folder,) = (cache_dir / "sources").iterdir()
    assert sorted(p.name for p in folder.iterdir() if not p.name.startswith("rev-")) == [
        "state.json"
    ]
    assert len(list(folder.glob("rev-*"))) == 1


def test_a_local_skill_shadowing_a_team_skill_is_told_by_check_and_list(
    run: Run, project: Path, team: TeamRepo
) -> None:
    source_config(project, team.file_url, path="skills")
    local = project / ".agents" / "skills" / "team-review" / "SKILL.md"
    local.parent.mkdir(parents=True)
    local.write_text(skill("team-review", "Our local take on the review."), encoding="utf-8")
    check = run("check", ".")
    assert check.code == 0, check.stderr
    assert ".agents/skills/team-review/SKILL.md:2:7: SD702 information shadows the git:team " in (
        check.stdout
    )
    assert "/skills/team-review/SKILL.md (rank 350)" in check.stdout
    listed = run("list")
    assert "team-review  project-agents (200)" in listed.stdout
    assert "shadows git:team (350)" in listed.stdout


def test_a_hostile_team_file_is_left_out_and_named(run: Run, project: Path, team: TeamRepo) -> None:
    team.write("skills/bomb/SKILL.md", "---\nname: bomb\ndescription: &a [*a, *a]\n---\nx\n")
    team.write("skills/huge/SKILL.md", skill("huge") + "x" * (2 * 1024 * 1024))
    team.commit("hostile files")
    source_config(project, team.file_url, path="skills")
    result = run("list", "--json")
    assert [entry["name"] for entry in json.loads(result.stdout)["skills"]] == ["team-review"]
    assert 'skill source "team": bomb/SKILL.md left out: ' in result.stderr
    assert 'skill source "team": huge/SKILL.md left out: ' in result.stderr


def test_a_ref_pinned_to_a_commit_is_fetched_once(
    run: Run, project: Path, daemon: Daemon, team: TeamRepo
) -> None:
    first = _head(team)
    team.write("skills/team-review/SKILL.md", skill("team-review", "Changed after the pin."))
    team.commit("change after the pin")
    source_config(project, daemon.url("repo.git"), path="skills", ref=first, refresh_interval=0.001)
    assert _listed(run)["team-review"]["description"] == "Review a change the way the team does."
    daemon.stop()
    result = run("list", "--json")  # the pinned commit never changes: no fetch, complete
    assert json.loads(result.stdout)["complete"] is True, result.stderr


def _head(team: TeamRepo) -> str:
    return git("rev-parse", "HEAD", cwd=team.work).strip()


@pytest.mark.skipif(not ipv6_loopback(), reason="no IPv6 loopback here")
def test_a_source_on_an_ipv6_loopback_literal_is_fetched(
    run: Run, project: Path, team: TeamRepo
) -> None:
    served = Daemon(team.bare.parent, host="::1")
    served.start()
    try:
        url = served.url("repo.git")
        assert url.startswith("git://[::1]:")
        source_config(project, url, path="skills")
        assert set(_listed(run)) == {"team-review"}
        status = run("sources")
        assert status.code == 0, status.stderr
        assert f"git:team  {url}  rank 350" in status.stdout
        assert "  ok" in status.stdout
    finally:
        served.close()
