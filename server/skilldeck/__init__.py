"""skilldeck: layered agent skills with progressive disclosure.

The public API is re-exported here (imported on first use, so ``import skilldeck`` and every
CLI command pay only for the modules they touch); see ARCHITECTURE.md for the map.
"""

from __future__ import annotations

import sys as _sys

# Being located by ``python -m``, which put the working directory first on sys.path:
# dropped before anything is imported (skilldeck/_safe_path.py).
if getattr(_sys, "argv", [""])[:1] == ["-m"]:
    from skilldeck._safe_path import drop_working_directory as _drop

    _drop()

from typing import TYPE_CHECKING

from skilldeck._lazy import lazy_exports

if TYPE_CHECKING:
    from skilldeck._registry import default_registry as default_registry
    from skilldeck.engine.config import ConfigError as ConfigError
    from skilldeck.engine.config import SkilldeckConfig as SkilldeckConfig
    from skilldeck.engine.filesystem import FilesystemProvider as FilesystemProvider
    from skilldeck.engine.model_view import CatalogTracker as CatalogTracker
    from skilldeck.engine.model_view import CatalogUpdate as CatalogUpdate
    from skilldeck.engine.model_view import SkillToolResult as SkillToolResult
    from skilldeck.engine.model_view import execute_skill_tool as execute_skill_tool
    from skilldeck.engine.model_view import expand_user_message as expand_user_message
    from skilldeck.engine.model_view import find_skill_mentions as find_skill_mentions
    from skilldeck.engine.model_view import render_catalog as render_catalog
    from skilldeck.engine.model_view import render_skill_content as render_skill_content
    from skilldeck.engine.model_view import resolve_resource as resolve_resource
    from skilldeck.engine.model_view import skill_tool_schema as skill_tool_schema
    from skilldeck.engine.registry import AbortSignal as AbortSignal
    from skilldeck.engine.registry import CatalogSnapshot as CatalogSnapshot
    from skilldeck.engine.registry import DirectoryResourceBase as DirectoryResourceBase
    from skilldeck.engine.registry import InvocationPolicy as InvocationPolicy
    from skilldeck.engine.registry import LookupOptions as LookupOptions
    from skilldeck.engine.registry import NameResolution as NameResolution
    from skilldeck.engine.registry import OpaqueResourceBase as OpaqueResourceBase
    from skilldeck.engine.registry import ProviderContractError as ProviderContractError
    from skilldeck.engine.registry import ProviderControl as ProviderControl
    from skilldeck.engine.registry import ProviderFactory as ProviderFactory
    from skilldeck.engine.registry import ProviderObservation as ProviderObservation
    from skilldeck.engine.registry import Resolution as Resolution
    from skilldeck.engine.registry import ResolvedCandidate as ResolvedCandidate
    from skilldeck.engine.registry import ResourceBase as ResourceBase
    from skilldeck.engine.registry import Scope as Scope
    from skilldeck.engine.registry import SkillCandidate as SkillCandidate
    from skilldeck.engine.registry import SkillDefinition as SkillDefinition
    from skilldeck.engine.registry import SkillProvider as SkillProvider
    from skilldeck.engine.registry import SkillRegistry as SkillRegistry
    from skilldeck.engine.registry import SkillSummary as SkillSummary
    from skilldeck.engine.registry import UrlResourceBase as UrlResourceBase
    from skilldeck.engine.registry import is_skill_name as is_skill_name

__version__ = "0.1.0"

if not TYPE_CHECKING:
    __getattr__, __dir__, __all__ = lazy_exports(
        __name__,
        {
            "engine.config": ("ConfigError", "SkilldeckConfig"),
            "_registry": ("default_registry",),
            "engine.filesystem": ("FilesystemProvider",),
            "engine.model_view": (
                "CatalogTracker",
                "CatalogUpdate",
                "SkillToolResult",
                "execute_skill_tool",
                "expand_user_message",
                "find_skill_mentions",
                "render_catalog",
                "render_skill_content",
                "resolve_resource",
                "skill_tool_schema",
            ),
            "engine.registry": (
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
                "is_skill_name",
            ),
        },
        also=("__version__",),
    )
