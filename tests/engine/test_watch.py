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

from watch_harness import WAIT, FakeClock, Opens, Recorder
from watchfiles import Change, awatch

from skilldeck.engine.filesystem._roots import SkillRoot
from skilldeck.engine.filesystem._watch import LIVE_GAP_S, RootWatcher, is_relevant_change
from skilldeck.engine.filesystem._watch_gate import QuietWindow


def _root(path: Path, skip: frozenset[str] = frozenset()) -> SkillRoot:
    return SkillRoot(400, "user-dsh", str(path), path.is_dir(), skip)


def _skill(folder: Path, name: str, description: str = "d") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "SKILL.md"
    path.write_text(f"---\nname: {name}\ndescription: {description}\n---\nbody\n")
    return path


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
    opens = Opens()
    async with RootWatcher([_root(root_path)], rec, debounce_ms=100, step_ms=30, watch_impl=opens):
        await opens.live(1)
        skill = _skill(root_path / "alpha", "alpha")
        await rec.seen({str(root_path / "alpha")})
        await opens.watching(str(root_path / "alpha"))  # re-opened with the new bundle

        start = len(rec.batches)
        skill.write_text("---\nname: alpha\ndescription: changed\n---\n")
        await rec.seen({str(skill)}, start)

        start = len(rec.batches)
        (root_path / "flat.md").write_text("---\nname: flat\ndescription: d\n---\n")
        await rec.seen({str(root_path / "flat.md")}, start)

        # A file directly in the bundle counts (its SD10xx scan reads it) ...
        start = len(rec.batches)
        (root_path / "alpha" / "install.sh").write_text("echo hi\n")
        await rec.seen({str(root_path / "alpha" / "install.sh")}, start)
        start = len(rec.batches)
        refs = root_path / "alpha" / "references"
        refs.mkdir()
        await rec.seen({str(refs)}, start)
        # ... one below it is not watched (one level deep: the client's watcher sees it).
        # The skill file's edit after it is reported: the guide's would have come first.
        start = len(rec.batches)
        (refs / "guide.md").write_text("resource")
        skill.write_text("---\nname: alpha\ndescription: after the guide\n---\n")
        await rec.seen({str(skill)}, start)
        assert not any("guide.md" in path for path in rec.since(start)), rec.since(start)

        start = len(rec.batches)
        shutil.rmtree(root_path / "alpha")
        await rec.seen({str(root_path / "alpha")}, start)


async def test_a_batch_of_changes_is_one_notification(tmp_path: Path) -> None:
    """One watchfiles batch (a burst: 40 bundles created at once) is one ``on_change``
    naming every bundle and skill file; the re-opened watch adds nothing to it."""
    root_path = tmp_path / "skills"
    root_path.mkdir()
    folders = [root_path / f"s{i}" for i in range(40)]
    marker = root_path / "s0" / "SKILL.md"
    rec = Recorder()
    watches = 0

    def burst(*paths: str, stop_event: Any, **kwargs: Any) -> AsyncGenerator[Any, None]:
        nonlocal watches
        watches += 1
        number = watches

        async def watch() -> AsyncGenerator[set[tuple[Change, str]], None]:
            if number == 1:  # created after the listing: each a change
                files = [_skill(folder, folder.name) for folder in folders]
                yield {(Change.added, str(p)) for p in [*folders, *files]}
            elif number == 2:  # a later change, once the burst was reported
                await rec.batch(0)
                marker.write_text("---\nname: s0\ndescription: later\n---\n")
                yield {(Change.modified, str(marker))}
            await stop_event.wait()

        return watch()

    async with RootWatcher([_root(root_path)], rec, step_ms=30, watch_impl=burst):
        await rec.batch(1)
    assert rec.batches == [
        {str(folder) for folder in folders} | {str(folder / "SKILL.md") for folder in folders},
        {str(marker)},
    ]


