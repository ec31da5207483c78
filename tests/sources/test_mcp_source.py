"""An mcp source end to end: ``skilldeck`` (a subprocess) consuming a local ``skilldeck mcp``
over stdio (directly or through a misbehaving relay) and over HTTP with a token."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from source_helpers import Run, skill

from skilldeck.engine.config._skilldeck_config import SkilldeckConfig
from skilldeck.engine.config._source_spec import McpSourceSpec
from skilldeck.engine.deck._defaults import provider_registry
from skilldeck.engine.registry._registry import SkillRegistry
from skilldeck.engine.sources._factories import source_factory
from skilldeck.remote import mcp_source_factory

RELAY = Path(__file__).with_name("mcp_proxy.py")
SKILLDECK_MCP = (sys.executable, "-m", "skilldeck", "mcp")
TOKEN = "hub-token-5e4d3c2b1a-never-shown"


@pytest.fixture
def hub(tmp_path: Path) -> Path:
    """The remote deck: a project whose ``.agents/skills`` holds the hub's skills."""
    folder = tmp_path / "hub"
    for name, description in (("hub-review", "Review as the hub says."), ("hub-plan", "Plan.")):
        path = folder / ".agents" / "skills" / name / "SKILL.md"
        path.parent.mkdir(parents=True)
        path.write_text(skill(name, description), encoding="utf-8")
    (folder / ".git").mkdir()
    return folder


def _config(project: Path, command: list[str] | None = None, **keys: object) -> None:
    lines = ["[[sources]]", 'name = "hub"', 'type = "mcp"']
    if command is not None:
        lines.append(f"command = {json.dumps(command)}")
    lines += [f"{key.replace('_', '-')} = {json.dumps(value)}" for key, value in keys.items()]
    (project / "skilldeck.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")


def _relay(hub: Path) -> list[str]:
    return [sys.executable, str(RELAY), "--cwd", str(hub)]


def test_skills_of_a_stdio_server_are_listed_and_loaded(run: Run, project: Path, hub: Path) -> None:
    _config(project, [sys.executable, "-m", "skilldeck", "mcp", "--cwd", str(hub)])
    result = run("list", "--json")
    assert result.code == 0, result.stderr
    listed = {entry["name"]: entry for entry in json.loads(result.stdout)["skills"]}
    assert set(listed) == {"hub-review", "hub-plan"}
    assert listed["hub-review"]["source"] == "mcp:hub"
    assert listed["hub-review"]["rank"] == 350
    assert json.loads(result.stdout)["complete"] is True
    load = run("load", "hub-review")
    assert "Body of hub-review." in load.stdout
    assert "Skill base URL: skill://hub-review/" in load.stdout
    assert "- `hub-review`: Review as the hub says." in run("catalog").stdout


def test_a_wrong_digest_is_refused(run: Run, project: Path, hub: Path) -> None:
    _config(project, _relay(hub))
    result = run("list", "--json", env={"PROXY_MODE": "digest"})
    assert json.loads(result.stdout) == {"complete": False, "skills": []}
    assert (
        'skill source "hub": skill://hub-review/SKILL.md: content does not match the listed '
        "sha256 (listed 000000000000..., read "
    ) in result.stderr


def test_a_server_killed_mid_listing_gives_an_incomplete_empty_view(
    run: Run, project: Path, hub: Path
) -> None:
    _config(project, _relay(hub))
    result = run("list", "--json", env={"PROXY_MODE": "die-on-list"})
    assert result.code == 0
    assert json.loads(result.stdout) == {"complete": False, "skills": []}
    assert 'skill source "hub": never read: ' in result.stderr
    assert "discovery was incomplete" in result.stderr


