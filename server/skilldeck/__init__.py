"""skilldeck: layered agent skills with progressive disclosure.

The public API is re-exported here (imported on first use); see ARCHITECTURE.md for
the map.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from skilldeck.engine.config import ConfigError, SkilldeckConfig
    from skilldeck.engine.deck import default_registry
    from skilldeck.engine.filesystem import FilesystemProvider
    from skilldeck.engine.model_view import (
        CatalogTracker,
        CatalogUpdate,
        SkillToolResult,
        execute_skill_tool,
        expand_user_message,
        find_skill_mentions,
        render_catalog,
        render_skill_content,
        resolve_resource,
        skill_tool_schema,
    )
    from skilldeck.engine.registry import (
        AbortSignal,
        CatalogSnapshot,
        DirectoryResourceBase,
        InvocationPolicy,
        LookupOptions,
        NameResolution,
        OpaqueResourceBase,
        ProviderContractError,
        ProviderControl,
        ProviderFactory,
        ProviderObservation,
        Resolution,
        ResolvedCandidate,
        ResourceBase,
        Scope,
        SkillCandidate,
        SkillDefinition,
        SkillProvider,
        SkillRegistry,
        SkillSummary,
        UrlResourceBase,
        is_skill_name,
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

_EXPORTS: dict[str, str] = {
    "AbortSignal": "skilldeck.engine.registry",
    "CatalogSnapshot": "skilldeck.engine.registry",
    "CatalogTracker": "skilldeck.engine.model_view",
    "CatalogUpdate": "skilldeck.engine.model_view",
    "ConfigError": "skilldeck.engine.config",
    "DirectoryResourceBase": "skilldeck.engine.registry",
    "FilesystemProvider": "skilldeck.engine.filesystem",
    "InvocationPolicy": "skilldeck.engine.registry",
    "LookupOptions": "skilldeck.engine.registry",
    "NameResolution": "skilldeck.engine.registry",
    "OpaqueResourceBase": "skilldeck.engine.registry",
    "ProviderContractError": "skilldeck.engine.registry",
    "ProviderControl": "skilldeck.engine.registry",
    "ProviderFactory": "skilldeck.engine.registry",
    "ProviderObservation": "skilldeck.engine.registry",
    "Resolution": "skilldeck.engine.registry",
    "ResolvedCandidate": "skilldeck.engine.registry",
    "ResourceBase": "skilldeck.engine.registry",
    "Scope": "skilldeck.engine.registry",
    "SkillCandidate": "skilldeck.engine.registry",
    "SkillDefinition": "skilldeck.engine.registry",
    "SkillProvider": "skilldeck.engine.registry",
    "SkillRegistry": "skilldeck.engine.registry",
    "SkillSummary": "skilldeck.engine.registry",
    "SkillToolResult": "skilldeck.engine.model_view",
    "SkilldeckConfig": "skilldeck.engine.config",
    "UrlResourceBase": "skilldeck.engine.registry",
    "default_registry": "skilldeck.engine.deck",
    "execute_skill_tool": "skilldeck.engine.model_view",
    "expand_user_message": "skilldeck.engine.model_view",
    "find_skill_mentions": "skilldeck.engine.model_view",
    "is_skill_name": "skilldeck.engine.registry",
    "render_catalog": "skilldeck.engine.model_view",
    "render_skill_content": "skilldeck.engine.model_view",
    "resolve_resource": "skilldeck.engine.model_view",
    "skill_tool_schema": "skilldeck.engine.model_view",
}


def __getattr__(name: str) -> Any:
    """Import a public name on first use, so ``import skilldeck`` (and every CLI
    command) pays only for the modules it touches."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'skilldeck' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_EXPORTS])
