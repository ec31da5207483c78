"""One workspace folder's view of the deck: engine scan plus open-buffer overlay.

A :class:`FolderIndex` holds, for every skill file in the folder's roots, the engine's
:class:`~skilldeck.engine.filesystem.SkillFileEntry` (fields and findings, never the
body) and the shadowing findings of its name. It is mutated only on the event loop;
full scans run in a worker thread and come back as a :class:`FolderScan` that is applied
in one step. Every rule, every ordering and every shadowing decision is the engine's.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from skilldeck.engine.checks import NameSuggestions
from skilldeck.engine.config import SkilldeckConfig
from skilldeck.engine.deck import (
    DeckMember,
    NameVerdict,
    ProvidedSkill,
    mention_findings,
    mention_targets,
    mentions_affected,
    project_of,
    resolve_name,
    view_findings,
)
from skilldeck.engine.files import (
    SkillFileAnalysis,
    analyze_skill_text,
    buffer_has_bom,
    bundle_findings_of,
    keep_bundle_findings,
    wide_lines,
)
from skilldeck.engine.filesystem import (
    IndexCache,
    Layout,
    NotASkill,
    SkillFileEntry,
    SkillRoot,
    classify_path,
    entry_name_and_rank,
    name_span,
    place_of,
    scan_deck,
)
from skilldeck.engine.host_views import HostsView, build_view
from skilldeck.engine.hosts import get_host
from skilldeck.engine.model_view import CatalogEntry, CatalogMemo, tokens_for_length, wrap_lines
from skilldeck.engine.overlap import DeckOverlap, member_key
from skilldeck.engine.registry import group_by_name
from skilldeck.engine.rules import Finding
from skilldeck.engine.safety import BundleFindings


@dataclass(frozen=True)
class FolderScan:
    """A complete scan of one folder's roots, built off the event loop."""

    config: SkilldeckConfig
    roots: tuple[SkillRoot, ...]
    entries: tuple[SkillFileEntry, ...]
    files_complete: bool
    #: Non-ASCII lines of each file's head, for position conversion without the body.
    wide_lines: Mapping[str, Mapping[int, str]] = field(default_factory=dict)
    #: Name resolution of every name, computed with the scan (see :class:`Resolution`).
    resolution: Resolution | None = None
    #: The registry's other providers' skills (bundled, runtime, registered), in order.
    provided: tuple[ProvidedSkill, ...] = ()
    provided_complete: bool = True
    #: Markdown files under the roots that no layout picks up (``SD007``), as scanned.
    strays: tuple[str, ...] = ()
    #: What the agents of the ``hosts`` setting make of the deck (as of this scan).
    hosts_view: HostsView | None = None
    #: Their SD901 / SD902 findings per file (the engine's ``host_findings``).
    host_findings: Mapping[str, tuple[Finding, ...]] = field(default_factory=dict)

    @property
    def complete(self) -> bool:
        return self.files_complete and self.provided_complete


@dataclass
class Resolution:
    """Who wins each name, the shadowing findings, and each winner's catalog line."""

    winners: dict[str, str] = field(default_factory=dict)
    provided_winners: dict[str, ProvidedSkill] = field(default_factory=dict)
    shadow: dict[str, tuple[Finding, ...]] = field(default_factory=dict)
    lines: dict[str, CatalogEntry] = field(default_factory=dict)


@dataclass(frozen=True)
class CatalogState:
    """The catalog the model would see for this folder; the text is joined on demand
    (a catalog check compares the entries: unchanged ones are the same objects)."""

    entries: tuple[CatalogEntry, ...]
    lines: tuple[str, ...]
    complete: bool
    skill_count: int

    @cached_property
    def text(self) -> str:
        """The catalog message, as the model would receive it first."""
        return wrap_lines(self.lines, "initial")

    @property
    def token_estimate(self) -> int:
        """Rough size of ``text`` in tokens (from the lines' lengths: no join)."""
        frame = len(wrap_lines((), "initial"))
        return tokens_for_length(frame + sum(map(len, self.lines)) + len(self.lines))


