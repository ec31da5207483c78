"""The deck: every skill a lookup sees, files and provided skills, resolved by name.

A deck is what every front end reads (``check``, ``list``, ``catalog``, the language
server): the skill files of the filesystem roots, each with its analysis, plus the
:class:`ProvidedSkill` candidates of every other provider of the registry (the bundled
skill, runtime skills, remote sources: skills with no file the deck analyses). This module
decides, in one place, for one name:

- who wins (rank, then registration order, then provider order: ``group_by_name``; the
  filesystem provider is registered first, so files precede provided skills of the same
  rank);
- the cross-skill findings (SD701 / SD702 / SD703) with the user's rule settings applied
  (:func:`shadowing_findings`; the only place they are made);
- the catalog line of the winner;
- what a ``/name`` mention in a body reaches (SD704 / SD705: :func:`mention_findings`).
- what the other agents of the ``hosts`` setting make of the deck's files (SD901 /
  SD902, :func:`host_findings`).

Provided skills never receive findings (they have no file); a file they shadow, or that
shadows them, does, naming the provider.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, TypeAlias

from skilldeck.engine.checks import NameSuggestions, nearest_names
from skilldeck.engine.config import RuleSettings
from skilldeck.engine.deck._shown_paths import project_of, shown_path
from skilldeck.engine.filesystem import DeckScan, SkillFileEntry
from skilldeck.engine.model_view import CatalogEntry, catalog_entry
from skilldeck.engine.registry import SkillCandidate, group_by_name
from skilldeck.engine.rules import Finding, Fix, RelatedLocation, TextEdit, rule
from skilldeck.engine.text import (
    FILE_START,
    Position,
    Span,
    catalog_description,
    validate_max_description_length,
)

if TYPE_CHECKING:
    from skilldeck.engine.config import SkilldeckConfig
    from skilldeck.engine.filesystem import IndexCache
    from skilldeck.engine.host_views import HostsView
    from skilldeck.engine.registry import SkillRegistry


@dataclass(frozen=True)
class ProvidedSkill:
    """A skill from a provider that is not the filesystem one (bundled, runtime, remote).

    ``provider`` is the registration's name (``"runtime"`` for ``register()`` skills).
    """

    candidate: SkillCandidate
    provider: str

    @property
    def name(self) -> str:
        return self.candidate.name

    @property
    def rank(self) -> int:
        return self.candidate.rank

    @property
    def source(self) -> str:
        return self.candidate.source

    @property
    def path(self) -> str | None:
        """The file behind the skill, when the provider names one (may be outside any root)."""
        return self.candidate.path

    def origin(self) -> str:
        """Where the skill comes from, for messages: its file, else its provider."""
        return self.path if self.path is not None else f'provider "{self.provider}"'


#: One member of a name group: a skill file or a provided skill.
DeckMember: TypeAlias = "SkillFileEntry | ProvidedSkill"


def member_name_and_rank(member: DeckMember) -> tuple[str, int]:
    """The ``group_by_name`` key of an accepted file entry or a provided skill."""
    if isinstance(member, ProvidedSkill):
        return member.name, member.rank
    assert member.analysis.name is not None
    return member.analysis.name, member.root.rank


@dataclass(frozen=True)
class NameVerdict:
    """How one name resolved in the deck."""

    #: Accepted members, winner first (empty when no member is accepted).
    group: tuple[DeckMember, ...]
    #: Cross-skill findings per file path, rule settings applied.
    findings: Mapping[str, tuple[Finding, ...]]
    #: The winner's catalog line (``None`` when it is not model-invocable).
    line: CatalogEntry | None

    @property
    def winner(self) -> DeckMember | None:
        return self.group[0] if self.group else None


def resolve_name(
    files: Sequence[SkillFileEntry],
    provided: Sequence[ProvidedSkill],
    settings: RuleSettings | None,
    max_description_length: int,
    *,
    project: str | None = None,
) -> NameVerdict:
    """Resolve the members of one name: ``files`` in scan order, then ``provided`` in
    registration order. Rejected files take no part. ``project`` as for
    :func:`shadowing_findings`."""
    validate_max_description_length(max_description_length)
    members: list[DeckMember] = [e for e in files if e.analysis.accepted]
    members.extend(provided)
    if not members:
        return NameVerdict((), {}, None)
    if len(members) == 1:  # most names: nothing to rank, nothing shadowed
        return NameVerdict((members[0],), {}, _catalog_line(members[0], max_description_length))
    groups = group_by_name(members, member_name_and_rank)
    group = tuple(next(iter(groups.values()))) if len(groups) == 1 else ()
    if not group:  # members of several names: a caller's mistake
        raise ValueError("resolve_name: members carry different names")
    found: dict[str, list[Finding]] = {}
    for path, finding in shadowing_findings(group, settings, project):
        found.setdefault(path, []).append(finding)
    return NameVerdict(
        group,
        {path: tuple(items) for path, items in found.items()},
        _catalog_line(group[0], max_description_length),
    )


def _catalog_line(member: DeckMember, max_description_length: int) -> CatalogEntry | None:
    """The catalog's line for the winner ``member`` (built without its registry
    candidate: this runs for every name of the deck)."""
    if isinstance(member, ProvidedSkill):
        skill = member.candidate
        return catalog_entry(
            skill.name, skill.description, skill.invocation, max_description_length
        )
    analysis = member.analysis
    assert analysis.name is not None and analysis.description is not None  # accepted
    return catalog_entry(
        analysis.name, analysis.description, analysis.invocation, max_description_length
    )


#: The deck-wide passes and the rules each one makes: a pass runs only when one of its
#: rules is in force (not ``off`` in the settings, and selected: ``check --select /
#: --ignore``), as ruff runs only the selected rules. ``hosts`` is :func:`host_findings`.
DECK_PASSES: Mapping[str, frozenset[str]] = {
    "shadowing": frozenset({"SD701", "SD702", "SD703"}),
    "mentions": frozenset({"SD704", "SD705"}),
    "overlap": frozenset({"SD801", "SD802"}),
    "hosts": frozenset({"SD901", "SD902", "SD903", "SD801", "SD802"}),
}


def passes_in_force(settings: RuleSettings | None) -> frozenset[str]:
    """The names of :data:`DECK_PASSES` that have a rule in force under ``settings``."""
    return frozenset(
        name
        for name, codes in DECK_PASSES.items()
        if settings is None or any(settings.in_force(code) for code in codes)
    )


@dataclass(frozen=True)
class DeckReport:
    """:func:`deck_report`'s answer: the findings per path, which deck-wide passes ran
    (the names of :data:`DECK_PASSES`; a pass with no rule in force does not), and how
    many unknown ``/name`` mentions were scored against the deck's names for "did you
    mean" (once per distinct name)."""

    findings: dict[str, list[Finding]]
    passes: frozenset[str]
    name_lookups: int = 0


