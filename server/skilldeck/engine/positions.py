"""Neutral text positions used by every finding and every frontmatter node.

Lines and characters are 0-based. ``character`` counts Unicode code points of the
decoded text (Python ``str`` indices), *not* UTF-16 code units and not bytes. The
language server converts to the negotiated LSP position encoding at its boundary;
the CLI prints ``line + 1`` / ``character + 1``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True, order=True)
class Position:
    line: int
    character: int


@dataclass(frozen=True, slots=True)
class Span:
    start: Position
    end: Position

    @staticmethod
    def at(line: int, start: int, end: int | None = None) -> Span:
        """A span on one line, from ``start`` to ``end`` (defaults to ``start``)."""
        return Span(Position(line, start), Position(line, start if end is None else end))

    def contains(self, position: Position) -> bool:
        return self.start <= position <= self.end


#: The empty span at the very start of a document (for whole-file findings).
FILE_START = Span(Position(0, 0), Position(0, 0))
