"""skilldeck: layered agent skills with progressive disclosure.

The public API is re-exported here (imported on first use); see ARCHITECTURE.md for
the map.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from skilldeck.engine.config._skilldeck_config import ConfigError, SkilldeckConfig
    from skilldeck.engine.deck._defaults import default_registry
    from skilldeck.engine.filesystem._fs_provider import FilesystemProvider
    from skilldeck.engine.model_view._catalog import CatalogTracker, CatalogUpdate, render_catalog
    from skilldeck.engine.model_view._gesture import expand_user_message, find_skill_mentions
    from skilldeck.engine.model_view._resources import resolve_resource
    from skilldeck.engine.model_view._skill_tool import (
        SkillToolResult,
        execute_skill_tool,
        render_skill_content,
        skill_tool_schema,
    )
    from skilldeck.engine.registry._model import (
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
    from skilldeck.engine.registry._scope import Scope

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
    "AbortSignal": "skilldeck.engine.registry._provider",
    "CatalogSnapshot": "skilldeck.engine.registry._registry",
    "CatalogTracker": "skilldeck.engine.model_view._catalog",
    "CatalogUpdate": "skilldeck.engine.model_view._catalog",
    "ConfigError": "skilldeck.engine.config._skilldeck_config",
    "DirectoryResourceBase": "skilldeck.engine.registry._model",
    "FilesystemProvider": "skilldeck.engine.filesystem._fs_provider",
    "InvocationPolicy": "skilldeck.engine.registry._model",
    "LookupOptions": "skilldeck.engine.registry._provider",
    "NameResolution": "skilldeck.engine.registry._registry",
    "OpaqueResourceBase": "skilldeck.engine.registry._model",
    "ProviderContractError": "skilldeck.engine.registry._registry",
    "ProviderControl": "skilldeck.engine.registry._provider",
    "ProviderFactory": "skilldeck.engine.registry._provider",
    "ProviderObservation": "skilldeck.engine.registry._provider",
    "Resolution": "skilldeck.engine.registry._registry",
    "ResolvedCandidate": "skilldeck.engine.registry._registry",
    "ResourceBase": "skilldeck.engine.registry._model",
    "Scope": "skilldeck.engine.registry._scope",
    "SkillCandidate": "skilldeck.engine.registry._model",
    "SkillDefinition": "skilldeck.engine.registry._model",
    "SkillProvider": "skilldeck.engine.registry._provider",
    "SkillRegistry": "skilldeck.engine.registry._registry",
    "SkillSummary": "skilldeck.engine.registry._model",
    "SkillToolResult": "skilldeck.engine.model_view._skill_tool",
    "SkilldeckConfig": "skilldeck.engine.config._skilldeck_config",
    "UrlResourceBase": "skilldeck.engine.registry._model",
    "default_registry": "skilldeck.engine.deck._defaults",
    "execute_skill_tool": "skilldeck.engine.model_view._skill_tool",
    "expand_user_message": "skilldeck.engine.model_view._gesture",
    "find_skill_mentions": "skilldeck.engine.model_view._gesture",
    "is_skill_name": "skilldeck.engine.registry._model",
    "render_catalog": "skilldeck.engine.model_view._catalog",
    "render_skill_content": "skilldeck.engine.model_view._skill_tool",
    "resolve_resource": "skilldeck.engine.model_view._resources",
    "skill_tool_schema": "skilldeck.engine.model_view._skill_tool",
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
