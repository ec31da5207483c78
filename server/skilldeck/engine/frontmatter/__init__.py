"""The ``---`` frontmatter of a skill file: splitting it, composing its YAML with positions
(libyaml where the text is plain, the event composer otherwise), YAML errors in the
author's words, where each character of a parsed value is spelt in the source, a profile's
keys (its host's facts applied) and JSON Schema, and applying and checking fix edits.

Invariant: every fix the engine offers yields valid frontmatter with exactly the change its
title names (a fix that fails the check is never offered).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from skilldeck._lazy import lazy_exports

if TYPE_CHECKING:
    from skilldeck.engine.frontmatter._fix_edits import REMOVED as REMOVED
    from skilldeck.engine.frontmatter._fix_edits import FixCheck as FixCheck
    from skilldeck.engine.frontmatter._fix_edits import fix_all as fix_all
    from skilldeck.engine.frontmatter._fix_edits import has_properties as has_properties
    from skilldeck.engine.frontmatter._fix_edits import replace_scalar as replace_scalar
    from skilldeck.engine.frontmatter._frontmatter import Frontmatter as Frontmatter
    from skilldeck.engine.frontmatter._frontmatter import FrontmatterBounds as FrontmatterBounds
    from skilldeck.engine.frontmatter._frontmatter import FrontmatterEntry as FrontmatterEntry
    from skilldeck.engine.frontmatter._frontmatter import FrontmatterParse as FrontmatterParse
    from skilldeck.engine.frontmatter._frontmatter import LineIndex as LineIndex
    from skilldeck.engine.frontmatter._frontmatter import describe_value as describe_value
    from skilldeck.engine.frontmatter._frontmatter import display_text as display_text
    from skilldeck.engine.frontmatter._frontmatter import find_frontmatter as find_frontmatter
    from skilldeck.engine.frontmatter._frontmatter import first_line_span as first_line_span
    from skilldeck.engine.frontmatter._frontmatter import (
        missing_frontmatter as missing_frontmatter,
    )
    from skilldeck.engine.frontmatter._frontmatter import parse_frontmatter as parse_frontmatter
    from skilldeck.engine.frontmatter._frontmatter import resolve_plain as resolve_plain
    from skilldeck.engine.frontmatter._profile_keys import profile_key as profile_key
    from skilldeck.engine.frontmatter._profile_keys import profile_keys as profile_keys
    from skilldeck.engine.frontmatter._schema import frontmatter_schema as frontmatter_schema
    from skilldeck.engine.frontmatter._value_source import ScalarSource as ScalarSource
    from skilldeck.engine.frontmatter._value_source import scalar_source as scalar_source
    from skilldeck.engine.frontmatter._value_source import (
        scalar_text_range as scalar_text_range,
    )
else:
    __getattr__, __dir__, __all__ = lazy_exports(
        __name__,
        {
            "_fix_edits": ("FixCheck", "REMOVED", "fix_all", "has_properties", "replace_scalar"),
            "_frontmatter": (
                "Frontmatter",
                "FrontmatterBounds",
                "FrontmatterEntry",
                "FrontmatterParse",
                "LineIndex",
                "describe_value",
                "display_text",
                "find_frontmatter",
                "first_line_span",
                "missing_frontmatter",
                "parse_frontmatter",
                "resolve_plain",
            ),
            "_profile_keys": ("profile_key", "profile_keys"),
            "_schema": ("frontmatter_schema",),
            "_value_source": ("ScalarSource", "scalar_source", "scalar_text_range"),
        },
    )
