"""Go to definition / declaration / references across the deck's layers.

- Anywhere in a skill's frontmatter: from a shadowed copy, the winner alone (the skill
  the model sees); from the winner, the copies it shadows in rank order (never the
  document itself). The winner alone because VS Code sorts several locations by path
  and previews the one whose path is most like the document's (its ``ReferencesModel``,
  seen in code-server 4.100.3): with two or more other copies F12 landed on a shadowed
  one. References list every copy.
- On a ``/name`` mention: the winning skill's ``name``.
- On a relative resource path in the body: that file (only inside the skill's folder,
  resolved by the engine's :func:`~skilldeck.engine.model_view.resolve_resource`).
- References (frontmatter or mention): every same-named skill, winner first, then every
  ``/name`` mention in every skill body of the deck.

Declaration answers like definition.
"""

from __future__ import annotations

import asyncio
import os
from typing import TYPE_CHECKING

from lsprotocol import types

from skilldeck.engine.deck import ProvidedSkill
from skilldeck.engine.model_view import resolve_resource
from skilldeck.engine.text import Position
from skilldeck.lsp.deck_mentions import deck_mentions
from skilldeck.lsp.diagnostics import uri_of
from skilldeck.lsp.markdown_body import reference_at
from skilldeck.lsp.navigation import (
    entry_location,
    in_frontmatter,
    name_target,
    provided_location,
)
from skilldeck.lsp.positions import to_lsp_range
from skilldeck.lsp.skill_document import SkillDocument, load_document

if TYPE_CHECKING:
    from skilldeck.lsp.server import SkilldeckServer
    from skilldeck.lsp.session import Session


def register(server: SkilldeckServer) -> None:
    """Register definition, declaration and references."""
    session = server.session

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    async def definition(params: types.DefinitionParams) -> list[types.Location] | None:
        doc = await load_document(session, params.text_document.uri)
        return None if doc is None else await definitions(session, doc, params.position)

    @server.feature(types.TEXT_DOCUMENT_DECLARATION)
    async def declaration(params: types.DeclarationParams) -> list[types.Location] | None:
        doc = await load_document(session, params.text_document.uri)
        return None if doc is None else await definitions(session, doc, params.position)

    @server.feature(types.TEXT_DOCUMENT_REFERENCES)
    async def references(params: types.ReferenceParams) -> list[types.Location] | None:
        doc = await load_document(session, params.text_document.uri)
        if doc is None:
            return None
        include = params.context.include_declaration
        return await find_references(session, doc, params.position, include_declaration=include)


async def definitions(
    session: Session, doc: SkillDocument, at: types.Position
) -> list[types.Location] | None:
    """Where the thing at ``at`` is defined (see the module doc)."""
    position = doc.position(at)
    target = name_target(doc, position)
    if target is not None and doc.index is not None:
        if target.kind == "mention":
            provided = doc.index.provided_winner(target.name)
            if provided is not None:  # no file of ours: its provider's file, if it names one
                location = provided_location(provided)
                return [location] if location is not None else None
            group = doc.index.group(target.name)[:1]
            return [entry_location(session, entry) for entry in group] or None
        return copies_in_rank_order(session, doc, target.name) or None
    if in_frontmatter(doc, position) or position.line < doc.body_start_line():
        return None
    return await _resource(doc, position)


def copies_in_rank_order(session: Session, doc: SkillDocument, name: str) -> list[types.Location]:
    """Where F12 on the name goes. From a shadowed copy: the winner alone (the skill the
    model sees; a provided winner without a file: the best-ranked copy with one), so
    every client lands there, VS Code too, which re-sorts several locations by path.
    From the winner: the copies it shadows, in rank order. The document itself is left
    out (the user is there already) unless nothing else carries the name."""
    assert doc.index is not None
    found: list[types.Location] = []
    own: list[types.Location] = []
    is_winner = False
    for rank, member in enumerate(doc.index.members(name)):
        if isinstance(member, ProvidedSkill):
            location = provided_location(member)
            if location is not None:
                found.append(location)
        elif member.path != doc.path:
            found.append(entry_location(session, member))
        else:
            is_winner = rank == 0
            own.append(entry_location(session, member))
    if found and not is_winner:
        return found[:1]
    return found or own  # a name nothing else carries is its own definition


async def _resource(doc: SkillDocument, position: Position) -> list[types.Location] | None:
    ref = reference_at(doc.line(position.line), position.line, position.character)
    if ref is None or ref.kind != "path":
        return None
    resolved = resolve_resource(doc.resource_summary(), ref.target)
    if resolved is None or resolved.kind != "path":
        return None
    if not await asyncio.to_thread(os.path.isfile, resolved.location):
        return None
    start = types.Position(line=0, character=0)
    return [types.Location(uri=uri_of(resolved.location), range=types.Range(start, start))]


async def find_references(
    session: Session, doc: SkillDocument, at: types.Position, *, include_declaration: bool
) -> list[types.Location] | None:
    """Same-named skills (winner first), then every ``/name`` mention across the deck."""
    position = doc.position(at)
    target = name_target(doc, position)
    if target is None or doc.index is None:
        return None
    locations: list[types.Location] = []
    for entry in doc.index.group(target.name):
        if not include_declaration and target.kind == "own" and entry.path == doc.path:
            continue
        locations.append(entry_location(session, entry))
    for mention in await deck_mentions(session, doc.index, target.name):
        locations.append(
            types.Location(
                uri=uri_of(mention.path),
                range=to_lsp_range(mention.span, mention.line_source, session.encoding),
            )
        )
    return locations
