"""Which host loads which skill file, and what its catalog keeps of it.

One scan covers every host's roots at once (the engine's own scan, so the persistent
cache serves it); each host then judges the files of its roots by its data in
:mod:`skilldeck.engine.hosts`. DSH is judged by the engine itself: its verdicts are
``check``'s (accepted, then rank and registration order). Reasons are written for the
author: "nested two levels below .claude/skills", "symlinked folder: not followed",
"flat file: Codex reads bundles only", "name differs from folder", "shadowed by ...".

Each host's catalog of the skills it loads is measured by
:mod:`skilldeck.engine.hosts`. (The CLI's memo key of a view is
``cli/check_memo.view_key``.)
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import TYPE_CHECKING, Literal

from skilldeck.engine.config import RuleSettings, SkilldeckConfig
from skilldeck.engine.files import (
    HostRead,
    SkillFileAnalysis,
    analyze_skill_file,
    read_skill,
    read_text,
)
from skilldeck.engine.filesystem import (
    BUNDLE_FILE,
    DeckScan,
    IndexCache,
    NotASkill,
    SkillFileEntry,
    SkillRoot,
    find_project_root,
    name_span,
    place_in_root,
    resolve_roots,
    scan_deck,
)
from skilldeck.engine.host_views._settings import AppliedSettings, read_settings
from skilldeck.engine.host_views._walk import MAX_LEVELS, DeepFile, deep_skill_files
from skilldeck.engine.hosts import (
    BudgetReport,
    CatalogState,
    Host,
    HostRoot,
    Offer,
    WalkOrder,
    Written,
    budget_from_offers,
    claude_label,
    codex_roots_text,
    cut,
    entry_text,
    listing_text,
    shape,
)
from skilldeck.engine.registry import RANK_CUSTOM, group_by_name
from skilldeck.engine.text import FILE_START, Span, catalog_description, collapse_whitespace

if TYPE_CHECKING:
    from skilldeck.engine.deck import ProvidedSkill

#: The source label of a root only a non-DSH host reads.
SOURCE_HOST = "host"
_LEVELS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


@dataclass(frozen=True)
class FoundFile:
    """A Markdown file found in some host's root: a skill file by the layout
    (``analysis`` set) or a file nested too deep (``nested`` says why)."""

    path: str
    root: SkillRoot
    layout: Literal["bundle", "flat", "nested"]
    folder: str | None
    expected_name: str
    analysis: SkillFileAnalysis | None
    nested: str | None = None
    #: Where the file sits when it is two or more folders below its root.
    deep: DeepFile | None = None
    #: Where the ``name`` value is (the scan's, which keeps no frontmatter to find it in).
    name_span: Span = FILE_START

    @cached_property
    def name(self) -> str:
        """The skill's name as the frontmatter gives it, else its folder or stem."""
        if self.analysis is not None and self.analysis.name is not None:
            return self.analysis.name
        return self.expected_name


@dataclass(frozen=True)
class HostLoad:
    """One host's verdict on one file: does it load it, why not, and its catalog state
    (``None`` when the host does not load the file)."""

    host: str
    path: str
    name: str
    loads: bool
    reason: str | None
    catalog: CatalogState | None
    #: The file that wins the name when this one is shadowed (the reason names it).
    shadowed_by: str | None = None
    #: Where the host keeps every same-named skill (Codex): the other loaded files with
    #: this name, so the model sees two or more entries with one name (SD903).
    same_name: tuple[str, ...] = ()
    #: Why a loaded skill is not offered to the model (``disable-model-invocation``,
    #: Claude Code's ``paths``, ...): it is ``left-out`` of the catalog for that reason.
    unlisted: str | None = None
    #: Why the listing shows a loaded skill by its name alone whatever the budget (the
    #: host's settings: ``name-only in skillOverrides (settings.json)``).
    name_only: str | None = None


@dataclass(frozen=True)
class _Placed:
    """One concrete folder a host reads, in the host's precedence order."""

    spec: HostRoot | None
    root: SkillRoot


@dataclass(frozen=True)
class HostsView:
    """Every file found in the hosts' roots and each host's verdict on it.

    ``provided``: the deck's skills from its other providers (bundled, ``--provider``,
    remote sources), by key (:func:`provided_key`): DSH judges them with the files, as
    the engine does; the other hosts read files only."""

    hosts: tuple[Host, ...]
    files: tuple[FoundFile, ...]
    verdicts: Mapping[str, Mapping[str, HostLoad]]
    catalogs: Mapping[str, BudgetReport]
    complete: bool
    provided: Mapping[str, ProvidedSkill] = dataclasses.field(default_factory=dict)
    listings: Mapping[str, _Listing] = dataclasses.field(default_factory=dict)
    #: Each host's own settings as read for this view (its config files, variables).
    settings: Mapping[str, AppliedSettings] = dataclasses.field(default_factory=dict)

    def rows(self) -> list[tuple[str, str]]:
        """Each skill of the view as ``(name, key)``: the files, then the provided skills
        (the key is the path, or ``provider:name`` for a provided skill without one)."""
        rows = [(found.name, found.path) for found in self.files]
        rows.extend((skill.name, key) for key, skill in self.provided.items())
        return rows

    def loads_of(self, host: str) -> list[HostLoad]:
        """The host's verdicts on the files of its roots (and, for DSH, the provided
        skills), in file order."""
        table = self.verdicts[host]
        return [table[key] for _name, key in self.rows() if key in table]

    def competing_entries(self, host: str) -> list[SkillFileEntry]:
        """The skill files ``host`` lists to its model (its folders, name rules,
        precedence and the keys that keep a skill from its model, as it reads them), each
        carrying the name and entry text that host shows (:attr:`SkillFileEntry.listed`,
        cut at its own per-entry cap), in file order: what competes for its model's
        choice (SD801/SD802 "for H", ``overlap --host H``)."""
        table = self.verdicts.get(host, {})
        listing = self.listings.get(host)
        offers = {o.key: o for o in listing.offers} if listing is not None else {}
        listed: list[SkillFileEntry] = []
        for found in self.files:
            verdict = table.get(found.path)
            offer = offers.get(found.path)
            if verdict is None or not verdict.loads or found.analysis is None or offer is None:
                continue
            if found.layout == "nested":
                continue
            listed.append(
                SkillFileEntry(
                    found.root,
                    found.layout,
                    found.path,
                    found.folder,
                    found.expected_name,
                    found.analysis,
                    found.name_span,
                    (verdict.name, offer.text),
                )
            )
        return listed


