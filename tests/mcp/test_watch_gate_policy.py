"""When ``skilldeck mcp`` lets its root watches go live: not during its first read, but
once its first answer is out (docs/mcp.md, *Start*)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import anyio
from mcp_client_helpers import HANG_S, skill_text, write

from mcp import Client
from skilldeck import SkilldeckConfig
from skilldeck.engine.filesystem._fs_provider import filesystem_provider_factory
from skilldeck.engine.filesystem._watch_gate import QUIET_S, WatchGate
from skilldeck.engine.registry._registry import SkillRegistry
from skilldeck.mcp.deck_server import DeckServer


async def test_the_watches_wait_for_the_first_answer_and_then_follow_the_deck(
    tmp_path: Path,
) -> None:
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    skill = project / ".dsh" / "skills" / "alpha" / "SKILL.md"
    write(skill, skill_text("alpha", "First."))
    config = SkilldeckConfig(
        dsh_home=str(tmp_path / "home-dsh"), agents_home=str(tmp_path / "home-agents")
    )
    gate = WatchGate()
    registry = SkillRegistry()
    dispose = registry.register_provider(
        filesystem_provider_factory(config, watch=True, watch_gate=gate)
    )
    deck = DeckServer(registry, cwd=str(project), max_description_length=1024, watch_gate=gate)
    try:
        await deck.start()
        assert not gate.is_open  # the first read is done; no answer yet: still held

        async with Client(deck.server, mode="legacy") as client:
            assert "- `alpha`: First." in (client.instructions or "")
            opened = anyio.Event()
            gate.when_open(opened.set)  # on the loop, once the first answer is quiet
            with anyio.fail_after(QUIET_S + 30):
                await opened.wait()
            # live now: an edit reaches the served view
            write(skill, skill_text("alpha", "Second."))
            with anyio.fail_after(HANG_S):  # a hang bound: it ends once the change is read
                while "Second." not in (await deck.state.current()).catalog_text:
                    await anyio.sleep(0.05)  # the lifespan re-reads after the change
    finally:
        dispose()
        others = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
        if others:
            _done, pending = await asyncio.wait(others, timeout=HANG_S)
            assert not pending, pending
