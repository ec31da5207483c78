"""``skilldeck/hostCatalog``: the listing one agent would build for a folder, and its budget.

Params ``{uri, host, contextTokens?}`` (a document or folder URI; a host of
``engine/hosts/_table.py``; the context window in tokens, default the host's documented
fallback). Result ``{host, label, docs, folderUri, complete, budget: {host, contextTokens,
budgetChars, totalChars, tokenEstimate, entries: [{name, state, shownChars}]}, entries:
[{name, state, text}]}`` — ``budget`` is exactly ``skilldeck budget --host H --json`` and
``entries`` the lines of ``skilldeck catalog --host H --json``. What a catalog preview
with a host picker and a budget bar needs. Files are read as saved on disk.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from pygls.exceptions import JsonRpcInvalidParams

from skilldeck.engine.host_views import build_view, host_listing
from skilldeck.engine.hosts import HOSTS
from skilldeck.lsp.diagnostics import uri_of
from skilldeck.lsp.features.params import required_uri
from skilldeck.lsp.json_result import JsonObject

if TYPE_CHECKING:
    from skilldeck.lsp.server import SkilldeckServer

HOST_CATALOG = "skilldeck/hostCatalog"


def register(server: SkilldeckServer) -> None:
    """Register ``skilldeck/hostCatalog``."""

    @server.feature(HOST_CATALOG)
    async def host_catalog(params: Any) -> dict[str, Any]:
        uri = required_uri(params)
        name = _member(params, "host")
        host = HOSTS.get(name) if isinstance(name, str) else None
        if host is None:
            raise JsonRpcInvalidParams(
                message=f"'host' must be one of: {', '.join(HOSTS)}; got {name!r}"
            )
        context = _member(params, "contextTokens")
        if context is not None and (
            isinstance(context, bool) or not isinstance(context, int) or context <= 0
        ):
            raise JsonRpcInvalidParams(
                message=f"'contextTokens' must be a positive integer, got {context!r}"
            )
        await server.session.wait_indexed()
        index = server.session.folder_for(uri)
        if index is None:
            raise JsonRpcInvalidParams(message=f"{uri} is in no workspace folder")
        view = await asyncio.to_thread(
            build_view,
            (host,),
            index.config,
            index.folder,
            cache=server.session.index_cache(),
            context_tokens=context,
            # DSH's view is the deck's, its provided skills included (as budget --host dsh)
            provided=index.provided_skills() if host.engine_roots else (),
        )
        return JsonObject(
            host=host.name,
            label=host.label,
            docs=host.docs,
            folderUri=uri_of(index.folder),
            complete=view.complete,
            budget=view.catalogs[host.name].to_json(),
            entries=[line.to_json() for line in host_listing(view, host)],
        )


def _member(params: Any, name: str) -> Any:
    return params.get(name) if isinstance(params, dict) else getattr(params, name, None)
