"""Converting the engine's code-point positions to the negotiated LSP encoding.

The engine counts characters in Unicode code points (Python ``str`` indices). LSP
clients count UTF-16 code units unless ``positionEncoding`` negotiated ``utf-8`` or
``utf-32``. The column arithmetic itself lives in :mod:`skilldeck.engine.text`
(the CLI's JSON output needs it too); this module applies it to LSP types.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from lsprotocol import types

from skilldeck.engine.text import (
    Encoding,
    Position,
    Span,
    from_client_character,
    split_lines,
    to_client_character,
)

#: ``line -> text of that line`` (without its line break); ``None`` when the line is
#: known to be ASCII or unknown, in which case columns pass through unchanged.
LineSource = Callable[[int], "str | None"]


def to_lsp_position(position: Position, lines: LineSource, encoding: Encoding) -> types.Position:
    """An engine position as an LSP position."""
    if encoding is Encoding.UTF32:
        return types.Position(line=position.line, character=position.character)
    column = to_client_character(lines(position.line), position.character, encoding)
    return types.Position(line=position.line, character=column)


def to_lsp_range(span: Span, lines: LineSource, encoding: Encoding) -> types.Range:
    """An engine span as an LSP range."""
    return types.Range(
        start=to_lsp_position(span.start, lines, encoding),
        end=to_lsp_position(span.end, lines, encoding),
    )


def from_lsp_position(position: types.Position, lines: LineSource, encoding: Encoding) -> Position:
    """An LSP position as an engine position (the column clamped into the line)."""
    line = max(0, position.line)
    return Position(line, from_client_character(lines(line), position.character, encoding))


def line_source(text: str) -> LineSource:
    """A :data:`LineSource` over ``text`` (the one line model: ``\\n``, ``\\r\\n``, ``\\r``)."""
    lines = split_lines(text)

    def line_at(index: int) -> str | None:
        if 0 <= index < len(lines):
            return lines[index]
        return ""

    return line_at


def sparse_line_source(lines: Mapping[int, str]) -> LineSource:
    """A :data:`LineSource` that knows only some lines (the rest count as ASCII)."""
    return lines.get
