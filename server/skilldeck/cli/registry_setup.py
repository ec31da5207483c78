"""The registry the CLI reads: the filesystem provider (and the bundled one if enabled).

Built here in one function because the engine exposes no ready-made default registry;
the language server registers the same providers.
"""

from __future__ import annotations

from skilldeck.engine.bundled import bundled_provider_factory
from skilldeck.engine.config import SkilldeckConfig
from skilldeck.engine.fs_provider import filesystem_provider_factory
from skilldeck.engine.index_cache import IndexCache
from skilldeck.engine.registry import SkillRegistry


def build_registry(config: SkilldeckConfig, *, cache: IndexCache | None) -> SkillRegistry:
    """A registry with the ``filesystem`` provider for ``config`` (no watching).

    The packaged ``bundled`` provider is registered too; it lists nothing unless the
    configuration enables it (``bundled_skills``, when the config has that setting).
    """
    registry = SkillRegistry()
    registry.register_provider(filesystem_provider_factory(config, cache=cache))
    registry.register_provider(
        bundled_provider_factory(enabled=bool(getattr(config, "bundled_skills", False)))
    )
    return registry
