"""Text as the engine counts and shapes it: the one line model (``
``, ``
``, ``
``),
positions and spans in code points, and text shaped for the model (whitespace collapsed,
capped with ``...``, XML-escaped).

Invariant: a position is in code points everywhere in the engine; only the front ends
convert it (UTF-16 or UTF-8 columns at the LSP boundary).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from skilldeck._lazy import lazy_exports

if TYPE_CHECKING:
    from skilldeck.engine.text._catalog_text import (
        DEFAULT_CATALOG_DESCRIPTION_MAX_LENGTH as DEFAULT_CATALOG_DESCRIPTION_MAX_LENGTH,
    )
    from skilldeck.engine.text._catalog_text import (
        MIN_CATALOG_DESCRIPTION_MAX_LENGTH as MIN_CATALOG_DESCRIPTION_MAX_LENGTH,
    )
    from skilldeck.engine.text._catalog_text import catalog_description as catalog_description
    from skilldeck.engine.text._catalog_text import catalog_kept as catalog_kept
    from skilldeck.engine.text._catalog_text import collapse_whitespace as collapse_whitespace
    from skilldeck.engine.text._catalog_text import escape_attribute as escape_attribute
    from skilldeck.engine.text._catalog_text import escape_text as escape_text
    from skilldeck.engine.text._catalog_text import trim_body as trim_body
    from skilldeck.engine.text._catalog_text import (
        validate_max_description_length as validate_max_description_length,
    )
    from skilldeck.engine.text._positions import FILE_START as FILE_START
    from skilldeck.engine.text._positions import LINE_BREAK as LINE_BREAK
    from skilldeck.engine.text._positions import Encoding as Encoding
    from skilldeck.engine.text._positions import Position as Position
    from skilldeck.engine.text._positions import Span as Span
    from skilldeck.engine.text._positions import from_client_character as from_client_character
    from skilldeck.engine.text._positions import leading_columns as leading_columns
    from skilldeck.engine.text._positions import line_starts as line_starts
    from skilldeck.engine.text._positions import split_lines as split_lines
    from skilldeck.engine.text._positions import to_client_character as to_client_character
else:
    __getattr__, __dir__, __all__ = lazy_exports(
        __name__,
        {
            "_catalog_text": (
                "DEFAULT_CATALOG_DESCRIPTION_MAX_LENGTH",
                "MIN_CATALOG_DESCRIPTION_MAX_LENGTH",
                "catalog_description",
                "catalog_kept",
                "collapse_whitespace",
                "escape_attribute",
                "escape_text",
                "trim_body",
                "validate_max_description_length",
            ),
            "_positions": (
                "Encoding",
                "FILE_START",
                "LINE_BREAK",
                "Position",
                "Span",
                "from_client_character",
                "leading_columns",
                "line_starts",
                "split_lines",
                "to_client_character",
            ),
        },
    )
