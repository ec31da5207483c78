"""Helpers for the root watcher's tests: a recorder of ``on_change`` batches and an
``awatch`` that says when each native watch exists.

Each wait here returns on an event (a batch reported, a watch built), never after a
pause: a loaded machine only makes them slower. ``WAIT`` bounds a hang.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator
from typing import Any

from watchfiles import awatch

#: Seconds any single expectation may take before a test calls it a hang (the waits
#: return as soon as it is met; generous for a loaded machine).
WAIT = 30.0


class Recorder:
    """``on_change`` that keeps every batch and wakes whoever waits for one."""

    def __init__(self) -> None:
        self.batches: list[set[str]] = []
        self._changed = asyncio.Event()

    def __call__(self, paths: set[str]) -> None:
        self.batches.append(paths)
        self._changed.set()

    def since(self, start: int) -> set[str]:
        """Every path reported in the batches from index ``start`` on."""
        return set().union(*self.batches[start:])

    async def batch(self, start: int) -> set[str]:
        """Wait for batch number ``start`` (0-based) and return it."""

        async def arrived() -> set[str]:
            while len(self.batches) <= start:
                self._changed.clear()
                await self._changed.wait()
            return self.batches[start]

        return await asyncio.wait_for(arrived(), WAIT)

    async def seen(self, paths: set[str], start: int = 0) -> None:
        """Wait until every one of ``paths`` was reported since batch ``start``."""

        async def reported() -> None:
            while not paths <= self.since(start):
                self._changed.clear()
                await self._changed.wait()

        await asyncio.wait_for(reported(), WAIT)


class Opens:
    """``awatch`` that records the folders of each watch it opens and tells when each
    watch's native watcher exists (events from then on are reported).

    watchfiles builds the native watcher (``RustNotify``, which adds every inotify watch)
    when ``awatch``'s generator first runs, before it first suspends. The first step is
    run in a task of its own; this generator resumes only after that step (asyncio runs
    ready callbacks in order), so the watch exists when :attr:`live` counts it.
    """

    def __init__(self) -> None:
        #: The folders of each watch opened, in order.
        self.folders: list[tuple[str, ...]] = []
        #: The folders of each watch whose native watcher was built, in order.
        self.built: list[tuple[str, ...]] = []
        self._changed = asyncio.Event()

    @property
    def live_count(self) -> int:
        """How many watches were built so far."""
        return len(self.built)

    def __call__(self, *paths: str, **kwargs: Any) -> AsyncGenerator[set[tuple[Any, str]], None]:
        self.folders.append(paths)

        async def watch() -> AsyncGenerator[set[tuple[Any, str]], None]:
            batches = awatch(*paths, **kwargs)
            first = asyncio.ensure_future(batches.__anext__())
            try:
                await asyncio.sleep(0)  # `first` ran its first step: the watch is built
                self.built.append(paths)
                self._changed.set()
                try:
                    batch = await first
                except StopAsyncIteration:
                    return
                yield batch
                async for batch in batches:
                    yield batch
            finally:
                if not first.done():
                    first.cancel()
                    with contextlib.suppress(BaseException):
                        await first
                await batches.aclose()

        return watch()

    async def live(self, count: int) -> None:
        """Wait until ``count`` watches were built."""

        async def built() -> None:
            while self.live_count < count:
                self._changed.clear()
                await self._changed.wait()

        await asyncio.wait_for(built(), WAIT)

    async def reopened(self, opened: int) -> None:
        """Wait until a watch opened after the first ``opened`` is built."""
        await self.live(opened + 1)

    async def watching(self, *folders: str) -> None:
        """Wait until the last watch built covers every one of ``folders`` (a watch opened
        after an event that adds a folder: the watch re-opens with it)."""

        async def covered() -> None:
            while not (self.built and set(folders) <= set(self.built[-1])):
                self._changed.clear()
                await self._changed.wait()

        await asyncio.wait_for(covered(), WAIT)


class FakeClock:
    """A clock (``time.monotonic``'s stand-in) that moves only when told, and counts how
    often it was read: a read is a check made by the code under test."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now
        self.reads = 0
        self._read = asyncio.Event()

    def __call__(self) -> float:
        self.reads += 1
        self._read.set()
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds

    async def read_again(self, times: int = 1) -> None:
        """Wait until the clock was read ``times`` more times (the code checked again)."""
        target = self.reads + times

        async def read() -> None:
            while self.reads < target:
                self._read.clear()
                await self._read.wait()

        await asyncio.wait_for(read(), WAIT)