def scan_folder(
    folder: str,
    config: SkilldeckConfig,
    overlay: Mapping[str, str],
    *,
    roots: Sequence[SkillRoot] | None = None,
    head_lines: bool = True,
    cache: IndexCache | None = None,
    processes: int = 1,
    provided: Sequence[ProvidedSkill] = (),
    provided_complete: bool = True,
    on_files: Callable[[int, int], None] | None = None,
) -> FolderScan:
    """Scan every root of ``folder`` (blocking: call it in a worker thread).

    ``cache`` is the persistent index cache (unchanged files are not parsed again);
    ``processes > 1`` lets a cold scan fork helpers (:func:`scan_deck`); ``provided`` are
    the skills of the registry's other providers, resolved with the files; ``on_files(done,
    total)`` is called (in the worker thread) after each skill file is judged.
    """
    deck = scan_deck(
        config,
        folder,
        overlay=dict(overlay),
        roots=roots,
        cache=cache,
        processes=processes,
        on_files=on_files,
    )
    entries = tuple(deck.entries())
    wide = {e.path: dict(e.analysis.wide_lines) for e in entries} if head_lines else {}
    by_name: dict[str, list[SkillFileEntry]] = {}
    for entry in entries:
        if entry.analysis.name:
            by_name.setdefault(entry.analysis.name, []).append(entry)
    provided_by_name = group_provided(provided)
    settings = config.rule_settings()
    resolution = Resolution()
    project = project_of(deck.roots)
    for name in by_name.keys() | provided_by_name.keys():
        verdict = resolve_name(
            by_name.get(name, ()),
            provided_by_name.get(name, ()),
            settings,
            config.catalog_max_description_length,
            project=project,
        )
        record_verdict(resolution, name, verdict)
    strays = tuple(path for scan in deck.scans for path, _finding in scan.strays)
    hosts_view, hosted = hosts_of(config, folder, entries, cache, strays)
    return FolderScan(
        config,
        tuple(deck.roots),
        entries,
        bool(deck.complete),
        {path: lines for path, lines in wide.items() if lines},
        resolution,
        tuple(provided),
        provided_complete,
        strays,
        hosts_view,
        hosted,
    )


def hosts_of(
    config: SkilldeckConfig,
    folder: str,
    entries: Iterable[SkillFileEntry],
    cache: IndexCache | None,
    strays: Iterable[str] = (),
) -> tuple[HostsView | None, dict[str, tuple[Finding, ...]]]:
    """What the agents of ``config.hosts`` make of the folder's files on disk (blocking:
    a worker thread): their view and the SD901 / SD902 / SD903 findings per file, the
    deck's strays (SD007) included where an agent loads one, as ``check`` reports them
    (``None`` and nothing when only DSH is configured)."""
    if tuple(config.hosts) == ("dsh",):
        return None, {}
    view = build_view(tuple(get_host(name) for name in config.hosts), config, folder, cache=cache)
    found = view_findings(view, entries, config.rule_settings(), strays=strays)
    return view, {path: tuple(items) for path, items in found.items()}


def group_provided(provided: Iterable[ProvidedSkill]) -> dict[str, list[ProvidedSkill]]:
    """Provided skills by name, each list in registration order."""
    result: dict[str, list[ProvidedSkill]] = {}
    for skill in provided:
        result.setdefault(skill.name, []).append(skill)
    return result


def record_verdict(resolution: Resolution, name: str, verdict: NameVerdict) -> None:
    """Store one name's verdict in ``resolution``."""
    winner = verdict.winner
    if isinstance(winner, SkillFileEntry):
        resolution.winners[name] = winner.path
    elif winner is not None:
        resolution.provided_winners[name] = winner
    resolution.shadow.update(verdict.findings)
    if verdict.line is not None:
        resolution.lines[name] = verdict.line


def build_catalog(
    entries: tuple[CatalogEntry, ...], complete: bool, memo: CatalogMemo
) -> CatalogState:
    """Render a catalog, reusing the lines ``memo`` rendered before (safe in a worker
    thread; see :class:`CatalogMemo`)."""
    return CatalogState(entries, tuple(memo.render(entries)), complete, len(entries))


async def current_catalog(index: FolderIndex) -> CatalogState:
    """The catalog of ``index``: the cached one, else built in a worker thread (and kept
    if nothing changed meanwhile)."""
    state = index.cached_catalog()
    if state is None:
        version, entries = index.catalog_snapshot()
        state = await asyncio.to_thread(build_catalog, entries, index.complete, index.catalog_memo)
        index.store_catalog(version, state)
    return state


