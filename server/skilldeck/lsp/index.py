"""One workspace folder's view of the deck: engine scan plus open-buffer overlay.

A :class:`FolderIndex` holds, for every skill file in the folder's roots, the engine's
:class:`~skilldeck.engine.fs_provider.SkillFileEntry` (fields and findings, never the
body) and the shadowing findings of its name. It is mutated only on the event loop;
full scans run in a worker thread and come back as a :class:`FolderScan` that is applied
in one step. Every rule, every ordering and every shadowing decision is the engine's.
"""

from __future__ import annotations

import asyncio
import os
from bisect import bisect_left
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from skilldeck.engine.bundled import BUNDLED_SKILL_NAME, bundled_candidate
from skilldeck.engine.catalog import (
    CatalogEntry,
    CatalogMemo,
    catalog_entries,
    tokens_for_length,
    wrap_lines,
)
from skilldeck.engine.config import SkilldeckConfig
from skilldeck.engine.findings import Finding
from skilldeck.engine.fs_provider import (
    Layout,
    SkillFileEntry,
    classify_path,
    entry_name_and_rank,
    name_span,
    scan_deck,
    shadowing_findings,
    to_candidate,
)
from skilldeck.engine.index_cache import IndexCache
from skilldeck.engine.resolution import group_by_name
from skilldeck.engine.roots import SkillRoot
from skilldeck.engine.skill_file import SkillFileAnalysis, analyze_skill_text


@dataclass(frozen=True)
class FolderScan:
    """A complete scan of one folder's roots, built off the event loop."""

    config: SkilldeckConfig
    roots: tuple[SkillRoot, ...]
    entries: tuple[SkillFileEntry, ...]
    complete: bool
    #: Non-ASCII lines of each file's head, for position conversion without the body.
    wide_lines: Mapping[str, Mapping[int, str]] = field(default_factory=dict)
    #: Name resolution of every name, computed with the scan (see :class:`Resolution`).
    resolution: Resolution | None = None


@dataclass
class Resolution:
    """Who wins each name, the shadowing findings, and each winner's catalog line."""

    winners: dict[str, str] = field(default_factory=dict)
    shadow: dict[str, tuple[Finding, ...]] = field(default_factory=dict)
    lines: dict[str, CatalogEntry] = field(default_factory=dict)


def resolve_group(
    name: str, members: list[SkillFileEntry], max_description_length: int
) -> tuple[str | None, dict[str, list[Finding]], CatalogEntry | None]:
    """Resolve one name: ``members`` in scan order -> (winner path, shadowing, catalog line).

    Ordering and shadowing are the engine's (``group_by_name``, ``shadowing_findings``).
    """
    accepted = [e for e in members if e.analysis.accepted]
    group = group_by_name(accepted, entry_name_and_rank).get(name, [])
    if not group:
        return None, {}, None
    shadow: dict[str, list[Finding]] = {}
    if len(group) > 1:
        for path, finding in shadowing_findings(group):
            shadow.setdefault(path, []).append(finding)
    lines = catalog_entries([to_candidate(group[0])], max_description_length)
    return group[0].path, shadow, lines[0] if lines else None


