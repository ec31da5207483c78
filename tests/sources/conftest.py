"""Fixtures for the remote-source tests: a team repository made in the test, served by
``file://`` or by ``git daemon`` on 127.0.0.1, and ``python -m skilldeck`` runs."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from source_helpers import Result, TeamRepo


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


Run = Callable[..., Result]


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


class Daemon:
    """``git daemon`` serving a folder on 127.0.0.1; ``stop()`` takes the network down."""

    def __init__(self, base: Path) -> None:
        self.base = base
        self.port = _free_port()
        self.process: subprocess.Popen[bytes] | None = None

    def url(self, name: str) -> str:
        return f"git://127.0.0.1:{self.port}/{name}"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                "git", "daemon", "--reuseaddr", "--export-all", "--listen=127.0.0.1",
                f"--port={self.port}", f"--base-path={self.base}", str(self.base),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.05)
        raise RuntimeError("git daemon did not start")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None


@pytest.fixture
def daemon(team: TeamRepo) -> Iterator[Daemon]:
    served = Daemon(team.bare.parent)
    served.start()
    yield served
    served.stop()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port
