"""Clients of remote skill servers (the protocol libraries live here, never in the engine).

The front ends hand :func:`mcp_source_factory` to the engine's registry builders
(``default_registry(..., mcp_sources=...)``): the engine never imports this package, and
this module imports no protocol library until an mcp source's provider is created.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from skilldeck.engine.config import McpSourceSpec, SkilldeckConfig
    from skilldeck.engine.registry import ProviderControl, ProviderFactory, SkillProvider


def mcp_source_factory(spec: McpSourceSpec, config: SkilldeckConfig) -> ProviderFactory:
    """The provider factory of an ``mcp`` source (its MCP client is imported when the
    provider is created, so a deck without one never loads the SDK)."""

    def create(control: ProviderControl) -> SkillProvider:
        from skilldeck.engine.filesystem import default_cache_dir  # noqa: PLC0415
        from skilldeck.remote.mcp_source import McpSourceProvider  # noqa: PLC0415

        return McpSourceProvider(spec, config, cache_dir=default_cache_dir(), signal=control.signal)

    return create
