"""The skill registry of SPEC §2-§5: the value types (summaries, candidates, definitions,
invocation policy, resource bases, ranks), the provider seam, scopes, resolution by rank and
registration order, and :class:`SkillRegistry` with snapshots and change events.

Invariant: a name is resolved in one place (``group_by_name``); only complete catalogs
are cached; every change bumps the revision and notifies listeners.
"""

from skilldeck.engine.registry._model import (
    RANK_BUNDLED,
    RANK_CUSTOM,
    RANK_PROJECT_AGENTS,
    RANK_PROJECT_DSH,
    RANK_USER_AGENTS,
    RANK_USER_DSH,
    SKILL_NAME_PATTERN,
    SOURCE_BUNDLED,
    SOURCE_CUSTOM,
    SOURCE_PROJECT_AGENTS,
    SOURCE_PROJECT_DSH,
    SOURCE_USER_AGENTS,
    SOURCE_USER_DSH,
    DirectoryResourceBase,
    InvocationPolicy,
    OpaqueResourceBase,
    ResourceBase,
    SkillCandidate,
    SkillDefinition,
    SkillSummary,
    UrlResourceBase,
    is_skill_name,
)
from skilldeck.engine.registry._provider import (
    AbortSignal,
    LookupOptions,
    ProviderControl,
    ProviderFactory,
    ProviderObservation,
    SkillProvider,
)
from skilldeck.engine.registry._registry import (
    CatalogSnapshot,
    NameResolution,
    ProviderContractError,
    Resolution,
    ResolvedCandidate,
    SkillRegistry,
)
from skilldeck.engine.registry._resolution import group_by_name
from skilldeck.engine.registry._scope import Scope

__all__ = [
    "RANK_BUNDLED",
    "RANK_CUSTOM",
    "RANK_PROJECT_AGENTS",
    "RANK_PROJECT_DSH",
    "RANK_USER_AGENTS",
    "RANK_USER_DSH",
    "SKILL_NAME_PATTERN",
    "SOURCE_BUNDLED",
    "SOURCE_CUSTOM",
    "SOURCE_PROJECT_AGENTS",
    "SOURCE_PROJECT_DSH",
    "SOURCE_USER_AGENTS",
    "SOURCE_USER_DSH",
    "AbortSignal",
    "CatalogSnapshot",
    "DirectoryResourceBase",
    "InvocationPolicy",
    "LookupOptions",
    "NameResolution",
    "OpaqueResourceBase",
    "ProviderContractError",
    "ProviderControl",
    "ProviderFactory",
    "ProviderObservation",
    "Resolution",
    "ResolvedCandidate",
    "ResourceBase",
    "Scope",
    "SkillCandidate",
    "SkillDefinition",
    "SkillProvider",
    "SkillRegistry",
    "SkillSummary",
    "UrlResourceBase",
    "group_by_name",
    "is_skill_name",
]
