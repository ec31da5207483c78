"""Small measuring helpers shared by the benchmark scripts: percentiles, timed processes,
the machine description."""

from __future__ import annotations

import os
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0-100) with linear interpolation; NaN for no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    if len(ordered) == 1:
        return ordered[0]
    rank = (len(ordered) - 1) * q / 100
    low = int(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def median(values: Sequence[float]) -> float:
    """The 50th percentile."""
    return percentile(values, 50)


@dataclass(frozen=True)
class ProcessRun:
    """One finished child process: wall seconds, CPU seconds (user + system), peak RSS."""

    wall: float
    cpu: float
    max_rss_kb: int
    returncode: int
    stdout: bytes
    stderr: bytes


def run_timed(
    argv: Sequence[str],
    *,
    env: Mapping[str, str] | None = None,
    cwd: str | None = None,
    stdin: bytes | None = None,
) -> ProcessRun:
    """Run ``argv`` to completion; the child is reaped with ``wait4`` for its own usage.

    Output goes to temporary files (pipes could fill up before we wait); ``stdin`` too.
    """
    with (
        tempfile.TemporaryFile() as given,
        tempfile.TemporaryFile() as out,
        tempfile.TemporaryFile() as err,
    ):
        given.write(stdin or b"")
        given.seek(0)
        start = time.perf_counter()
        child = subprocess.Popen(
            list(argv),
            env=dict(env) if env is not None else None,
            cwd=cwd,
            stdin=given,
            stdout=out,
            stderr=err,
        )
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return ProcessRun(
            wall,
            usage.ru_utime + usage.ru_stime,
            usage.ru_maxrss,
            child.returncode,
            out.read(),
            err.read(),
        )


def rss_kb(pid: int) -> int:
    """Resident set size of a live process (``VmRSS``), 0 when unknown."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii", errors="replace") as handle:
            for line in handle:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def cpu_ns(pid: int) -> int:
    """CPU time a live process has run so far, in nanoseconds (``/proc/PID/schedstat``,
    whose first field counts it exactly; unlike wall time it does not grow while other
    processes hold the CPU); 0 when unknown."""
    return _schedstat(pid)[0]


def _schedstat(pid: int) -> tuple[int, int]:
    """(ns run on a CPU, ns waited runnable for one) of a live process; zeros when unknown."""
    try:
        with open(f"/proc/{pid}/schedstat", encoding="ascii") as handle:
            ran, waited = handle.read().split()[:2]
        return int(ran), int(waited)
    except (OSError, ValueError):
        return 0, 0


async def settle(pid: int, limit_s: float, *, window_s: float = 0.5) -> tuple[float, float]:
    """Wait until process ``pid`` is idle: over ``window_s`` it ran and waited to run
    for under 2 % of the window (a process starved by a busy machine is not idle: it
    waits to run), at most ``limit_s`` seconds. Returns the seconds waited and the CPU
    seconds the process used meanwhile (its background work)."""
    import asyncio  # noqa: PLC0415

    started = time.perf_counter()
    first = _schedstat(pid)[0]
    while time.perf_counter() - started < limit_s:
        ran, waited = _schedstat(pid)
        await asyncio.sleep(window_s)
        ran2, waited2 = _schedstat(pid)
        if (ran2 - ran) + (waited2 - waited) < 0.02 * window_s * 1e9:
            break
    return time.perf_counter() - started, (_schedstat(pid)[0] - first) / 1e9


def machine() -> dict[str, object]:
    """What the figures were measured on."""
    model = ""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as handle:
            for line in handle:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        load = os.getloadavg()
    except OSError:
        load = (float("nan"),) * 3
    return {
        "nproc": os.cpu_count(),
        "cpu_model": model or platform.processor(),
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "loadavg_at_start": [round(x, 2) for x in load],
        "executable": sys.executable,
    }


def loadavg() -> list[float]:
    """The 1, 5 and 15 minute load averages (rounded)."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return []