def deck_report(
    scan: DeckScan,
    provided: Sequence[ProvidedSkill] = (),
    *,
    select: AbstractSet[str] | None = None,
) -> DeckReport:
    """Per-file findings plus the cross-skill ones (SD701/SD702/SD703, SD704/SD705, and
    SD801/SD802 between the winners: :mod:`skilldeck.engine.overlap`; the scan's rule
    settings applied), for every entry's path, and the safety findings of each bundle's
    other files at those files' paths; ``provided`` skills take part. ``select``
    (rule codes; ``None``: all) are the rules the caller reports: a deck-wide pass whose
    rules are all off or unselected is not run."""
    from skilldeck.engine.overlap import DeckOverlap  # noqa: PLC0415

    settings = scan.settings.narrowed(select) if scan.settings is not None else None
    if settings is None and select is not None:
        settings = RuleSettings().narrowed(select)
    passes = passes_in_force(settings) - {"hosts"}
    entries = scan.entries()
    project = project_of(scan.roots)
    result: dict[str, list[Finding]] = {e.path: list(e.analysis.findings) for e in entries}
    for entry in entries:  # a bundle file's safety findings are reported at that file
        for path, finding in entry.analysis.bundle_located:
            result.setdefault(path, []).append(finding)
    groups = name_groups(scan, provided)
    lookups = 0
    if "shadowing" in passes:
        for group in groups:
            if len(group) > 1:
                for path, finding in shadowing_findings(group, settings, project):
                    result[path].append(finding)
    if "mentions" in passes:
        targets = mention_targets(group[0] for group in groups)
        suggestions = NameSuggestions(targets)
        for entry in entries:
            if entry.analysis.mentions:
                result[entry.path].extend(
                    mention_findings(
                        entry,
                        targets,
                        settings,
                        complete=bool(scan.complete),
                        suggestions=suggestions,
                    )
                )
        lookups = suggestions.lookups
    if "overlap" in passes:
        overlap = DeckOverlap((group[0] for group in groups), settings)
        for path in overlap.paths():
            result[path].extend(overlap.findings_of(path))
    return DeckReport(result, passes, lookups)


def deck_findings(
    scan: DeckScan,
    provided: Sequence[ProvidedSkill] = (),
    *,
    select: AbstractSet[str] | None = None,
) -> dict[str, list[Finding]]:
    """:func:`deck_report`'s findings."""
    return deck_report(scan, provided, select=select).findings


