"""Fixtures for the remote-source tests: a team repository made in the test, served by
``file://`` or by ``git daemon`` on 127.0.0.1, and ``python -m skilldeck`` runs."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from source_helpers import Daemon, Result, Run, TeamRepo


@pytest.fixture
def home(tmp_path: Path) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    return folder


@pytest.fixture
def cache_dir(tmp_path: Path) -> Path:
    return tmp_path / "cache"


@pytest.fixture
def environment(home: Path, cache_dir: Path) -> dict[str, str]:
    environ = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DSH_", "SKILLDECK_", "GIT_")) and key != "NO_COLOR"
    }
    environ.update(
        {
            "DSH_HOME": str(home / ".dsh"),
            "DSH_AGENTS_HOME": str(home / ".agents"),
            "SKILLDECK_CACHE_DIR": str(cache_dir),
            "NO_COLOR": "1",
            "HOME": str(home),
        }
    )
    return environ


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    folder.mkdir()
    return folder


@pytest.fixture
def run(project: Path, environment: dict[str, str]) -> Run:
    """Run ``python -m skilldeck ARGS`` in the project with the isolated environment."""

    def invoke(*args: str, env: dict[str, str] | None = None) -> Result:
        completed = subprocess.run(
            [sys.executable, "-m", "skilldeck", *args],
            cwd=project,
            env={**environment, **(env or {})},
            capture_output=True,
            text=True,
            encoding="utf-8",
            timeout=60,
            check=False,
        )
        return Result(completed.returncode, completed.stdout, completed.stderr)

    return invoke


@pytest.fixture
def team(tmp_path: Path) -> TeamRepo:
    """A bare repository with one commit: ``skills/team-review`` and a top-level README."""
    return TeamRepo.create(tmp_path / "team")


@pytest.fixture
def daemon(team: TeamRepo) -> Iterator[Daemon]:
    served = Daemon(team.bare.parent)
    served.start()
    yield served
    served.close()


@pytest.fixture
def removes_deep_trees(tmp_path: Path) -> Iterator[None]:
    """For tests that make folders a thousand levels deep: pytest's own clean-up of old
    temporary folders recurses (``shutil.rmtree``) and would fail on them in a later
    session, so whatever such a test (or the code it tests) left is removed here, with
    room for the recursion."""
    yield
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 50_000))
    try:
        for child in tmp_path.iterdir():
            shutil.rmtree(child, ignore_errors=True)
    finally:
        sys.setrecursionlimit(limit)
