"""Every ``/name`` mention across one folder's deck, for references and rename.

Bodies are never held in the index, so they are read here when asked: open buffers
from the session's overlay, every other skill file from disk in a worker thread.
:func:`deck_value_mentions` finds the mentions in the frontmatter values the model reads
(``description``, ``whenToUse``), which a rename updates too.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from skilldeck.engine.files import SkillReadError, decode_skill_bytes, read_skill_bytes
from skilldeck.engine.frontmatter import FrontmatterBounds, find_frontmatter, parse_frontmatter
from skilldeck.engine.text import Span, line_starts, split_lines
from skilldeck.lsp.markdown_body import mentions

if TYPE_CHECKING:
    from skilldeck.lsp.index import FolderIndex
    from skilldeck.lsp.session import Session


@dataclass(frozen=True)
class DeckMention:
    """A ``/name`` mention in the body of the skill file at ``path``.

    ``line_text`` is the mention's whole line, for converting ``span`` to LSP units
    without holding the body.
    """

    path: str
    span: Span
    line_text: str

    def line_source(self, number: int) -> str | None:
        """A :data:`~skilldeck.lsp.positions.LineSource` that knows the mention's line."""
        return self.line_text if number == self.span.start.line else None


def body_start_line(text: str) -> int | None:
    """The first body line of a skill file's text; ``None`` without a closed frontmatter."""
    bounds = find_frontmatter(text)
    if not isinstance(bounds, FrontmatterBounds):
        return None
    return len(line_starts(text[: bounds.body_start])) - 1


def mentions_in_text(text: str, name: str) -> list[tuple[Span, str]]:
    """Every ``/name`` mention of ``name`` in the body of ``text``, with its line."""
    if "/" + name not in text:
        return []
    start = body_start_line(text)
    if start is None:
        return []
    lines = split_lines(text)
    return [(m.span, lines[m.span.start.line]) for m in mentions(lines, start) if m.name == name]


def _scan(paths: Sequence[str], overlay: Mapping[str, str], name: str) -> list[DeckMention]:
    """Blocking: read each file (or its buffer) and collect mentions of ``name``."""
    found: list[DeckMention] = []
    for path in paths:
        text = overlay.get(path)
        if text is None:
            try:
                text = decode_skill_bytes(read_skill_bytes(path))
            except SkillReadError:
                continue
        found.extend(DeckMention(path, span, line) for span, line in mentions_in_text(text, name))
    return found


async def deck_mentions(session: Session, index: FolderIndex, name: str) -> list[DeckMention]:
    """Every mention of ``/name`` in every skill file of ``index``'s roots, in scan order."""
    paths = [entry.path for entry in index.entries()]
    overlay = session.overlay()
    return await asyncio.to_thread(_scan, paths, overlay, name)


#: The frontmatter values the model reads (the catalog line and the routing hint).
MODEL_READ_KEYS = ("description", "whenToUse")


@dataclass(frozen=True)
class ValueMentions:
    """The ``/name`` mentions in one file's model-read frontmatter values: those the
    text spells so they can be edited in place, and how many the values hold that it
    does not (an escape in a quoted string, a line folded inside the name)."""

    found: tuple[DeckMention, ...]
    left: int


def value_mentions_in_text(text: str, name: str, path: str = "") -> ValueMentions:
    """The ``/name`` mentions of ``name`` in ``text``'s ``description`` and ``whenToUse``."""
    if "/" + name not in text and "\\/" not in text and "\\u" not in text:
        return ValueMentions((), 0)
    frontmatter = parse_frontmatter(text).frontmatter
    if frontmatter is None:
        return ValueMentions((), 0)
    pattern = re.compile(r"(?:^|(?<=[\s\"'(`]))/" + re.escape(name) + r"(?![a-z0-9-])")
    lines = split_lines(text)
    found: list[DeckMention] = []
    left = 0
    for entry in frontmatter.entries:
        if entry.key not in MODEL_READ_KEYS or not isinstance(entry.value, str):
            continue
        wanted = len(pattern.findall(entry.value))
        spelt = 0
        span = entry.value_span
        for number in range(span.start.line, min(span.end.line, len(lines) - 1) + 1):
            line = lines[number]
            start = span.start.character if number == span.start.line else 0
            end = span.end.character if number == span.end.line else len(line)
            for match in pattern.finditer(line, start, end):
                found.append(DeckMention(path, Span.at(number, match.start(), match.end()), line))
                spelt += 1
        left += max(0, wanted - spelt)
    return ValueMentions(tuple(found), left)


def _scan_values(
    paths: Sequence[str], overlay: Mapping[str, str], name: str
) -> tuple[list[DeckMention], dict[str, int]]:
    """Blocking: the value mentions of ``name`` in each file, and what each one left."""
    found: list[DeckMention] = []
    left: dict[str, int] = {}
    for path in paths:
        text = overlay.get(path)
        if text is None:
            try:
                text = decode_skill_bytes(read_skill_bytes(path))
            except SkillReadError:
                continue
        mentions = value_mentions_in_text(text, name, path)
        found.extend(mentions.found)
        if mentions.left:
            left[path] = mentions.left
    return found, left


async def deck_value_mentions(
    session: Session, index: FolderIndex, name: str
) -> tuple[list[DeckMention], dict[str, int]]:
    """Every ``/name`` mention in the model-read frontmatter values of every skill file of
    ``index``'s roots, and per file how many it holds that cannot be edited in place."""
    paths = [entry.path for entry in index.entries()]
    overlay = session.overlay()
    return await asyncio.to_thread(_scan_values, paths, overlay, name)
