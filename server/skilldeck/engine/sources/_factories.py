"""One provider factory per configured source type: git sources are read by the engine;
an mcp source by the reader a front end hands in (``skilldeck.remote``: the engine
imports no protocol library and no front end)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from skilldeck.engine.config import GitSourceSpec, McpSourceSpec, SkilldeckConfig, SourceSpec
from skilldeck.engine.registry import (
    LookupOptions,
    ProviderControl,
    ProviderFactory,
    ProviderObservation,
    SkillCandidate,
    SkillDefinition,
)
from skilldeck.engine.sources._git_provider import git_source_factory

#: Builds the provider factory of an ``mcp`` source (``skilldeck.remote.mcp_source_factory``).
McpSourceReader = Callable[[McpSourceSpec, SkilldeckConfig], ProviderFactory]

_logger = logging.getLogger("skilldeck.sources")


def source_factory(
    spec: SourceSpec, config: SkilldeckConfig, *, mcp_sources: McpSourceReader | None = None
) -> ProviderFactory:
    """The provider factory of ``spec`` (its provider is named by ``spec.label``); an mcp
    source without a reader is an empty, incomplete provider that says why."""
    if isinstance(spec, GitSourceSpec):
        return git_source_factory(spec, config)
    if mcp_sources is not None:
        return mcp_sources(spec, config)
    return _unread_factory(spec)


def _unread_factory(spec: McpSourceSpec) -> ProviderFactory:
    def create(control: ProviderControl) -> _UnreadSource:
        return _UnreadSource(spec)

    return create


class _UnreadSource:
    """An mcp source the embedding program gave no reader for: no skills, incomplete."""

    def __init__(self, spec: McpSourceSpec) -> None:
        self._spec = spec
        self._told = False

    @property
    def name(self) -> str:
        return self._spec.label

    async def list(self, options: LookupOptions) -> ProviderObservation:
        if not self._told:
            self._told = True
            _logger.warning(
                'skill source "%s" is not read: mcp sources need a reader '
                "(default_registry(..., mcp_sources=skilldeck.remote.mcp_source_factory))",
                self._spec.name,
            )
        empty: Sequence[SkillCandidate] = ()
        return ProviderObservation(empty, complete=False)

    async def get(
        self, candidate: SkillCandidate, options: LookupOptions
    ) -> SkillDefinition | None:
        return None
