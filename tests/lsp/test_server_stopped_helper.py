"""The server's cold scan survives a helper stopped with SIGSTOP: the helper is killed
at its deadline and the server indexes its slice itself."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path

import pytest
from lsp_harness import HANG_S, Deck, StartServer, codes, diagnostics_of, indexed, request, uri

pytestmark = pytest.mark.skipif(
    not hasattr(os, "fork")
    or not Path("/proc/self/task").is_dir()
    or len(os.sched_getaffinity(0)) < 2,
    reason="needs fork, /proc and two CPUs (the server forks one helper per CPU)",
)

FILES = 2_000


def _children(pid: int) -> list[int]:
    """Child processes of ``pid``, whichever of its threads forked them."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found.extend(int(word) for word in (task / "children").read_text().split())
        except OSError:
            continue
    return found


def _state(pid: int) -> str:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return "gone"
    return stat.rsplit(")", 1)[1].split()[0]


async def test_the_index_completes_when_a_helper_is_stopped(
    deck: Deck, start_server: StartServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SKILLDECK_HELPER_DEADLINE_S", "1")  # the server's environment
    for i in range(FILES):
        name = f"skill-{i:04}" if i != FILES - 1 else "Last_Bad"
        folder = deck.project_dsh / f"skill-{i:04}"
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text(
            f"---\nname: {name}\ndescription: Skill {i}.\n---\nBody.\n", encoding="utf-8"
        )
    last = deck.project_dsh / f"skill-{FILES - 1:04}" / "SKILL.md"  # in the last slice
    started = time.monotonic()
    client = await start_server()
    server = client._server
    assert server is not None
    stopped = None
    while stopped is None and time.monotonic() - started < HANG_S:
        helpers = _children(server.pid)
        if helpers:
            stopped = helpers[0]
            os.kill(stopped, signal.SIGSTOP)
        else:
            await asyncio.sleep(0.001)
    assert stopped is not None, "the server forked no helper"
    state = _state(stopped)
    while state in ("R", "S", "D") and time.monotonic() - started < HANG_S:
        await asyncio.sleep(0.001)  # the signal takes effect
        state = _state(stopped)
    if state != "T":
        pytest.skip("the helper finished before it could be stopped")

    await indexed(client)
    assert codes(await diagnostics_of(client, last, bool)) == ["SD203"]
    catalog = await request(client, "skilldeck/catalog", {"uri": uri(deck.project)})
    assert catalog["skillCount"] == FILES - 1  # indexed at all: the helper was not waited for
    assert _state(stopped) == "gone"  # killed and reaped by the server
