from __future__ import annotations

import asyncio
import contextlib
import errno
import os
import shutil
import threading
import time
from collections.abc import AsyncGenerator
from pathlib import Path
from typing import Any

from watchfiles import awatch

from skilldeck.engine.filesystem._roots import SkillRoot
from skilldeck.engine.filesystem._watch import LIVE_GAP_S, RootWatcher, is_relevant_change
from skilldeck.engine.filesystem._watch_gate import QuietWindow

#: Seconds any single expectation may take before the test calls it a hang (the waits
#: return as soon as it is met; generous for a loaded machine).
WAIT = 30.0


def _root(path: Path, skip: frozenset[str] = frozenset()) -> SkillRoot:
    return SkillRoot(400, "user-dsh", str(path), path.is_dir(), skip)


class Recorder:
    def __init__(self) -> None:
        self.batches: list[set[str]] = []
        self.event = asyncio.Event()

    def __call__(self, paths: set[str]) -> None:
        self.batches.append(paths)
        self.event.set()

    async def next(self) -> set[str]:
        await asyncio.wait_for(self.event.wait(), WAIT)
        self.event.clear()
        return self.batches[-1]

    async def quiet(self, seconds: float = 0.6) -> None:
        self.event.clear()
        await asyncio.sleep(seconds)
        assert self.batches == [] or not self.event.is_set(), self.batches[-1]


def _skill(folder: Path, name: str, description: str = "d") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "SKILL.md"
    path.write_text(f"---\nname: {name}\ndescription: {description}\n---\nbody\n")
    return path


async def _settle() -> None:
    await asyncio.sleep(0.3)  # let the native watch attach before touching files


def test_relevance_filter(tmp_path: Path) -> None:
    root_path = tmp_path / "skills"
    (root_path / "bundle" / "references").mkdir(parents=True)
    (root_path / "notes.txt").write_text("x")
    root = _root(root_path, frozenset({".system"}))
    assert is_relevant_change(str(root_path), [root])
    assert is_relevant_change(str(tmp_path), [root])  # an ancestor of the root
    assert is_relevant_change(str(root_path / "bundle"), [root])
    assert is_relevant_change(str(root_path / "gone"), [root])  # removed child
    assert is_relevant_change(str(root_path / "flat.md"), [root])
    assert is_relevant_change(str(root_path / "bundle" / "SKILL.md"), [root])
    assert not is_relevant_change(str(root_path / "notes.txt"), [root])
    # A file directly in a bundle folder: the bundle's SD10xx findings read it.
    assert is_relevant_change(str(root_path / "bundle" / "notes.md"), [root])
    assert is_relevant_change(str(root_path / "bundle" / "install.sh"), [root])
    # Deeper files are not watched (one level deep; the client's watcher reports them).
    assert not is_relevant_change(str(root_path / "bundle" / "references" / "a.md"), [root])
    assert not is_relevant_change(str(root_path / ".system" / "SKILL.md"), [root])
    assert not is_relevant_change(str(tmp_path / "elsewhere.md"), [root])


async def test_add_change_delete_and_bundle_file_edits(tmp_path: Path) -> None:
    root_path = tmp_path / "skills"
    root_path.mkdir()
    rec = Recorder()
    async with RootWatcher([_root(root_path)], rec, debounce_ms=100, step_ms=30):
        await _settle()
        skill = _skill(root_path / "alpha", "alpha")
        assert str(root_path / "alpha") in await rec.next() or rec.batches

        skill.write_text("---\nname: alpha\ndescription: changed\n---\n")
        assert str(skill) in await rec.next()

        (root_path / "flat.md").write_text("---\nname: flat\ndescription: d\n---\n")
        assert str(root_path / "flat.md") in await rec.next()

        # A file directly in the bundle counts (its SD10xx scan reads it) ...
        (root_path / "alpha" / "install.sh").write_text("echo hi\n")
        assert str(root_path / "alpha" / "install.sh") in await rec.next()
        refs = root_path / "alpha" / "references"
        refs.mkdir()
        assert str(refs) in await rec.next()
        # ... one below it is not watched (one level deep: the client's watcher sees it).
        (refs / "guide.md").write_text("resource")
        before = len(rec.batches)
        await asyncio.sleep(0.6)
        assert len(rec.batches) == before

        shutil.rmtree(root_path / "alpha")
        assert str(root_path / "alpha") in await rec.next()


