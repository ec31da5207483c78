"""skilldeck: layered agent skills with progressive disclosure.

The public API is re-exported here; see ARCHITECTURE.md for the map.
"""

from __future__ import annotations

from skilldeck.engine.model import (
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
from skilldeck.engine.provider import (
    AbortSignal,
    LookupOptions,
    ProviderControl,
    ProviderFactory,
    ProviderObservation,
    SkillProvider,
)
from skilldeck.engine.registry import (
    CatalogSnapshot,
    NameResolution,
    ProviderContractError,
    Resolution,
    ResolvedCandidate,
    SkillRegistry,
)
from skilldeck.engine.scope import Scope

__version__ = "0.1.0"

__all__ = [
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
    "__version__",
    "is_skill_name",
]