def provided_key(skill: ProvidedSkill) -> str:
    """A provided skill's key in a view: its file, else ``provider:name``."""
    path = skill.candidate.path
    return path if path is not None else f"{skill.provider}:{skill.name}"


def host_settings(host: Host, cwd: str) -> AppliedSettings:
    """``host``'s own settings for ``cwd`` (:mod:`._settings`)."""
    return read_settings(host, cwd, str(find_project_root(cwd)))


def host_roots(
    host: Host, config: SkilldeckConfig, cwd: str, settings: AppliedSettings | None = None
) -> list[_Placed]:
    """The concrete folders ``host`` reads for ``cwd``, in its precedence order: its
    own, less those its settings turn off, then the folders its settings add."""
    if host.engine_roots:
        return [_Placed(None, root) for root in resolve_roots(config, cwd)]
    if settings is None:
        settings = host_settings(host, cwd)
    project = find_project_root(cwd)
    home = os.path.expanduser("~")
    placed: list[_Placed] = []
    for spec in (*host.roots, *settings.extra_roots):
        if spec.path in settings.off or (settings.untrusted and spec.scope == "project"):
            continue
        if spec.scope == "extra":
            bases = [""]
        elif spec.scope == "user":
            if not (config.include_default_roots and config.include_user_roots):
                continue
            bases = [home]
        elif spec.walk == "cwd-to-root":
            bases = _walk_up(cwd, str(project))
        elif spec.walk == "cwd":
            bases = [os.path.abspath(cwd)]
        else:
            bases = [str(project)]
        for base in bases:
            path = os.path.normpath(os.path.join(base, spec.path))
            root = SkillRoot(RANK_CUSTOM, SOURCE_HOST, path, os.path.isdir(path))
            placed.append(_Placed(spec, root))
    return placed


def scanned_roots(
    hosts: Sequence[Host], config: SkilldeckConfig, cwd: str
) -> tuple[SkillRoot, ...]:
    """Every folder one of ``hosts`` reads, each once (what :func:`build_view` scans)."""
    return _union(host_roots(host, config, cwd) for host in hosts)


def walk_levels(hosts: Sequence[Host]) -> int:
    """How deep below a root :func:`build_view` looks for ``SKILL.md`` files for
    ``hosts``: the deepest any of them reads, and at least one folder deeper than the
    layout (so a host that reads one level can say "nested two levels")."""
    levels = 2
    for host in hosts:
        if not host.engine_roots:
            levels = max(levels, host.nesting + 1 if host.nesting is not None else MAX_LEVELS)
    return min(levels, MAX_LEVELS)


def _union(placements: Iterable[Sequence[_Placed]]) -> tuple[SkillRoot, ...]:
    """Each folder once; DSH's own root (its rank and skipped names) where it has one."""
    union: dict[str, SkillRoot] = {}
    for placed in placements:
        for item in placed:
            known = union.get(item.root.path)
            if known is None or (known.source == SOURCE_HOST and item.spec is None):
                union[item.root.path] = item.root
    return tuple(union.values())


def _walk_up(cwd: str, project: str) -> list[str]:
    current = os.path.abspath(cwd)
    found = [current]
    while current != project and os.path.dirname(current) != current:
        current = os.path.dirname(current)
        found.append(current)
    return found