def mention_targets(
    winners: Iterable[DeckMember],
) -> dict[str, bool]:
    """What a ``/name`` mention can reach: each winner's name and whether the user's
    gesture injects it (``user-invocable``)."""
    targets: dict[str, bool] = {}
    for member in winners:
        if isinstance(member, ProvidedSkill):
            targets[member.name] = member.candidate.invocation.user_invocable
        else:
            name = member.analysis.name
            assert name is not None
            targets[name] = member.analysis.invocation.user_invocable
    return targets


def mention_findings(
    entry: SkillFileEntry,
    targets: Mapping[str, bool],
    settings: RuleSettings | None,
    *,
    complete: bool = True,
    suggestions: NameSuggestions | None = None,
) -> list[Finding]:
    """SD704 / SD705 for the body mentions of ``entry``: a ``/name`` that names no skill
    of the deck (with the nearest names and a quick fix for each), or a skill the
    gesture will not inject. The one place these are made (``check`` and the server).
    An incomplete deck (a root not listed, a provider that failed) may miss the skill a
    mention names: then no SD704. ``suggestions`` is the deck's index of ``targets``
    (made once per deck; each unknown name is looked up once); without it one is made.
    A rule that is off is not computed."""

    unknown = complete and (settings is None or settings.in_force("SD704"))
    hidden = settings is None or settings.in_force("SD705")
    found: list[Finding] = []
    for name, span in entry.analysis.mentions:
        invocable = targets.get(name)
        if invocable is True:
            continue
        if invocable is False:
            if not hidden:
                continue
            finding = rule("SD705").finding(span, name=name)
        elif not unknown:
            continue
        else:
            if suggestions is None:
                suggestions = NameSuggestions(targets)
            nearest = suggestions.nearest(name)
            hint = (
                "; did you mean " + " or ".join(f"/{n}" for n in nearest) + "?" if nearest else ""
            )
            at = Span(Position(span.start.line, span.start.character + 1), span.end)
            fixes = tuple(
                Fix(f"Replace with '/{n}'", (TextEdit(at, n),), unsafe=True) for n in nearest
            )
            finding = rule("SD704").finding(span, fixes=fixes, name=name, hint=hint)
        adjusted = _with_settings(finding, settings)
        if adjusted is not None:
            found.append(adjusted)
    return found


def mentions_affected(
    mentions: Iterable[tuple[str, Span]], changed: set[str], after: Mapping[str, bool]
) -> bool:
    """Whether :func:`mention_findings` of a file with ``mentions`` may differ after the
    names ``changed``: it mentions one of them, or an unknown name they are near to (its
    suggestions)."""
    return any(
        name in changed or (name not in after and bool(nearest_names(name, changed)))
        for name, _ in mentions
    )


def name_groups(scan: DeckScan, provided: Sequence[ProvidedSkill] = ()) -> list[list[DeckMember]]:
    """Every name's accepted members, winner first (files in scan order, then ``provided``
    in registration order); the first of each group is what the model can see."""
    accepted: list[DeckMember] = [e for e in scan.entries() if e.analysis.accepted]
    return list(group_by_name([*accepted, *provided], member_name_and_rank).values())


def shadowing_findings(
    group: Sequence[DeckMember], settings: RuleSettings | None, project: str | None = None
) -> list[tuple[str, Finding]]:
    """Findings for one name group (winner first): who shadows whom, and why.

    Across roots and providers the winner gets SD702 per shadowed member and each
    shadowed file gets SD701 pointing back. Files sharing one root get SD703 pointing at
    each other (the first in provider order wins; SD703 explains it, so no SD701/SD702
    between them). Only files receive findings. ``settings`` turns rules off or changes
    their severity: the one place this happens for cross-skill rules. The messages name
    the other file relative to ``project`` (the deck's project folder,
    :func:`~skilldeck.engine.deck._shown_paths.project_of`) or as ``~/...``
    (:func:`~skilldeck.engine.deck._shown_paths.shown_path`).
    """
    winner = group[0]
    out: list[tuple[str, Finding]] = []
    by_root: dict[str, list[SkillFileEntry]] = {}
    for member in group:
        if isinstance(member, SkillFileEntry):
            by_root.setdefault(member.root.path, []).append(member)
    for loser in group[1:]:
        if _same_root(loser, winner):
            continue
        if isinstance(loser, SkillFileEntry):
            out.append(
                (
                    loser.path,
                    _relation(
                        "SD701",
                        loser,
                        winner,
                        [winner],
                        "the skill that wins this name",
                        project=project,
                    ),
                )
            )
        if isinstance(winner, SkillFileEntry):
            out.append(
                (
                    winner.path,
                    _relation(
                        "SD702", winner, loser, [loser], "the shadowed skill", project=project
                    ),
                )
            )
    for members in by_root.values():
        if len(members) < 2:
            continue
        for entry in members:
            others: list[DeckMember] = [other for other in members if other is not entry]
            out.append(
                (
                    entry.path,
                    _relation(
                        "SD703",
                        entry,
                        others[0],
                        others,
                        "same name in the same root",
                        project=project,
                    ),
                )
            )
    return [
        (path, adjusted)
        for path, finding in out
        if (adjusted := _with_settings(finding, settings)) is not None
    ]


