"""``skilldeck mcp`` runs for hours: once its first read is served, the cyclic collector
(paused by the CLI for the startup, as for every one-shot command) runs again, with what
the first read built frozen so it is never walked."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from skilldeck.cli.mcp_cmd import collect_from_now_on


@pytest.fixture
def paused_collector() -> Iterator[None]:
    """The collector as ``cli/main`` leaves it for ``skilldeck mcp``: off (restored after)."""
    was = gc.isenabled()
    gc.disable()
    callbacks = list(gc.callbacks)
    try:
        yield
    finally:
        gc.callbacks[:] = callbacks
        gc.unfreeze()
        if was:
            gc.enable()
        else:
            gc.disable()


def test_the_first_read_is_frozen_and_the_collector_runs_again(paused_collector: None) -> None:
    built = [[index] for index in range(1000)]  # what a first read leaves behind
    assert not gc.isenabled()
    collect_from_now_on()
    assert gc.isenabled()
    assert gc.get_freeze_count() >= len(built)
    # A cycle made afterwards is collected.
    cycle: list[object] = []
    cycle.append(cycle)
    del cycle
    assert gc.collect() >= 1


def test_what_a_full_collection_keeps_is_frozen_afterwards(paused_collector: None) -> None:
    collect_from_now_on()
    frozen = gc.get_freeze_count()
    # The entries of a skills/list walk: built after the first read, kept for the view.
    entries = [{"uri": f"skill://s{index}/SKILL.md", "resources": [index]} for index in range(5000)]
    garbage: list[object] = []
    garbage.append(garbage)
    del garbage
    assert gc.collect() >= 1  # the cycle made after the first read is still freed
    assert gc.get_freeze_count() >= frozen + 2 * len(entries)
    # A young collection does not freeze what it keeps.
    young = [[index] for index in range(1000)]
    after = gc.get_freeze_count()
    gc.collect(0)
    assert gc.get_freeze_count() == after
    assert len(young) == 1000