class FolderIndex:
    """The live index of one workspace folder (see the module doc)."""

    def __init__(self, folder: str, config: SkilldeckConfig) -> None:
        self.folder = folder
        self.config = config
        self.roots: tuple[SkillRoot, ...] = ()
        self._files_complete = False
        self._provided_complete = True
        self.ready = False
        self._entries: dict[str, SkillFileEntry] = {}
        self._order: dict[str, tuple[int, int]] = {}
        #: name -> the paths of the files that carry it (a tuple: nearly always one)
        self._by_name: dict[str, tuple[str, ...]] = {}
        self._sorted_names: list[str] | None = None
        self._shadow: dict[str, tuple[Finding, ...]] = {}
        #: SD901 / SD902 per file and the hosts' view, as of the last full scan.
        self._hosted: Mapping[str, tuple[Finding, ...]] = {}
        self.hosts_view: HostsView | None = None
        self._wide: dict[str, Mapping[int, str]] = {}
        #: Each file of a bundle with safety findings -> the skill file whose analysis
        #: carries them (they are published at that file, as ``check`` reports them).
        self._bundle_owner: dict[str, str] = {}
        #: Markdown files under the roots that are no skill where they sit (``SD007``).
        self._strays: set[str] = set()
        #: The buffer text each entry was last judged from (by identity: feature requests
        #: on an open document reuse the analysis instead of judging the text again).
        self._judged_text: dict[str, str] = {}
        self._winners: dict[str, str] = {}
        self._provided: dict[str, list[ProvidedSkill]] = {}
        self._provided_winners: dict[str, ProvidedSkill] = {}
        #: The registry's other providers' skills, in registration order.
        self.provided: tuple[ProvidedSkill, ...] = ()
        self._lines: dict[str, CatalogEntry] = {}
        self._catalog_names: list[str] | None = None  # sorted keys of _lines
        self._catalog: CatalogState | None = None
        self._catalog_version = 0
        #: What ``skilldeck/catalogChanged`` last told the client: entries, complete, counts.
        self.notified_catalog: tuple[tuple[CatalogEntry, ...], bool, Mapping[str, int]] | None = (
            None
        )
        #: Rendered catalog lines kept between renderings (:class:`CatalogMemo`).
        self.catalog_memo = CatalogMemo()
        #: What a ``/name`` mention reaches (the engine's ``mention_targets``), on demand.
        self._targets: dict[str, bool] | None = None
        #: The "did you mean" index of :attr:`_targets`' names, on demand.
        self._suggestions: NameSuggestions | None = None
        #: The files whose body mentions a skill (their findings follow the targets).
        self._mentioning: set[str] = set()
        #: Routing overlap between the winners (SD801 / SD802), kept current per edit;
        #: rebuilt off the loop after each full scan (:meth:`overlap_snapshot`).
        self.overlap = DeckOverlap((), config.rule_settings())
        #: While a rebuild is pending: the skills re-judged since its snapshot, replayed
        #: onto the rebuilt index when it is installed.
        self._overlap_touched: list[tuple[str, DeckMember | None]] | None = None
        #: While a typed buffer is judged: its routing-overlap update is left to
        #: :meth:`settle_overlap` (see :meth:`update_text`).
        self._defer_related = False
        #: The overlap updates left to :meth:`settle_overlap`: key -> its latest member.
        self._deferred_overlap: dict[str, DeckMember | None] = {}

    # -- reading -------------------------------------------------------------------

    def entry(self, path: str) -> SkillFileEntry | None:
        """The entry of the skill file at ``path``, if it is in this folder's roots."""
        return self._entries.get(path)

    def paths(self) -> Iterable[str]:
        """Every indexed skill file path, unordered (a live view: do not mutate meanwhile)."""
        return self._entries.keys()

    def entries(self) -> list[SkillFileEntry]:
        """Every entry in scan order (roots by rank, then the provider's order)."""
        return sorted(self._entries.values(), key=lambda e: self._order[e.path])

    def bundle_paths(self) -> Iterable[str]:
        """Every file of a bundle that has safety findings (a live view)."""
        return self._bundle_owner.keys()

    def bundle_file_findings(self, path: str) -> tuple[Finding, ...] | None:
        """The safety findings of ``path``, a file of a bundle (a script, a reference),
        as its skill file's analysis located them; ``None`` when it is no such file."""
        owner = self._bundle_owner.get(path)
        entry = self._entries.get(owner) if owner is not None else None
        if entry is None:
            return None
        return tuple(f for file, f in entry.analysis.bundle_located if file == path)

    def findings(self, path: str) -> tuple[Finding, ...]:
        """The engine's findings for one file: its own, shadowing and overlap."""
        entry = self._entries.get(path)
        if entry is None:
            return ()
        hosted = self._hosted.get(path, ())
        if hosted:  # as of the last scan; the name may have moved since
            hosted = tuple(replace(f, span=entry.name_span) for f in hosted)
        own = (
            tuple(entry.analysis.findings)
            + self._shadow.get(path, ())
            + self.overlap.findings_of(path)
            + hosted
        )
        if not entry.analysis.mentions:
            return own
        return own + tuple(self.mention_findings(entry))

    def mention_findings(self, entry: SkillFileEntry) -> list[Finding]:
        """SD704 / SD705 for ``entry``'s mentions against this folder's deck (the engine's
        ``mention_findings``, with the folder's index of names for "did you mean")."""
        return mention_findings(
            entry,
            self.mention_targets(),
            self.config.rule_settings(),
            complete=self.complete,
            suggestions=self._name_suggestions(),
        )

    def mention_targets(self) -> dict[str, bool]:
        """Each winning name and whether the ``/name`` gesture injects it."""
        if self._targets is None:
            winners: list[DeckMember] = [self._entries[p] for p in self._winners.values()]
            winners.extend(self._provided_winners.values())
            self._targets = mention_targets(winners)
            self._suggestions = None
        return self._targets

    def _name_suggestions(self) -> NameSuggestions:
        """The nearest names of unknown mentions, indexed once per deck and kept up to
        date with :meth:`mention_targets`."""
        targets = self.mention_targets()
        if self._suggestions is None:
            self._suggestions = NameSuggestions(targets)
        return self._suggestions

    def _retarget(self, names: Iterable[str]) -> set[str]:
        """Bring the mention targets up to date for ``names`` (the only names whose winner
        may have changed); returns the files whose mention findings may differ. Costs
        the names and the files that mention something, never the whole deck."""
        if self._targets is None:
            return set()  # never built: every file is judged afresh when asked
        targets = self._targets
        changed: set[str] = set()
        for name in names:
            now = self._target_of(name)
            if targets.get(name) != now:
                changed.add(name)
                if now is None:
                    targets.pop(name, None)
                    if self._suggestions is not None:
                        self._suggestions.discard(name)
                else:
                    targets[name] = now
                    if self._suggestions is not None:
                        self._suggestions.add(name)
        if not changed:
            return set()
        return {
            path
            for path in self._mentioning
            if mentions_affected(self._entries[path].analysis.mentions, changed, targets)
        }

    def _target_of(self, name: str) -> bool | None:
        """Whether the ``/name`` gesture injects the winner of ``name`` (``None``: no
        winner): the engine's ``mention_targets`` for one name."""
        path = self._winners.get(name)
        if path is not None:
            return self._entries[path].analysis.invocation.user_invocable
        provided = self._provided_winners.get(name)
        return None if provided is None else provided.candidate.invocation.user_invocable

    def hosted_of(self, path: str) -> tuple[Finding, ...]:
        """The agents' findings on ``path`` as of the last hosts view (a stray's: an agent
        that loads a file the deck does not)."""
        return self._hosted.get(path, ())

    def set_hosts(
        self, view: HostsView | None, found: Mapping[str, tuple[Finding, ...]]
    ) -> set[str]:
        """Install a fresh hosts view and its findings; returns the paths whose findings
        changed."""
        before = self._hosted
        self._hosted = dict(found)
        self.hosts_view = view
        return {
            path
            for path in before.keys() | self._hosted.keys()
            if before.get(path) != self._hosted.get(path)
        }

    def analysis_of_text(self, path: str, text: str) -> SkillFileAnalysis | None:
        """The entry's analysis when it was computed from exactly ``text`` (this very
        string: a buffer the index already judged), else ``None``."""
        entry = self._entries.get(path)
        if entry is None or self._judged_text.get(path) is not text:
            return None
        return entry.analysis

    def wide_lines(self, path: str) -> Mapping[int, str]:
        """Non-ASCII head lines of a file on disk (for position conversion); for a
        bundle's file, those its safety findings point into."""
        return self._wide.get(path, {})

    def winner(self, name: str) -> str | None:
        """The path of the skill file that wins ``name``, if any (kept up to date)."""
        return self._winners.get(name)

    @property
    def complete(self) -> bool:
        """Whether every root was listed and every provider answered in full."""
        return self._files_complete and self._provided_complete

    def provided_skills(self) -> list[ProvidedSkill]:
        """Every provided skill of the folder, each name's in registration order."""
        return [skill for group in self._provided.values() for skill in group]

    def provided_winner(self, name: str) -> ProvidedSkill | None:
        """The provided skill (bundled, runtime, registered) that wins ``name``, if any."""
        return self._provided_winners.get(name)

    def shares_name(self, name: str) -> bool:
        """Whether more than one indexed file or provided skill carries ``name``."""
        return len(self._by_name.get(name, ())) + len(self._provided.get(name, ())) > 1

    def group(self, name: str) -> list[SkillFileEntry]:
        """Accepted entries named ``name``, winner first (the engine's ``group_by_name``)."""
        members = [self._entries[p] for p in self._by_name.get(name, ())]
        members = [e for e in members if e.analysis.accepted]
        if len(members) < 2:  # nearly every name: nothing to order
            return members
        members.sort(key=lambda e: self._order[e.path])
        return group_by_name(members, entry_name_and_rank).get(name, [])

    def members(self, name: str) -> list[DeckMember]:
        """Everything that carries ``name`` and takes part, winner first: accepted files
        and provided skills (the engine's :func:`resolve_name`)."""
        files = [self._entries[p] for p in self._by_name.get(name, ())]
        files.sort(key=lambda e: self._order[e.path])
        return list(
            resolve_name(
                files,
                self._provided.get(name, ()),
                None,
                self.config.catalog_max_description_length,
            ).group
        )

    def names(self) -> list[str]:
        """Every name some indexed file (accepted or not) or provided skill carries."""
        return list(self._by_name.keys() | self._provided.keys())

    def sorted_names(self) -> list[str]:
        """:meth:`names` in code-point order; kept until a name appears or disappears.

        The list is shared: callers must not modify it.
        """
        if self._sorted_names is None:
            self._sorted_names = sorted(self._by_name.keys() | self._provided.keys())
        return self._sorted_names

    def classify(self, path: str) -> tuple[SkillRoot, Layout, str] | None:
        """``(root, layout, expected_name)`` when ``path`` is a skill file of our roots."""
        return classify_path(path, self.roots)

    def not_a_skill(self, path: str) -> NotASkill | None:
        """Why ``path``, a Markdown file under one of our roots, is no skill (``SD007``);
        ``None`` when it is a skill, a bundle's resource or outside the roots. Whether
        a bundle holds a ``SKILL.md`` is read off the index, never the disk."""
        found = place_of(path, self.roots, is_file=lambda bundle: bundle in self._entries)
        return found if isinstance(found, NotASkill) else None

    def tally(self, in_catalog: int) -> dict[str, int]:
        """Why the skill files and the catalog differ in number (``in_catalog``: the
        catalog's count): each file is in the catalog, shadowed by a copy that wins its
        name, not loaded (an error drops it), or left out of the model's catalog
        (``disable-model-invocation``); ``provided`` counts the catalog's skills that come
        from other providers. ``skillFiles == fromFiles + shadowed + notLoaded +
        notModelInvocable`` and ``inCatalog == fromFiles + provided``."""
        shadowed = not_loaded = hidden = from_files = 0
        for path, entry in self._entries.items():
            analysis = entry.analysis
            name = analysis.name
            if not analysis.accepted or name is None:
                not_loaded += 1
            elif self._winners.get(name) != path:
                shadowed += 1
            elif not analysis.invocation.model_invocable:
                hidden += 1
            else:
                from_files += 1
        return {
            "skillFiles": len(self._entries),
            "inCatalog": in_catalog,
            "fromFiles": from_files,
            "provided": in_catalog - from_files,
            "shadowed": shadowed,
            "notLoaded": not_loaded,
            "notModelInvocable": hidden,
        }

    def catalog(self) -> CatalogState:
        """The catalog of the current winners (buffers included); cached until a change."""
        if self._catalog is None:
            version, entries = self.catalog_snapshot()
            self.store_catalog(version, build_catalog(entries, self.complete, self.catalog_memo))
        assert self._catalog is not None
        return self._catalog

    def cached_catalog(self) -> CatalogState | None:
        """The catalog if it is still current, else ``None`` (build it off the loop)."""
        return self._catalog

    def catalog_snapshot(self) -> tuple[int, tuple[CatalogEntry, ...]]:
        """``(version, entries in catalog order)``: an immutable input for :func:`build_catalog`."""
        if self._catalog_names is None:  # names come and go far less often than text
            self._catalog_names = sorted(self._lines)
        return self._catalog_version, tuple(map(self._lines.__getitem__, self._catalog_names))

    def store_catalog(self, version: int, state: CatalogState) -> None:
        """Keep ``state`` if nothing changed since the snapshot ``version`` was taken."""
        if version == self._catalog_version:
            self._catalog = state

    def _catalog_changed(self) -> None:
        self._catalog = None
        self._catalog_version += 1

    # -- writing -------------------------------------------------------------------

    def apply_scan(self, scan: FolderScan) -> set[str]:
        """Replace everything with ``scan``; returns every path whose findings may differ."""
        before = set(self._entries)
        self.config = scan.config
        self.roots = scan.roots
        self._files_complete = scan.files_complete
        self._provided_complete = scan.provided_complete
        self._entries = {}
        self._order = {}
        self._by_name = {}
        self._sorted_names = None
        self._shadow = {}
        before |= self._bundle_owner.keys()
        self._bundle_owner = {}
        self._wide = dict(scan.wide_lines)
        self._judged_text = {}
        before |= self._strays
        self._strays = set(scan.strays)
        self._hosted = dict(scan.host_findings)
        self.hosts_view = scan.hosts_view
        self.provided = scan.provided
        self._provided = group_provided(scan.provided)
        for position, entry in enumerate(scan.entries):
            self._put(entry, position)
        self._catalog_changed()
        if scan.resolution is not None:
            self._winners = dict(scan.resolution.winners)
            self._provided_winners = dict(scan.resolution.provided_winners)
            self._shadow = dict(scan.resolution.shadow)
            self._lines = dict(scan.resolution.lines)
            self._catalog_names = None
        else:
            self._winners, self._provided_winners, self._lines = {}, {}, {}
            self._catalog_names = None
            self._recompute_shadowing(self.names())
        self._targets = None
        self._mentioning = {p for p, e in self._entries.items() if e.analysis.mentions}
        self.ready = True
        # The strays found now are published too (SD007 reaches a push client for a
        # file nobody opened, as ``check`` reports it); those gone are cleared.
        return before | set(self._entries) | self._strays | self._bundle_owner.keys()

    def update_text(self, path: str, text: str, *, defer_related: bool = False) -> set[str]:
        """Re-judge one skill file by ``text`` (a buffer or a fresh read); returns changed
        paths. ``defer_related``: the deck-wide routing overlap (SD801/SD802: the file's
        family and competitors, and theirs) follows the edit in :meth:`settle_overlap`,
        which the editor calls when the typist pauses: a keystroke does the file's own
        work, whatever the size of the deck (its overlap findings keep their relations,
        pointing at its places now, until then)."""
        self._defer_related = defer_related
        try:
            return self._update_text(path, text)
        finally:
            self._defer_related = False

    def settle_overlap(self) -> set[str]:
        """Apply the overlap updates ``update_text(..., defer_related=True)`` left; the
        files whose findings may have changed since they were last told (the edited ones
        and, per :meth:`DeckOverlap.settle`, the others)."""
        deferred, self._deferred_overlap = self._deferred_overlap, {}
        changed: set[str] = set()
        for key, member in deferred.items():
            changed |= self.overlap.update(key, member, settle=False)
        return changed | self.overlap.settle()

    def _update_text(self, path: str, text: str) -> set[str]:
        entry = self._entries.get(path)
        if entry is None:
            hit = self.classify(path)
            if hit is None:
                return set()
            root, layout, expected = hit
            folder = os.path.dirname(path) if layout == "bundle" else None
            analysis = self.analyze(text, path, expected)
            entry = SkillFileEntry(root, layout, path, folder, expected, analysis)
        else:
            # the bundle's other files did not change with this buffer: keep their findings
            analysis = keep_bundle_findings(
                self.analyze(text, path, entry.expected_name), bundle_findings_of(entry.analysis)
            )
        # Non-ASCII lines of the frontmatter (the first 200 lines without one), where
        # completion and hover convert columns, and those of the findings.
        head = analysis.body_start_line + 1 if analysis.body_start_line is not None else 200
        self._wide[path] = {**dict(wide_lines(text, head)), **dict(analysis.wide_lines)}
        self._judged_text[path] = text
        # The name's span moves with the text: shadowing findings and navigation use it.
        return self._replace(path, replace(entry, analysis=analysis, name_span=name_span(analysis)))

    def analyze(self, text: str, path: str, expected_name: str) -> SkillFileAnalysis:
        """The engine's verdict on ``text`` as the skill file ``path``."""
        return analyze_skill_text(
            text,
            path=path,
            expected_name=expected_name,
            settings=self.config.rule_settings(),
            bom=buffer_has_bom(text, path),
        )

    def remove(self, path: str) -> set[str]:
        """Forget a deleted skill file; returns changed paths (its own included)."""
        if path not in self._entries:
            return set()
        entry = self._entries.pop(path)
        bundle_changed = self._track_bundle(path, entry, None)
        self._mentioning.discard(path)
        names = {entry.analysis.name} - {None}
        self._order.pop(path, None)
        self._unindex_name(entry)
        self._shadow.pop(path, None)
        self._wide.pop(path, None)
        self._judged_text.pop(path, None)
        changed = {path} | bundle_changed | self._update_overlap(path, None)
        changed |= self._recompute_shadowing(n for n in names if n is not None)
        return changed | self._retarget(n for n in names if n is not None)

    def strays(self) -> set[str]:
        """The Markdown files under the roots that are no skill where they sit (``SD007``);
        a live view: do not mutate."""
        return self._strays

    def set_strays(self, folder: str, paths: Iterable[str]) -> set[str]:
        """Replace the strays found in one root child ``folder`` (and below it); returns
        the paths whose findings may differ."""
        prefix = folder.rstrip(os.sep) + os.sep
        old = {path for path in self._strays if path.startswith(prefix)}
        new = set(paths)
        self._strays -= old
        self._strays |= new
        return old ^ new

    def set_provided(self, provided: Sequence[ProvidedSkill], complete: bool) -> set[str]:
        """Replace the provided skills (a provider changed); returns changed paths."""
        names = self._provided.keys() | {skill.name for skill in provided}
        self.provided = tuple(provided)
        self._provided = group_provided(provided)
        self._sorted_names = None
        if complete != self._provided_complete:
            self._provided_complete = complete
            self._catalog_changed()
        return self._recompute_shadowing(names) | self._retarget(names)

    def replace_entry(self, entry: SkillFileEntry, wide: Mapping[int, str]) -> set[str]:
        """Install a freshly scanned entry (file event); returns changed paths."""
        self._wide[entry.path] = wide
        self._judged_text.pop(entry.path, None)
        return self._replace(entry.path, entry)

    def set_bundle_findings(self, path: str, bundle: BundleFindings) -> set[str]:
        """Give the skill file ``path`` ``bundle`` as the findings of its bundle's other
        files (fresh from disk after one of them changed), keeping the rest of its verdict
        (an open buffer's too); returns changed paths."""
        entry = self._entries.get(path)
        if entry is None:
            return set()
        analysis = keep_bundle_findings(entry.analysis, bundle)
        if analysis is entry.analysis:
            return set()
        return self._replace(path, replace(entry, analysis=analysis))

    # -- internals -----------------------------------------------------------------

    def _replace(self, path: str, entry: SkillFileEntry) -> set[str]:
        old = self._entries.get(path)
        # What mentions reach changes only with a name, acceptance or user invocability.
        reach = old is None or _reach(old) != _reach(entry)
        self._shadow.pop(path, None)
        names: set[str] = set()
        if old is not None:
            if old.analysis.name:
                names.add(old.analysis.name)
            self._unindex_name(old)
            position = self._order[path]
        else:
            position = self._position_for(entry)
        self._entries[path] = entry
        self._order[path] = position
        bundle_changed = self._track_bundle(path, old, entry)
        if entry.analysis.name:
            names.add(entry.analysis.name)
            self._index_name(entry.analysis.name, path)
        if entry.analysis.mentions:
            self._mentioning.add(path)
        else:
            self._mentioning.discard(path)
        changed = {path} | bundle_changed
        changed |= self._recompute_shadowing(names) | self._sync_overlap(path)
        return changed | self._retarget(names) if reach else changed

    def _put(self, entry: SkillFileEntry, position: int) -> None:
        self._entries[entry.path] = entry
        self._order[entry.path] = (self._root_index(entry.root), position)
        if entry.analysis.bundle_located:
            self._track_bundle(entry.path, None, entry)
        if entry.analysis.name:
            self._index_name(entry.analysis.name, entry.path)

    def _track_bundle(
        self, path: str, old: SkillFileEntry | None, new: SkillFileEntry | None
    ) -> set[str]:
        """Follow the files of ``path``'s bundle with safety findings from ``old``'s
        analysis to ``new``'s; returns those whose findings may differ (none when the
        bundle's findings are the same: a keystroke in ``SKILL.md`` keeps them)."""
        before = old.analysis.bundle_located if old is not None else ()
        after = new.analysis.bundle_located if new is not None else ()
        if before is after or before == after:
            return set()
        gone = {file for file, _f in before}
        for file in gone:
            if self._bundle_owner.get(file) == path:
                del self._bundle_owner[file]
                self._wide.pop(file, None)
        lines: dict[str, dict[int, str]] = {}
        if new is not None:
            for file, number, text in new.analysis.bundle_lines:
                lines.setdefault(file, {})[number] = text
        now = {file for file, _f in after}
        for file in now:
            self._bundle_owner[file] = path
            if file in lines:
                self._wide[file] = lines[file]
        return gone | now

    def _index_name(self, name: str, path: str) -> None:
        members = self._by_name.get(name)
        if members is None:
            self._by_name[name] = (path,)
            self._sorted_names = None
        elif path not in members:
            self._by_name[name] = (*members, path)

    def _unindex_name(self, entry: SkillFileEntry) -> None:
        name = entry.analysis.name
        if name and name in self._by_name:
            kept = tuple(path for path in self._by_name[name] if path != entry.path)
            if kept:
                self._by_name[name] = kept
            else:
                del self._by_name[name]
                self._sorted_names = None

    def _root_index(self, root: SkillRoot) -> int:
        for index, candidate in enumerate(self.roots):
            if candidate.path == root.path:
                return index
        return len(self.roots)

    def _position_for(self, entry: SkillFileEntry) -> tuple[int, int]:
        """Order a new file among its root's files the way a fresh scan would (by child name)."""
        root_index = self._root_index(entry.root)
        siblings = sorted(
            (p for p, o in self._order.items() if o[0] == root_index), key=self._order.__getitem__
        )
        key = _child_key(entry)
        slot = 0
        for sibling in siblings:
            if _child_key(self._entries[sibling]) < key:
                slot = self._order[sibling][1] + 1
        # Shift later siblings so positions stay unique and ordered.
        for sibling in siblings:
            if self._order[sibling][1] >= slot:
                self._order[sibling] = (root_index, self._order[sibling][1] + 1)
        return (root_index, slot)

    def _recompute_shadowing(self, names: Iterable[str]) -> set[str]:
        changed: set[str] = set()
        # Once, not per name: a new commit of a git source recomputes every one of its names.
        settings = self.config.rule_settings()
        for name in list(names):
            members = [self._entries[p] for p in self._by_name.get(name, ())]
            members.sort(key=lambda e: self._order[e.path])
            verdict = resolve_name(
                members,
                self._provided.get(name, ()),
                settings,
                self.config.catalog_max_description_length,
                project=project_of(self.roots),
            )
            winner = verdict.winner
            new = verdict.findings
            line = verdict.line
            self._set(
                self._winners, name, winner.path if isinstance(winner, SkillFileEntry) else None
            )
            self._set(
                self._provided_winners, name, winner if isinstance(winner, ProvidedSkill) else None
            )
            if self._lines.get(name) != line:
                if (name in self._lines) != (line is not None):
                    self._catalog_names = None
                self._set(self._lines, name, line)
                self._catalog_changed()
            for member in [*members, *self._provided.get(name, ())]:
                competing = member if member is winner else None
                changed |= self._update_overlap(member_key(member), competing)
            for entry in members:
                findings = tuple(new.get(entry.path, ()))
                if self._shadow.get(entry.path, ()) != findings:
                    changed.add(entry.path)
                if findings:
                    self._shadow[entry.path] = findings
                else:
                    self._shadow.pop(entry.path, None)
        return changed

    def _sync_overlap(self, path: str) -> set[str]:
        """Make the overlap index agree with the file ``path``: it competes while it is
        the winner of its name (the engine decides whether the model can choose it)."""
        entry = self._entries.get(path)
        name = entry.analysis.name if entry is not None else None
        winning = entry is not None and name is not None and self._winners.get(name) == path
        return self._update_overlap(path, entry if winning else None)

    def _update_overlap(self, key: str, member: DeckMember | None) -> set[str]:
        if self._overlap_touched is not None:
            self._overlap_touched.append((key, member))
        if self._defer_related:
            self._deferred_overlap[key] = member
            self.overlap.relocate(key, member)
            return set()
        self._deferred_overlap.pop(key, None)  # this update is newer
        return self.overlap.update(key, member)

    # -- overlap rebuilds ----------------------------------------------------------

    def overlap_snapshot(self) -> list[DeckMember]:
        """Every name's winner now, to build a :class:`DeckOverlap` from off the loop;
        from here on re-judged skills are recorded for :meth:`install_overlap`."""
        self._overlap_touched = []
        winners: list[DeckMember] = [self._entries[p] for p in self._winners.values()]
        winners.extend(self._provided_winners.values())
        return winners

    def install_overlap(self, overlap: DeckOverlap) -> tuple[DeckOverlap, set[str]]:
        """Use ``overlap`` (built from the last snapshot), replaying the skills re-judged
        since; returns the overlap it replaces and the paths whose findings may differ
        (every file with a pair before or after)."""
        before = self.overlap
        changed = set(before.paths()) | set(overlap.paths())
        touched = self._overlap_touched or []
        self.overlap = overlap
        self._overlap_touched = None
        for key, member in touched:
            changed |= self.overlap.update(key, member)
        return before, {path for path in changed if path in self._entries}

    @staticmethod
    def _set(table: dict[str, Any], key: str, value: Any) -> None:
        if value is None:
            table.pop(key, None)
        else:
            table[key] = value


def _reach(entry: SkillFileEntry) -> tuple[str | None, bool, bool]:
    analysis = entry.analysis
    return analysis.name, analysis.accepted, analysis.invocation.user_invocable


def _child_key(entry: SkillFileEntry) -> str:
    return os.path.basename(entry.folder if entry.folder is not None else entry.path)
