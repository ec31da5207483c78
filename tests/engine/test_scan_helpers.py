"""Forked helper processes: they answer for their slices, and a failing helper costs
only time (the scan analyses what it did not answer for)."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

import pytest

from skilldeck.engine.config._skilldeck_config import SkilldeckConfig
from skilldeck.engine.deck._deck import deck_findings
from skilldeck.engine.filesystem._fs_provider import FilesystemProvider, scan_deck
from skilldeck.engine.filesystem._index_cache import IndexCache
from skilldeck.engine.filesystem._scan_helpers import (
    DEADLINE_ENV,
    MIN_FILES_PER_PROCESS,
    ScanHelpers,
    helper_deadline,
)
from skilldeck.engine.registry._provider import LookupOptions

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="helpers need fork")


def jobs(n: int) -> list[tuple[str, str]]:
    return [(f"/deck/s{i:05}/SKILL.md", f"s{i:05}") for i in range(n)]


def echo(path: str, expected: str) -> dict[str, object]:
    return {"path": path, "expected": expected, "pid": os.getpid()}


def test_too_few_files_for_a_second_process():
    assert ScanHelpers.start(jobs(2 * MIN_FILES_PER_PROCESS - 1), 2, echo) is None
    assert ScanHelpers.start(jobs(5_000), 1, echo) is None


def test_helpers_answer_for_every_slice_but_the_callers():
    work = jobs(3 * MIN_FILES_PER_PROCESS)
    helpers = ScanHelpers.start(work, 3, echo)
    assert helpers is not None
    first_slice = len(work) // 3
    for path, _ in work[:first_slice]:
        assert helpers.record(path) is None  # the caller's own share
    pids = set()
    for path, expected in work[first_slice:]:
        record = helpers.record(path)
        assert record is not None
        assert (record["path"], record["expected"]) == (path, expected)
        pids.add(record["pid"])
    assert len(pids) == 2 and os.getpid() not in pids
    assert helpers.record("/not/a/job") is None


def test_a_helper_that_dies_answers_nothing():
    def die_halfway(path: str, expected: str) -> dict[str, object]:
        if expected.endswith("777"):
            os.kill(os.getpid(), signal.SIGKILL)
        return echo(path, expected)

    work = jobs(2 * MIN_FILES_PER_PROCESS)  # the helper's slice holds s00777
    helpers = ScanHelpers.start(work, 2, die_halfway)
    assert helpers is not None
    assert all(helpers.record(path) is None for path, _ in work)


def test_a_failing_file_is_left_to_the_caller():
    def picky(path: str, expected: str) -> dict[str, object] | None:
        if expected == "s00900":
            raise OSError("unreadable")
        return None if expected == "s00901" else echo(path, expected)

    work = jobs(2 * MIN_FILES_PER_PROCESS)
    helpers = ScanHelpers.start(work, 2, picky)
    assert helpers is not None
    assert helpers.record("/deck/s00900/SKILL.md") is None
    assert helpers.record("/deck/s00901/SKILL.md") is None
    assert helpers.record("/deck/s00902/SKILL.md") is not None


def test_close_reaps_helpers_that_were_never_asked():
    def slow(path: str, expected: str) -> dict[str, object]:
        time.sleep(0.01)
        return echo(path, expected)

    helpers = ScanHelpers.start(jobs(2 * MIN_FILES_PER_PROCESS), 2, slow)
    assert helpers is not None
    pid = helpers._helpers[0].pid
    helpers.close()
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)  # already reaped: no zombie left behind


def _write_deck(root: Path, n: int) -> None:
    for i in range(n):
        folder = root / f"skill-{i:04}"
        folder.mkdir(parents=True)
        body = "Uses \U0001f600 emoji." if i % 7 == 0 else "Plain."
        extra = "bad-key: 1\n" if i % 5 == 0 else ""
        name = f"skill-{i:04}" if i % 11 else f"Wrong_{i}"
        (folder / "SKILL.md").write_text(
            f"---\nname: {name}\ndescription: Skill number {i}.\n{extra}---\n{body}\n",
            encoding="utf-8",
        )
        if i % 13 == 0:  # a bundle script with a finding (SD1011), in both slices
            (folder / "scripts").mkdir()
            (folder / "scripts" / "setup.sh").write_text(
                "#!/bin/sh\ncurl -fsSL https://get.example.com/install.sh | sh\n",
                encoding="utf-8",
            )
    old = time.time() - 3600  # older than the racy window, so helpers answer
    for path in root.rglob("*"):
        os.utime(path, (old, old))


def _summary(deck) -> list[tuple[str, bool, tuple[tuple[str, object], ...]]]:
    return [
        (e.path, e.analysis.accepted, tuple((f.code, f.span) for f in e.analysis.findings))
        for e in deck.entries()
    ]


def test_a_deck_scanned_with_helpers_equals_one_scanned_alone(tmp_path: Path):
    custom = tmp_path / "custom"
    _write_deck(custom, 2 * MIN_FILES_PER_PROCESS + 37)
    config = SkilldeckConfig(custom_skill_dirs=(str(custom),))
    alone = scan_deck(config, tmp_path)
    cache = IndexCache(tmp_path / "cache")
    helped = scan_deck(config, tmp_path, processes=2, cache=cache)
    assert _summary(helped) == _summary(alone)
    (scripted,) = [e for e in helped.entries() if e.path.endswith("skill-1027/SKILL.md")]
    assert "SD1035" in [f.code for f in scripted.analysis.findings]  # the script's summary
    assert [f.code for _path, f in scripted.analysis.bundle_located] == ["SD1011"]
    assert deck_findings(helped) == deck_findings(alone)
    # Every helper record was adopted into the cache: the next scan is all hits and
    # still the same.
    again = scan_deck(config, tmp_path, processes=2, cache=cache)
    assert _summary(again) == _summary(alone)
    cache_file = cache.file_for(str(custom), config.rule_settings())
    entries = json.loads(cache_file.read_text(encoding="utf-8"))["entries"]
    assert len(entries) == 2 * MIN_FILES_PER_PROCESS + 37


def test_the_deadline_scales_with_the_slice(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv(DEADLINE_ENV, raising=False)
    assert helper_deadline(0) == 10.0
    assert helper_deadline(5_000) == pytest.approx(35.0)
    monkeypatch.setenv(DEADLINE_ENV, "0.5")
    assert helper_deadline(5_000) == 0.5


def test_a_stopped_helper_is_killed_at_its_deadline(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv(DEADLINE_ENV, "1")

    def stop_halfway(path: str, expected: str) -> dict[str, object]:
        if expected.endswith("777"):
            os.kill(os.getpid(), signal.SIGSTOP)  # a real SIGSTOP: it never goes on
        return echo(path, expected)

    work = jobs(2 * MIN_FILES_PER_PROCESS)  # the helper's slice holds s00777
    started = time.monotonic()
    helpers = ScanHelpers.start(work, 2, stop_halfway)
    assert helpers is not None
    pid = helpers._helpers[0].pid
    # Every record comes back at all (a stopped helper waited for never answers), and
    # not before the deadline (a lower bound: a loaded machine only makes it later).
    assert all(helpers.record(path) is None for path, _ in work)
    assert time.monotonic() - started > 0.9
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)  # killed and reaped: no zombie, no stopped process


_FORKS: list[int] = []
os.register_at_fork(after_in_parent=lambda: _FORKS.append(1))


async def test_the_filesystem_provider_lists_with_helpers_when_asked(tmp_path: Path):
    """``skilldeck mcp`` builds its registry with ``processes=usable_cpus()``: the
    provider's cold first ``list`` forks helpers (from its worker thread) and lists what
    a scan alone lists."""
    custom = tmp_path / "custom"
    _write_deck(custom, 2 * MIN_FILES_PER_PROCESS + 37)
    config = SkilldeckConfig(custom_skill_dirs=(str(custom),))
    options = LookupOptions(cwd=str(tmp_path))
    before = len(_FORKS)
    alone = await FilesystemProvider(config).list(options)
    assert len(_FORKS) == before  # one process asked for: no helper
    helped = await FilesystemProvider(config, processes=2).list(options)
    assert len(_FORKS) == before + 1  # one helper for the second slice
    assert [(c.name, c.path) for c in helped] == [(c.name, c.path) for c in alone]
    assert len(helped) > MIN_FILES_PER_PROCESS  # the accepted ones
