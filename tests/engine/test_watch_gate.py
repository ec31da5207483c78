"""A closed watch gate keeps a deck's watches from going live; opening it loses nothing."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

import pytest
from watch_harness import WAIT, FakeClock

from skilldeck import SkilldeckConfig
from skilldeck.engine.filesystem._fs_provider import filesystem_provider_factory
from skilldeck.engine.filesystem._watch_gate import QUIET_S, QuietCall, QuietWindow, WatchGate
from skilldeck.engine.registry._registry import SkillRegistry


def _skill(root: Path, name: str, description: str) -> Path:
    folder = root / name
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "SKILL.md"
    path.write_text(f"---\nname: {name}\ndescription: {description}\n---\nBody.\n")
    return path


def _registry(
    tmp_path: Path, gate: WatchGate | None, debounce_ms: int = 200
) -> tuple[SkillRegistry, object, asyncio.Event]:
    config = SkilldeckConfig(
        dsh_home=str(tmp_path / "home-dsh"), agents_home=str(tmp_path / "home-agents")
    )
    registry = SkillRegistry()
    dispose = registry.register_provider(
        filesystem_provider_factory(config, watch=True, watch_gate=gate, debounce_ms=debounce_ms)
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
    told_open: list[bool] = []  # at each change told: whether the gate was open then
    registry.on_change(lambda: told_open.append(gate.is_open))
    # The same deck without a gate, slower to tell (a longer debounce): what the gated
    # deck would have done by the time it has told.
    control, control_dispose, control_changed = _registry(tmp_path, None, debounce_ms=1000)
    try:
        first = await registry.list(cwd=str(project))
        assert [(s.name, s.description) for s in first] == [("alpha", "First.")]
        assert [s.name for s in await control.list(cwd=str(project))] == ["alpha"]

        # Between the first read and the watches going live: an edit and a new bundle.
        alpha.write_text("---\nname: alpha\ndescription: Second.\n---\nBody.\n")
        _skill(skills, "beta", "New.")
        await asyncio.wait_for(control_changed.wait(), WAIT)
        assert told_open == []  # the gate is closed: no watch is live yet

        gate.open()
        await asyncio.wait_for(changed.wait(), WAIT)
        assert told_open and all(told_open)
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
        control_dispose()  # type: ignore[operator]
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
    gate.open()  # opening afterwards starts nothing: no task (each watch is one) ...
    await asyncio.sleep(0)  # (one loop turn: whatever the opening scheduled has started)
    assert [t for t in asyncio.all_tasks() if t is not asyncio.current_task()] == []
    # ... and no thread
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
    clock = FakeClock()
    calls: list[float] = []  # the clock's time at each call
    called = asyncio.Event()

    def call() -> None:
        calls.append(clock.now)
        called.set()

    asked = clock.now
    QuietCall(call, QuietWindow.from_now(lambda: 0.0, quiet_s=0.2, clock=clock))
    assert calls == []  # the call itself counts as activity
    clock.advance(0.1)
    await clock.read_again()  # checked again, 0.1 s of quiet: not yet
    assert calls == []
    clock.advance(0.1)
    await asyncio.wait_for(called.wait(), WAIT)
    assert calls == [pytest.approx(asked + 0.2)]

    called.clear()
    last = clock.now
    waiting = QuietCall(
        call, QuietWindow.from_now(lambda: last, quiet_s=0.2, within_s=5.0, clock=clock)
    )
    for _ in range(4):  # activity every 0.1 s keeps it waiting
        clock.advance(0.1)
        last = clock.now
        await clock.read_again()
        assert len(calls) == 1 and waiting.pending
    clock.advance(0.1)
    await clock.read_again()
    assert len(calls) == 1 and waiting.pending  # 0.1 s of quiet
    clock.advance(0.1)
    await asyncio.wait_for(called.wait(), WAIT)
    assert calls[1] == pytest.approx(last + 0.2) and not waiting.pending


async def test_a_quiet_call_runs_by_its_bound_under_endless_activity() -> None:
    clock = FakeClock()  # the last activity is always now
    calls: list[float] = []
    called = asyncio.Event()

    def call() -> None:
        calls.append(clock.now)
        called.set()

    asked = clock.now
    bound = QuietCall(call, QuietWindow.from_now(clock, quiet_s=0.2, within_s=0.4, clock=clock))
    for _ in range(4):
        await clock.read_again()
        assert calls == [] and bound.pending
        clock.advance(0.1)
    await asyncio.wait_for(called.wait(), WAIT)
    assert calls == [pytest.approx(asked + 0.4)]


async def test_a_cancelled_quiet_call_never_runs() -> None:
    clock = FakeClock()
    calls: list[str] = []
    marked = asyncio.Event()
    dropped = QuietCall(
        lambda: calls.append("cancelled"),
        QuietWindow.from_now(lambda: 0.0, quiet_s=0.2, clock=clock),
    )
    dropped.cancel()
    assert not dropped.pending
    # Checked later than the dropped call would have been (its first check is due
    # 0.2 s on, this one's 0.3 s on), and quiet by then: when it has run, the dropped
    # call would have run before it.
    QuietCall(marked.set, QuietWindow.from_now(lambda: 0.0, quiet_s=0.3, clock=clock))
    clock.advance(1.0)
    await asyncio.wait_for(marked.wait(), WAIT)
    assert calls == []


async def test_a_gate_opens_when_quiet() -> None:
    gate = WatchGate()
    last = time.monotonic()
    gate.open_when_quiet(lambda: last)
    assert not gate.is_open
    opened = asyncio.Event()
    gate.when_open(opened.set)
    await asyncio.wait_for(opened.wait(), WAIT)
    assert gate.is_open and time.monotonic() - last >= QUIET_S
