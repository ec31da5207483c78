"""Where a one-line scalar's own text is inside its YAML value, for replacing it.

A frontmatter value's span (:attr:`FrontmatterEntry.value_span`) covers the whole node:
an anchor (``&n``), a tag (``!!str``), quotes, a block scalar's header (``>-``, ``|-``)
and, for block scalars, every line through the start of the next key. Rename replaces
only the scalar's text inside all that, so anchors, tags, quotes, comments and line
breaks stay as written (``name: >-\\n  alpha`` becomes ``name: >-\\n  gamma``, never
``name: gamma`` glued to the next line).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from skilldeck.engine.frontmatter import FrontmatterEntry
from skilldeck.engine.text import Position, Span

_PROPERTY = re.compile(r"[ \t]*[&!][^ \t]*")
_BLOCK_HEADER = re.compile(r"[ \t]*[|>][-+0-9]*")
_BLANK_OR_COMMENT = re.compile(r"[ \t]*(?:#.*)?$")


def scalar_text_span(lines: Sequence[str], entry: FrontmatterEntry) -> Span:
    """The span of ``entry``'s scalar text alone (see the module doc).

    ``lines`` are the document's lines (LSP's line model). Falls back to the value span
    when the value is not a scalar written the way a name is.
    """
    span = entry.value_span
    number, column = span.start.line, span.start.character

    def line(at: int) -> str:
        return lines[at] if 0 <= at < len(lines) else ""

    def next_content(at: int) -> tuple[int, int] | None:
        """The first non-blank, non-comment line after ``at`` within the value."""
        for candidate in range(at + 1, min(span.end.line, len(lines) - 1) + 1):
            text = line(candidate)
            if not _BLANK_OR_COMMENT.match(text):
                return candidate, len(text) - len(text.lstrip(" \t"))
        return None

    text = line(number)
    while match := _PROPERTY.match(text, column):  # anchors and tags
        column = match.end()
    if entry.style in ("literal", "folded"):
        header = _BLOCK_HEADER.match(text, column)
        found = next_content(number) if header is not None else None
        if found is None:
            return span
        number, column = found
        content = line(number)
        return Span.at(number, column, len(content.rstrip(" \t")))
    if _BLANK_OR_COMMENT.match(text, column):  # the scalar starts on a later line
        found = next_content(number)
        if found is None:
            return span
        number, column = found
        text = line(number)
    column += len(text) - column - len(text[column:].lstrip(" \t"))
    rest = Span(Position(number, column), span.end)  # the node without its properties
    if span.end.line != number:  # a multi-line flow scalar: replace all of it
        return rest
    if entry.style in ("single", "double"):
        quote = "'" if entry.style == "single" else '"'
        close = text.find(quote, column + 1)
        if text[column : column + 1] != quote or close < 0:
            return rest
        return Span.at(number, column + 1, close)
    if entry.style != "plain":
        return rest
    end = column + len(text[column : span.end.character].rstrip(" \t"))
    return Span.at(number, column, end)
