"""Forked helper processes that analyse slices of a cold scan in parallel.

Reading and parsing skill files is CPU-bound Python: threads only add switching under
the GIL (a 10,000-file scan took 2.7 s with eight threads on two cores, 1.6 s on one).
Processes do scale. When a scan must analyse many files the index cache does not hold,
the caller splits them into contiguous slices, keeps the first and forks one helper per
other slice. A helper reads and analyses its files exactly as the scan would and sends
back one JSON record per file, in the index cache's record format; the scan adopts a
record only if the file's identity (device, inode, size, mtime) is still the one the
helper saw, so a record stands exactly where a cache entry would.

A helper that fails for any reason (killed, crashed, garbled output, stopped) costs
nothing but time: every file it did not answer for is analysed by the scan itself. A
helper that has not answered by its deadline (:func:`helper_deadline`: 10 s plus 5 ms per
file of its slice, counted from its fork; about ten times what a slice takes on a cold
disk) is killed, so a stopped or stuck helper cannot hang a scan. Helpers are
plain ``os.fork`` children (only where ``fork`` exists) that never return into the
caller's code: they read, parse and write JSON to a pipe with modules imported before
the fork, take no lock another thread could hold (no logging, no printing, no imports)
and leave through ``os._exit``. That is what makes forking from the language server's
scan thread safe while its other threads run.
"""

from __future__ import annotations

import contextlib
import gc
import os
import select
import signal
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from skilldeck.engine.disk import dump_bytes, load_bytes

#: Fewest files worth one more process: forking and sending the results back cost
#: about as much as analysing this many files.
MIN_FILES_PER_PROCESS = 500

#: Time every helper is given whatever its slice (fork, imports paged in, a busy machine).
HELPER_BASE_DEADLINE_S = 10.0
#: Time a helper is given per file of its slice, on top of the base.
HELPER_DEADLINE_PER_FILE_S = 0.005
#: Environment variable that sets a fixed deadline in seconds for every helper instead.
DEADLINE_ENV = "SKILLDECK_HELPER_DEADLINE_S"

#: A job: the path of a skill file and the name its location implies.
Job = tuple[str, str]
#: Makes the record of one job, or ``None`` to leave the file to the scan.
RecordMaker = Callable[[str, str], "dict[str, Any] | None"]


def usable_cpus() -> int:
    """How many CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def helper_deadline(files: int) -> float:
    """Seconds a helper with ``files`` files may take before it is killed.

    :data:`HELPER_BASE_DEADLINE_S` plus :data:`HELPER_DEADLINE_PER_FILE_S` per file, or
    the number of seconds in ``$SKILLDECK_HELPER_DEADLINE_S`` when that is set.
    """
    fixed = os.environ.get(DEADLINE_ENV)
    if fixed:
        with contextlib.suppress(ValueError):
            return max(0.0, float(fixed))
    return HELPER_BASE_DEADLINE_S + HELPER_DEADLINE_PER_FILE_S * files


@dataclass
class _Helper:
    pid: int
    fd: int
    #: ``time.monotonic()`` after which the helper is killed and its slice left to the scan.
    deadline: float
    records: dict[str, Any] | None = None


class ScanHelpers:
    """The helpers of one scan; :meth:`record` waits for the one that owns a path."""

    def __init__(self) -> None:
        self._owners: dict[str, _Helper] = {}
        self._helpers: list[_Helper] = []

    @classmethod
    def start(
        cls, jobs: Sequence[Job], processes: int, make_record: RecordMaker
    ) -> ScanHelpers | None:
        """Fork helpers for all but the first slice of ``jobs``; ``None`` when one process
        is best (few jobs, one process asked for, or no ``fork``). The caller analyses the
        first ``len(jobs) // processes`` jobs itself."""
        processes = min(processes, len(jobs) // MIN_FILES_PER_PROCESS)
        if processes < 2 or not hasattr(os, "fork"):
            return None
        size = len(jobs) // processes
        helpers = cls()
        for index in range(1, processes):
            chunk = jobs[index * size : len(jobs) if index == processes - 1 else (index + 1) * size]
            helper = _fork(chunk, make_record, [h.fd for h in helpers._helpers])
            if helper is None:
                break  # the scan analyses the rest itself
            helpers._helpers.append(helper)
            helpers._owners.update((path, helper) for path, _ in chunk)
        return helpers if helpers._helpers else None

    def record(self, path: str) -> dict[str, Any] | None:
        """The helper's record for ``path``, if a helper was given it and answered."""
        helper = self._owners.get(path)
        if helper is None:
            return None
        if helper.records is None:
            helper.records = _collect(helper)
        found = helper.records.pop(path, None)  # asked once: freed as the scan goes
        return found if isinstance(found, dict) else None

    def close(self) -> None:
        """Reap every helper not collected yet (after an error in the scan)."""
        for helper in self._helpers:
            if helper.records is None:
                helper.records = {}
                _discard(helper)


def _fork(chunk: Sequence[Job], make_record: RecordMaker, inherited: list[int]) -> _Helper | None:
    try:
        read_fd, write_fd = os.pipe()
    except OSError:
        return None
    try:
        pid = os.fork()
    except OSError:
        os.close(read_fd)
        os.close(write_fd)
        return None
    if pid == 0:  # pragma: no cover - runs in the child, which leaves through os._exit
        _serve(chunk, make_record, write_fd, [read_fd, *inherited])
    os.close(write_fd)
    return _Helper(pid, read_fd, time.monotonic() + helper_deadline(len(chunk)))


def _serve(  # pragma: no cover - runs in the child
    chunk: Sequence[Job], make_record: RecordMaker, write_fd: int, foreign: list[int]
) -> None:
    status = 1
    try:
        gc.disable()  # a helper's own process: its objects live until it exits
        for fd in foreign:
            os.close(fd)
        records: dict[str, Any] = {}
        for path, expected in chunk:
            try:
                record = make_record(path, expected)
            except Exception:  # the scan will analyse this one itself and say why
                continue
            if record is not None:
                records[path] = record
        payload = dump_bytes(records)
        view = memoryview(payload)
        while view:
            view = view[os.write(write_fd, view) :]
        status = 0
    finally:
        os._exit(status)


def _collect(helper: _Helper) -> dict[str, Any]:
    """Read the helper's answer until it exits; ``{}`` if it fails or misses its deadline."""
    chunks: list[bytes] = []
    poller = select.poll()
    poller.register(helper.fd, select.POLLIN)
    try:
        while True:
            remaining = helper.deadline - time.monotonic()
            if remaining <= 0 or not poller.poll(max(1, int(remaining * 1000))):
                _kill(helper.pid)  # stopped or stuck: the scan analyses its slice
                return {}
            data = os.read(helper.fd, 1 << 20)
            if not data:
                break
            chunks.append(data)
    except OSError:
        _kill(helper.pid)
        return {}
    finally:
        with contextlib.suppress(OSError):
            os.close(helper.fd)
    try:
        _, status = os.waitpid(helper.pid, 0)
    except ChildProcessError:  # pragma: no cover - reaped elsewhere
        status = 1
    if status != 0:
        return {}
    try:
        records = load_bytes(b"".join(chunks))
    except ValueError:
        return {}
    return records if isinstance(records, dict) else {}


def _discard(helper: _Helper) -> None:
    _kill(helper.pid)
    with contextlib.suppress(OSError):
        os.close(helper.fd)


def _kill(pid: int) -> None:
    """Kill and reap a helper (SIGKILL ends a stopped process too)."""
    with contextlib.suppress(OSError):
        os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, 0)
