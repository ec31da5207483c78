"""Neutral text positions used by every finding and every frontmatter node.

Lines and characters are 0-based. ``character`` counts Unicode code points of the
decoded text (Python ``str`` indices), *not* UTF-16 code units and not bytes. The
language server converts to the negotiated LSP position encoding at its boundary
(:func:`to_client_character`); the CLI prints ``line + 1`` / ``character + 1`` and its
JSON output counts UTF-16 units like LSP.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

#: The line breaks of the one line model every part of skilldeck uses: LSP's
#: (``\r\n``, a lone ``\r``, ``\n``). Never ``str.splitlines()``, which also breaks at
#: U+2028, U+2029, U+0085, form feed, vertical tab and ``\x1c``-``\x1e``.
LINE_BREAK = re.compile(r"\r\n|\r|\n")


def split_lines(text: str) -> list[str]:
    """The lines of ``text`` without their breaks (LSP's line model; see :data:`LINE_BREAK`).

    A text ending in a line break has an empty last line, as in an editor.
    """
    return LINE_BREAK.split(text)


def line_starts(text: str) -> list[int]:
    """The code-point offset where each line of ``text`` starts (LSP's line model)."""
    starts = [0]
    starts.extend(match.end() for match in LINE_BREAK.finditer(text))
    return starts


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


def leading_columns(line: str) -> int:
    """The columns of ``line``'s leading spaces and tabs, tab stops of 4 (CommonMark's
    indentation)."""
    width = 0
    for char in line:
        if char == " ":
            width += 1
        elif char == "\t":
            width += 4 - width % 4
        else:
            break
    return width
