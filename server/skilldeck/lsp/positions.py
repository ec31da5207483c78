"""Converting the engine's code-point positions to the negotiated LSP encoding.

The engine counts characters in Unicode code points (Python ``str`` indices). LSP
clients count UTF-16 code units unless ``positionEncoding`` negotiated ``utf-8`` or
``utf-32``. This module is the only place where the two meet.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping

from lsprotocol import types

from skilldeck.engine.positions import Position, Span


class Encoding(str, enum.Enum):
    """The position encodings LSP defines."""

    UTF8 = "utf-8"
    UTF16 = "utf-16"
    UTF32 = "utf-32"

    @staticmethod
    def of(value: object) -> Encoding:
        """The encoding named by ``value`` (an LSP ``PositionEncodingKind`` or string)."""
        raw = getattr(value, "value", value)
        for encoding in Encoding:
            if encoding.value == raw:
                return encoding
        return Encoding.UTF16


#: ``line -> text of that line`` (without its line break); ``None`` when the line is
#: known to be ASCII or unknown, in which case columns pass through unchanged.
LineSource = Callable[[int], "str | None"]


def _units(char: str, encoding: Encoding) -> int:
    if encoding is Encoding.UTF16:
        return 2 if ord(char) > 0xFFFF else 1
    return len(char.encode("utf-8", "surrogatepass"))


def to_client_character(line: str | None, character: int, encoding: Encoding) -> int:
    """Code-point column ``character`` of ``line`` in ``encoding`` units (clamped)."""
    if line is None:
        return max(0, character)
    character = max(0, min(character, len(line)))
    if encoding is Encoding.UTF32 or line.isascii():
        return character
    return sum(_units(char, encoding) for char in line[:character])


def from_client_character(line: str | None, character: int, encoding: Encoding) -> int:
    """The code-point column of a client column; past the end clamps to the line end."""
    if character <= 0:
        return 0
    if line is None:
        return character
    if encoding is Encoding.UTF32 or line.isascii():
        return min(character, len(line))
    units = 0
    for index, char in enumerate(line):
        units += _units(char, encoding)
        if units > character:
            return index
    return len(line)


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
    """A :data:`LineSource` over ``text`` (lines split like the engine: ``\\n``, ``\\r\\n``)."""
    lines = text.split("\n")

    def line_at(index: int) -> str | None:
        if 0 <= index < len(lines):
            return lines[index].removesuffix("\r")
        return ""

    return line_at


def sparse_line_source(lines: Mapping[int, str]) -> LineSource:
    """A :data:`LineSource` that knows only some lines (the rest count as ASCII)."""
    return lines.get
