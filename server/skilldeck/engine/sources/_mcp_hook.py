"""The provider of an ``mcp`` source, built by :mod:`skilldeck.remote.mcp_source`.

The engine never imports a protocol library itself: the MCP client is imported only when
a configuration names an mcp source, and lives in ``skilldeck.remote``.
"""

from __future__ import annotations

from skilldeck.engine.config import McpSourceSpec, SkilldeckConfig
from skilldeck.engine.filesystem import default_cache_dir
from skilldeck.engine.registry import ProviderControl, ProviderFactory, SkillProvider


def mcp_source_factory(spec: McpSourceSpec, config: SkilldeckConfig) -> ProviderFactory:
    """A factory for ``SkillRegistry.register_provider``."""

    def create(control: ProviderControl) -> SkillProvider:
        from skilldeck.remote.mcp_source import McpSourceProvider  # noqa: PLC0415

        return McpSourceProvider(spec, config, cache_dir=default_cache_dir(), signal=control.signal)

    return create