@dataclass(frozen=True)
class CatalogState:
    """The catalog the model would see for this folder; the text is joined on demand
    (a digest is what a catalog check compares)."""

    entries: tuple[CatalogEntry, ...]
    lines: tuple[str, ...]
    digest: str
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
    on_files: Callable[[int, int], None] | None = None,
) -> FolderScan:
    """Scan every root of ``folder`` (blocking: call it in a worker thread).

    ``cache`` is the persistent index cache (unchanged files are not parsed again);
    ``processes > 1`` lets a cold scan fork helpers (:func:`scan_deck`); ``on_files(done,
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
    resolution = Resolution()
    for name, members in by_name.items():
        winner, shadow, line = resolve_group(name, members, config.catalog_max_description_length)
        if winner is not None:
            resolution.winners[name] = winner
        resolution.shadow.update({path: tuple(found) for path, found in shadow.items()})
        if line is not None:
            resolution.lines[name] = line
    return FolderScan(
        config,
        tuple(deck.roots),
        entries,
        bool(deck.complete),
        {path: lines for path, lines in wide.items() if lines},
        resolution,
    )


def build_catalog(
    entries: tuple[CatalogEntry, ...], complete: bool, memo: CatalogMemo
) -> CatalogState:
    """Render and digest a catalog, reusing the lines ``memo`` rendered before (safe in a
    worker thread; see :class:`CatalogMemo`)."""
    lines, digest = memo.render(entries)
    return CatalogState(entries, tuple(lines), digest, complete, len(entries))


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
        self.complete = False
        self.ready = False
        self._entries: dict[str, SkillFileEntry] = {}
        self._order: dict[str, tuple[int, int]] = {}
        self._by_name: dict[str, set[str]] = {}
        self._sorted_names: list[str] | None = None
        self._shadow: dict[str, tuple[Finding, ...]] = {}
        self._wide: dict[str, Mapping[int, str]] = {}
        self._winners: dict[str, str] = {}
        self._lines: dict[str, CatalogEntry] = {}
        self._catalog_names: list[str] | None = None  # sorted keys of _lines
        self._catalog: CatalogState | None = None
        self._catalog_version = 0
        self.catalog_digest: str | None = None
        #: Rendered catalog lines kept between renderings (:class:`CatalogMemo`).
        self.catalog_memo = CatalogMemo()

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

    def findings(self, path: str) -> tuple[Finding, ...]:
        """The engine's findings for one file: its own plus shadowing."""
        entry = self._entries.get(path)
        if entry is None:
            return ()
        return tuple(entry.analysis.findings) + self._shadow.get(path, ())

    def wide_lines(self, path: str) -> Mapping[int, str]:
        """Non-ASCII head lines of a file on disk (for position conversion)."""
        return self._wide.get(path, {})

    def winner(self, name: str) -> str | None:
        """The path of the skill file that wins ``name``, if any (kept up to date)."""
        return self._winners.get(name)

    def shares_name(self, name: str) -> bool:
        """Whether more than one indexed file carries ``name``."""
        return len(self._by_name.get(name, ())) > 1

    def group(self, name: str) -> list[SkillFileEntry]:
        """Accepted entries named ``name``, winner first (the engine's ``group_by_name``)."""
        members = [self._entries[p] for p in self._by_name.get(name, ())]
        members = [e for e in members if e.analysis.accepted]
        if len(members) < 2:  # nearly every name: nothing to order
            return members
        members.sort(key=lambda e: self._order[e.path])
        return group_by_name(members, entry_name_and_rank).get(name, [])

    def names(self) -> list[str]:
        """Every name some indexed file carries (accepted or not), unordered."""
        return list(self._by_name)

    def sorted_names(self) -> list[str]:
        """:meth:`names` in code-point order; kept until a name appears or disappears.

        The list is shared: callers must not modify it.
        """
        if self._sorted_names is None:
            self._sorted_names = sorted(self._by_name)
        return self._sorted_names

    def classify(self, path: str) -> tuple[SkillRoot, Layout, str] | None:
        """``(root, layout, expected_name)`` when ``path`` is a skill file of our roots."""
        return classify_path(path, self.roots)

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
        """``(version, entries in catalog order)``: an immutable input for :func:`build_catalog`.

        With ``bundled-skills = true`` the packaged skill is listed too, unless a skill of
        ours has its name (the engine's registry: the filesystem provider wins a tie).
        """
        if self._catalog_names is None:  # names come and go far less often than text
            self._catalog_names = sorted(self._lines)
        entries = list(map(self._lines.__getitem__, self._catalog_names))
        if self.config.bundled_skills and BUNDLED_SKILL_NAME not in self._winners:
            for entry in catalog_entries(
                [bundled_candidate()], self.config.catalog_max_description_length
            ):
                entries.insert(bisect_left(self._catalog_names, entry.name), entry)
        return self._catalog_version, tuple(entries)

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
        self.complete = scan.complete
        self._entries = {}
        self._order = {}
        self._by_name = {}
        self._sorted_names = None
        self._shadow = {}
        self._wide = dict(scan.wide_lines)
        for position, entry in enumerate(scan.entries):
            self._put(entry, position)
        self._catalog_changed()
        if scan.resolution is not None:
            self._winners = dict(scan.resolution.winners)
            self._shadow = dict(scan.resolution.shadow)
            self._lines = dict(scan.resolution.lines)
            self._catalog_names = None
        else:
            self._winners, self._lines = {}, {}
            self._catalog_names = None
            self._recompute_shadowing(list(self._by_name))
        self.ready = True
        return before | set(self._entries)

    def update_text(self, path: str, text: str) -> set[str]:
        """Re-judge one skill file by ``text`` (a buffer or a fresh read); returns changed paths."""
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
            analysis = self.analyze(text, path, entry.expected_name)
        self._wide[path] = _wide_head(text, analysis.body_start_line)
        # The name's span moves with the text: shadowing findings and navigation use it.
        return self._replace(path, replace(entry, analysis=analysis, name_span=name_span(analysis)))

    def analyze(self, text: str, path: str, expected_name: str) -> SkillFileAnalysis:
        """The engine's verdict on ``text`` as the skill file ``path``."""
        return analyze_skill_text(
            text, path=path, expected_name=expected_name, settings=self.config.rule_settings()
        )

    def remove(self, path: str) -> set[str]:
        """Forget a deleted skill file; returns changed paths (its own included)."""
        entry = self._entries.pop(path, None)
        if entry is None:
            return set()
        names = {entry.analysis.name} - {None}
        self._unindex_name(entry)
        self._shadow.pop(path, None)
        self._wide.pop(path, None)
        return {path} | self._recompute_shadowing(n for n in names if n is not None)

    def replace_entry(self, entry: SkillFileEntry, wide: Mapping[int, str]) -> set[str]:
        """Install a freshly scanned entry (file event); returns changed paths."""
        self._wide[entry.path] = wide
        return self._replace(entry.path, entry)

    # -- internals -----------------------------------------------------------------

    def _replace(self, path: str, entry: SkillFileEntry) -> set[str]:
        old = self._entries.get(path)
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
        if entry.analysis.name:
            names.add(entry.analysis.name)
            self._index_name(entry.analysis.name, path)
        return {path} | self._recompute_shadowing(names)

    def _put(self, entry: SkillFileEntry, position: int) -> None:
        self._entries[entry.path] = entry
        self._order[entry.path] = (self._root_index(entry.root), position)
        if entry.analysis.name:
            self._index_name(entry.analysis.name, entry.path)

    def _index_name(self, name: str, path: str) -> None:
        members = self._by_name.get(name)
        if members is None:
            members = self._by_name[name] = set()
            self._sorted_names = None
        members.add(path)

    def _unindex_name(self, entry: SkillFileEntry) -> None:
        name = entry.analysis.name
        if name and name in self._by_name:
            self._by_name[name].discard(entry.path)
            if not self._by_name[name]:
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
        for name in list(names):
            members = [self._entries[p] for p in self._by_name.get(name, ())]
            members.sort(key=lambda e: self._order[e.path])
            winner, new, line = resolve_group(
                name, members, self.config.catalog_max_description_length
            )
            self._set(self._winners, name, winner)
            if self._lines.get(name) != line:
                if (name in self._lines) != (line is not None):
                    self._catalog_names = None
                self._set(self._lines, name, line)
                self._catalog_changed()
            for entry in members:
                findings = tuple(new.get(entry.path, ()))
                if self._shadow.get(entry.path, ()) != findings:
                    changed.add(entry.path)
                if findings:
                    self._shadow[entry.path] = findings
                else:
                    self._shadow.pop(entry.path, None)
        return changed

    @staticmethod
    def _set(table: dict[str, Any], key: str, value: Any) -> None:
        if value is None:
            table.pop(key, None)
        else:
            table[key] = value


def _wide_head(text: str, body_start_line: int | None) -> dict[int, str]:
    """Non-ASCII lines of the frontmatter (the first 200 lines without one)."""
    count = body_start_line + 1 if body_start_line is not None else 200
    head = text.split("\n", count)[:count]
    return {n: line.rstrip("\r") for n, line in enumerate(head) if not line.isascii()}


def _child_key(entry: SkillFileEntry) -> str:
    return os.path.basename(entry.folder if entry.folder is not None else entry.path)
