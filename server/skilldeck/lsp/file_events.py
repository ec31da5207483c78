"""Files changed on disk (the client's ``didChangeWatchedFiles`` or our own watcher):
refresh the skill files concerned, re-find the stray Markdown files of their folders
(``SD007``), re-scan a bundle whose other files changed (its ``SKILL.md`` carries their
SD10xx findings), or rescan when a root itself came or went or a folder's config file
(``skilldeck.toml``, ``pyproject.toml`` at its project root) changed. Tests:
``tests/lsp/test_watching.py``, ``tests/parity/test_parity.py``.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from skilldeck.engine.config import CONFIG_FILE_NAMES
from skilldeck.engine.files import analyze_skill_file, bundle_findings_of, with_bundle_findings
from skilldeck.engine.filesystem import (
    BUNDLE_FILE,
    SkillFileEntry,
    name_span,
    relative_parts,
    stray_files,
)
from skilldeck.engine.host_views import settings_files
from skilldeck.engine.safety import BundleFindings
from skilldeck.lsp.index import FolderIndex

if TYPE_CHECKING:
    from skilldeck.lsp.session import Session

#: Delay before a burst of file events becomes a rescan of the folder.
RESCAN_DELAY_S = 0.05


class FileEvents:
    """Turns changed paths into index updates (see the module doc)."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self._rescan_handle: asyncio.TimerHandle | None = None

    def on_watched_files(self, params: types.DidChangeWatchedFilesParams) -> None:
        """The client saw files change on disk."""
        documents = self.session.documents
        paths = {documents.path_of(change.uri) for change in params.changes}
        self.on_paths_changed({p for p in paths if p})

    def on_paths_changed(self, paths: set[str]) -> None:
        """Files changed on disk: refresh those skill files, or rescan when roots moved."""
        session = self.session
        open_paths = set(session.overlay())
        files: set[str] = set()
        #: Folders a skill file changed in (a saved buffer too): their overlap is built
        #: again once the disk is quiet (see skilldeck.lsp.overlap_builds).
        settle: set[str] = set()
        #: Skill files whose bundle's other files changed (a script rewritten in place).
        bundles: set[str] = set()
        folders = session.watching.config_folders
        hosts = settings_files(folders) if paths else frozenset()
        configs = {p for p in paths if is_config_file(p, folders) or os.path.normpath(p) in hosts}
        rescan = bool(configs)  # the settings (skilldeck's, an agent's own) may have changed
        for index in session.folders.values():
            for path in paths - configs:
                skill_file = index.classify(path) is not None
                if skill_file:
                    settle.add(index.folder)
                folder = None if skill_file else root_child_folder(path, index)
                if folder is not None and index.entry(os.path.join(folder, BUNDLE_FILE)):
                    bundles.add(os.path.join(folder, BUNDLE_FILE))
                if path in open_paths and not skill_file:
                    continue
                if skill_file:  # an open one too: it leaves the deck when its file is gone
                    files.add(path)
                elif folder is not None:
                    files.add(path)  # a file inside a bundle folder: strays may change
                elif _is_root_child(path, index) and index.classify(
                    os.path.join(path, BUNDLE_FILE)
                ):
                    files.add(os.path.join(path, BUNDLE_FILE))
                elif any(inside_or_equal(root.path, path) for root in index.roots):
                    rescan = True
        if rescan:
            self.schedule_rescan()
        elif files or bundles:
            session.spawn(self._refresh(files, bundles - files))
        if settle and not rescan:
            session.overlaps.schedule(settle)

    def on_opened(self, path: str) -> None:
        """A skill file was opened: judge its bundle's other files again (a script below
        the bundle folder that changed on disk is seen by no server-side watch, and a
        client may watch nothing), so what the buffer shows is as fresh as a ``check``."""
        if os.path.basename(path) != BUNDLE_FILE:
            return
        if any(index.entry(path) is not None for index in self.session.folders.values()):
            self.session.spawn(self._refresh(set(), {path}))

    def schedule_rescan(self) -> None:
        """Re-index every folder shortly (a burst of events is one rescan)."""
        if self._rescan_handle is None:
            loop = asyncio.get_running_loop()
            self._rescan_handle = loop.call_later(RESCAN_DELAY_S, self._start_rescan)

    def _start_rescan(self) -> None:
        self._rescan_handle = None
        self.session.spawn(self.session.reindex())

    async def _refresh(self, paths: set[str], bundles: AbstractSet[str] = frozenset()) -> None:
        """Re-read ``paths`` and re-scan the bundles of the skill files ``bundles``."""
        session = self.session
        generation = session.generation
        for index in list(session.folders.values()):
            wanted = [(p, index.classify(p)) for p in paths]
            fresh = await asyncio.to_thread(_read_entries, index, wanted, session.needs_lines())
            if generation != session.generation:
                return
            changed: set[str] = set()
            overlay = session.overlay()
            for path, entry, wide in fresh:
                if path in overlay:
                    # An open buffer is judged by its text while its file exists; once the
                    # file is gone it is no skill of the deck (not in the tree, the count
                    # or the catalog, no diagnostics), and a save brings it back.
                    if entry is None:
                        changed |= index.remove(path)
                    elif index.entry(path) is None:
                        changed |= index.update_text(path, overlay[path])
                    continue
                changed |= index.remove(path) if entry is None else index.replace_entry(entry, wide)
            folders = {f for p in paths if (f := root_child_folder(p, index)) is not None}
            for folder, strays in (await asyncio.to_thread(_strays_in, index, folders)).items():
                changed |= index.set_strays(folder, strays)
            scanned = await asyncio.to_thread(_scan_bundles, index, bundles)
            if generation != session.generation:
                return
            for path, found in scanned.items():
                changed |= index.set_bundle_findings(path, found)
            session.publisher.changed(changed)
        session.catalogs.schedule()
        session.hosts.schedule()