def build_view(
    hosts: Sequence[Host],
    config: SkilldeckConfig,
    cwd: str,
    *,
    cache: IndexCache | None = None,
    context_tokens: int | None = None,
    processes: int = 1,
    provided: Sequence[ProvidedSkill] = (),
) -> HostsView:
    """Scan every root of ``hosts`` once and judge each file for each host.

    ``context_tokens`` (``budget --context``) is every host's context window for this
    call; without it each host takes the project's ``context-tokens`` setting, else its
    assumed default. ``provided`` are the deck's skills from its other providers
    (``provided_skills`` of :mod:`skilldeck.engine.deck`, winners and shadowed): DSH
    resolves them with its files, as the engine does. ``processes > 1`` lets a cold scan
    fork helpers (:func:`scan_deck`: single-threaded callers only)."""
    settings = {host.name: host_settings(host, cwd) for host in hosts if not host.engine_roots}
    hosts = [_with_settings(host, settings.get(host.name)) for host in hosts]
    placements = {
        host.name: host_roots(host, config, cwd, settings.get(host.name)) for host in hosts
    }
    roots = _union(placements.values())
    deep, complete = _walk(roots, walk_levels(hosts))
    # The folders holding the deep skill folders are scanned as roots of their own, so
    # the engine's cache serves their analyses as it serves the roots'.
    known = {root.path for root in roots}
    holders = {
        folder: SkillRoot(RANK_CUSTOM, SOURCE_HOST, folder, True)
        for item, _root in deep
        if (folder := os.path.dirname(os.path.dirname(item.path))) not in known
    }
    scan = scan_deck(
        config, cwd, cache=cache, roots=(*roots, *holders.values()), processes=processes
    )
    found_files = _found_files(scan, deep, set(holders))
    files = sorted(found_files, key=lambda found: (found.name, found.path))
    by_root: dict[str, list[FoundFile]] = {}
    for found in files:
        by_root.setdefault(found.root.path, []).append(found)
    by_path = {found.path: found for found in files}
    links: dict[str, bool] = {}  # which paths are symlinks
    reals = _RealPaths(links)
    texts = _Texts()
    others = {provided_key(skill): skill for skill in provided}
    verdicts: dict[str, dict[str, HostLoad]] = {}
    catalogs: dict[str, BudgetReport] = {}
    listings: dict[str, _Listing] = {}
    for host in hosts:
        placed = placements[host.name]
        if host.engine_roots:
            table = _judge_engine(host, placed, by_root, others)
            listing = _engine_listing(host, table, by_path, others, config)
        else:
            table, reads = _judge_host(
                host, placed, by_root, links, reals, texts, settings[host.name]
            )
            listing = _host_listing(host, placed, table, reads, by_path, reals)
        report, states = budget_from_offers(
            host,
            listing.offers,
            context_tokens=(
                config.context_tokens.get(host.name) if context_tokens is None else context_tokens
            ),
            unlisted=listing.unlisted,
            overhead=listing.overhead,
        )
        final: dict[str, HostLoad] = {}
        for path, verdict in table.items():
            if verdict.loads:
                final[path] = replace(verdict, catalog=states.get(path, "left-out"))
            else:
                final[path] = verdict
        verdicts[host.name] = final
        catalogs[host.name] = report
        listings[host.name] = listing
    return HostsView(
        tuple(hosts),
        tuple(files),
        verdicts,
        catalogs,
        scan.complete and complete,
        others,
        listings,
        settings,
    )


def _with_settings(host: Host, settings: AppliedSettings | None) -> Host:
    """``host`` as its settings make it (a per-entry cap of their own)."""
    if settings is None or settings.entry_cap is None:
        return host
    return replace(host, catalog=replace(host.catalog, entry_cap=settings.entry_cap))


def _walk(roots: Sequence[SkillRoot], levels: int) -> tuple[list[tuple[DeepFile, SkillRoot]], bool]:
    """Every ``SKILL.md`` from two to ``levels`` folders below each root
    (:mod:`skilldeck.engine.host_views._walk`), and whether every folder was read."""
    found: list[tuple[DeepFile, SkillRoot]] = []
    complete = True
    for root in roots:
        if not root.exists:
            continue
        files, read_all = deep_skill_files(root.path, levels)
        complete = complete and read_all
        found.extend((item, root) for item in files)
    return found, complete


def _found_files(
    scan: DeckScan, deep: Sequence[tuple[DeepFile, SkillRoot]], holders: set[str]
) -> list[FoundFile]:
    """The scan's skill files and stray Markdown files of the roots, and the deep files
    with their analyses (from the scans of the folders holding them, ``holders``)."""
    files: list[FoundFile] = []
    analyses: dict[str, SkillFileAnalysis] = {}
    spans: dict[str, Span] = {}
    for root_scan in scan.scans:
        root = root_scan.root
        if root.path in holders:
            for entry in root_scan.entries:
                analyses[entry.path] = entry.analysis
                spans[entry.path] = entry.name_span
            continue
        for entry in root_scan.entries:
            files.append(_from_entry(entry))
            analyses[entry.path] = entry.analysis
        for path, _finding in root_scan.strays:
            if os.path.basename(path) == BUNDLE_FILE:
                continue  # the walk finds it, with its analysis
            place = place_in_root(path, root)
            if isinstance(place, NotASkill):
                files.append(FoundFile(path, root, "nested", None, _stem(path), None, place.reason))
    for item, root in deep:
        files.append(
            _from_deep(item, root, analyses.get(item.path), spans.get(item.path), scan.settings)
        )
    return files


def _from_deep(
    item: DeepFile,
    root: SkillRoot,
    analysis: SkillFileAnalysis | None,
    span: Span | None,
    settings: RuleSettings | None,
) -> FoundFile:
    folder = os.path.dirname(item.path)
    expected = os.path.basename(folder)
    if analysis is None:
        analysis = analyze_skill_file(item.path, expected_name=expected, settings=settings)
    if span is None:
        span = name_span(analysis)
    return FoundFile(
        item.path, root, "bundle", folder, expected, analysis, deep=item, name_span=span
    )


def _from_entry(entry: SkillFileEntry) -> FoundFile:
    return FoundFile(
        entry.path,
        entry.root,
        entry.layout,
        entry.folder,
        entry.expected_name,
        entry.analysis,
        name_span=entry.name_span,
    )


def _stem(path: str) -> str:
    base = os.path.basename(path)
    if base == "SKILL.md":
        return os.path.basename(os.path.dirname(path))
    return base.removesuffix(".md")