def test_a_slow_server_is_cut_at_the_timeout(
    run: Run, project: Path, hub: Path, tmp_path: Path
) -> None:
    _config(project, _relay(hub), timeout=3)
    pid_file = tmp_path / "relay.pid"
    result = run("list", "--json", env={"PROXY_MODE": "slow", "PROXY_PID_FILE": str(pid_file)})
    # Cut at the 3 s timeout: the relay holds skills/list for 60 s, and would have
    # answered after it (a complete listing) had the timeout not cut it.
    assert json.loads(result.stdout) == {"complete": False, "skills": []}
    assert 'skill source "hub": never read: no answer within 3 s' in result.stderr
    # The server was ended, not left running (on a loaded machine the 3 s may pass
    # before the relay even starts: then there is nothing to end).
    words = pid_file.read_text(encoding="utf-8").split() if pid_file.exists() else []
    if words:
        _ended(int(words[0]))


#: Seconds a process may take to go before a test calls it left running (a hang bound: the
#: waits end as soon as it has gone, however loaded the machine).
GONE_S = 60.0


def _ended(pid: int) -> None:
    """Wait until ``pid`` has gone (or is a zombie); fail if it is still running after
    :data:`GONE_S`."""
    deadline = time.monotonic() + GONE_S
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(pid)


