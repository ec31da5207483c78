"""One provider factory per configured source type."""

from __future__ import annotations

from skilldeck.engine.config import SkilldeckConfig
from skilldeck.engine.provider import ProviderFactory
from skilldeck.engine.sources.git_provider import git_source_factory
from skilldeck.engine.sources.spec import GitSourceSpec, SourceSpec


def source_factory(spec: SourceSpec, config: SkilldeckConfig) -> ProviderFactory:
    """The provider factory of ``spec`` (its provider is named by ``spec.label``)."""
    if isinstance(spec, GitSourceSpec):
        return git_source_factory(spec, config)
    from skilldeck.engine.sources.mcp_hook import mcp_source_factory  # noqa: PLC0415

    return mcp_source_factory(spec, config)