def _same_root(a: DeckMember, b: DeckMember) -> bool:
    return (
        isinstance(a, SkillFileEntry)
        and isinstance(b, SkillFileEntry)
        and a.root.path == b.root.path
    )


def _relation(
    code: str,
    entry: SkillFileEntry,
    other: DeckMember,
    related: Iterable[DeckMember],
    note: str,
    *,
    project: str | None,
) -> Finding:
    """A deck-level finding on ``entry``; the message names ``other``'s location."""
    from skilldeck.engine.overlap import related_location  # noqa: PLC0415

    if isinstance(other, SkillFileEntry):
        source, path, rank = other.root.source, shown_path(other.path, project), other.root.rank
    else:
        origin = shown_path(other.path, project) if other.path is not None else other.origin()
        source, path, rank = other.source, origin, other.rank
    return rule(code).finding(
        entry.name_span,
        related=tuple(
            location for item in related if (location := related_location(item, note)) is not None
        ),
        name=entry.analysis.name,
        path=path,
        source=source,
        rank=rank,
    )


def _with_settings(finding: Finding, settings: RuleSettings | None) -> Finding | None:
    """Apply a rule override: ``None`` when the rule is off, else the chosen severity."""
    if settings is None or finding.code not in settings.overrides:
        return finding
    severity = settings.overrides[finding.code]
    if severity is None:
        return None
    return replace(finding, severity=severity)


async def provided_skills(
    registry: SkillRegistry, *, cwd: str | None = None
) -> tuple[tuple[ProvidedSkill, ...], bool]:
    """Every candidate of ``registry`` (winners and shadowed, per name in resolution
    order) as provided skills, and whether the read was complete.

    Pass a registry without the filesystem provider
    (:func:`skilldeck.engine.deck._defaults.provider_registry`): the deck reads files itself,
    with their analyses and the open buffers.
    """
    resolution = await registry.resolve(cwd=cwd)
    skills = tuple(
        ProvidedSkill(resolved.candidate, resolved.provider)
        for names in resolution.names.values()
        for resolved in (names.winner, *names.shadowed)
    )
    return skills, resolution.complete


def host_findings(
    scan: DeckScan,
    config: SkilldeckConfig,
    cwd: str,
    *,
    cache: IndexCache | None = None,
    view: HostsView | None = None,
    select: AbstractSet[str] | None = None,
) -> dict[str, list[Finding]]:
    """SD901 / SD902 for the deck's files, for each agent in ``config.hosts`` but DSH
    (whose verdicts are the deck's own): where it would not load a file of a folder it
    reads, or would cut, name-only or leave out its catalog entry. The hosts' own folders
    are scanned too (through the cache), since they decide shadowing and budgets. Rule
    settings apply; files outside every host's folders get nothing. ``view`` is a
    :func:`~skilldeck.engine.hosts.build_view` of (at least) those hosts, when the
    caller has one. ``select`` as for :func:`deck_report`: with none of the pass's rules
    in force no view is built."""
    from skilldeck.engine.host_views import build_view  # noqa: PLC0415
    from skilldeck.engine.hosts import get_host  # noqa: PLC0415

    settings = (scan.settings or RuleSettings()).narrowed(select)
    hosts = [get_host(name) for name in config.hosts if name != "dsh"]
    if not hosts or "hosts" not in passes_in_force(settings):
        return {}
    if view is None:
        view = build_view(hosts, config, cwd, cache=cache)
    strays = [path for root_scan in scan.scans for path, _finding in root_scan.strays]
    return view_findings(view, scan.entries(), settings, strays=strays)


