"""The embedded default: a registry with the filesystem provider (and the bundled one).

Every front end (CLI, language server, a Python agent) starts from these providers, so
they all see the same skills for the same configuration. The deck
(:mod:`skilldeck.engine.deck._deck`) reads the filesystem roots itself (with analyses and open
buffers) and every other provider through :func:`provider_registry`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from skilldeck.engine.config import SkilldeckConfig
from skilldeck.engine.filesystem import (
    IndexCache,
    bundled_provider_factory,
    filesystem_provider_factory,
)
from skilldeck.engine.registry import ProviderFactory, SkillRegistry
from skilldeck.engine.sources import source_factory

if TYPE_CHECKING:
    from skilldeck.engine.filesystem import WatchGate
    from skilldeck.engine.sources import McpSourceReader


def default_registry(
    config: SkilldeckConfig | None = None,
    *,
    cache: IndexCache | None = None,
    watch: bool = False,
    collect_cache_max_entries: int = 128,
    providers: Sequence[ProviderFactory] = (),
    processes: int = 1,
    watch_gate: WatchGate | None = None,
    mcp_sources: McpSourceReader | None = None,
) -> SkillRegistry:
    """A :class:`SkillRegistry` with skilldeck's standard providers registered.

    - ``filesystem``: the roots of SPEC §3 for each lookup's ``cwd`` (project ``.dsh`` and
      ``.agents`` skills, custom dirs, user roots, ``bundled_skill_dir``). With
      ``watch=True`` its roots are watched and the registry's catalogs invalidated on
      change (the watcher stops when the registration is disposed).
    - ``skilldeck-bundled``: our packaged ``skill-authoring`` skill, listed only when
      ``config.bundled_skills`` is true (``bundled-skills = true`` in the config file).

    ``config`` defaults to :meth:`SkilldeckConfig.from_environment`. ``cache`` is the
    optional persistent per-file analysis cache (:class:`IndexCache`). ``providers`` are
    registered after the standard ones (e.g. ``skilldeck --provider MODULE:ATTR``).
    ``processes > 1`` lets the filesystem provider's scans fork helper processes
    (:func:`~skilldeck.engine.filesystem.scan_deck`) for a cold index. A closed
    ``watch_gate`` keeps the watches from going live until it is opened
    (:mod:`~skilldeck.engine.filesystem`; nothing that changes meanwhile is lost).
    ``mcp_sources`` reads the config's ``mcp`` sources (the front ends pass
    ``skilldeck.remote.mcp_source_factory``; without it such a source is empty and
    incomplete: the engine imports no protocol library).
    """
    if config is None:
        config = SkilldeckConfig.from_environment()
    registry = SkillRegistry(collect_cache_max_entries=collect_cache_max_entries)
    registry.register_provider(
        filesystem_provider_factory(
            config, watch=watch, cache=cache, processes=processes, watch_gate=watch_gate
        )
    )
    _register_others(registry, config, providers, mcp_sources)
    return registry


def provider_registry(
    config: SkilldeckConfig,
    providers: Sequence[ProviderFactory] = (),
    *,
    mcp_sources: McpSourceReader | None = None,
) -> SkillRegistry:
    """The registry of :func:`default_registry` without the filesystem provider: what the
    deck adds to the files it scans itself (bundled, registered and runtime skills)."""
    registry = SkillRegistry()
    _register_others(registry, config, providers, mcp_sources)
    return registry


def _register_others(
    registry: SkillRegistry,
    config: SkilldeckConfig,
    providers: Sequence[ProviderFactory],
    mcp_sources: McpSourceReader | None,
) -> None:
    registry.register_provider(bundled_provider_factory(enabled=config.bundled_skills))
    for source in config.remote_sources:
        registry.register_provider(source_factory(source, config, mcp_sources=mcp_sources))
    for factory in providers:
        registry.register_provider(factory)
