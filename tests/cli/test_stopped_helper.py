"""A helper stopped with SIGSTOP cannot hang ``check``: it is killed at its deadline and
its slice is analysed by the run itself (same output, only later)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_helpers import Run, skill, write

pytestmark = pytest.mark.skipif(
    not hasattr(os, "fork") or not Path("/proc/self/task").is_dir(), reason="fork and /proc"
)

FILES = 2_000  # -j 2: the helper gets 1,000 files


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(word) for word in text.split()]


def _state(pid: int) -> str:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return "gone"
    return stat.rsplit(")", 1)[1].split()[0]


def _settled_state(pid: int) -> str:
    """The state of ``pid`` once a signal sent to it has taken effect (it returns as soon
    as it has; the bound is for a loaded machine)."""
    deadline = time.monotonic() + 30
    state = _state(pid)
    while state in ("R", "S", "D") and time.monotonic() < deadline:
        time.sleep(0.001)
        state = _state(pid)
    return state


def test_check_finishes_when_its_helper_is_stopped(run: Run, tmp_path: Path, home: Path) -> None:
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    for i in range(FILES):
        name = f"skill-{i:04}" if i % 100 else f"Skill_{i}"
        write(project / f".dsh/skills/skill-{i:04}/SKILL.md", skill(name))
    alone = run("check", "-j", "1", "--no-cache", cwd=project)
    assert alone.code == 1
    assert alone.stdout.endswith(f"in {FILES} skill files; 20 skills dropped.\n")

    environ = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DSH_", "SKILLDECK_"))
    }
    environ.update(
        DSH_HOME=str(home / ".dsh"),
        DSH_AGENTS_HOME=str(home / ".agents"),
        HOME=str(home),
        NO_COLOR="1",
        SKILLDECK_HELPER_DEADLINE_S="1",
    )
    for _ in range(3):  # on a busy machine the helper may finish before it is caught
        outcome = _run_stopping_the_helper(project, environ)
        if outcome is not None:
            break
    else:
        pytest.skip("the helper always finished before it could be stopped")
    code, stdout, stderr, stopped = outcome
    # The run ended at all (a helper waited for would hold it past communicate's
    # timeout), with the findings of a run alone.
    assert (code, stdout, stderr) == (1, alone.stdout, "")
    assert _state(stopped) == "gone"  # killed and reaped by the run


def _run_stopping_the_helper(
    project: Path, environ: dict[str, str]
) -> tuple[int, str, str, int] | None:
    """Run ``check -j 2``, SIGSTOP its helper; ``None`` if it was done before the stop."""
    process = subprocess.Popen(
        [sys.executable, "-m", "skilldeck", "check", "-j", "2", "--no-cache"],
        cwd=project,
        env=environ,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        stopped = None
        while stopped is None and process.poll() is None:
            helpers = _children(process.pid)
            if helpers:
                stopped = helpers[0]
                os.kill(stopped, signal.SIGSTOP)
            else:
                time.sleep(0.001)
        assert stopped is not None, "the run forked no helper"
        caught = _settled_state(stopped) == "T"  # really stopped, mid-slice
        stdout, stderr = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    if not caught:
        return None
    return process.returncode, stdout, stderr, stopped
