"""What the model sees: the catalog (``render_catalog``, its tracker and memo), the ``skill``
tool (schema, executor, ``<skill_content>``), the user's ``/name`` gesture and the
resources a skill mentions.

Invariant: this package reads skills through the registry only, never files.
"""

from skilldeck.engine.model_view._catalog import (
    CatalogEntry,
    CatalogMemo,
    CatalogTracker,
    CatalogUpdate,
    catalog_digest,
    catalog_entries,
    catalog_entry,
    estimate_tokens,
    render_catalog,
    render_entries,
    tokens_for_length,
    wrap_lines,
)
from skilldeck.engine.model_view._gesture import (
    code_regions,
    expand_user_message,
    fenced_blocks,
    find_skill_mentions,
)
from skilldeck.engine.model_view._resources import resolve_resource
from skilldeck.engine.model_view._skill_tool import (
    SKILL_TOOL_NAME,
    SkillToolResult,
    execute_skill_tool,
    render_skill_content,
    skill_tool_schema,
)

__all__ = [
    "SKILL_TOOL_NAME",
    "CatalogEntry",
    "CatalogMemo",
    "CatalogTracker",
    "CatalogUpdate",
    "SkillToolResult",
    "catalog_digest",
    "catalog_entries",
    "catalog_entry",
    "code_regions",
    "estimate_tokens",
    "execute_skill_tool",
    "expand_user_message",
    "fenced_blocks",
    "find_skill_mentions",
    "render_catalog",
    "render_entries",
    "render_skill_content",
    "resolve_resource",
    "skill_tool_schema",
    "tokens_for_length",
    "wrap_lines",
]
