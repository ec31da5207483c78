"""``textDocument/codeLens`` on the ``name`` line: who this skill shadows, or who wins.

A winning skill with same-named skills in other roots gets ``shadows <source>/<name>``
(up to :data:`NAMED_IN_TITLE` of them, then ``and N more``); a shadowed skill gets
``shadowed by <source> (rank R)``, pointing at the winner alone (another copy between
them is shadowed too, and shadows nothing). Each lens carries the client-side command
:data:`SHOW_SHADOWING` (``skilldeck.showShadowing``) with one argument shaped like the
arguments of VS Code's ``editor.action.showReferences``, as plain LSP JSON::

    {"uri": <this document>, "position": <start of the name value>,
     "locations": [<the winner's Location> | <each shadowed skill's, in rank order>]}

The client opens those locations (the extension converts them for VS Code's peek view).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lsprotocol import types

from skilldeck.lsp.navigation import entry_location, own_name_span
from skilldeck.lsp.skill_document import SkillDocument, load_document

if TYPE_CHECKING:
    from skilldeck.lsp.server import SkilldeckServer
    from skilldeck.lsp.session import Session

SHOW_SHADOWING = "skilldeck.showShadowing"
#: Shadowed skills the winner's lens names before it says ``and N more``.
NAMED_IN_TITLE = 2


def register(server: SkilldeckServer) -> None:
    """Register ``textDocument/codeLens``."""

    @server.feature(types.TEXT_DOCUMENT_CODE_LENS, types.CodeLensOptions(resolve_provider=False))
    async def code_lens(params: types.CodeLensParams) -> list[types.CodeLens] | None:
        doc = await load_document(server.session, params.text_document.uri)
        return None if doc is None else lenses(server.session, doc)


def lenses(session: Session, doc: SkillDocument) -> list[types.CodeLens]:
    """The shadowing lens of ``doc`` (none when its name is unique across the roots)."""
    span = own_name_span(doc)
    group = doc.group()
    paths = [entry.path for entry in group]
    if span is None or doc.path not in paths or len(group) < 2:
        return []
    others = [entry for entry in group if entry.path != doc.path]
    if paths[0] == doc.path:
        named = [f"{entry.root.source}/{entry.analysis.name}" for entry in others]
        title = "shadows " + ", ".join(named[:NAMED_IN_TITLE])
        if len(named) > NAMED_IN_TITLE:
            title += f" and {len(named) - NAMED_IN_TITLE} more"
    else:
        # Only the winner shadows this copy; a copy between them is shadowed too.
        winner = group[0]
        title = f"shadowed by {winner.root.source} (rank {winner.root.rank})"
        others = [winner]
    value_range = doc.range(span)
    locations = [entry_location(session, entry) for entry in others]
    argument: dict[str, Any] = {
        "uri": doc.uri,
        "position": _position_json(value_range.start),
        "locations": [{"uri": loc.uri, "range": _range_json(loc.range)} for loc in locations],
    }
    return [
        types.CodeLens(
            range=value_range,
            command=types.Command(title=title, command=SHOW_SHADOWING, arguments=[argument]),
        )
    ]


def _position_json(position: types.Position) -> dict[str, int]:
    return {"line": position.line, "character": position.character}


def _range_json(value: types.Range) -> dict[str, dict[str, int]]:
    return {"start": _position_json(value.start), "end": _position_json(value.end)}
