"""Text as the engine counts and shapes it: the one line model (``\n``, ``\r\n``, ``\r``),
positions and spans in code points, and text shaped for the model (whitespace collapsed,
capped with ``...``, XML-escaped).

Invariant: a position is in code points everywhere in the engine; only the front ends
convert it (UTF-16 or UTF-8 columns at the LSP boundary).
"""

from skilldeck.engine.text._catalog_text import (
    DEFAULT_CATALOG_DESCRIPTION_MAX_LENGTH,
    MIN_CATALOG_DESCRIPTION_MAX_LENGTH,
    catalog_description,
    catalog_kept,
    collapse_whitespace,
    escape_attribute,
    escape_text,
    trim_body,
    validate_max_description_length,
)
from skilldeck.engine.text._positions import (
    FILE_START,
    LINE_BREAK,
    Encoding,
    Position,
    Span,
    from_client_character,
    line_starts,
    split_lines,
    to_client_character,
)

__all__ = [
    "DEFAULT_CATALOG_DESCRIPTION_MAX_LENGTH",
    "FILE_START",
    "LINE_BREAK",
    "MIN_CATALOG_DESCRIPTION_MAX_LENGTH",
    "Encoding",
    "Position",
    "Span",
    "catalog_description",
    "catalog_kept",
    "collapse_whitespace",
    "escape_attribute",
    "escape_text",
    "from_client_character",
    "line_starts",
    "split_lines",
    "to_client_character",
    "trim_body",
    "validate_max_description_length",
]
