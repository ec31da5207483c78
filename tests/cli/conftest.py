"""Fixtures for end-to-end CLI tests: a fake home and ``python -m skilldeck`` runs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import Result, Run, cli_environment


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """A fake home with empty user roots (never the real ~/.dsh)."""
    folder = tmp_path / "home"
    folder.mkdir()
    return folder


@pytest.fixture
def run(tmp_path: Path, home: Path) -> Run:
    """Run ``python -m skilldeck ARGS`` in ``cwd`` with an isolated environment."""

    def invoke(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> Result:
        environ = cli_environment(tmp_path, home)
        environ.update(env or {})
        completed = subprocess.run(
            [sys.executable, "-m", "skilldeck", *args],
            cwd=cwd or tmp_path,
            env=environ,
            capture_output=True,
            text=True,
            encoding="utf-8",
            timeout=60,
            check=False,
        )
        return Result(completed.returncode, completed.stdout, completed.stderr)

    return invoke