def is_config_file(path: str, project_roots: AbstractSet[str]) -> bool:
    """Whether ``path`` is a config file that a folder whose project root is one of
    ``project_roots`` reads its settings from
    (:func:`skilldeck.engine.config.find_config_file`)."""
    return (
        os.path.basename(path) in CONFIG_FILE_NAMES
        and os.path.normpath(os.path.dirname(path)) in project_roots
    )


def root_child_folder(path: str, index: FolderIndex) -> str | None:
    """The root child folder ``<root>/<child>`` that ``path`` lies in, below it."""
    for root in index.roots:
        parts = relative_parts(path, root)
        if parts is not None and len(parts) >= 2:
            return os.path.join(root.path, parts[0])
    return None


def inside_or_equal(path: str, ancestor: str) -> bool:
    """Whether ``path`` is ``ancestor`` or below it (compared after ``normpath``)."""
    path = os.path.normpath(path)
    ancestor = os.path.normpath(ancestor)
    return path == ancestor or path.startswith(ancestor.rstrip(os.sep) + os.sep)


def _strays_in(index: FolderIndex, folders: Iterable[str]) -> dict[str, list[str]]:
    """The stray Markdown files of each root child folder (none when it holds a skill
    file the index knows): the scan's rule, for a folder files changed in (blocking)."""
    found: dict[str, list[str]] = {}
    for folder in folders:
        found[folder] = []
        if index.entry(os.path.join(folder, BUNDLE_FILE)) is not None:
            continue
        root = next(r for r in index.roots if os.path.dirname(folder) == r.path.rstrip(os.sep))
        found[folder] = [path for path, _place in stray_files(root, os.path.basename(folder))]
    return found


def _is_root_child(path: str, index: FolderIndex) -> bool:
    parent = os.path.dirname(os.path.normpath(path))
    return any(os.path.normpath(root.path) == parent for root in index.roots)


def _scan_bundles(index: FolderIndex, paths: Iterable[str]) -> dict[str, BundleFindings]:
    """The bundle findings of the skill files ``paths`` of ``index``, read from disk now
    (blocking: runs in a worker thread)."""
    settings = index.config.rule_settings()
    found: dict[str, BundleFindings] = {}
    for path in paths:
        entry = index.entry(path)
        if entry is not None:
            found[path] = bundle_findings_of(with_bundle_findings(entry.analysis, settings))
    return found


def _read_entries(
    index: FolderIndex, wanted: Iterable[tuple[str, Any]], head_lines: bool
) -> list[tuple[str, SkillFileEntry | None, dict[int, str]]]:
    """Re-analyse skill files from disk (blocking: runs in a worker thread)."""
    settings = index.config.rule_settings()
    result: list[tuple[str, SkillFileEntry | None, dict[int, str]]] = []
    for path, hit in wanted:
        if hit is None:
            continue
        root, layout, expected = hit
        if not os.path.isfile(path):
            result.append((path, None, {}))
            continue
        analysis = analyze_skill_file(path, expected_name=expected, settings=settings)
        folder = os.path.dirname(path) if layout == "bundle" else None
        entry = SkillFileEntry(root, layout, path, folder, expected, analysis, name_span(analysis))
        wide = dict(analysis.wide_lines) if head_lines else {}
        result.append((path, entry, wide))
    return result
