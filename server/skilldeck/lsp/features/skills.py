"""``skilldeck/skills``: the layered view (roots in rank order, their skills, who wins).

Params ``{uri?}`` limit the answer to the folder of that URI. Result ``{complete,
folders: [{folderUri, roots: [{rank, source, path, uri, exists, skills: [...]}]}]}``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from skilldeck.engine.findings import Severity
from skilldeck.lsp.diagnostics import uri_of
from skilldeck.lsp.features.params import optional_uri
from skilldeck.lsp.json_result import JsonObject

if TYPE_CHECKING:
    from skilldeck.engine.fs_provider import SkillFileEntry
    from skilldeck.lsp.index import FolderIndex
    from skilldeck.lsp.server import SkilldeckServer

SKILLS = "skilldeck/skills"


def register(server: SkilldeckServer) -> None:
    """Register ``skilldeck/skills``."""

    @server.feature(SKILLS)
    async def skills(params: Any) -> dict[str, Any]:
        uri = optional_uri(params)
        session = server.session
        await session.wait_indexed()
        if uri is not None:
            index = session.folder_for(uri)
            indexes = [index] if index is not None else []
        else:
            indexes = list(session.folders.values())
        return JsonObject(
            complete=all(i.complete for i in indexes),
            folders=[folder_view(i) for i in indexes],
        )


def folder_view(index: FolderIndex) -> dict[str, Any]:
    """One folder's roots, each with its skills."""
    by_root: dict[str, list[dict[str, Any]]] = {root.path: [] for root in index.roots}
    for entry in index.entries():
        by_root.setdefault(entry.root.path, []).append(skill_view(index, entry))
    return {
        "folderUri": uri_of(index.folder),
        "roots": [
            {
                "rank": root.rank,
                "source": root.source,
                "path": root.path,
                "uri": uri_of(root.path),
                "exists": root.exists,
                "skills": by_root[root.path],
            }
            for root in index.roots
        ],
    }


def _ref(entry: SkillFileEntry) -> dict[str, Any]:
    return {"source": entry.root.source, "rank": entry.root.rank, "uri": uri_of(entry.path)}


def skill_view(index: FolderIndex, entry: SkillFileEntry) -> dict[str, Any]:
    """One skill file as the tree view shows it."""
    analysis = entry.analysis
    name = analysis.name or entry.expected_name
    accepted = analysis.accepted
    winner_path = index.winner(name) if accepted else None
    winner = winner_path == entry.path
    if winner and index.shares_name(name):
        group = index.group(name)
    elif winner_path is not None and not winner:
        shadowing = index.entry(winner_path)
        group = [shadowing] if shadowing is not None else []
    else:
        group = []
    findings = index.findings(entry.path)
    return {
        "name": name,
        "description": analysis.description or "",
        "uri": uri_of(entry.path),
        "layout": entry.layout,
        "winner": winner,
        "accepted": accepted,
        "shadowedBy": _ref(group[0]) if group and not winner else None,
        "shadows": [_ref(other) for other in group[1:]] if winner else [],
        "modelInvocable": analysis.invocation.model_invocable,
        "userInvocable": analysis.invocation.user_invocable,
        "errorCount": sum(1 for f in findings if f.severity is Severity.ERROR),
        "warningCount": sum(1 for f in findings if f.severity is Severity.WARNING),
    }