async def _holding(pid_file: Path) -> int:
    """Wait until the relay holds ``skills/list`` (it says so in its pid file); its pid."""
    deadline = time.monotonic() + GONE_S
    while True:
        words = pid_file.read_text(encoding="utf-8").split() if pid_file.exists() else []
        if words[1:] == ["holding"]:
            return int(words[0])
        assert time.monotonic() < deadline, f"the relay never held skills/list: {words}"
        await asyncio.sleep(0.05)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # The process may be reaped between the signal and the read: gone then, too.
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@contextmanager
def _http_hub(hub: Path, environment: dict[str, str]) -> Iterator[str]:
    env = {**environment, "HUB_TOKEN": TOKEN}
    server = subprocess.Popen(
        [*SKILLDECK_MCP, "--cwd", str(hub), "--http", "127.0.0.1:0", "--token-env", "HUB_TOKEN"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert server.stderr is not None
    try:
        line = server.stderr.readline()
        assert line.startswith("skilldeck mcp: serving http://127.0.0.1:"), line
        yield line.split()[-1]
    finally:
        server.terminate()
        server.wait(timeout=30)
        server.stderr.close()


def test_an_http_server_with_a_token(
    run: Run, project: Path, hub: Path, environment: dict[str, str], cache_dir: Path
) -> None:
    with _http_hub(hub, environment) as url:
        _config(project, url=url, token_env="HUB_TOKEN")
        result = run("list", "--json", env={"HUB_TOKEN": TOKEN})
        assert result.code == 0, result.stderr
        assert {e["name"] for e in json.loads(result.stdout)["skills"]} == {
            "hub-review",
            "hub-plan",
        }
        refused = run("list", "--json", env={"HUB_TOKEN": "wrong-token"})
        assert json.loads(refused.stdout)["complete"] is False  # the last good listing
        assert 'skill source "hub": serving the last good listing: ' in refused.stderr
        status = run("sources", env={"HUB_TOKEN": TOKEN})
    for output in (result, refused, status):
        assert TOKEN not in output.stdout + output.stderr
    assert "mcp:hub" in status.stdout
    assert not cache_dir.exists() or all(
        TOKEN.encode() not in p.read_bytes() for p in cache_dir.rglob("*") if p.is_file()
    )


async def test_cancelling_a_lookup_ends_the_stdio_server(
    hub: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pid_file = tmp_path / "relay.pid"
    monkeypatch.setenv("PROXY_MODE", "slow")
    monkeypatch.setenv("PROXY_PID_FILE", str(pid_file))
    monkeypatch.setenv("SKILLDECK_CACHE_DIR", str(tmp_path / "cache"))
    spec = McpSourceSpec(name="hub", command=tuple(_relay(hub)), timeout=60)
    registry = provider_registry(
        SkilldeckConfig(remote_sources=(spec,)), mcp_sources=mcp_source_factory
    )
    lookup = asyncio.ensure_future(registry.snapshot())
    relay = await _holding(pid_file)
    assert _alive(relay)
    lookup.cancel()
    with pytest.raises(asyncio.CancelledError):
        await lookup
    await asyncio.to_thread(_ended, relay)


def test_an_unreachable_server_serves_its_last_good_listing(
    run: Run, project: Path, hub: Path, cache_dir: Path
) -> None:
    _config(project, _relay(hub))
    first = run("list", "--json", env={"PROXY_MODE": "relay"})
    assert json.loads(first.stdout)["complete"] is True
    assert "ok" in run("sources").stdout
    down = run("list", "--json", env={"PROXY_MODE": "die-on-list"})
    served = json.loads(down.stdout)
    assert served["complete"] is False
    assert {entry["name"] for entry in served["skills"]} == {"hub-review", "hub-plan"}
    assert 'skill source "hub": serving the last good listing: ' in down.stderr
    status = json.loads(run("sources", "--json").stdout)
    assert status[0]["health"] == "offline"
    # A stored listing whose bytes were tampered with is not served.
    (listing,) = cache_dir.glob("sources/mcp-hub-*/listing.json")
    stored = json.loads(listing.read_text(encoding="utf-8"))
    for entry in stored["skills"]:
        entry["sha256"] = "0" * 64
    listing.write_text(json.dumps(stored), encoding="utf-8")
    tampered = run("list", "--json", env={"PROXY_MODE": "die-on-list"})
    assert json.loads(tampered.stdout) == {"complete": False, "skills": []}


async def test_disposing_the_source_ends_the_stdio_server(
    hub: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pid_file = tmp_path / "relay.pid"
    monkeypatch.setenv("PROXY_MODE", "slow")
    monkeypatch.setenv("PROXY_PID_FILE", str(pid_file))
    monkeypatch.setenv("SKILLDECK_CACHE_DIR", str(tmp_path / "cache"))
    spec = McpSourceSpec(name="hub", command=tuple(_relay(hub)), timeout=60)
    registry = SkillRegistry()
    dispose = registry.register_provider(
        source_factory(spec, SkilldeckConfig(), mcp_sources=mcp_source_factory)
    )
    lookup = asyncio.ensure_future(registry.snapshot())
    relay = await _holding(pid_file)
    dispose()
    snapshot = await asyncio.wait_for(lookup, GONE_S)
    assert snapshot.skills == ()
    await asyncio.to_thread(_ended, relay)


async def test_the_public_default_registry_reads_an_mcp_source(
    hub: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The engine never imports skilldeck.remote; skilldeck.default_registry hands it in.
    import skilldeck  # noqa: PLC0415

    monkeypatch.setenv("SKILLDECK_CACHE_DIR", str(tmp_path / "cache"))
    command = (sys.executable, "-m", "skilldeck", "mcp", "--cwd", str(hub))
    spec = McpSourceSpec(name="hub", command=command, timeout=60)
    registry = skilldeck.default_registry(
        SkilldeckConfig(remote_sources=(spec,), include_user_roots=False)
    )
    snapshot = await registry.snapshot(cwd=str(tmp_path))
    assert {(s.name, s.source) for s in snapshot.skills} == {
        ("hub-review", "mcp:hub"),
        ("hub-plan", "mcp:hub"),
    }
    assert snapshot.complete


async def test_without_a_reader_an_mcp_source_is_empty_incomplete_and_says_why(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    spec = McpSourceSpec(name="hub", command=("never-started",), timeout=60)
    registry = provider_registry(SkilldeckConfig(remote_sources=(spec,)))
    with caplog.at_level("WARNING", logger="skilldeck.sources"):
        snapshot = await registry.snapshot(cwd=str(tmp_path))
    assert snapshot.skills == ()
    assert not snapshot.complete
    assert caplog.messages == [
        'skill source "hub" is not read: mcp sources need a reader '
        "(default_registry(..., mcp_sources=skilldeck.remote.mcp_source_factory))"
    ]