def _judge_engine(
    host: Host,
    placed: Sequence[_Placed],
    by_root: Mapping[str, Sequence[FoundFile]],
    provided: Mapping[str, ProvidedSkill],
) -> dict[str, HostLoad]:
    """DSH: the engine's verdicts, exactly as ``check`` reports them (``None``: loads,
    its catalog state still to come): the accepted files of its roots and the
    ``provided`` skills, each name won as the deck resolves it (``group_by_name``:
    rank, then files before provided skills, then registration order)."""
    table: dict[str, HostLoad] = {}
    members: list[FoundFile | ProvidedSkill] = []
    for item in placed:
        for found in by_root.get(item.root.path, ()):
            if found.path in table:
                continue
            analysis = found.analysis
            if found.deep is not None:
                # The engine's own stray search (SD007): a SKILL.md one folder too deep
                # in a folder that is no skill; deeper files are none of its business.
                place = place_in_root(found.path, found.root)
                stray = found.deep.levels == 2 and found.deep.inside_skill is None
                if stray and isinstance(place, NotASkill):
                    table[found.path] = _no(host, found, place.reason)
            elif analysis is None:
                table[found.path] = _no(host, found, found.nested or "not a skill file")
            elif not analysis.accepted:
                table[found.path] = _no(host, found, _drop_reason(analysis))
            else:
                table[found.path] = _yes(host, found, found.name)
                members.append(found)
    members.extend(provided.values())

    def name_and_rank(member: FoundFile | ProvidedSkill) -> tuple[str, int]:
        if isinstance(member, FoundFile):
            return member.name, member.root.rank
        return member.name, member.rank

    def key_of(member: FoundFile | ProvidedSkill) -> str:
        return member.path if isinstance(member, FoundFile) else provided_key(member)

    for group in group_by_name(members, name_and_rank).values():
        winner = group[0]
        winner_key = key_of(winner)
        if isinstance(winner, FoundFile):
            wins = f"shadowed by {winner.path}"
        else:
            wins = f"shadowed by {winner.source} skill at {winner.origin()} (rank {winner.rank})"
        for index, member in enumerate(group):
            key = key_of(member)
            if index == 0:
                table[key] = HostLoad(host.name, key, member.name, True, None, None)
            else:
                table[key] = HostLoad(host.name, key, member.name, False, wins, None, winner_key)
    return table


def _judge_host(  # noqa: PLR0917 - the view's state for one host
    host: Host,
    placed: Sequence[_Placed],
    by_root: Mapping[str, Sequence[FoundFile]],
    links: dict[str, bool],
    reals: _RealPaths,
    texts: _Texts,
    settings: AppliedSettings,
) -> tuple[dict[str, HostLoad], dict[str, HostRead]]:
    """Another host's verdicts by its data (``None``: loads, catalog state to come),
    and its reading of each file it loads (its settings' overrides applied)."""
    table: dict[str, HostLoad] = {}
    reads: dict[str, HostRead] = {}
    candidates: list[_Candidate] = []
    for order, item in enumerate(placed):
        spec = item.spec
        assert spec is not None
        for found in by_root.get(item.root.path, ()):
            if found.path in table:
                continue
            reason = _where_refusal(host, spec, found, links)
            read: HostRead | None = None
            if reason is None:
                reason = _file_refusal(found)
            if reason is None:
                read = read_skill(
                    host, found.path, found.layout, found.expected_name, texts.of(found.path)
                )
                reason = read.refusal
            if reason is not None or read is None:
                table[found.path] = _no(host, found, reason or "not loaded")
                continue
            override = settings.overrides.get(read.name)
            if override == "off":
                reason = f"turned off by {_override_source(host, settings)}"
                table[found.path] = _no(host, found, reason)
                continue
            if override == "user-invocable-only" and read.unlisted is None:
                why = f"user-invocable-only in {_override_source(host, settings)}"
                read = replace(read, unlisted=why)
            elif override == "name-only":
                read = replace(read, name_only=True)
            reads[found.path] = read
            table[found.path] = _yes(host, found, read.name, read.unlisted)
            if read.name_only:
                why = f"name-only in {_override_source(host, settings)}"
                table[found.path] = replace(table[found.path], name_only=why)
            key = (order, *_order_in_root(found, host.walk_order))
            candidates.append(_Candidate(found, key, read.name))
    if host.duplicates == "keep-all":
        _keep_all(host, candidates, table, reals)
    else:
        if host.dedupes_real_paths:
            candidates = _one_per_file(host, candidates, table, reals)
        _shadow(host, candidates, table)
    return table, reads


def _override_source(host: Host, settings: AppliedSettings) -> str:
    key = host.settings.overrides or "settings"
    return f"{key} ({', '.join(os.path.basename(path) for path in settings.files)})"


def _one_per_file(
    host: Host, candidates: Sequence[_Candidate], table: dict[str, HostLoad], reals: _RealPaths
) -> list[_Candidate]:
    """The candidates but a second way to a file already found (a symlinked folder
    beside its target): that one is not listed again."""
    first: dict[str, str] = {}
    kept: list[_Candidate] = []
    for candidate in sorted(candidates, key=_by_order):
        path = candidate.found.path
        target = reals.of(candidate.found)
        known = first.get(target)
        if known is not None:
            reason = f"the same file as {known}: {host.label} lists it once"
            table[path] = HostLoad(host.name, path, candidate.name, False, reason, None, known)
            continue
        first[target] = path
        kept.append(candidate)
    return kept


def _file_refusal(found: FoundFile) -> str | None:
    """Why no host reads the file at all (not readable, not UTF-8, ...: SD0xx)."""
    analysis = found.analysis
    if analysis is None:
        return found.nested or "not a skill file"
    for finding in analysis.findings:
        if finding.drops_skill and finding.code[:3] == "SD0":
            return finding.message
    return None


