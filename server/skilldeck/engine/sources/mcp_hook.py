"""The provider of an ``mcp`` source (another server speaking the Skills extension).

Not implemented yet: such a source lists nothing, marks the catalog incomplete and says
why, so a config naming one is accepted and its absence is visible.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from skilldeck.engine.config import SkilldeckConfig
from skilldeck.engine.model import SkillCandidate, SkillDefinition
from skilldeck.engine.provider import (
    LookupOptions,
    ProviderControl,
    ProviderFactory,
    ProviderObservation,
)
from skilldeck.engine.sources.spec import McpSourceSpec

_logger = logging.getLogger("skilldeck.sources")


class UnsupportedMcpSource:
    """Lists nothing (incomplete) and logs that mcp sources are not supported yet."""

    def __init__(self, spec: McpSourceSpec) -> None:
        self._spec = spec

    @property
    def name(self) -> str:
        return self._spec.label

    async def list(self, options: LookupOptions) -> Sequence[SkillCandidate] | ProviderObservation:
        _logger.warning(
            'skill source "%s": mcp sources are not supported by this version', self._spec.name
        )
        return ProviderObservation((), complete=False)

    async def get(
        self, candidate: SkillCandidate, options: LookupOptions
    ) -> SkillDefinition | None:
        return None


def mcp_source_factory(spec: McpSourceSpec, config: SkilldeckConfig) -> ProviderFactory:
    def create(control: ProviderControl) -> UnsupportedMcpSource:
        return UnsupportedMcpSource(spec)

    return create
