"""Every ``/name`` mention across one folder's deck, for references and rename.

Bodies are never held in the index, so they are read here when asked: open buffers
from the session's overlay, every other skill file from disk in a worker thread.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from skilldeck.engine.files import SkillReadError, decode_skill_bytes, read_skill_bytes
from skilldeck.engine.frontmatter import FrontmatterBounds, find_frontmatter
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
