"""``textDocument/documentLink``: resource paths and ``http(s)`` URLs in a skill's body.

A relative path becomes a link only when the engine's
:func:`~skilldeck.engine.model_view.resolve_resource` resolves it inside the skill's
folder (never through ``..``, absolute paths, ``~`` or symlinks leading out) and the
file exists; the link targets the resolved file. ``http``/``https`` URLs link as
written; no other scheme is linked.
"""

from __future__ import annotations

import asyncio
import os
from typing import TYPE_CHECKING

from lsprotocol import types

from skilldeck.engine.model_view import resolve_resource
from skilldeck.engine.registry import SkillSummary
from skilldeck.lsp.diagnostics import uri_of
from skilldeck.lsp.markdown_body import BodyReference, references
from skilldeck.lsp.skill_document import SkillDocument, load_document

if TYPE_CHECKING:
    from skilldeck.lsp.server import SkilldeckServer


def register(server: SkilldeckServer) -> None:
    """Register ``textDocument/documentLink``."""

    @server.feature(
        types.TEXT_DOCUMENT_DOCUMENT_LINK, types.DocumentLinkOptions(resolve_provider=False)
    )
    async def document_link(params: types.DocumentLinkParams) -> list[types.DocumentLink] | None:
        doc = await load_document(server.session, params.text_document.uri)
        if doc is None:
            return None
        return await asyncio.to_thread(document_links, doc)


def document_links(doc: SkillDocument) -> list[types.DocumentLink]:
    """Every link in ``doc``'s body (blocking: checks that resource files exist)."""
    summary = doc.resource_summary()
    found: list[types.DocumentLink] = []
    for number in range(doc.body_start_line(), len(doc.lines)):
        for ref in references(doc.line(number), number):
            target = _target(ref, summary)
            if target is not None:
                found.append(
                    types.DocumentLink(range=doc.range(ref.span), target=target, tooltip=None)
                )
    return found


def _target(ref: BodyReference, summary: SkillSummary) -> str | None:
    if ref.kind == "url":
        return ref.target
    resolved = resolve_resource(summary, ref.target)
    if resolved is None or resolved.kind != "path" or not os.path.isfile(resolved.location):
        return None
    return uri_of(resolved.location)
