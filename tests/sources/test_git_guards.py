"""A git source under stress: a silent server past the timeout, an aborted or cancelled
lookup (the fetch is killed), and credentials that never leave the environment."""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from git_http import GitHttpServer
from source_helpers import Run, TeamRepo, source_config

from skilldeck.engine.config._skilldeck_config import SkilldeckConfig
from skilldeck.engine.config._source_spec import GitSourceSpec
from skilldeck.engine.deck._defaults import provider_registry
from skilldeck.engine.registry._registry import SkillRegistry
from skilldeck.engine.sources._git_provider import git_source_factory

#: Seconds a test waits for an event before it calls it a hang (the waits return as soon
#: as it happens; generous for a loaded machine).
HANG_S = 60.0
#: A source's own timeout, far beyond ``HANG_S``: whatever ends a fetch within ``HANG_S``
#: is not that timeout.
NEVER_S = 3600


class SilentServer:
    """Accepts connections on 127.0.0.1 and never answers; records when each one closes."""

    def __init__(self) -> None:
        self.socket = socket.socket()
        self.socket.bind(("127.0.0.1", 0))
        self.socket.listen()
        self.port: int = self.socket.getsockname()[1]
        self.accepted = threading.Event()
        self.closed = threading.Event()
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        try:
            connection, _ = self.socket.accept()
        except OSError:
            return
        self.accepted.set()
        with connection:
            while connection.recv(4096):
                pass
        self.closed.set()

    def close(self) -> None:
        self.socket.close()


@pytest.fixture
def silent() -> Iterator[SilentServer]:
    server = SilentServer()
    yield server
    server.close()


def test_a_silent_server_costs_no_more_than_the_timeout(
    run: Run, project: Path, silent: SilentServer
) -> None:
    source_config(project, f"git://127.0.0.1:{silent.port}/repo.git", timeout=1)
    result = run("list", "--json")  # the server never answers: only the timeout ends it
    assert json.loads(result.stdout) == {"complete": False, "skills": []}
    assert 'skill source "team": never fetched: no answer within 1 s' in result.stderr
    # The fetch was killed, not left behind: the server saw its connection close.
    assert silent.closed.wait(HANG_S)
    status = json.loads(run("sources", "--json").stdout)
    assert status[0]["error"] == "no answer within 1 s"


async def test_cancelling_a_lookup_kills_the_fetch(
    silent: SilentServer, cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SKILLDECK_CACHE_DIR", str(cache_dir))
    spec = GitSourceSpec(name="team", url=f"git://127.0.0.1:{silent.port}/r.git", timeout=NEVER_S)
    registry = provider_registry(SkilldeckConfig(remote_sources=(spec,)))
    lookup = asyncio.ensure_future(registry.snapshot())
    assert await asyncio.to_thread(silent.accepted.wait, HANG_S)
    lookup.cancel()
    with pytest.raises(asyncio.CancelledError):
        await lookup
    assert await asyncio.to_thread(silent.closed.wait, HANG_S)  # killed, not timed out


async def test_disposing_the_source_aborts_its_fetch(
    silent: SilentServer, cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SKILLDECK_CACHE_DIR", str(cache_dir))
    spec = GitSourceSpec(name="team", url=f"git://127.0.0.1:{silent.port}/r.git", timeout=NEVER_S)
    registry = SkillRegistry()
    dispose = registry.register_provider(git_source_factory(spec, SkilldeckConfig()))
    lookup = asyncio.ensure_future(registry.snapshot())
    assert await asyncio.to_thread(silent.accepted.wait, HANG_S)
    dispose()
    snapshot = await asyncio.wait_for(lookup, HANG_S)
    assert snapshot.skills == ()  # the source is gone from the registry's view
    assert await asyncio.to_thread(silent.closed.wait, HANG_S)


TOKEN = "tok-9f8e7d6c5b4a-never-shown"


def test_a_token_reaches_git_only_through_its_environment(
    run: Run, project: Path, team: TeamRepo, tmp_path: Path, cache_dir: Path
) -> None:
    wrapper_dir = tmp_path / "bin"
    wrapper_dir.mkdir()
    log = tmp_path / "git-calls.log"
    real_git = "/usr/bin/git"
    wrapper = wrapper_dir / "git"
    wrapper.write_text(
        "#!/bin/sh\n"
        f'printf "argv: %s\\n" "$*" >> "{log}"\n'
        f'printf "%s" "$GIT_CONFIG_VALUE_0" | sha256sum >> "{log}"\n'
        f'exec {real_git} "$@"\n',
        encoding="utf-8",
    )
    wrapper.chmod(0o755)
    source_config(project, team.file_url, path="skills", token_env="TEAM_TOKEN")
    env = {"PATH": f"{wrapper_dir}{os.pathsep}{os.environ['PATH']}", "TEAM_TOKEN": TOKEN}
    outputs = [run("list", env=env), run("sources", "update", env=env), run("check", ".", env=env)]
    assert "team-review  git:team (350)" in outputs[0].stdout
    calls = log.read_text(encoding="utf-8")
    header = hashlib.sha256(f"Authorization: Bearer {TOKEN}".encode()).hexdigest()
    assert header in calls  # git was handed the token, in its environment
    assert "argv: " in calls
    assert TOKEN not in calls  # never on a child's command line
    for result in outputs:
        assert TOKEN not in result.stdout + result.stderr
    for path in cache_dir.rglob("*"):
        if path.is_file():
            assert TOKEN.encode() not in path.read_bytes(), path


def test_a_token_authenticates_a_smart_http_fetch(
    run: Run, project: Path, team: TeamRepo, cache_dir: Path
) -> None:
    server = GitHttpServer(team.bare.parent, TOKEN)
    try:
        source_config(project, server.url("repo.git"), path="skills", token_env="TEAM_TOKEN")
        without = run("list", "--json")
        assert json.loads(without.stdout) == {"complete": False, "skills": []}
        assert server.refused > 0 and server.authorized == 0
        assert "(TEAM_TOKEN, named by token-env, is unset or empty)" in without.stderr
        result = run("list", "--json", env={"TEAM_TOKEN": TOKEN})
        assert result.code == 0, result.stderr
        names = [entry["name"] for entry in json.loads(result.stdout)["skills"]]
        assert names == ["team-review"]
        assert server.authorized > 0
        status = run("sources", env={"TEAM_TOKEN": TOKEN})
        assert "  ok" in status.stdout
    finally:
        server.close()
    for output in (without, result, status):
        assert TOKEN not in output.stdout + output.stderr
    for path in cache_dir.rglob("*"):
        if path.is_file():
            assert TOKEN.encode() not in path.read_bytes(), path