def view_findings(
    view: HostsView,
    entries: Iterable[SkillFileEntry],
    settings: RuleSettings | None,
    *,
    strays: Iterable[str] = (),
) -> dict[str, list[Finding]]:
    """The SD901 / SD902 / SD903 findings of ``view``'s hosts but DSH on ``entries`` (see
    :func:`host_findings`), at each entry's name, rule settings applied. ``strays``: the
    deck's Markdown files that are no skill of its own (SD007, a ``SKILL.md`` nested in a
    folder); where an agent loads one (Codex, which searches below a root), it gets that
    agent's SD902 / SD903 too (no SD901: SD007 already says the deck does not load it)."""

    by_path = {entry.path: entry for entry in entries}
    spans: dict[str, Span] = {path: entry.name_span for path, entry in by_path.items()}
    stray_paths = set(strays)
    spans.update((f.path, f.name_span) for f in view.files if f.path in stray_paths)
    found: dict[str, list[Finding]] = {}
    loads = settings is None or any(settings.in_force(code) for code in ("SD901", "SD902", "SD903"))
    for host in view.hosts if loads else ():
        if host.engine_roots:
            continue
        budget = view.catalogs[host.name]
        for load in view.loads_of(host.name):
            span = spans.get(load.path)
            if span is None or (load.path not in by_path and not load.loads):
                continue
            finding: Finding | None = None
            if not load.loads:
                finding = rule("SD901").finding(
                    span, host=host.label, reason=load.reason, source=host.cited
                )
            elif (
                load.catalog in ("cut", "name-only", "left-out")
                and (listed := budget.entry_for(load.path))
                and not listed.unlisted  # disable-model-invocation, not the budget
            ):
                shown = listed.shown_chars
                effect = {
                    "cut": f"cuts this skill's entry to {shown} characters",
                    "name-only": "shows this skill by name only "
                    f"({load.name_only or 'over its budget'})",
                    "left-out": "leaves this skill out (over its budget)",
                }[load.catalog]
                finding = rule("SD902").finding(
                    span, host=host.label, effect=effect, source=host.cited
                )
            twice: Finding | None = None
            if load.loads and load.same_name:
                twice = rule("SD903").finding(
                    span,
                    host=host.label,
                    count=len(load.same_name) + 1,
                    name=load.name,
                    others=", ".join(load.same_name),
                    source=host.cited,
                    related=[
                        RelatedLocation(
                            other,
                            spans.get(other, FILE_START),
                            f"also listed by {host.label} as '{load.name}'",
                        )
                        for other in load.same_name
                    ],
                )
            for item in (finding, twice):
                adjusted = _with_settings(item, settings) if item is not None else None
                if adjusted is not None:
                    found.setdefault(load.path, []).append(adjusted)
    for path, overlaps in host_overlap_findings(view, by_path.values(), settings).items():
        found.setdefault(path, []).extend(overlaps)
    return found


def host_overlap_findings(
    view: HostsView, entries: Iterable[SkillFileEntry], settings: RuleSettings | None
) -> dict[str, list[Finding]]:
    """SD801 / SD802 as each agent of ``view`` but DSH loads the skills, on ``entries``
    (the deck's files): only pairs involving a skill that agent offers its model and the
    deck does not (a folder only it reads, a file the deck drops or shadows; a copy with
    the same name and text does not count) are new: the deck's own pairs are
    :func:`deck_findings`'. The finding names the agent."""
    from skilldeck.engine.overlap import DeckOverlap, competing_skill  # noqa: PLC0415

    settings = settings if settings is not None else RuleSettings()
    if "overlap" not in passes_in_force(settings):
        return {}
    entries = list(entries)
    by_path = {entry.path: entry for entry in entries}
    accepted = [entry for entry in entries if entry.analysis.accepted]
    limit = settings.catalog_max_description_length
    # What the deck's model sees: each competing winner's name and text.
    offered: set[tuple[str, str]] = set()
    for group in group_by_name(accepted, member_name_and_rank).values():
        skill = competing_skill(group[0], limit)
        if skill is not None:
            offered.add((skill.name, skill.text))
    found: dict[str, list[Finding]] = {}
    for host in view.hosts:
        if host.engine_roots:
            continue
        # What the agent lists, under the names and with the text it shows: a file the
        # deck refuses (an uppercase name) or keeps from its model (disable-model-
        # invocation) competes where the agent lists it.
        loaded = view.competing_entries(host.name)
        focus: set[str] = set()
        for entry in loaded:
            skill = competing_skill(entry, limit)
            # A copy of a deck skill (same name, same text) adds no competition.
            if (
                skill is not None
                and (
                    skill.name,
                    catalog_description(skill.text, limit),
                )
                not in offered
            ):
                focus.add(skill.key)
        if not focus:
            continue
        overlap = DeckOverlap.around(loaded, focus, settings, f" for {host.label}")
        for path in overlap.paths():
            if path in by_path:
                found.setdefault(path, []).extend(overlap.findings_of(path))
    return found
