"""skilldeck: layered agent skills with progressive disclosure.

The public API is re-exported here; see ARCHITECTURE.md for the map.
"""

from __future__ import annotations

from skilldeck.engine.catalog import CatalogTracker, CatalogUpdate, render_catalog
from skilldeck.engine.config import ConfigError, SkilldeckConfig
from skilldeck.engine.defaults import default_registry
from skilldeck.engine.fs_provider import FilesystemProvider
from skilldeck.engine.gesture import expand_user_message, find_skill_mentions
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
from skilldeck.engine.resources import resolve_resource
from skilldeck.engine.scope import Scope
from skilldeck.engine.skill_tool import (
    SkillToolResult,
    execute_skill_tool,
    render_skill_content,
    skill_tool_schema,
)

__version__ = "0.1.0"

__all__ = [
    "AbortSignal",
    "CatalogSnapshot",
    "CatalogTracker",
    "CatalogUpdate",
    "ConfigError",
    "DirectoryResourceBase",
    "FilesystemProvider",
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
    "SkillToolResult",
    "SkilldeckConfig",
    "UrlResourceBase",
    "__version__",
    "default_registry",
    "execute_skill_tool",
    "expand_user_message",
    "find_skill_mentions",
    "is_skill_name",
    "render_catalog",
    "render_skill_content",
    "resolve_resource",
    "skill_tool_schema",
]
