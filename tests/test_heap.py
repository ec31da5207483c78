"""The memory an index build freed goes back to the system (glibc's ``malloc_trim``)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from skilldeck import heap
from skilldeck.heap import release_free_memory


def _resident_mb() -> float:
    with open(f"/proc/{os.getpid()}/statm", encoding="ascii") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc_trim")
def test_freed_heap_pages_are_returned_after_a_build() -> None:
    # A build's shape: many C-heap objects (over pymalloc's 512 bytes), most freed, a few
    # kept here and there, so the heap cannot simply shrink from its top.
    objects = [bytes(2000) + i.to_bytes(4, "little") for i in range(40_000)]
    kept = objects[::50]
    del objects
    before = _resident_mb()
    if not release_free_memory():
        pytest.skip("no glibc here")
    after = _resident_mb()
    assert before - after > 40, (before, after)
    assert len(kept) == 800


class _Spawned(Exception):
    pass


def test_finding_malloc_trim_starts_no_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """The server looks up ``malloc_trim`` among the symbols it has: no library search
    (``ctypes.util.find_library`` runs ``ldconfig -p`` in a child process, which a test
    counting the server's processes once caught)."""

    def refuse(*_args: object, **_kwargs: object) -> None:
        raise _Spawned

    monkeypatch.setattr(subprocess.Popen, "__init__", refuse)
    monkeypatch.setattr(os, "fork", refuse)
    heap._malloc_trim.cache_clear()
    try:
        release_free_memory()
    finally:
        heap._malloc_trim.cache_clear()