def _order_in_root(found: FoundFile, walk: WalkOrder = "breadth") -> tuple[int, ...]:
    """Where ``found`` comes in its root's walk, as a key of code points: ``breadth``:
    folder by folder in path order, each folder's skill folders before its flat files
    (the order Kimi Code registers them in); ``path``: depth first by path (``group/x``
    before ``x``)."""
    relative = os.path.relpath(found.path, found.root.path).split(os.sep)
    if walk == "path":
        parts = relative[:-1] if found.layout == "bundle" else relative
        key: list[int] = []
        for part in parts:
            key.extend((*map(ord, part), 0))
        return tuple(key)
    if found.layout == "bundle":
        parents, kind, leaf = relative[:-2], 0, relative[-2]
    else:
        parents, kind, leaf = relative[:-1], 1, relative[-1]
    key = []
    for part in parents:
        key.extend((1, *map(ord, part), 0))
    key.extend((0, kind, *map(ord, leaf)))
    return tuple(key)


def _where_refusal(
    host: Host, spec: HostRoot, found: FoundFile, links: dict[str, bool]
) -> str | None:
    """Why ``host`` does not load ``found`` where it sits (``None``: it reaches it).
    ``links`` remembers which paths are symlinks."""
    shown = host.root_display(spec)
    if found.layout == "nested":
        return _nested_reason(host, shown, found)
    root_file = found.layout == "flat" and os.path.basename(found.path) == BUNDLE_FILE
    if (
        found.layout == "flat"
        and not host.reads_flat_files
        and not (root_file and host.reads_root_file)
    ):
        return f"flat file: {host.label} reads bundles only ({shown}/<name>/SKILL.md)"
    if found.folder is not None and os.path.basename(found.folder) in host.reserved_folders:
        return (
            f"the folder name '{os.path.basename(found.folder)}' is reserved: {host.label} "
            "keeps it for its own skills and does not load a skill there"
        )
    if spec.hidden is not None and spec.hidden != host.hidden:
        host = replace(host, hidden=spec.hidden)
    return _place_refusal(host, shown, found, links)


def _place_refusal(host: Host, shown: str, found: FoundFile, links: dict[str, bool]) -> str | None:
    """Why ``host`` does not reach ``found`` where it sits (depth, hidden or symlinked
    folders, a skill folder it does not search, a flat file beside a skill folder)."""
    deep = found.deep
    own = os.path.basename(found.folder) if found.folder is not None else None
    above: tuple[str, ...] = deep.folders[:-1] if deep is not None else ()
    if deep is not None:
        limit = host.nesting if host.nesting is not None else MAX_LEVELS
        if deep.levels > limit:
            return _nested_reason(host, shown, found)
    if host.hidden == "skip" and any(_passed_over(host, name) for name in (*above, own)):
        return f"in a hidden folder: {host.label} skips {_passed_over_text(host)}"
    if host.hidden == "not-below" and any(_passed_over(host, name) for name in above):
        return (
            f"below a hidden folder: {host.label} does not search inside {_passed_over_text(host)}"
        )
    if host.skips_linked_files and found.layout == "bundle" and _is_link(found.path, links):
        return (
            f"the SKILL.md is a symlink: {host.label} does not follow a symlinked skill "
            "file (it follows symlinked folders)"
        )
    if deep is not None:
        if deep.inside_skill is not None and not host.searches_inside_skills:
            inside = os.path.relpath(os.path.dirname(deep.inside_skill), found.root.path)
            return (
                f"inside the skill folder {shown}/{inside}: {host.label} does not search "
                "a skill's own folder"
            )
        if deep.linked and not host.follows_symlinks:
            return f"symlinked folder on the way: not followed by {host.label}"
        return None
    if found.layout == "flat" and host.flat_fallbacks:
        beside = os.path.join(found.root.path, found.expected_name, BUNDLE_FILE)
        if os.path.isfile(beside):
            return (
                f"flat file beside the skill folder {shown}/{found.expected_name}: "
                f"{host.label} reads the folder and skips the file"
            )
    linked = found.folder if found.folder is not None else found.path
    if not host.follows_symlinks and _is_link(linked, links):
        kind = "folder" if found.folder is not None else "file"
        return f"symlinked {kind}: not followed by {host.label}"
    return None


def _passed_over(host: Host, name: str | None) -> bool:
    """Whether ``host`` treats the folder ``name`` as hidden."""
    return name is not None and (name.startswith(".") or name in host.ignored_folders)


def _passed_over_text(host: Host) -> str:
    names = " or ".join(host.ignored_folders)
    return "folders whose name starts with '.'" + (f" or is {names}" if names else "")


class _RealPaths:
    """The real path of a found file, resolving symlinks only where the way to it has
    one (the root's own real path is looked up once)."""

    def __init__(self, links: dict[str, bool]) -> None:
        self._links = links
        self._roots: dict[str, str] = {}
        self._files: dict[str, str] = {}

    def of(self, found: FoundFile) -> str:
        known = self._files.get(found.path)
        if known is not None:
            return known
        if found.deep is not None:
            linked = found.deep.linked
        else:
            linked = _is_link(found.folder or found.path, self._links) or (
                found.folder is not None and os.path.islink(found.path)
            )
        if linked:
            real = os.path.realpath(found.path)
        else:
            root = self._roots.get(found.root.path)
            if root is None:
                root = self._roots[found.root.path] = os.path.realpath(found.root.path)
            real = os.path.join(root, os.path.relpath(found.path, found.root.path))
        self._files[found.path] = real
        return real


def _is_link(path: str, known: dict[str, bool]) -> bool:
    found = known.get(path)
    if found is None:
        found = known[path] = os.path.islink(path)
    return found


