"""The engine embedded in a host program leaves the host's garbage collector alone:
GC tuning belongs to the processes skilldeck owns (the CLI, the server, scan helpers)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

from skilldeck import SkilldeckConfig, default_registry
from skilldeck.engine.filesystem._fs_provider import scan_deck


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / ".git").mkdir(parents=True)
    for i in range(300):
        folder = root / ".dsh" / "skills" / f"skill-{i:03}"
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text(
            f"---\nname: skill-{i:03}\ndescription: Skill {i}.\n---\nBody.\n", encoding="utf-8"
        )
    return root


@pytest.fixture(params=[True, False], ids=["host-gc-on", "host-gc-off"])
def host_gc(request: pytest.FixtureRequest) -> Iterator[bool]:
    """The host's collector as the host set it (restored after the test)."""
    was = gc.isenabled()
    if request.param:
        gc.enable()
    else:
        gc.disable()
    try:
        yield request.param
    finally:
        if was:
            gc.enable()
        else:
            gc.disable()


def _config(tmp_path: Path) -> SkilldeckConfig:
    return SkilldeckConfig(dsh_home=str(tmp_path / "d"), agents_home=str(tmp_path / "a"))


async def test_a_registry_snapshot_leaves_the_hosts_gc_as_it_found_it(
    project: Path, tmp_path: Path, host_gc: bool
) -> None:
    frozen = gc.get_freeze_count()
    snapshot = await default_registry(_config(tmp_path)).snapshot(cwd=str(project))
    assert len(snapshot.skills) == 300
    assert (gc.isenabled(), gc.get_freeze_count()) == (host_gc, frozen)


def test_a_deck_scan_with_helpers_leaves_the_hosts_gc_as_it_found_it(
    project: Path, tmp_path: Path, host_gc: bool
) -> None:
    frozen = gc.get_freeze_count()
    deck = scan_deck(_config(tmp_path), project, processes=2)
    assert len(deck.entries()) == 300
    assert (gc.isenabled(), gc.get_freeze_count()) == (host_gc, frozen)
