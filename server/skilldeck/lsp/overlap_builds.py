"""Each folder's routing-overlap index (SD801 / SD802), built on the loop a few skills at a
time: after every index, and again once a burst of changes on disk is over.

An edit updates the overlap at once (:meth:`skilldeck.engine.overlap.DeckOverlap.update`
compares only the edited skill against the index), but against the deck's word weights
as they were at the last full build: a skill added, removed or rewritten changes how
rare its words are for every skill that uses them, and ``check`` weighs them as the deck
is now. So once the disk has been quiet for :data:`OVERLAP_SETTLE_S`, the folder's
overlap is built again from the whole deck and the files whose findings moved are
published; the editor then says what ``check`` says (``tests/parity``). Unsaved buffers
count once saved (``check`` cannot see them either). Each build ends with a line in the
client's log (``window/logMessage``, after its diagnostics). Tests:
``tests/lsp/test_overlap_editor.py``, ``tests/parity/test_parity.py``.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from skilldeck.engine.overlap import SLICE_PAUSE_SECONDS, DeckOverlap, TimeSlice

if TYPE_CHECKING:
    from skilldeck.lsp.index import FolderIndex
    from skilldeck.lsp.session import Session

#: Seconds without a change on disk before a folder's overlap is built again.
OVERLAP_SETTLE_S = 1.0
#: Files published per turn of the loop after a build (each carries up to three findings).
PUBLISH_BATCH = 50


class OverlapBuilds:
    """Builds, and schedules the rebuilds of, every folder's overlap index."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self._handles: dict[str, asyncio.TimerHandle] = {}
        #: Folder -> the number of its latest build: an older build stops.
        self._latest: dict[str, int] = {}

    def schedule(self, folders: set[str]) -> None:
        """Build the overlap of ``folders`` again once the disk has been quiet for
        :data:`OVERLAP_SETTLE_S` (a burst of changes is one build)."""
        loop = asyncio.get_running_loop()
        for folder in folders:
            handle = self._handles.pop(folder, None)
            if handle is not None:
                handle.cancel()
            self._handles[folder] = loop.call_later(OVERLAP_SETTLE_S, self._start, folder)

    def close(self) -> None:
        """Cancel the pending rebuilds."""
        for handle in self._handles.values():
            handle.cancel()
        self._handles.clear()

    def _start(self, folder: str) -> None:
        self._handles.pop(folder, None)
        index = self.session.folders.get(folder)
        if index is not None and index.ready:
            self.session.spawn(self.build(index, self.session.generation, every_file=False))

    async def build(self, index: FolderIndex, generation: int, *, every_file: bool) -> None:
        """Build ``index``'s overlap from its deck now, a few skills at a time on the loop
        (a worker thread would hold the GIL against every keystroke), then install it and
        publish the files whose findings may have changed (``every_file``: every file
        with a pair before or after, as after an index; otherwise only those whose
        findings differ)."""
        session = self.session
        number = self._latest.get(index.folder, 0) + 1
        self._latest[index.folder] = number
        winners = index.overlap_snapshot()
        steps = DeckOverlap.stepwise(winners, index.config.rule_settings())
        # The index is long-lived and acyclic: a full collection over its million fresh
        # objects in the middle of the build would stall a keystroke for half a second.
        with session.collector_pause():
            while True:
                try:
                    next(steps)
                except StopIteration as done:
                    overlap: DeckOverlap = done.value
                    break
                # A few skills at a time, then a real pause: keystrokes are served, and
                # their worker threads get the GIL without queueing behind the build.
                await asyncio.sleep(SLICE_PAUSE_SECONDS)
                if (
                    generation != session.generation
                    or session.folders.get(index.folder) is not index
                    or self._latest.get(index.folder) != number
                ):
                    return
            # No await since the last check, so no newer build has started. Installed inside
            # the pause: the new index is frozen with it (see collector_pause).
            before, changed = index.install_overlap(overlap)
        if not every_file:
            changed = await self._differing(index, before, changed)
        await session.publish_in_batches(changed, batch=PUBLISH_BATCH)
        session.server.log(
            f"skilldeck: routing overlap of {index.folder} built "
            f"({len(winners)} skills, {len(changed)} files published)"
        )
        # Dropping the old overlap at once would stall the loop (~40 ms at 10,000 skills).
        for _ in before.dismantle():
            await asyncio.sleep(SLICE_PAUSE_SECONDS)

    async def _differing(
        self, index: FolderIndex, before: DeckOverlap, paths: set[str]
    ) -> set[str]:
        """The ``paths`` whose overlap findings now differ from ``before``'s (what the
        client shows), compared a time slice at a time: at 10,000 skills the files with
        a pair take ~0.9 s to compare."""
        differing: set[str] = set()
        clock = TimeSlice()
        for path in paths:
            if before.findings_of(path) != index.overlap.findings_of(path):
                differing.add(path)
            if clock.over():
                await asyncio.sleep(SLICE_PAUSE_SECONDS)
                clock.restart()
        return differing