def _nested_reason(host: Host, shown: str, found: FoundFile) -> str:
    relative = os.path.relpath(found.path, found.root.path).split(os.sep)
    depth = len(relative) - 1
    levels = _LEVELS[depth] if depth < len(_LEVELS) else str(depth)
    if os.path.basename(found.path) == "SKILL.md" and depth > 1:
        if host.nesting is None or host.nesting > 1:
            return (
                f"nested {levels} levels below {shown}; {host.label} looks at most "
                f"{host.nesting or MAX_LEVELS} folders deep"
            )
        return (
            f"nested {levels} levels below {shown}; {host.label} reads {shown}/<name>/SKILL.md only"
        )
    return found.nested or f"not a skill file of {shown}"


def _drop_reason(analysis: SkillFileAnalysis) -> str:
    for finding in analysis.findings:
        if finding.drops_skill:
            return finding.message
    return "not loaded"


def _no(host: Host, found: FoundFile, reason: str) -> HostLoad:
    return HostLoad(host.name, found.path, found.name, False, reason, None)


def _yes(host: Host, found: FoundFile, name: str, unlisted: str | None = None) -> HostLoad:
    """Loads (its catalog state comes once the host's listing is measured)."""
    return HostLoad(host.name, found.path, name, True, None, None, unlisted=unlisted)


@dataclass(frozen=True)
class _Candidate:
    """A file a host loads unless a same-named one wins: where it comes in the host's
    order, and the name the host reads in it."""

    found: FoundFile
    order: tuple[int, ...]
    name: str


def _by_order(candidate: _Candidate) -> tuple[int, ...]:
    return candidate.order


def _shadow(host: Host, candidates: Sequence[_Candidate], table: dict[str, HostLoad]) -> None:
    """Same-named loaded files: the first by precedence wins, the others are shadowed;
    where the host's order inside one folder is not stable, a same-named file of the
    winner's folder is said to compete rather than to lose."""
    fold = str.casefold if host.names_ignore_case else str
    groups: dict[str, list[_Candidate]] = {}
    for candidate in sorted(candidates, key=_by_order):
        groups.setdefault(fold(candidate.name), []).append(candidate)
    for group in groups.values():
        winner = group[0].found
        for loser in group[1:]:
            path = loser.found.path
            reason = f"shadowed by {winner.path}"
            if host.unstable_within_root and loser.found.root.path == winner.root.path:
                reason = (
                    f"same name as {winner.path} in the same folder: {host.label} keeps "
                    "one of them, and which one is not stable"
                )
            table[path] = HostLoad(host.name, path, loser.name, False, reason, None, winner.path)


def _keep_all(
    host: Host, candidates: Sequence[_Candidate], table: dict[str, HostLoad], reals: _RealPaths
) -> None:
    """Codex: every same-named skill is listed (one entry per real file: a second way to
    the same file through a symlink is dropped); each loaded file names the others."""
    fold = str.casefold if host.names_ignore_case else str
    kept: dict[str, list[_Candidate]] = {}
    for candidate in _one_per_file(host, candidates, table, reals):
        kept.setdefault(fold(candidate.name), []).append(candidate)
    for group in kept.values():
        if len(group) < 2:
            continue
        for candidate in group:
            path = candidate.found.path
            others = tuple(other.found.path for other in group if other is not candidate)
            table[path] = replace(table[path], same_name=others)


class _Texts:
    """Each file's text, read once for every host of a view."""

    def __init__(self) -> None:
        self._texts: dict[str, tuple[str, bool] | str] = {}

    def of(self, path: str) -> tuple[str, bool] | str:
        known = self._texts.get(path)
        if known is None:
            known = self._texts[path] = read_text(path)
        return known


@dataclass(frozen=True)
class _Listing:
    """What a host lists, before its budget: the entries it offers (in listing order,
    its own skills included), the skills it loads but keeps from its model, Codex's
    skill roots table and what that table costs."""

    offers: tuple[Offer, ...] = ()
    unlisted: tuple[Offer, ...] = ()
    roots: tuple[tuple[str, str], ...] = ()
    overhead: int = 0


def _engine_listing(
    host: Host,
    table: Mapping[str, HostLoad],
    by_path: Mapping[str, FoundFile],
    provided: Mapping[str, ProvidedSkill],
    config: SkilldeckConfig,
) -> _Listing:
    """DSH's catalog: the engine's winners, in name order, each description collapsed
    and cut at the configured length."""
    cap = max(config.catalog_max_description_length, 3)
    offers: list[Offer] = []
    unlisted: list[Offer] = []
    for path, verdict in table.items():
        if not verdict.loads:
            continue
        found = by_path.get(path)
        if found is not None and found.analysis is not None:
            description = found.analysis.description or ""
            listed = found.analysis.invocation.model_invocable
        elif path in provided:
            candidate = provided[path].candidate
            description = candidate.description
            listed = candidate.invocation.model_invocable
        else:
            continue
        whole = len(collapse_whitespace(description))
        text = catalog_description(description, cap)
        offer = Offer(path, verdict.name, text, path, whole=whole)
        (offers if listed else unlisted).append(offer)
    offers.sort(key=lambda offer: (offer.name, offer.key))
    return _Listing(tuple(offers), tuple(unlisted))


