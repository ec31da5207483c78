"""``skilldeck.default_registry``: the engine's default registry with every source type
skilldeck reads, an ``mcp`` source through :mod:`skilldeck.remote` (which the engine never
imports: it is handed in from here, above both)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from skilldeck.engine.config import SkilldeckConfig
    from skilldeck.engine.filesystem import IndexCache, WatchGate
    from skilldeck.engine.registry import ProviderFactory, SkillRegistry


def default_registry(
    config: SkilldeckConfig | None = None,
    *,
    cache: IndexCache | None = None,
    watch: bool = False,
    collect_cache_max_entries: int = 128,
    providers: Sequence[ProviderFactory] = (),
    processes: int = 1,
    watch_gate: WatchGate | None = None,
) -> SkillRegistry:
    """:func:`skilldeck.engine.deck.default_registry` (see there) reading ``mcp`` sources
    with :func:`skilldeck.remote.mcp_source_factory`."""
    from skilldeck.engine.deck import default_registry as engine_registry  # noqa: PLC0415
    from skilldeck.remote import mcp_source_factory  # noqa: PLC0415

    return engine_registry(
        config,
        cache=cache,
        watch=watch,
        collect_cache_max_entries=collect_cache_max_entries,
        providers=providers,
        processes=processes,
        watch_gate=watch_gate,
        mcp_sources=mcp_source_factory,
    )
