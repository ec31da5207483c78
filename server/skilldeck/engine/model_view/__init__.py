"""What the model sees: the catalog (``render_catalog``, its tracker and memo), the ``skill``
tool (schema, executor, ``<skill_content>``), the user's ``/name`` gesture and the
resources a skill mentions.

Invariant: this package reads skills through the registry only, never files.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from skilldeck._lazy import lazy_exports

if TYPE_CHECKING:
    from skilldeck.engine.model_view._catalog import CatalogEntry as CatalogEntry
    from skilldeck.engine.model_view._catalog import CatalogMemo as CatalogMemo
    from skilldeck.engine.model_view._catalog import CatalogTracker as CatalogTracker
    from skilldeck.engine.model_view._catalog import CatalogUpdate as CatalogUpdate
    from skilldeck.engine.model_view._catalog import catalog_digest as catalog_digest
    from skilldeck.engine.model_view._catalog import catalog_entries as catalog_entries
    from skilldeck.engine.model_view._catalog import catalog_entry as catalog_entry
    from skilldeck.engine.model_view._catalog import estimate_tokens as estimate_tokens
    from skilldeck.engine.model_view._catalog import render_catalog as render_catalog
    from skilldeck.engine.model_view._catalog import render_entries as render_entries
    from skilldeck.engine.model_view._catalog import tokens_for_length as tokens_for_length
    from skilldeck.engine.model_view._catalog import wrap_lines as wrap_lines
    from skilldeck.engine.model_view._gesture import code_regions as code_regions
    from skilldeck.engine.model_view._gesture import expand_user_message as expand_user_message
    from skilldeck.engine.model_view._gesture import fenced_blocks as fenced_blocks
    from skilldeck.engine.model_view._gesture import find_skill_mentions as find_skill_mentions
    from skilldeck.engine.model_view._resources import resolve_resource as resolve_resource
    from skilldeck.engine.model_view._skill_tool import SKILL_TOOL_NAME as SKILL_TOOL_NAME
    from skilldeck.engine.model_view._skill_tool import SkillLookup as SkillLookup
    from skilldeck.engine.model_view._skill_tool import SkillSnapshot as SkillSnapshot
    from skilldeck.engine.model_view._skill_tool import SkillToolResult as SkillToolResult
    from skilldeck.engine.model_view._skill_tool import execute_skill_tool as execute_skill_tool
    from skilldeck.engine.model_view._skill_tool import render_skill_content as render_skill_content
    from skilldeck.engine.model_view._skill_tool import shown_name as shown_name
    from skilldeck.engine.model_view._skill_tool import skill_tool_schema as skill_tool_schema
else:
    __getattr__, __dir__, __all__ = lazy_exports(
        __name__,
        {
            "_catalog": (
                "CatalogEntry",
                "CatalogMemo",
                "CatalogTracker",
                "CatalogUpdate",
                "catalog_digest",
                "catalog_entries",
                "catalog_entry",
                "estimate_tokens",
                "render_catalog",
                "render_entries",
                "tokens_for_length",
                "wrap_lines",
            ),
            "_gesture": (
                "code_regions",
                "expand_user_message",
                "fenced_blocks",
                "find_skill_mentions",
            ),
            "_resources": ("resolve_resource",),
            "_skill_tool": (
                "SKILL_TOOL_NAME",
                "SkillLookup",
                "SkillSnapshot",
                "SkillToolResult",
                "execute_skill_tool",
                "render_skill_content",
                "shown_name",
                "skill_tool_schema",
            ),
        },
    )