def _host_listing(  # noqa: PLR0917 - the view's state for one host
    host: Host,
    placed: Sequence[_Placed],
    table: Mapping[str, HostLoad],
    reads: Mapping[str, HostRead],
    by_path: Mapping[str, FoundFile],
    reals: _RealPaths,
) -> _Listing:
    """What ``host`` lists of the files it loads (and its own skills), in its order,
    each entry named, described and located as the host writes it."""
    rules = host.catalog
    root_of = {item.root.path: index for index, item in enumerate(placed)}
    extra = {
        item.root.path for item in placed if item.spec is not None and item.spec.scope == "extra"
    }
    project_folders = {
        os.path.dirname(os.path.dirname(item.root.path))
        for item in placed
        if item.spec is not None and item.spec.scope == "project"
    }
    one_folder = len(project_folders) <= 1
    listed: list[tuple[tuple[object, ...], FoundFile, HostRead]] = []
    unlisted: list[Offer] = []
    for path, verdict in table.items():
        if not verdict.loads:
            continue
        found, read = by_path[path], reads[path]
        if read.unlisted is not None:
            unlisted.append(Offer(path, read.name, "", path))
            continue
        key = _listing_key(host, found, read, root_of, one_folder, extra=found.root.path in extra)
        listed.append((key, found, read))
    listed.sort(key=lambda item: item[0])
    roots: tuple[tuple[str, str], ...] = ()
    aliases: dict[str, str] = {}
    if rules.format == "codex":
        roots, aliases = _codex_roots(host, placed, [found for _key, found, _read in listed])
    labels = _labels(host, [(found, read) for _key, found, read in listed])
    offers: list[Offer] = []
    for (_key, found, read), label in zip(listed, labels, strict=True):
        if rules.whitespace == "collapse":
            label = shape(host, label)  # noqa: PLW2901 - Codex collapses names too
        whole, shown = _entry_texts(host, read)
        location, section = _location(host, found, aliases, found.root.path in extra)
        offer = Offer(
            found.path, label, shown, location, section, whole=whole, name_only=read.name_only
        )
        offers.append(offer)
    builtins = [
        Offer(
            f"builtin:{builtin.name}",
            builtin.name,
            "x" * builtin.chars,
            f"r0/{builtin.path}" if roots else "builtin",
            "Built-in",
            builtin=True,
        )
        for builtin in rules.builtins
    ]
    offers = builtins + offers if rules.order == "codex" else offers + builtins
    overhead = 0
    if roots:
        overhead = _codex_overhead(host, roots)
    return _Listing(tuple(offers), tuple(unlisted), roots, overhead)


def _entry_texts(host: Host, read: HostRead) -> tuple[int, str]:
    """(the characters of an entry's whole text, the text it shows: shaped and cut as
    the host does)."""
    join = host.reading.join
    if read.extra is None:
        whole = shape(host, read.description)
        return len(whole), cut(host, whole)
    if host.reading.cut_before_join:
        description = shape(host, read.description)
        extra = shape(host, read.extra)
        return len(description) + len(join) + len(extra), (f"{cut(host, description)}{join}{extra}")
    whole = shape(host, f"{read.description}{join}{read.extra}")
    return len(whole), cut(host, whole)


def _listing_key(
    host: Host,
    found: FoundFile,
    read: HostRead,
    root_of: Mapping[str, int],
    one_folder: bool,
    *,
    extra: bool = False,
) -> tuple[object, ...]:
    """Where an entry comes in ``host``'s listing (:data:`~skilldeck.engine.hosts.Order`).
    ``one_folder``: the project's roots are all in one folder (the start folder is the
    project root)."""
    order = host.catalog.order
    index = root_of.get(found.root.path, 0)
    # A folder the host's settings add comes after its own (Kimi Code's Extra section).
    scope = 2 if extra else 1 if _is_user(found) else 0
    if order == "codex":
        return (scope, read.name, found.path)
    if order == "roots":
        return (index, found.expected_name, found.path)
    if order == "scopes":
        # GitHub Copilot CLI (observed): started at the project root, its project skills
        # by name; started below it, root by root (.github, .agents, .claude, each from
        # the start folder up), each by name; then the personal roots in order.
        grouped = index if scope or not one_folder else 0
        return (scope, grouped, read.name, found.path)
    if order == "sections":
        return (scope, read.name, found.path)
    return (read.name, found.path)


def _is_user(found: FoundFile) -> bool:
    home = os.path.expanduser("~")
    return found.root.path.startswith(home + os.sep) and not _in_project(found.root.path)


def _in_project(path: str) -> bool:
    """Whether ``path`` is inside a git project below home (a project root under home
    is still the project)."""
    current = os.path.dirname(path)
    home = os.path.expanduser("~")
    while current.startswith(home + os.sep):
        if os.path.exists(os.path.join(current, ".git")):
            return True
        current = os.path.dirname(current)
    return False


def _labels(host: Host, entries: Sequence[tuple[FoundFile, HostRead]]) -> list[str]:
    """Each entry's name as ``host`` shows it (Claude Code: ``folder (name)``)."""
    if not host.reading.display_name:
        return [read.name for _found, read in entries]
    # The host's own skills hold their names first (Claude Code 2.1.332: a skill named
    # `security-review` is shown by its folder alone beside its own `security-review`).
    first_folder: dict[str, int] = {own.name: -1 for own in host.catalog.builtins}
    first_display: dict[str, int] = {}
    for index, (_found, read) in enumerate(entries):
        first_folder.setdefault(read.name, index)
        if read.display is not None:
            first_display.setdefault(read.display, index)
    labels: list[str] = []
    for index, (_found, read) in enumerate(entries):
        display = read.display
        owner = None
        if display is not None:
            owner = first_folder.get(display, first_display.get(display))
        labels.append(claude_label(read.name, display, owner == index))
    return labels


