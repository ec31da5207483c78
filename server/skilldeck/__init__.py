"""skilldeck: layered agent skills with progressive disclosure.

The public API is re-exported here (imported on first use); see ARCHITECTURE.md for
the map.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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

_EXPORTS: dict[str, str] = {
    "AbortSignal": "skilldeck.engine.provider",
    "CatalogSnapshot": "skilldeck.engine.registry",
    "CatalogTracker": "skilldeck.engine.catalog",
    "CatalogUpdate": "skilldeck.engine.catalog",
    "ConfigError": "skilldeck.engine.config",
    "DirectoryResourceBase": "skilldeck.engine.model",
    "FilesystemProvider": "skilldeck.engine.fs_provider",
    "InvocationPolicy": "skilldeck.engine.model",
    "LookupOptions": "skilldeck.engine.provider",
    "NameResolution": "skilldeck.engine.registry",
    "OpaqueResourceBase": "skilldeck.engine.model",
    "ProviderContractError": "skilldeck.engine.registry",
    "ProviderControl": "skilldeck.engine.provider",
    "ProviderFactory": "skilldeck.engine.provider",
    "ProviderObservation": "skilldeck.engine.provider",
    "Resolution": "skilldeck.engine.registry",
    "ResolvedCandidate": "skilldeck.engine.registry",
    "ResourceBase": "skilldeck.engine.model",
    "Scope": "skilldeck.engine.scope",
    "SkillCandidate": "skilldeck.engine.model",
    "SkillDefinition": "skilldeck.engine.model",
    "SkillProvider": "skilldeck.engine.provider",
    "SkillRegistry": "skilldeck.engine.registry",
    "SkillSummary": "skilldeck.engine.model",
    "SkillToolResult": "skilldeck.engine.skill_tool",
    "SkilldeckConfig": "skilldeck.engine.config",
    "UrlResourceBase": "skilldeck.engine.model",
    "default_registry": "skilldeck.engine.defaults",
    "execute_skill_tool": "skilldeck.engine.skill_tool",
    "expand_user_message": "skilldeck.engine.gesture",
    "find_skill_mentions": "skilldeck.engine.gesture",
    "is_skill_name": "skilldeck.engine.model",
    "render_catalog": "skilldeck.engine.catalog",
    "render_skill_content": "skilldeck.engine.skill_tool",
    "resolve_resource": "skilldeck.engine.resources",
    "skill_tool_schema": "skilldeck.engine.skill_tool",
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
