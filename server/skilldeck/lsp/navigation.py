"""Shared navigation pieces: which skill name the cursor means, and where skills live.

A cursor names a skill in two ways: anywhere in a skill's frontmatter (that skill's own
``name``) or on a ``/name`` mention in a body (the mentioned skill). That is what
definition and references answer from (:func:`name_target`); rename asks for more, the
cursor on the name itself: the ``name`` value's text or a mention (:func:`rename_target`).
Locations of other skill files are converted with the session's line source for that file.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from lsprotocol import types

from skilldeck.engine.filesystem import SkillFileEntry, name_span
from skilldeck.engine.text import Position, Span
from skilldeck.lsp.diagnostics import uri_of
from skilldeck.lsp.markdown_body import mention_at
from skilldeck.lsp.positions import to_lsp_range
from skilldeck.lsp.scalar_text import scalar_text_span

if TYPE_CHECKING:
    from skilldeck.engine.deck import ProvidedSkill
    from skilldeck.lsp.session import Session
    from skilldeck.lsp.skill_document import SkillDocument


@dataclass(frozen=True)
class NameTarget:
    """The skill name under a cursor: ``own`` (this file's frontmatter) or a ``mention``."""

    name: str
    kind: Literal["own", "mention"]
    span: Span


def entry_name_span(entry: SkillFileEntry) -> Span:
    """Where ``entry``'s ``name`` value is (from its frontmatter when it has one)."""
    if entry.analysis.frontmatter is not None:
        return name_span(entry.analysis)
    return entry.name_span


def entry_location(session: Session, entry: SkillFileEntry) -> types.Location:
    """The LSP location of ``entry``'s ``name`` value."""
    return types.Location(
        uri=uri_of(entry.path),
        range=to_lsp_range(entry_name_span(entry), session.lines(entry.path), session.encoding),
    )


def provided_location(skill: ProvidedSkill) -> types.Location | None:
    """Where a provided skill's file is (the start of it), when its provider names one."""
    if skill.path is None:
        return None
    start = types.Position(line=0, character=0)
    return types.Location(uri=uri_of(skill.path), range=types.Range(start, start))


def own_name_span(doc: SkillDocument) -> Span | None:
    """The span of this document's ``name`` text, when the frontmatter has one.

    Only the scalar's text: anchors, tags, quotes and block headers are left out
    (:func:`~skilldeck.lsp.scalar_text.scalar_text_span`).
    """
    fm = doc.frontmatter
    entry = fm.get("name") if fm is not None else None
    return scalar_text_span(doc.text, entry) if entry is not None else None


def in_frontmatter(doc: SkillDocument, position: Position) -> bool:
    """True when ``position`` is on a frontmatter line (delimiters included)."""
    lines = doc.frontmatter_lines()
    return lines is not None and lines[0] <= position.line <= lines[1]


def name_target(doc: SkillDocument, position: Position) -> NameTarget | None:
    """The skill name the cursor means (see the module doc)."""
    if in_frontmatter(doc, position):
        name = doc.analysis.name
        span = own_name_span(doc)
        if not name or span is None:
            return None
        return NameTarget(name, "own", span)
    return _mention_target(doc, position)


def rename_target(doc: SkillDocument, position: Position) -> NameTarget | None:
    """The skill name under the cursor itself: on the ``name`` value's text (both ends
    included, as LSP ranges are; not its key, quotes or the rest of the frontmatter) or
    on a ``/name`` mention. The span returned contains ``position``."""
    if in_frontmatter(doc, position):
        target = name_target(doc, position)
        return target if target is not None and target.span.contains(position) else None
    return _mention_target(doc, position)


def _mention_target(doc: SkillDocument, position: Position) -> NameTarget | None:
    if position.line < doc.body_start_line():
        return None
    mention = mention_at(doc.lines, doc.body_start_line(), position.line, position.character)
    if mention is None:
        return None
    return NameTarget(mention.name, "mention", mention.span)
