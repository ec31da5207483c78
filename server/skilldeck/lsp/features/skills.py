"""``skilldeck/skills``: the layered view (roots in rank order, their skills, who wins).

Params ``{uri?}`` limit the answer to the folder of that URI. Result ``{complete,
folders: [{folderUri, counts, roots: [{rank, source, path, uri, exists, skills: [...]}]}]}``;
``counts`` are the catalog's (``skilldeck/catalog``): why the view lists more skill files
than the catalog holds (shadowed, not loaded, not model-invocable).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from skilldeck.engine.deck import ProvidedSkill
from skilldeck.engine.rules import Severity
from skilldeck.lsp.diagnostics import uri_of
from skilldeck.lsp.features.params import optional_uri
from skilldeck.lsp.json_result import JsonObject

if TYPE_CHECKING:
    from skilldeck.engine.deck import DeckMember
    from skilldeck.engine.filesystem import SkillFileEntry
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
    """One folder's roots, each with its skills; then one row per other provider (bundled,
    runtime, registered) with the skills it provides (``path`` / ``uri`` null when the
    provider names no file)."""
    by_root: dict[str, list[dict[str, Any]]] = {root.path: [] for root in index.roots}
    for entry in index.entries():
        by_root.setdefault(entry.root.path, []).append(skill_view(index, entry))
    roots: list[dict[str, Any]] = [
        {
            "rank": root.rank,
            "source": root.source,
            "path": root.path,
            "uri": uri_of(root.path),
            "exists": root.exists,
            "provider": None,
            "skills": by_root[root.path],
        }
        for root in index.roots
    ]
    providers: dict[tuple[int, str, str], list[dict[str, Any]]] = {}
    for skill in index.provided:
        key = (skill.rank, skill.source, skill.provider)
        providers.setdefault(key, []).append(provided_view(index, skill))
    for (rank, source, provider), skills in providers.items():
        roots.append(
            {
                "rank": rank,
                "source": source,
                "path": None,
                "uri": None,
                "exists": True,
                "provider": provider,
                "skills": skills,
            }
        )
    roots.sort(key=lambda root: root["rank"])  # stable: files before providers of a rank
    counts = index.tally(len(index.catalog_snapshot()[1]))
    return {"folderUri": uri_of(index.folder), "roots": roots, "counts": counts}


def _ref(member: DeckMember) -> dict[str, Any]:
    if isinstance(member, ProvidedSkill):
        return {
            "source": member.source,
            "rank": member.rank,
            "uri": uri_of(member.path) if member.path is not None else None,
            "provider": member.provider,
        }
    return {
        "source": member.root.source,
        "rank": member.root.rank,
        "uri": uri_of(member.path),
        "provider": None,
    }


def _relations(index: FolderIndex, name: str, me: object) -> tuple[bool, Any, list[Any]]:
    """``(winner, shadowedBy, shadows)`` of the accepted member ``me`` among those named
    ``name`` (a name nothing else carries is won by its only member)."""
    if not index.shares_name(name):
        return True, None, []
    group = index.members(name)
    if group and group[0] is me:
        return True, None, [_ref(other) for other in group[1:]]
    if any(member is me for member in group):
        return False, _ref(group[0]), []
    return False, None, []


def skill_view(index: FolderIndex, entry: SkillFileEntry) -> dict[str, Any]:
    """One skill file as the tree view shows it."""
    analysis = entry.analysis
    name = analysis.name or entry.expected_name
    accepted = analysis.accepted
    if accepted:
        winner, shadowed_by, shadows = _relations(index, name, entry)
    else:
        winner, shadowed_by, shadows = False, None, []
    findings = index.findings(entry.path)
    return {
        "hosts": host_verdicts(index, entry.path),
        "name": name,
        "description": analysis.description or "",
        "uri": uri_of(entry.path),
        "layout": entry.layout,
        "winner": winner,
        "accepted": accepted,
        "shadowedBy": shadowed_by,
        "shadows": shadows,
        "modelInvocable": analysis.invocation.model_invocable,
        "userInvocable": analysis.invocation.user_invocable,
        "errorCount": sum(1 for f in findings if f.severity is Severity.ERROR),
        "warningCount": sum(1 for f in findings if f.severity is Severity.WARNING),
    }


def host_verdicts(index: FolderIndex, path: str) -> dict[str, Any]:
    """What each agent of the folder's ``hosts`` setting does with the file at ``path``:
    ``{"codex": {"loads": false, "catalog": null}, ...}`` (``catalog``: ``full``, ``cut``,
    ``name-only``, ``left-out``); empty when only DSH is configured or the file lies
    outside every agent's folders."""
    view = index.hosts_view
    if view is None:
        return {}
    verdicts: dict[str, Any] = {}
    for host in view.hosts:
        load = view.verdicts.get(host.name, {}).get(path)
        if load is not None:
            verdicts[host.name] = {"loads": load.loads, "catalog": load.catalog}
    return verdicts


def provided_view(index: FolderIndex, skill: ProvidedSkill) -> dict[str, Any]:
    """One provided skill as the tree view shows it (``layout`` ``provided``)."""
    winner, shadowed_by, shadows = _relations(index, skill.name, skill)
    candidate = skill.candidate
    return {
        "name": skill.name,
        "description": candidate.description,
        "uri": uri_of(skill.path) if skill.path is not None else None,
        "layout": "provided",
        "provider": skill.provider,
        "winner": winner,
        "accepted": True,
        "shadowedBy": shadowed_by,
        "shadows": shadows,
        "modelInvocable": candidate.invocation.model_invocable,
        "userInvocable": candidate.invocation.user_invocable,
        "errorCount": 0,
        "warningCount": 0,
    }
