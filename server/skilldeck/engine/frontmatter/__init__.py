"""The ``---`` frontmatter of a skill file: splitting it, composing its YAML with positions
(libyaml where the text is plain, the event composer otherwise), YAML errors in the
author's words, a profile's JSON Schema, and applying and checking fix edits.

Invariant: every fix the engine offers yields valid frontmatter with exactly the change its
title names (a fix that fails the check is never offered).
"""

from skilldeck.engine.frontmatter._fix_edits import (
    REMOVED,
    FixCheck,
    fix_all,
    has_properties,
    replace_scalar,
)
from skilldeck.engine.frontmatter._frontmatter import (
    Frontmatter,
    FrontmatterBounds,
    FrontmatterEntry,
    FrontmatterParse,
    LineIndex,
    describe_value,
    display_text,
    find_frontmatter,
    first_line_span,
    parse_frontmatter,
    resolve_plain,
)
from skilldeck.engine.frontmatter._schema import frontmatter_schema

__all__ = [
    "REMOVED",
    "FixCheck",
    "Frontmatter",
    "FrontmatterBounds",
    "FrontmatterEntry",
    "FrontmatterParse",
    "LineIndex",
    "describe_value",
    "display_text",
    "find_frontmatter",
    "first_line_span",
    "fix_all",
    "frontmatter_schema",
    "has_properties",
    "parse_frontmatter",
    "replace_scalar",
    "resolve_plain",
]
