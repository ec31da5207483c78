"""Fixtures for ``skilldeck mcp`` tests: a project on disk, an isolated environment, the
MCP SDK's own client talking to ``python -m skilldeck mcp`` as a real subprocess."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from mcp.client.stdio import StdioServerParameters
from mcp_client_helpers import skill_text, write

from mcp import Client


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project with a few skills of every kind under ``.dsh/skills``.

    - ``code-review``: a bundle with a resource, a nested folder, a hidden file, a
      binary file and a symlink that leaves the folder;
    - ``commit-message``: a flat file;
    - ``deploy``: ``disable-model-invocation`` (prompt only);
    - ``style-guide``: ``user-invocable: false`` (tool only, no prompt).
    """
    root = tmp_path / "project"
    (root / ".git").mkdir(parents=True)
    skills = root / ".dsh" / "skills"
    write(skills / "code-review" / "SKILL.md", skill_text("code-review", "Review a change."))
    write(skills / "code-review" / "checklist.md", "# Checklist\n\n- tests first\n")
    write(skills / "code-review" / "scripts" / "run.sh", "#!/bin/sh\necho review\n")
    write(skills / "code-review" / ".env", "SECRET=1\n")
    write(skills / "code-review" / "logo.png", b"\x89PNG\r\n\x1a\n\x00\x00\xff\xfe")
    write(tmp_path / "outside.txt", "not the skill's\n")
    (skills / "code-review" / "escape.txt").symlink_to(tmp_path / "outside.txt")
    write(skills / "commit-message.md", skill_text("commit-message", "Write a commit message."))
    write(
        skills / "deploy" / "SKILL.md",
        skill_text("deploy", "Deploy the service.", "disable-model-invocation: true\n"),
    )
    write(
        skills / "style-guide" / "SKILL.md",
        skill_text("style-guide", "House style.", "user-invocable: false\n"),
    )
    return root


@pytest.fixture
def environment(tmp_path: Path) -> dict[str, str]:
    """An environment with empty user roots and a private cache (never the real ~/.dsh)."""
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    return {
        "DSH_HOME": str(home / ".dsh"),
        "DSH_AGENTS_HOME": str(home / ".agents"),
        "SKILLDECK_CACHE_DIR": str(tmp_path / "cache"),
        "HOME": str(home),
        "NO_COLOR": "1",
    }


CliRun = Callable[..., list[subprocess.CompletedProcess[str]]]


@pytest.fixture
def cli(environment: dict[str, str]) -> CliRun:
    """Run ``python -m skilldeck ARGS`` for each ARGS tuple, all at once (isolated env)."""

    def run(
        *argsets: tuple[str, ...], timeout: float = 60
    ) -> list[subprocess.CompletedProcess[str]]:
        env = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith(("DSH_", "SKILLDECK_"))
        }
        env.update(environment)
        started = [
            (
                args,
                subprocess.Popen(
                    [sys.executable, "-m", "skilldeck", *args],
                    env=env,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    text=True,
                    encoding="utf-8",
                ),
            )
            for args in argsets
        ]
        results = []
        for args, process in started:
            stdout, stderr = process.communicate(timeout=timeout)
            results.append(subprocess.CompletedProcess(args, process.returncode, stdout, stderr))
        return results

    return run


McpConnect = Callable[..., Any]


@pytest.fixture
def connect(project: Path, environment: dict[str, str]) -> McpConnect:
    """``async with connect(mode=...) as client``: the SDK client on a fresh server."""

    @asynccontextmanager
    async def session(
        mode: str = "legacy", *extra: str, message_handler: Any = None
    ) -> AsyncIterator[Client]:
        env = dict(environment)
        env["PATH"] = os.environ.get("PATH", "")
        parameters = StdioServerParameters(
            command=sys.executable,
            args=["-m", "skilldeck", "mcp", "--cwd", str(project), *extra],
            env=env,
        )
        async with Client(
            parameters, mode=mode, read_timeout_seconds=30, message_handler=message_handler
        ) as client:
            yield client

    return session