async def test_a_burst_is_one_notification(tmp_path: Path) -> None:
    root_path = tmp_path / "skills"
    root_path.mkdir()
    rec = Recorder()
    async with RootWatcher([_root(root_path)], rec, debounce_ms=300, step_ms=100):
        await _settle()
        for i in range(40):
            _skill(root_path / f"s{i}", f"s{i}")
        await rec.next()
        await asyncio.sleep(0.5)
    assert len(rec.batches) == 1
    assert {str(root_path / f"s{i}") for i in range(40)} <= rec.batches[0]


async def test_missing_root_is_followed_until_it_appears(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    root_path = home / ".agents" / "skills"
    rec = Recorder()
    async with RootWatcher([_root(root_path)], rec, debounce_ms=100, step_ms=30):
        await _settle()
        (home / ".agents").mkdir()
        await rec.next()  # the next segment appeared
        await _settle()
        root_path.mkdir()
        assert str(root_path) in await rec.next()
        await _settle()
        _skill(root_path / "late", "late")
        assert str(root_path / "late") in await rec.next()


async def test_root_deleted_and_recreated_stays_observable(tmp_path: Path) -> None:
    home = tmp_path / "home"
    root_path = home / ".agents" / "skills"
    _skill(root_path / "first", "first")
    rec = Recorder()
    async with RootWatcher([_root(root_path)], rec, debounce_ms=100, step_ms=30):
        await _settle()
        shutil.rmtree(home / ".agents")
        assert str(root_path) in await rec.next() | set(rec.batches[0])
        await _settle()
        rec.batches.clear()
        _skill(root_path / "again", "again")
        await rec.next()  # recreating the root (and its first skill) is observed
        # and the recreated root is watched as a root again
        await _settle()
        (root_path / "again" / "SKILL.md").write_text("---\nname: again\ndescription: 2\n---\n")
        while str(root_path / "again" / "SKILL.md") not in await rec.next():
            pass


async def test_close_leaves_no_task_or_thread(tmp_path: Path) -> None:
    root_path = tmp_path / "skills"
    root_path.mkdir()
    before = set(threading.enumerate())
    watcher = RootWatcher([_root(root_path), _root(tmp_path / "missing" / "x")], lambda _p: None)
    watcher.start()
    await _settle()
    await asyncio.wait_for(watcher.aclose(), WAIT)
    others = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
    assert others == []
    # anyio keeps idle worker threads for reuse; nothing else may remain running
    extra = [t for t in threading.enumerate() if t not in before]
    assert all(t.name.startswith("AnyIO worker thread") for t in extra), extra


async def test_watcher_failure_is_reported_then_recovers(tmp_path: Path) -> None:
    root_path = tmp_path / "skills"
    root_path.mkdir()
    calls = 0

    def flaky_awatch(*args: Any, **kwargs: Any) -> AsyncGenerator[set[tuple[Any, str]], None]:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise OSError(errno.ENOSPC, "inotify watch limit reached")
        return awatch(*args, **kwargs)

    errors: list[BaseException] = []
    got_error = asyncio.Event()

    def on_error(error: BaseException) -> None:
        errors.append(error)
        got_error.set()

    rec = Recorder()
    watcher = RootWatcher(
        [_root(root_path)], rec, on_error=on_error, watch_impl=flaky_awatch, step_ms=30
    )
    async with watcher:
        await asyncio.wait_for(got_error.wait(), WAIT)
        assert not watcher.healthy
        assert "inotify watch limit reached" in str(errors[0])
        # the retry succeeds: healthy again, and consumers are told to re-read
        assert await rec.next() == {str(root_path)}
        assert watcher.healthy


async def test_a_change_before_the_watch_is_live_is_reported_once_it_is(tmp_path: Path) -> None:
    """Listing, then a change, then the watch opens: the change is still reported."""
    root_path = tmp_path / "skills"
    _skill(root_path / "alpha", "alpha")
    target = root_path / "alpha" / "SKILL.md"

    def late_awatch(*args: Any, **kwargs: Any) -> AsyncGenerator[set[tuple[Any, str]], None]:
        # Runs after the listing and before the watch exists: no event can see this.
        target.write_text("---\nname: alpha\ndescription: changed meanwhile\n---\n")
        return awatch(*args, **kwargs)

    rec = Recorder()
    watcher = RootWatcher([_root(root_path)], rec, watch_impl=late_awatch, step_ms=30)
    async with watcher:
        await asyncio.wait_for(watcher.wait_listed(), WAIT)
        assert str(target) in await rec.next()


async def test_a_bundle_folder_with_undecodable_bytes_does_not_break_the_watch(
    tmp_path: Path,
) -> None:
    root_path = tmp_path / "skills"
    root_path.mkdir()
    odd = os.path.join(os.fsencode(root_path), b"caf\xe9")
    os.mkdir(odd)
    _skill(root_path / "alpha", "alpha")
    rec = Recorder()
    watcher = RootWatcher([_root(root_path)], rec, debounce_ms=100, step_ms=30)
    async with watcher:
        await watcher.wait_listed()
        await _settle()
        (root_path / "alpha" / "SKILL.md").write_text("---\nname: alpha\ndescription: e\n---\n")
        assert str(root_path / "alpha" / "SKILL.md") in await rec.next()
        assert watcher.healthy


async def test_a_held_watch_opens_on_release_and_reports_what_changed_meanwhile(
    tmp_path: Path,
) -> None:
    root_path = tmp_path / "skills"
    target = _skill(root_path / "alpha", "alpha")
    opened: list[int] = []

    def counting(*args: Any, **kwargs: Any) -> Any:
        opened.append(1)
        return awatch(*args, **kwargs)

    rec = Recorder()
    watcher = RootWatcher([_root(root_path)], rec, watch_impl=counting, step_ms=30)
    watcher.hold()  # the language server holds watches while its first scan runs
    async with watcher:
        await asyncio.wait_for(watcher.wait_listed(), WAIT)
        target.write_text("---\nname: alpha\ndescription: changed meanwhile\n---\n")
        _skill(root_path / "beta", "beta")
        await asyncio.sleep(0.5)
        assert opened == []
        assert rec.batches == []
        watcher.release()
        seen: set[str] = set()
        while not {str(target), str(root_path / "beta")} <= seen:
            seen |= await rec.next()
        assert opened


async def test_a_held_watcher_closes_cleanly(tmp_path: Path) -> None:
    watcher = RootWatcher([_root(tmp_path)], Recorder())
    watcher.hold()
    await watcher.__aenter__()
    await asyncio.wait_for(watcher.wait_listed(), WAIT)
    # Closing while held must not wait for a release that never comes.
    await asyncio.wait_for(watcher.aclose(), 2.0)


class SlowBuilds:
    """``awatch`` whose native watch takes ``build_s`` to build, holding the loop as
    watchfiles' ``RustNotify`` constructor does (it runs when the generator first runs)."""

    def __init__(self, build_s: float) -> None:
        self.build_s = build_s
        self.ticks = 0  # loop turns counted by a ticker task
        self.builds: list[tuple[float, float, int]] = []  # (start, end, ticks at start)

    def __call__(self, *args: Any, **kwargs: Any) -> AsyncGenerator[set[tuple[Any, str]], None]:
        async def watch() -> AsyncGenerator[set[tuple[Any, str]], None]:
            start = time.monotonic()
            time.sleep(self.build_s)
            self.builds.append((start, time.monotonic(), self.ticks))
            async with contextlib.aclosing(awatch(*args, **kwargs)) as batches:
                async for batch in batches:
                    yield batch

        return watch()

    async def tick(self) -> None:
        while True:
            await asyncio.sleep(0.005)
            self.ticks += 1


async def test_roots_go_live_one_at_a_time_with_the_loop_served_between_and_nothing_lost(
    tmp_path: Path,
) -> None:
    targets = [_skill(tmp_path / f"root{k}" / "alpha", "alpha") for k in range(4)]
    roots = [_root(tmp_path / f"root{k}") for k in range(4)]
    slow = SlowBuilds(0.1)
    rec = Recorder()
    watcher = RootWatcher(roots, rec, watch_impl=slow, step_ms=30)
    watcher.hold()
    ticker = asyncio.create_task(slow.tick())
    try:
        async with watcher:
            await asyncio.wait_for(watcher.wait_listed(), WAIT)
            for target in targets:
                target.write_text("---\nname: alpha\ndescription: changed meanwhile\n---\n")
            watcher.release()
            seen: set[str] = set()
            while not {str(t) for t in targets} <= seen:
                seen |= await rec.next()
    finally:
        ticker.cancel()
    assert len(slow.builds) == 4
    for (_, end, _), (start, _, _) in zip(slow.builds, slow.builds[1:], strict=False):
        # never two builds back to back: the loop gets as long as the build took
        assert start - end >= max(LIVE_GAP_S, slow.build_s) * 0.9
    ticks_at_build = [ticks for _, _, ticks in slow.builds]
    assert ticks_at_build == sorted(set(ticks_at_build))  # the loop ran between builds


def _empty_roots(base: Path, count: int) -> list[SkillRoot]:
    """``count`` empty root folders under ``base``."""
    roots = [_root(base / f"root{k}") for k in range(count)]
    for root in roots:
        os.mkdir(root.path)
    return roots


async def test_closing_while_roots_wait_to_go_live_returns_at_once(tmp_path: Path) -> None:
    roots = _empty_roots(tmp_path, 4)
    slow = SlowBuilds(0.3)
    watcher = RootWatcher(roots, Recorder(), watch_impl=slow)
    watcher.hold()
    await watcher.__aenter__()
    await asyncio.wait_for(watcher.wait_listed(), WAIT)
    watcher.release()
    while not slow.builds:
        await asyncio.sleep(0.01)
    followers = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
    started = time.monotonic()
    await asyncio.wait_for(watcher.aclose(), 2.0)
    assert time.monotonic() - started < 1.0
    assert len(slow.builds) == 1  # the roots still waiting for their turn never built
    for task in followers:  # each root's task ended cleanly, none with an error
        assert task.done()
        assert task.cancelled() or task.exception() is None, task.exception()


async def test_a_user_at_work_holds_the_remaining_roots_back_until_a_pause(
    tmp_path: Path,
) -> None:
    """Released with a quiet window, a root goes live only while the user is quiet."""
    roots = _empty_roots(tmp_path, 3)
    slow = SlowBuilds(0.05)
    typing = True
    stopped = 0.0

    def last_activity() -> float:  # the last keystroke
        return time.monotonic() if typing else stopped

    watcher = RootWatcher(roots, Recorder(), watch_impl=slow)
    watcher.hold()
    async with watcher:
        await asyncio.wait_for(watcher.wait_listed(), WAIT)
        watcher.release(QuietWindow.from_now(last_activity, quiet_s=0.2, within_s=30.0))
        await asyncio.sleep(1.0)
        assert slow.builds == []  # the user never paused: nothing built
        stopped = time.monotonic()
        typing = False
        while len(slow.builds) < 3:
            await asyncio.sleep(0.02)
            assert time.monotonic() - stopped < WAIT
        assert slow.builds[0][0] - stopped >= 0.15  # a pause of quiet_s first
        assert slow.builds[0][0] - stopped < 1.0


async def test_the_quiet_windows_deadline_lets_every_root_go_live(tmp_path: Path) -> None:
    roots = _empty_roots(tmp_path, 3)
    slow = SlowBuilds(0.02)
    watcher = RootWatcher(roots, Recorder(), watch_impl=slow)
    watcher.hold()
    async with watcher:
        await asyncio.wait_for(watcher.wait_listed(), WAIT)
        asked = time.monotonic()
        watcher.release(QuietWindow.from_now(time.monotonic, quiet_s=0.2, within_s=0.6))
        while len(slow.builds) < 3:
            await asyncio.sleep(0.02)
            assert time.monotonic() - asked < WAIT
        assert slow.builds[0][0] - asked >= 0.55  # typing all along: built at the deadline
