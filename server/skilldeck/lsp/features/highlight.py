"""``textDocument/documentHighlight``: with the cursor on a skill name (the ``name``
value's text or a ``/name`` mention, as rename takes it), every place this document
names that skill: its own ``name`` value (a *write*: where the skill is named) and each
``/name`` mention (a *read*) in the body and in the ``description`` / ``whenToUse``
values the model reads. Mentions inside code are not mentions (the engine's gesture
rules), so they are not highlighted. Elsewhere, nothing (an empty list).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from skilldeck.engine.text import Span
from skilldeck.lsp.deck_mentions import value_mentions_in_text
from skilldeck.lsp.markdown_body import mentions
from skilldeck.lsp.navigation import own_name_span, rename_target
from skilldeck.lsp.skill_document import SkillDocument, load_document

if TYPE_CHECKING:
    from skilldeck.lsp.server import SkilldeckServer


def register(server: SkilldeckServer) -> None:
    """Register ``textDocument/documentHighlight``."""

    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_HIGHLIGHT)
    async def document_highlight(
        params: types.DocumentHighlightParams,
    ) -> list[types.DocumentHighlight] | None:
        doc = await load_document(server.session, params.text_document.uri)
        if doc is None:
            return None
        return name_highlights(doc, params.position)


def name_highlights(doc: SkillDocument, at: types.Position) -> list[types.DocumentHighlight]:
    """The highlights of the skill name under ``at`` in ``doc`` (see the module doc)."""
    target = rename_target(doc, doc.position(at))
    if target is None:
        return []
    found: list[tuple[Span, types.DocumentHighlightKind]] = []
    own = own_name_span(doc)
    if own is not None and doc.analysis.name == target.name:
        found.append((own, types.DocumentHighlightKind.Write))
    read = types.DocumentHighlightKind.Read
    found += [(m.span, read) for m in value_mentions_in_text(doc.text, target.name).found]
    body = doc.body_start_line()
    found += [(m.span, read) for m in mentions(doc.lines, body) if m.name == target.name]
    return [types.DocumentHighlight(range=doc.range(span), kind=kind) for span, kind in found]
