"""The skill registry of SPEC §2-§5: the value types (summaries, candidates, definitions,
invocation policy, resource bases, ranks), the provider seam, scopes, resolution by rank and
registration order, and :class:`SkillRegistry` with snapshots and change events.

Invariant: a name is resolved in one place (``group_by_name``); only complete catalogs
are cached; every change bumps the revision and notifies listeners.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from skilldeck._lazy import lazy_exports

if TYPE_CHECKING:
    from skilldeck.engine.registry._model import RANK_BUNDLED as RANK_BUNDLED
    from skilldeck.engine.registry._model import RANK_CUSTOM as RANK_CUSTOM
    from skilldeck.engine.registry._model import RANK_PROJECT_AGENTS as RANK_PROJECT_AGENTS
    from skilldeck.engine.registry._model import RANK_PROJECT_DSH as RANK_PROJECT_DSH
    from skilldeck.engine.registry._model import RANK_USER_AGENTS as RANK_USER_AGENTS
    from skilldeck.engine.registry._model import RANK_USER_DSH as RANK_USER_DSH
    from skilldeck.engine.registry._model import SKILL_NAME_PATTERN as SKILL_NAME_PATTERN
    from skilldeck.engine.registry._model import SOURCE_BUNDLED as SOURCE_BUNDLED
    from skilldeck.engine.registry._model import SOURCE_CUSTOM as SOURCE_CUSTOM
    from skilldeck.engine.registry._model import SOURCE_PROJECT_AGENTS as SOURCE_PROJECT_AGENTS
    from skilldeck.engine.registry._model import SOURCE_PROJECT_DSH as SOURCE_PROJECT_DSH
    from skilldeck.engine.registry._model import SOURCE_USER_AGENTS as SOURCE_USER_AGENTS
    from skilldeck.engine.registry._model import SOURCE_USER_DSH as SOURCE_USER_DSH
    from skilldeck.engine.registry._model import DirectoryResourceBase as DirectoryResourceBase
    from skilldeck.engine.registry._model import InvocationPolicy as InvocationPolicy
    from skilldeck.engine.registry._model import OpaqueResourceBase as OpaqueResourceBase
    from skilldeck.engine.registry._model import ResourceBase as ResourceBase
    from skilldeck.engine.registry._model import SkillCandidate as SkillCandidate
    from skilldeck.engine.registry._model import SkillDefinition as SkillDefinition
    from skilldeck.engine.registry._model import SkillSummary as SkillSummary
    from skilldeck.engine.registry._model import UrlResourceBase as UrlResourceBase
    from skilldeck.engine.registry._model import is_skill_name as is_skill_name
    from skilldeck.engine.registry._provider import AbortSignal as AbortSignal
    from skilldeck.engine.registry._provider import LookupOptions as LookupOptions
    from skilldeck.engine.registry._provider import ProviderControl as ProviderControl
    from skilldeck.engine.registry._provider import ProviderFactory as ProviderFactory
    from skilldeck.engine.registry._provider import ProviderObservation as ProviderObservation
    from skilldeck.engine.registry._provider import SkillProvider as SkillProvider
    from skilldeck.engine.registry._registry import CatalogSnapshot as CatalogSnapshot
    from skilldeck.engine.registry._registry import NameResolution as NameResolution
    from skilldeck.engine.registry._registry import ProviderContractError as ProviderContractError
    from skilldeck.engine.registry._registry import Resolution as Resolution
    from skilldeck.engine.registry._registry import ResolvedCandidate as ResolvedCandidate
    from skilldeck.engine.registry._registry import SkillRegistry as SkillRegistry
    from skilldeck.engine.registry._resolution import group_by_name as group_by_name
    from skilldeck.engine.registry._scope import Scope as Scope
else:
    __getattr__, __dir__, __all__ = lazy_exports(
        __name__,
        {
            "_model": (
                "DirectoryResourceBase",
                "InvocationPolicy",
                "OpaqueResourceBase",
                "RANK_BUNDLED",
                "RANK_CUSTOM",
                "RANK_PROJECT_AGENTS",
                "RANK_PROJECT_DSH",
                "RANK_USER_AGENTS",
                "RANK_USER_DSH",
                "ResourceBase",
                "SKILL_NAME_PATTERN",
                "SOURCE_BUNDLED",
                "SOURCE_CUSTOM",
                "SOURCE_PROJECT_AGENTS",
                "SOURCE_PROJECT_DSH",
                "SOURCE_USER_AGENTS",
                "SOURCE_USER_DSH",
                "SkillCandidate",
                "SkillDefinition",
                "SkillSummary",
                "UrlResourceBase",
                "is_skill_name",
            ),
            "_provider": (
                "AbortSignal",
                "LookupOptions",
                "ProviderControl",
                "ProviderFactory",
                "ProviderObservation",
                "SkillProvider",
            ),
            "_registry": (
                "CatalogSnapshot",
                "NameResolution",
                "ProviderContractError",
                "Resolution",
                "ResolvedCandidate",
                "SkillRegistry",
            ),
            "_resolution": ("group_by_name",),
            "_scope": ("Scope",),
        },
    )