async def test_missing_root_is_followed_until_it_appears(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    root_path = home / ".agents" / "skills"
    rec = Recorder()
    opens = Opens()
    async with RootWatcher([_root(root_path)], rec, debounce_ms=100, step_ms=30, watch_impl=opens):
        await opens.watching(str(home))
        (home / ".agents").mkdir()
        await rec.seen({str(home / ".agents")})  # the next segment appeared
        await opens.watching(str(home / ".agents"))
        start = len(rec.batches)
        root_path.mkdir()
        await rec.seen({str(root_path)}, start)
        await opens.watching(str(root_path))
        start = len(rec.batches)
        _skill(root_path / "late", "late")
        await rec.seen({str(root_path / "late")}, start)


async def test_root_deleted_and_recreated_stays_observable(tmp_path: Path) -> None:
    home = tmp_path / "home"
    root_path = home / ".agents" / "skills"
    _skill(root_path / "first", "first")
    rec = Recorder()
    opens = Opens()
    async with RootWatcher([_root(root_path)], rec, debounce_ms=100, step_ms=30, watch_impl=opens):
        await opens.watching(str(root_path), str(root_path / "first"))
        shutil.rmtree(home / ".agents")
        await rec.seen({str(root_path)})
        await opens.watching(str(home))  # following the nearest ancestor again
        start = len(rec.batches)
        _skill(root_path / "again", "again")
        await rec.batch(start)  # recreating the root (and its first skill) is observed
        # and the recreated root is watched as a root again
        await opens.watching(str(root_path), str(root_path / "again"))
        start = len(rec.batches)
        (root_path / "again" / "SKILL.md").write_text("---\nname: again\ndescription: 2\n---\n")
        await rec.seen({str(root_path / "again" / "SKILL.md")}, start)


async def test_close_leaves_no_task_or_thread(tmp_path: Path) -> None:
    root_path = tmp_path / "skills"
    root_path.mkdir()
    before = set(threading.enumerate())
    opens = Opens()
    watcher = RootWatcher(
        [_root(root_path), _root(tmp_path / "missing" / "x")], lambda _p: None, watch_impl=opens
    )
    watcher.start()
    await opens.live(2)  # both watches exist: closing stops them, not a start
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
        assert await rec.batch(0) == {str(root_path)}
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
        await rec.seen({str(target)})


async def test_a_bundle_folder_with_undecodable_bytes_does_not_break_the_watch(
    tmp_path: Path,
) -> None:
    root_path = tmp_path / "skills"
    root_path.mkdir()
    odd = os.path.join(os.fsencode(root_path), b"caf\xe9")
    os.mkdir(odd)
    _skill(root_path / "alpha", "alpha")
    rec = Recorder()
    opens = Opens()
    watcher = RootWatcher([_root(root_path)], rec, debounce_ms=100, step_ms=30, watch_impl=opens)
    async with watcher:
        await opens.live(1)
        assert opens.built == [(str(root_path), str(root_path / "alpha"))]  # no watch of its own
        (root_path / "alpha" / "SKILL.md").write_text("---\nname: alpha\ndescription: e\n---\n")
        await rec.seen({str(root_path / "alpha" / "SKILL.md")})
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
    # The same watch, not held: what a held one would have done meanwhile.
    control, control_opens = Recorder(), Opens()
    unheld = RootWatcher([_root(root_path)], control, watch_impl=control_opens, step_ms=30)
    watcher.hold()  # the language server holds watches while its first scan runs
    async with watcher, unheld:
        await asyncio.wait_for(watcher.wait_listed(), WAIT)
        await control_opens.live(1)
        target.write_text("---\nname: alpha\ndescription: changed meanwhile\n---\n")
        _skill(root_path / "beta", "beta")
        changed = {str(target), str(root_path / "beta")}
        # The unheld watch, listed after the held one, went live and reported the
        # changes; the held one, which would have gone live first, opened nothing.
        await control.seen(changed)
        assert opened == []
        assert rec.batches == []
        watcher.release()
        await rec.seen(changed)
        assert opened


async def test_a_held_watcher_closes_cleanly(tmp_path: Path) -> None:
    watcher = RootWatcher([_root(tmp_path), _root(tmp_path / "missing")], Recorder())
    watcher.hold()
    await watcher.__aenter__()
    await asyncio.wait_for(watcher.wait_listed(), WAIT)
    followers = _followers()
    assert len(followers) == 2
    # Closing while held must not wait for a release that never comes: each root's task
    # ends on its own (a task still waiting is cancelled by aclose's fallback instead).
    await asyncio.wait_for(watcher.aclose(), WAIT)
    for task in followers:
        assert task.done() and not task.cancelled() and task.exception() is None


def _followers() -> list[asyncio.Task[Any]]:
    """The watcher's tasks that follow a root (one a root)."""
    return [
        task
        for task in asyncio.all_tasks()
        if getattr(task.get_coro(), "__qualname__", "") == "RootWatcher._follow"
    ]


class SlowBuilds:
    """``awatch`` whose native watch takes ``build_s`` to build, holding the loop as
    watchfiles' ``RustNotify`` constructor does (it runs when the generator first runs)."""

    def __init__(self, build_s: float) -> None:
        self.build_s = build_s
        self.ticks = 0  # loop turns counted by a ticker task
        self.builds: list[tuple[float, float, int]] = []  # (start, end, ticks at start)
        self._built = asyncio.Event()

    def __call__(self, *args: Any, **kwargs: Any) -> AsyncGenerator[set[tuple[Any, str]], None]:
        async def watch() -> AsyncGenerator[set[tuple[Any, str]], None]:
            start = time.monotonic()
            time.sleep(self.build_s)
            self.builds.append((start, time.monotonic(), self.ticks))
            self._built.set()
            async with contextlib.aclosing(awatch(*args, **kwargs)) as batches:
                async for batch in batches:
                    yield batch

        return watch()

    async def built(self, count: int) -> None:
        """Wait until ``count`` watches were built."""

        async def done() -> None:
            while len(self.builds) < count:
                self._built.clear()
                await self._built.wait()

        await asyncio.wait_for(done(), WAIT)

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
            await rec.seen({str(t) for t in targets})
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
    await slow.built(1)
    followers = _followers()
    assert len(followers) == 4
    await asyncio.wait_for(watcher.aclose(), WAIT)
    assert len(slow.builds) == 1  # the roots still waiting for their turn never built
    # Each root's task ended on its own, none with an error: a task that went on waiting
    # for its turn would have been cancelled by aclose's fallback (after 2 s) instead.
    for task in followers:
        assert task.done() and not task.cancelled(), task
        assert task.exception() is None, task.exception()


async def test_a_user_at_work_holds_the_remaining_roots_back_until_a_pause(
    tmp_path: Path,
) -> None:
    """Released with a quiet window, a root goes live only while the user is quiet."""
    roots = _empty_roots(tmp_path, 3)
    slow = SlowBuilds(0.05)
    clock = FakeClock()
    typing = True
    stopped = 0.0

    def last_activity() -> float:  # the last keystroke
        return clock.now if typing else stopped

    watcher = RootWatcher(roots, Recorder(), watch_impl=slow)
    watcher.hold()
    async with watcher:
        await asyncio.wait_for(watcher.wait_listed(), WAIT)
        window = QuietWindow.from_now(last_activity, quiet_s=0.2, within_s=30.0, clock=clock)
        watcher.release(window)
        for _ in range(3):  # typing on: checked again and again, nothing built
            await clock.read_again()
            clock.advance(0.1)
        assert slow.builds == []
        stopped = clock.now
        typing = False
        await clock.read_again()
        assert slow.builds == []  # not quiet for quiet_s yet
        clock.advance(0.2)  # a pause of quiet_s (the deadline is 30 s away)
        await slow.built(3)


async def test_the_quiet_windows_deadline_lets_every_root_go_live(tmp_path: Path) -> None:
    roots = _empty_roots(tmp_path, 3)
    slow = SlowBuilds(0.02)
    watcher = RootWatcher(roots, Recorder(), watch_impl=slow)
    watcher.hold()
    async with watcher:
        await asyncio.wait_for(watcher.wait_listed(), WAIT)
        clock = FakeClock()  # and the user types all along: the last activity is now
        watcher.release(QuietWindow.from_now(clock, quiet_s=0.2, within_s=0.6, clock=clock))
        for _ in range(5):  # 0.5 s on: checked again and again, nothing built
            await clock.read_again()
            clock.advance(0.1)
        await clock.read_again()
        assert slow.builds == []
        clock.advance(0.1)  # the deadline
        await slow.built(3)
