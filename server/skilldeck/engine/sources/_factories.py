"""One provider factory per configured source type."""

from __future__ import annotations

from skilldeck.engine.config import GitSourceSpec, SkilldeckConfig, SourceSpec
from skilldeck.engine.registry import ProviderFactory
from skilldeck.engine.sources._git_provider import git_source_factory


def source_factory(spec: SourceSpec, config: SkilldeckConfig) -> ProviderFactory:
    """The provider factory of ``spec`` (its provider is named by ``spec.label``)."""
    if isinstance(spec, GitSourceSpec):
        return git_source_factory(spec, config)
    from skilldeck.engine.sources._mcp_hook import mcp_source_factory  # noqa: PLC0415

    return mcp_source_factory(spec, config)
