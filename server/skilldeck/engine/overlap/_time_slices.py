"""Time slices for work a generator does a step at a time on an event loop.

The language server builds its routing-overlap index on its event loop, yielding so
keystrokes are served in between (a worker thread would hold the GIL against them). A
step of a fixed number of items takes as long as its slowest items: at 10,000 skills a
25-skill step took up to 20 ms, and a keystroke arriving meanwhile waited for it. A
:class:`TimeSlice` says when a slice is spent instead, so every step lasts about
:data:`SLICE_SECONDS` whatever the items cost. Callers that run a generator to the end
(``skilldeck check``) pay one clock read per item.
"""

from __future__ import annotations

import time

#: How long a step runs before it yields (seconds).
SLICE_SECONDS = 0.003
#: A real pause between two slices while someone waits (seconds): ``asyncio.sleep(0)``
#: keeps the GIL, so threads (pygls's stdin reader, which reads a message in a few round
#: trips; worker threads) would queue behind back-to-back slices; the loop idles this
#: long in ``select`` instead and lets them through.
SLICE_PAUSE_SECONDS = 0.002


class TimeSlice:
    """``if clock.over(): yield; clock.restart()`` inside a loop of a generator."""

    __slots__ = ("_budget", "_deadline")

    def __init__(self, budget: float = SLICE_SECONDS) -> None:
        self._budget = budget
        self._deadline = time.perf_counter() + budget

    def over(self) -> bool:
        """Whether the slice is spent (the caller yields, then calls :meth:`restart`)."""
        return time.perf_counter() >= self._deadline

    def restart(self) -> None:
        """Start a new slice (after the yield: the pause does not count)."""
        self._deadline = time.perf_counter() + self._budget
