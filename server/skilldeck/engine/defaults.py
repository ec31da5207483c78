"""The embedded default: a registry with the filesystem provider (and the bundled one).

Every front end (CLI, language server, a Python agent) starts from this registry, so
they all see the same skills for the same configuration.
"""

from __future__ import annotations

from skilldeck.engine.bundled import bundled_provider_factory
from skilldeck.engine.config import SkilldeckConfig
from skilldeck.engine.fs_provider import filesystem_provider_factory
from skilldeck.engine.index_cache import IndexCache
from skilldeck.engine.registry import SkillRegistry


def default_registry(
    config: SkilldeckConfig | None = None,
    *,
    cache: IndexCache | None = None,
    watch: bool = False,
    collect_cache_max_entries: int = 128,
) -> SkillRegistry:
    """A :class:`SkillRegistry` with skilldeck's standard providers registered.

    - ``filesystem``: the roots of SPEC §3 for each lookup's ``cwd`` (project ``.dsh`` and
      ``.agents`` skills, custom dirs, user roots, ``bundled_skill_dir``). With
      ``watch=True`` its roots are watched and the registry's catalogs invalidated on
      change (the watcher stops when the registration is disposed).
    - ``skilldeck-bundled``: our packaged ``skill-authoring`` skill, listed only when
      ``config.bundled_skills`` is true (``bundled-skills = true`` in the config file).

    ``config`` defaults to :meth:`SkilldeckConfig.from_environment`. ``cache`` is the
    optional persistent per-file analysis cache (:class:`IndexCache`).
    """
    if config is None:
        config = SkilldeckConfig.from_environment()
    registry = SkillRegistry(collect_cache_max_entries=collect_cache_max_entries)
    registry.register_provider(filesystem_provider_factory(config, watch=watch, cache=cache))
    registry.register_provider(bundled_provider_factory(enabled=config.bundled_skills))
    return registry
