"""``skilldeck/catalog``: the catalog the model would see for a folder.

Params ``{uri}`` (a document or folder URI). Result ``{text, entries: [{name,
description}], complete, tokenEstimate, skillCount, counts, folderUri}``; ``counts`` says
why the skill files and the catalog differ in number (:meth:`FolderIndex.tally`:
``skillFiles``, ``inCatalog``, ``fromFiles``, ``provided``, ``shadowed``, ``notLoaded``,
``notModelInvocable``). The change
notification ``skilldeck/catalogChanged`` is sent by the session.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pygls.exceptions import JsonRpcInvalidParams

from skilldeck.lsp.diagnostics import uri_of
from skilldeck.lsp.features.params import required_uri
from skilldeck.lsp.index import current_catalog
from skilldeck.lsp.json_result import JsonObject

if TYPE_CHECKING:
    from skilldeck.lsp.server import SkilldeckServer

CATALOG = "skilldeck/catalog"


def register(server: SkilldeckServer) -> None:
    """Register ``skilldeck/catalog``."""

    @server.feature(CATALOG)
    async def catalog(params: Any) -> dict[str, Any]:
        uri = required_uri(params)
        await server.session.wait_indexed()
        index = server.session.folder_for(uri)
        if index is None:
            raise JsonRpcInvalidParams(message=f"{uri} is in no workspace folder")
        state = await current_catalog(index)
        return JsonObject(
            text=state.text,
            entries=[{"name": e.name, "description": e.description} for e in state.entries],
            complete=state.complete,
            tokenEstimate=state.token_estimate,
            skillCount=state.skill_count,
            counts=index.tally(state.skill_count),
            folderUri=uri_of(index.folder),
        )
