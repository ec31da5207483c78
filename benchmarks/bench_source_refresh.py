"""Typing latency while a git source refreshes in the background (issue #20's target:
"the editor's typing latency unaffected by a refresh in progress").

Makes a project of ``--local`` skills and a team repository (a bare git repo, ``file://``)
of ``--remote`` skills, configured as an editor source (``skilldeck.sources``). Runs
``python -m skilldeck.lsp`` twice over stdio and times didChange -> publishDiagnostics of
one open skill over ``--edits`` edits:

- ``quiet``: the source is fresh (refresh-interval 3600 s): no refresh runs;
- ``refreshing``: refresh-interval 0.2 s and a new commit (one skill's text changed)
  every ``--commit-every`` seconds, so a refresh runs back to back and every few seconds
  it brings a new commit and the folder's provided skills are read again. Each edit is
  counted as "during a refresh" when a ``Refreshing skill sources`` progress had begun
  and not ended when the edit was sent.

Not a test: numbers, not pass/fail. Scratch files go to a temp dir.

    .venv/bin/python benchmarks/bench_source_refresh.py [--local 1000] [--remote 1000]
        [--edits 300] [--commit-every 2]
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import statistics
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.uris import from_fs_path
from pytest_lsp.client import LanguageClient

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_lsp import NameEditProbe, make_corpus, server_env, skill

_GIT_ENV = {"GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull, "PATH": "/usr/bin:/bin"}
_IDENTITY = ("-c", "user.name=Bench", "-c", "user.email=bench@example.invalid")


def git(*args: str, cwd: Path | None = None) -> None:
    subprocess.run(
        ["git", *_IDENTITY, *args], cwd=cwd, check=True, capture_output=True, env=_GIT_ENV
    )


def make_team(base: Path, size: int) -> tuple[Path, Path]:
    """A work tree with ``size`` skills under ``skills/``, pushed to a bare repository."""
    work, bare = base / "team-work", base / "team.git"
    for index in range(size):
        folder = work / "skills" / f"team-{index:05d}"
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text(skill(f"team-{index:05d}", index), encoding="utf-8")
    git("init", "-q", "-b", "main", str(work))
    git("init", "-q", "--bare", "-b", "main", str(bare))
    commit(work, "skills")
    return work, bare


def commit(work: Path, message: str) -> None:
    git("add", "-A", cwd=work)
    git("commit", "-q", "-m", message, cwd=work)
    git("push", "-q", str(work.parent / "team.git"), "HEAD:main", cwd=work)


class Committer(threading.Thread):
    """Changes one team skill and pushes, every ``every`` seconds, until stopped."""

    def __init__(self, work: Path, every: float) -> None:
        super().__init__(daemon=True)
        self.work, self.every, self.stop, self.commits = work, every, threading.Event(), 0

    def run(self) -> None:
        target = self.work / "skills" / "team-00000" / "SKILL.md"
        while not self.stop.wait(self.every):
            self.commits += 1
            target.write_text(skill("team-00000", self.commits), encoding="utf-8")
            commit(self.work, f"change {self.commits}")


def refreshing(client: LanguageClient) -> bool:
    """Whether a ``Refreshing skill sources`` progress has begun and not ended."""
    for token, events in client.progress_reports.items():
        if (
            str(token).startswith("skilldeck-sources-")
            and events
            and not isinstance(events[-1], types.WorkDoneProgressEnd)
        ):
            return True
    return False


async def run(
    local: int, remote: int, edits: int, interval: float, commit_every: float | None
) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="skilldeck-bench-src-") as tmp:
        base = Path(tmp)
        project, target = make_corpus(base, local)
        work, bare = make_team(base, remote)
        probe = NameEditProbe(target)
        client = probe.client
        env = server_env(base, SKILLDECK_CACHE_DIR=str(base / "cache"))
        source = {
            "name": "team",
            "type": "git",
            "url": bare.as_uri(),
            "path": "skills",
            "refresh-interval": interval,
            "timeout": 60,
        }
        await client.start_io(sys.executable, "-m", "skilldeck.lsp", env=env)
        await client.initialize_session(
            types.InitializeParams(
                capabilities=types.ClientCapabilities(
                    window=types.WindowClientCapabilities(work_done_progress=True)
                ),
                workspace_folders=[
                    types.WorkspaceFolder(uri=from_fs_path(str(project)) or "", name="project")
                ],
                initialization_options={"sources": [source]},
            )
        )
        await asyncio.wait_for(probe.catalog_seen.wait(), 600)
        committer = Committer(work, commit_every) if commit_every else None
        if committer is not None:
            committer.start()
            await asyncio.sleep(1.0)

        probe.open()
        during: list[float] = []
        outside: list[float] = []
        for number in range(edits):
            busy = refreshing(client)
            (during if busy else outside).append(await probe.edit(number))
            await asyncio.sleep(0.02)  # typing cadence: separate events, not one burst
        if committer is not None:
            committer.stop.set()
            committer.join()
        refreshes = sum(
            1 for token in client.progress_reports if str(token).startswith("skilldeck-sources-")
        )
        await client.shutdown_session()
        await client.stop()
    return {
        "during": during,
        "outside": outside,
        "refreshes": refreshes,
        "commits": committer.commits if committer is not None else 0,
    }


def _row(label: str, latencies: list[float]) -> str:
    if not latencies:
        return f"{label:<26} {0:>6}"
    ordered = sorted(latencies)
    p95 = ordered[min(len(ordered) - 1, math.ceil(len(ordered) * 0.95) - 1)]
    return (
        f"{label:<26} {len(ordered):>6} {statistics.median(ordered):>8.2f} {p95:>8.2f} "
        f"{ordered[-1]:>8.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--local", type=int, default=1000, help="skills in the project")
    parser.add_argument("--remote", type=int, default=1000, help="skills in the git source")
    parser.add_argument("--edits", type=int, default=300)
    parser.add_argument("--commit-every", type=float, default=2.0)
    args = parser.parse_args()
    quiet = asyncio.run(run(args.local, args.remote, args.edits, 3600.0, None))
    busy = asyncio.run(run(args.local, args.remote, args.edits, 0.2, args.commit_every))
    print(f"{args.local} local skills, a git source of {args.remote} skills, {args.edits} edits")
    header = (
        f"{'edits (didChange -> diags)':<26} {'count':>6} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}"
    )
    print(header)
    print("-" * len(header))
    print(_row("quiet: no refresh", quiet["outside"] + quiet["during"]))
    print(_row("refreshing: during", busy["during"]))
    print(_row("refreshing: between", busy["outside"]))
    print(f"refreshing run: {busy['refreshes']} refreshes, {busy['commits']} new commits")


if __name__ == "__main__":
    main()
