"""Where a cursor stands in a skill's frontmatter: on a key, on a value, or elsewhere.

Two views: :func:`entry_at` uses the engine's parsed entries (exact spans, for hover,
navigation and rename); :func:`slot_at` reads the raw line, so completion keeps working
while the YAML is half typed and does not parse.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from skilldeck.engine.frontmatter import Frontmatter, FrontmatterEntry
from skilldeck.engine.text import Position

_KEY_LINE = re.compile(r"^(?P<key>[^\s#:'\"][^:]*?|'[^']*'|\"[^\"]*\")[ \t]*:(?=[ \t]|$)")
_TOP_KEY = re.compile(r"^(?P<key>[^\s#:'\"-][^:]*?|'[^']*'|\"[^\"]*\")[ \t]*:(?=[ \t]|$)")


@dataclass(frozen=True)
class EntryHit:
    """A frontmatter entry under the cursor; ``part`` says whether on its key or value."""

    entry: FrontmatterEntry
    part: Literal["key", "value"]


@dataclass(frozen=True)
class Slot:
    """A completion slot on one frontmatter line.

    ``kind`` is ``key`` (typing a top-level key) or ``value`` (after ``key:``);
    ``start``/``end`` are the code-point columns of the text a completion replaces;
    ``key`` is the line's key for a value slot; ``has_colon`` tells a key slot whether
    the line already has its ``:``.
    """

    kind: Literal["key", "value"]
    line: int
    start: int
    end: int
    key: str | None = None
    has_colon: bool = False


def entry_at(frontmatter: Frontmatter, position: Position) -> EntryHit | None:
    """The top-level entry whose key or value spans ``position`` (the last one wins)."""
    for entry in reversed(frontmatter.entries):
        if entry.key_span.contains(position):
            return EntryHit(entry, "key")
        value = entry.value_span
        if value.contains(position) or (
            position.line == entry.key_span.start.line
            and position.character > entry.key_span.end.character
            and (value.start.line > position.line or value.start == value.end)
        ):
            return EntryHit(entry, "value")
    return None


def _unquote(key: str) -> str:
    if len(key) >= 2 and key[0] == key[-1] and key[0] in "'\"":
        return key[1:-1]
    return key


def slot_at(line_text: str, number: int, character: int) -> Slot | None:
    """The completion slot at column ``character`` of a frontmatter line, if any.

    Indented lines (nested values), comments and list items have no slot.
    """
    if line_text[:1] in (" ", "\t", "#", "-"):
        return None
    match = _KEY_LINE.match(line_text)
    if match is None:
        head = line_text[:character]
        if ":" in head:
            return None
        token_end = len(line_text.rstrip())
        return Slot("key", number, 0, max(character, token_end))
    key_end = match.end("key")
    colon = match.end()
    if character <= key_end or character < colon:
        return Slot("key", number, 0, key_end, has_colon=True)
    value_start = colon
    while value_start < len(line_text) and line_text[value_start] in " \t":
        value_start += 1
    end = max(character, len(line_text.rstrip()))
    start = value_start if character >= value_start else character
    return Slot("value", number, start, end, key=_unquote(match.group("key").strip()))


def top_level_keys(lines: list[str] | tuple[str, ...], first: int, last: int) -> set[str]:
    """Keys written at the start of lines ``first..last-1`` (a tolerant textual scan)."""
    keys: set[str] = set()
    for number in range(first, min(last, len(lines))):
        match = _TOP_KEY.match(lines[number])
        if match:
            keys.add(_unquote(match.group("key").strip()))
    return keys
