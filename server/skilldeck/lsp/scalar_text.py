"""Where a scalar's own text is inside its YAML value, for replacing it.

A frontmatter value's span (:attr:`FrontmatterEntry.value_span`) covers the whole node:
an anchor (``&n``), a tag (``!!str``), quotes, a block scalar's header (``>-``, ``|-``)
and, for block scalars, every line through the start of the next key. Rename replaces
only the scalar's text inside all that, so anchors, tags, quotes, comments and line
breaks stay as written (``name: >-\\n  alpha`` becomes ``name: >-\\n  gamma``, never
``name: gamma`` glued to the next line). The engine's
:func:`~skilldeck.engine.frontmatter.scalar_text_range` finds it, walking the parsed
value through the source (escapes, doubled quotes, a flow scalar over several lines).
"""

from __future__ import annotations

from skilldeck.engine.frontmatter import (
    FrontmatterBounds,
    FrontmatterEntry,
    LineIndex,
    find_frontmatter,
    scalar_text_range,
)
from skilldeck.engine.text import Span


def scalar_text_span(text: str, entry: FrontmatterEntry) -> Span:
    """The span of ``entry``'s scalar text alone in the document ``text`` (see the module
    doc); the value span when the value is not text the source spells."""
    span = entry.value_span
    if not isinstance(entry.value, str):
        return span
    bounds = find_frontmatter(text)
    index = LineIndex(text, bounds.body_start if isinstance(bounds, FrontmatterBounds) else None)
    found = scalar_text_range(
        text, index.offset(span.start), index.offset(span.end), entry.style, entry.value
    )
    return span if found is None else index.span(*found)