def _location(
    host: Host, found: FoundFile, aliases: Mapping[str, str], extra: bool = False
) -> tuple[str | None, str | None]:
    """(what an entry shows as its location, its section); ``extra``: the file is in a
    folder the host's settings add."""
    rules = host.catalog
    user = _is_user(found)
    if rules.format == "codex":
        alias = aliases.get(found.root.path)
        if alias is None:
            return found.path, None
        return f"{alias}/{os.path.relpath(found.path, found.root.path)}", None
    if rules.format == "xml":
        if rules.escape == "xml":
            return ("user" if user else "project"), None
        return found.path, None
    if rules.format == "kimi":
        return found.path, ("Extra" if extra else "User" if user else "Project")
    return None, None


def _codex_roots(
    host: Host, placed: Sequence[_Placed], listed: Sequence[FoundFile]
) -> tuple[tuple[tuple[str, str], ...], dict[str, str]]:
    """Codex's skill roots table: each root that holds a listed skill (and its own
    skills' root), in its order: the config layers' folders (the project's
    ``.codex/skills``, ``~/.codex/skills``, ``~/.agents/skills``), its own skills, then
    the project's ``.agents/skills`` from the repository root down."""
    used = {found.root.path for found in listed}
    layers = [
        item.root.path
        for item in placed
        if item.spec is not None
        and not (item.spec.scope == "project" and item.spec.path == ".agents/skills")
    ]
    repo = [
        item.root.path
        for item in placed
        if item.spec is not None
        and item.spec.scope == "project"
        and item.spec.path == ".agents/skills"
    ]
    ordered = [path for path in layers if path in used]
    if host.catalog.builtins and host.catalog.builtin_root is not None:
        ordered.append(os.path.join(os.path.expanduser("~"), host.catalog.builtin_root))
    ordered.extend(path for path in reversed(repo) if path in used)
    table = tuple((f"r{index}", path) for index, path in enumerate(ordered))
    return table, {path: alias for alias, path in table}


def _codex_overhead(host: Host, roots: Sequence[tuple[str, str]]) -> int:
    """What Codex's skill roots table costs (tokens), beyond the lines: the table's
    text, less what the short paths' intro and rules save (observed)."""
    text = codex_roots_text(roots)
    return (len(text.encode("utf-8", "surrogatepass")) + 3) // 4 + host.catalog.budget_overhead


@dataclass(frozen=True)
class ListingLine:
    """One entry of a host's listing: the skill, its state and the text shown after the
    name (``None``: the name alone)."""

    name: str
    state: CatalogState
    text: str | None
    #: The entry exactly as the host writes it, line break included (Codex adds the
    #: short path: ``- name: text (file: r1/name/SKILL.md)``).
    line: str = ""
    #: The location the entry shows (a path, a short path, a scope), if any.
    location: str | None = None

    def to_json(self) -> dict[str, str | None]:
        return {
            "name": self.name,
            "state": self.state,
            "text": self.text,
            "location": self.location,
        }


def host_listing(view: HostsView, host: Host) -> list[ListingLine]:
    """``host``'s listing in order, as the host writes it: each entry not left out
    (the host's own skills aside), its text shaped, cut and escaped as the host does."""
    listing = view.listings.get(host.name, _Listing())
    offers = {offer.key: offer for offer in listing.offers}
    lines: list[ListingLine] = []
    for entry in view.catalogs[host.name].entries:
        if entry.state == "left-out" or entry.builtin:
            continue
        offer = offers[entry.key]
        shown = None if entry.state == "name-only" else entry.shown_chars
        written = offer.written(shown)
        line = entry_text(host, written) + "\n"
        lines.append(ListingLine(entry.name, entry.state, written.text, line, offer.location))
    return lines


def host_listing_text(view: HostsView, host: Host) -> str:
    """``host``'s whole listing as it sends it (:func:`~skilldeck.engine.hosts.listing_text`):
    the entries of :func:`host_listing`, Codex's skill roots table, Kimi Code's sections;
    the host's own skills are not written (their text is the host's)."""
    listing = view.listings.get(host.name, _Listing())
    offers = {offer.key: offer for offer in listing.offers}
    written: list[Written] = []
    for entry in view.catalogs[host.name].entries:
        if entry.state == "left-out" or entry.builtin:
            continue
        shown = None if entry.state == "name-only" else entry.shown_chars
        written.append(offers[entry.key].written(shown))
    return listing_text(host, written, listing.roots)


def host_summary(view: HostsView, path: str) -> list[tuple[Host, str]]:
    """One line per host of ``view`` about the skill file at ``path``, for a hover:
    ``loads (catalog: full)``, ``loads, catalog entry cut at N characters``, ``does not
    load: REASON`` or ``not found: outside its skill folders``; where the host also lists
    same-named skills, the line names them."""
    lines: list[tuple[Host, str]] = []
    for host in view.hosts:
        load = view.verdicts[host.name].get(path)
        if load is None:
            lines.append((host, "not found: outside its skill folders"))
        elif not load.loads:
            lines.append((host, f"does not load: {load.reason}"))
        elif load.catalog == "cut":
            entry = view.catalogs[host.name].entry_for(path)
            shown = entry.shown_chars if entry is not None else 0
            lines.append((host, f"loads; catalog entry cut at {shown} characters"))
        elif load.catalog == "name-only":
            why = load.name_only or "over budget"
            lines.append((host, f"loads; catalog shows the name only ({why})"))
        elif load.catalog == "left-out":
            lines.append((host, "loads; left out of the catalog"))
        else:
            lines.append((host, "loads (catalog: full)"))
        if load is not None and load.loads and load.same_name:
            others = ", ".join(load.same_name)
            host_line = lines[-1]
            lines[-1] = (
                host,
                f"{host_line[1]}; the model also sees another entry named '{load.name}': {others}",
            )
    return lines
