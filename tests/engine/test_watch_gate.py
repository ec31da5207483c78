"""A closed watch gate keeps a deck's watches from going live; opening it loses nothing."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

from skilldeck import SkilldeckConfig
from skilldeck.engine.filesystem._fs_provider import filesystem_provider_factory
from skilldeck.engine.filesystem._watch_gate import QuietCall, QuietWindow, WatchGate
from skilldeck.engine.registry._registry import SkillRegistry

#: Seconds any single expectation may take before the test calls it a hang (the waits
#: return as soon as it is met; generous for a loaded machine).
WAIT = 30.0


def _skill(root: Path, name: str, description: str) -> Path:
    folder = root / name
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "SKILL.md"
    path.write_text(f"---\nname: {name}\ndescription: {description}\n---\nBody.\n")
    return path


def _registry(tmp_path: Path, gate: WatchGate) -> tuple[SkillRegistry, object, asyncio.Event]:
    config = SkilldeckConfig(
        dsh_home=str(tmp_path / "home-dsh"), agents_home=str(tmp_path / "home-agents")
    )
    registry = SkillRegistry()
    dispose = registry.register_provider(
        filesystem_provider_factory(config, watch=True, watch_gate=gate)
    )
    changed = asyncio.Event()
    registry.on_change(changed.set)
    return registry, dispose, changed


async def _closed(dispose: object) -> None:
    """Dispose the registration and wait for every task it leaves (the watcher's close)."""
    assert callable(dispose)
    dispose()
    others = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
    if others:
        _done, pending = await asyncio.wait(others, timeout=WAIT)
        assert not pending, pending


async def test_changes_before_the_gate_opens_are_reported_once_it_does(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    skills = project / ".dsh" / "skills"
    alpha = _skill(skills, "alpha", "First.")
    gate = WatchGate()
    registry, dispose, changed = _registry(tmp_path, gate)
    try:
        first = await registry.list(cwd=str(project))
        assert [(s.name, s.description) for s in first] == [("alpha", "First.")]

        # Between the first read and the watches going live: an edit and a new bundle.
        alpha.write_text("---\nname: alpha\ndescription: Second.\n---\nBody.\n")
        _skill(skills, "beta", "New.")
        await asyncio.sleep(0.8)
        assert not changed.is_set()  # the gate is closed: no watch is live yet

        gate.open()
        await asyncio.wait_for(changed.wait(), WAIT)
        after = await registry.list(cwd=str(project))
        assert [(s.name, s.description) for s in after] == [("alpha", "Second."), ("beta", "New.")]

        # ... and the watches are live from then on.
        changed.clear()
        _skill(skills, "gamma", "Later.")
        await asyncio.wait_for(changed.wait(), WAIT)
        assert [s.name for s in await registry.list(cwd=str(project))] == [
            "alpha",
            "beta",
            "gamma",
        ]
    finally:
        await _closed(dispose)


async def test_a_deck_closed_before_its_gate_opens_stops_cleanly(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    _skill(project / ".dsh" / "skills", "alpha", "First.")
    before = set(threading.enumerate())
    gate = WatchGate()
    registry, dispose, _changed = _registry(tmp_path, gate)
    assert [s.name for s in await registry.list(cwd=str(project))] == ["alpha"]
    await _closed(dispose)  # never waits for a gate that stays shut
    gate.open()  # opening afterwards starts nothing
    await asyncio.sleep(0.1)
    extra = [t for t in threading.enumerate() if t not in before and t.is_alive()]
    # idle pool threads (anyio's, the loop's executor that ran the scan) may remain
    assert all(t.name.startswith(("AnyIO worker thread", "asyncio_")) for t in extra), extra


def test_when_open_runs_now_or_on_opening_once_and_a_failing_callback_is_contained() -> None:
    gate = WatchGate()
    calls: list[str] = []

    def failing() -> None:
        calls.append("failing")
        raise RuntimeError("boom")

    gate.when_open(lambda: calls.append("first"))
    gate.when_open(failing)
    gate.when_open(lambda: calls.append("second"))
    assert calls == [] and not gate.is_open
    gate.open()
    gate.open()
    assert calls == ["first", "failing", "second"] and gate.is_open
    gate.when_open(lambda: calls.append("late"))
    assert calls[-1] == "late"


async def test_a_quiet_call_runs_after_a_pause_from_the_call_or_the_last_activity() -> None:
    calls: list[float] = []
    asked = time.monotonic()
    QuietCall(
        lambda: calls.append(time.monotonic()), QuietWindow.from_now(lambda: 0.0, quiet_s=0.2)
    )
    assert calls == []  # the call itself counts as activity
    await asyncio.sleep(0.3)
    assert len(calls) == 1 and calls[0] - asked >= 0.19

    last = time.monotonic()
    start = last
    waiting = QuietCall(
        lambda: calls.append(time.monotonic()),
        QuietWindow.from_now(lambda: last, quiet_s=0.2, within_s=5.0),
    )
    for _ in range(4):  # activity every 0.1 s keeps it waiting
        await asyncio.sleep(0.1)
        last = time.monotonic()
        assert len(calls) == 1 and waiting.pending
    await asyncio.sleep(0.35)
    assert len(calls) == 2 and not waiting.pending
    assert calls[1] - last >= 0.19 and calls[1] - start >= 0.59


async def test_a_quiet_call_runs_by_its_bound_under_endless_activity_and_cancel_drops_it() -> None:
    calls: list[str] = []
    started = time.monotonic()
    QuietCall(
        lambda: calls.append("bound"),
        QuietWindow.from_now(time.monotonic, quiet_s=0.2, within_s=0.4),
    )
    dropped = QuietCall(
        lambda: calls.append("cancelled"),
        QuietWindow.from_now(time.monotonic, quiet_s=0.2, within_s=0.4),
    )
    dropped.cancel()
    while not calls and time.monotonic() - started < WAIT:
        await asyncio.sleep(0.02)
    assert calls == ["bound"]
    assert 0.35 <= time.monotonic() - started < 1.0
    await asyncio.sleep(0.2)
    assert calls == ["bound"]


async def test_a_gate_opens_when_quiet() -> None:
    gate = WatchGate()
    last = time.monotonic()
    gate.open_when_quiet(lambda: last)
    assert not gate.is_open
    await asyncio.sleep(0.7)  # QUIET_S is 0.5
    assert gate.is_open
