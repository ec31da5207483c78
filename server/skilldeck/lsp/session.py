"""The server's state: one :class:`FolderIndex` per workspace folder, kept true.

The session owns the lifecycle (``initialize``, ``initialized``, ``shutdown``), the
workspace folders and indexing: full scans run in a worker thread and are applied on
the event loop in one step. Each other job is a part of its own, composed here:

- :class:`~skilldeck.lsp.settings_sync.SettingsSync`: the client's settings and each
  folder's configuration;
- :class:`~skilldeck.lsp.document_sync.DocumentSync`: open buffers re-judged in place;
- :class:`~skilldeck.lsp.file_events.FileEvents`: files changed on disk;
- :class:`~skilldeck.lsp.provided_skills.ProvidedSkills`: the deck's other providers;
- :class:`~skilldeck.lsp.catalog_notifier.CatalogNotifier`: ``skilldeck/catalogChanged``;
- :class:`~skilldeck.lsp.index_progress.IndexProgress`: work-done progress;
- :class:`~skilldeck.lsp.publisher.Publisher` and :class:`~skilldeck.lsp.watching.Watching`.

Features read the index through the queries at the end of :class:`Session`.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

from lsprotocol import types
from pygls.exceptions import JsonRpcServerNotInitialized

from skilldeck.engine.config import SkilldeckConfig
from skilldeck.engine.filesystem import (
    BUNDLE_FILE,
    IndexCache,
    NotASkill,
    SkillRoot,
    default_cache_dir,
    resolve_roots,
    usable_cpus,
)
from skilldeck.engine.sources import FAILING_HEALTH, source_findings, source_status
from skilldeck.engine.text import Encoding
from skilldeck.heap import release_free_memory
from skilldeck.lsp.catalog_notifier import CatalogNotifier
from skilldeck.lsp.diagnostics import path_of
from skilldeck.lsp.document_sync import DocumentSync
from skilldeck.lsp.file_events import FileEvents, inside_or_equal
from skilldeck.lsp.handlers import as_handler, as_notification_handler
from skilldeck.lsp.host_views import HostViews
from skilldeck.lsp.index import FolderIndex, FolderScan, scan_folder
from skilldeck.lsp.index_progress import IndexProgress
from skilldeck.lsp.loose_skills import LooseSkills
from skilldeck.lsp.open_documents import OpenDocuments
from skilldeck.lsp.overlap_builds import OverlapBuilds
from skilldeck.lsp.positions import LineSource, line_source, sparse_line_source
from skilldeck.lsp.provided_skills import ProvidedSkills
from skilldeck.lsp.publisher import Publisher
from skilldeck.lsp.settings import EDITOR_SETTINGS
from skilldeck.lsp.settings_sync import SettingsSync
from skilldeck.lsp.source_refresh import SourceRefresh, register_update_command
from skilldeck.lsp.watching import Watching, watch_anchors

if TYPE_CHECKING:
    from skilldeck.engine.registry import ProviderFactory
    from skilldeck.engine.rules import Finding
    from skilldeck.lsp.server import SkilldeckServer

T = TypeVar("T")

#: Files whose diagnostics are pushed between two turns of the event loop after a scan.
PUBLISH_BATCH = 200
#: While the user works (a message from the client within this many seconds), bulk
#: publishing sends :data:`TYPING_BATCH` files per pause of this length.
TYPING_PAUSE = 0.1
TYPING_BATCH = 10
#: How long a request waits for ``initialized`` before it is refused (seconds).
INITIALIZED_WAIT_S = 5.0

__all__ = ["Session", "as_handler"]


class Session:
    """Everything the server knows (see the module doc)."""

    def __init__(self, server: SkilldeckServer) -> None:
        self.server = server
        self.folders: dict[str, FolderIndex] = {}
        #: Folders indexed in place of workspace folders while there are none (each open
        #: document's own folder: :meth:`DocumentSync.index_open_documents_alone`).
        self.stand_ins: set[str] = set()
        self._index_cache: IndexCache | None = None
        self.encoding = Encoding.UTF16
        self.settings_sync = SettingsSync(server)
        self.publisher = Publisher(server, self)
        self.watching = Watching(server, self)
        self.documents = OpenDocuments(self.folders.keys)
        self.document_sync = DocumentSync(self)
        self.file_events = FileEvents(self)
        self.provided = ProvidedSkills(self)
        self.catalogs = CatalogNotifier(self)
        self.hosts = HostViews(self)
        self.progress = IndexProgress(server)
        self.sources = SourceRefresh(self)
        self.overlaps = OverlapBuilds(self)
        self.loose = LooseSkills(self)
        #: Bumped by every index and by ``close``: work of an older generation stops.
        self.generation = 0
        #: Set by :meth:`close` (shutdown): nothing more is published.
        self.closed = False
        self._indexed: asyncio.Event | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        #: Scans and overlap builds running with the collector paused (:meth:`collector_pause`).
        self._scans_running = 0
        self._gc_was_enabled = True
        #: True from ``initialize`` until ``initialized`` has set up the folder indexes.
        self.setting_up = False
        #: Set when ``initialized`` arrives (indexing starts only then).
        self._initialized_seen = asyncio.Event()
        #: Config file -> warnings for its failing ``[[sources]]`` (shown on that file).
        self._source_findings: dict[str, tuple[Finding, ...]] = {}
        #: Editor source label -> the failure last logged for it (``None``: healthy).
        self._editor_source_errors: dict[str, str | None] = {}

    @property
    def providers(self) -> tuple[ProviderFactory, ...]:
        """Extra skill providers of every folder's deck (``build_server(providers)``)."""
        return self.provided.providers

    @providers.setter
    def providers(self, value: tuple[ProviderFactory, ...]) -> None:
        self.provided.providers = value

    # -- registration --------------------------------------------------------------

    def register_core(self) -> None:
        """Register lifecycle, text sync, configuration and file-event handlers."""
        for method, handler in (
            (types.INITIALIZE, self.on_initialize),
            (types.INITIALIZED, self.on_initialized),
            (types.TEXT_DOCUMENT_DID_OPEN, self.document_sync.on_document),
            (types.TEXT_DOCUMENT_DID_CHANGE, self.document_sync.on_document),
            (types.TEXT_DOCUMENT_DID_CLOSE, self.document_sync.on_close),
            (types.TEXT_DOCUMENT_DID_SAVE, self.document_sync.on_save),
            (types.WORKSPACE_DID_CHANGE_CONFIGURATION, self.on_configuration),
            (types.WORKSPACE_DID_CHANGE_WATCHED_FILES, self.file_events.on_watched_files),
            (types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS, self.on_folders),
            (types.SHUTDOWN, self.on_shutdown),
        ):
            requests = (types.INITIALIZE, types.SHUTDOWN)
            wrap = as_handler if method in requests else as_notification_handler
            self.server.feature(method)(wrap(handler))
        register_update_command(self)

    # -- lifecycle -----------------------------------------------------------------

    def on_initialize(self, params: types.InitializeParams) -> None:
        """Negotiated encoding, push/pull choice, initial settings."""
        self.encoding = Encoding.of(self.server.workspace.position_encoding)
        self.publisher.configure(params.capabilities)
        self.watching.configure(params.capabilities)
        self.settings_sync.initialize(params)
        self._indexed = asyncio.Event()
        self.setting_up = True

    async def on_initialized(self, params: types.InitializedParams) -> None:
        """Fetch settings, then index every folder.

        Documents opened meanwhile are not indexed on their own (that would use settings
        not yet known): the first index applies every open buffer.
        """
        self._indexed = self._indexed or asyncio.Event()
        self._initialized_seen.set()
        try:
            await self.settings_sync.fetch()
        finally:
            self.setting_up = False
        for path in self._folder_paths():
            self.folders.setdefault(path, FolderIndex(path, SkilldeckConfig()))
        if not self.folders:
            self.document_sync.index_open_documents_alone()
        await self.reindex()

    def on_shutdown(self, params: None) -> None:
        """Stop watchers and background work."""
        self.close()

    def close(self) -> None:
        """Stop everything this session started (idempotent)."""
        self.closed = True
        self.generation += 1
        self.watching.close()
        self.hosts.close()
        self.sources.close()
        self.overlaps.close()
        for task in list(self._tasks):
            task.cancel()

    async def wait_indexed(self) -> None:
        """Return once the first index of every folder has been applied.

        Indexing starts with the client's ``initialized`` notification; a request that
        needs the index and arrives without one within :data:`INITIALIZED_WAIT_S` gets a
        ServerNotInitialized error instead of waiting forever.
        """
        if self._indexed is None:
            return
        if not self._initialized_seen.is_set():
            try:
                await asyncio.wait_for(self._initialized_seen.wait(), INITIALIZED_WAIT_S)
            except asyncio.TimeoutError:
                raise JsonRpcServerNotInitialized(
                    "skilldeck indexes the workspace after the client's 'initialized' "
                    "notification, which has not arrived"
                ) from None
        await self._indexed.wait()

    async def on_configuration(self, params: types.DidChangeConfigurationParams) -> None:
        """Settings changed: re-read them and re-index."""
        await self.settings_sync.changed(params)
        await self.reindex()

    def config_for(self, folder: str) -> SkilldeckConfig:
        """The configuration of ``folder`` (see :meth:`SettingsSync.config_for`)."""
        return self.settings_sync.config_for(folder)

    # -- folders and indexing ------------------------------------------------------

    def _folder_paths(self) -> list[str]:
        folders = [path_of(f.uri) for f in self.server.workspace.folders.values()]
        paths = [p for p in folders if p]
        root = self.server.workspace.root_path
        if not paths and root:
            paths.append(root)
        return paths

    async def on_folders(self, params: types.DidChangeWorkspaceFoldersParams) -> None:
        """Workspace folders added or removed: adjust and re-index.

        A removed folder's files are published again at once: empty, unless a folder
        that remains indexes them too (a shared user root: its verdict), so nothing the
        removed folder reported stays in the client's Problems view.
        """
        removed = {path for folder in params.event.removed if (path := path_of(folder.uri))}
        added = [path for folder in params.event.added if (path := path_of(folder.uri))]
        if added:  # a real folder: the stand-ins for missing folders go
            removed |= self.stand_ins - set(added)
            self.stand_ins.clear()
        gone: set[str] = set()
        for path in removed:
            index = self.folders.pop(path, None)
            self.stand_ins.discard(path)
            if index is not None:
                gone.update(index.paths())
                gone.update(index.strays())
                self.provided.forget(index.folder)
        # The warnings on a config file only removed folders read go with them.
        kept = {
            os.path.normpath(index.config.config_file)
            for index in self.folders.values()
            if index.config.config_file is not None
        }
        for config_file in list(self._source_findings):
            if config_file not in kept:
                del self._source_findings[config_file]
                gone.add(config_file)
        for path in added:
            self.folders.setdefault(path, FolderIndex(path, SkilldeckConfig()))
        if gone:
            self.publisher.changed(gone)
        await self.reindex()

    async def reindex(self) -> None:
        """Scan every folder off the loop and apply each result atomically.

        Roots are resolved and watched *before* the scan, so a change made while the
        scan runs is not lost (it triggers a rescan).
        """
        self.generation += 1
        generation = self.generation
        pending: set[str] = set()
        progress = await self.progress.begin(generation)
        try:
            indexes = list(self.folders.values())
            plans = [await asyncio.to_thread(self._plan, index.folder) for index in indexes]
            self.settings_sync.publish_config_problems()
            if generation != self.generation:
                return
            anchors = None
            if self.watching.by_client:  # a missing root is registered from an ancestor
                every_root = [root for _config, roots in plans for root in roots]
                anchors = await asyncio.to_thread(watch_anchors, every_root)
            # A new watcher goes live after the scan (its inotify events would slow it),
            # once the client is quiet (building the watches stalls the loop).
            self.watching.update(
                ((i.folder, roots) for i, (_, roots) in zip(indexes, plans, strict=True)),
                hold=True,
                anchors=anchors,
            )
            await self.watching.wait_listed()
            if generation != self.generation:
                return
            for number, (index, (config, roots)) in enumerate(
                zip(indexes, plans, strict=True), start=1
            ):
                self.progress.folder(progress, f"{index.folder}", number, len(indexes))
                provided, provided_complete = await self.provided.read(index.folder, config)
                if generation != self.generation:
                    return
                pending |= await self._note_sources(config)
                overlay = self.overlay()
                scan = await self._collector_paused(
                    scan_folder,
                    index.folder,
                    config,
                    overlay,
                    roots=roots,
                    head_lines=self.needs_lines(),
                    cache=self.index_cache(),
                    processes=usable_cpus(),
                    provided=provided,
                    provided_complete=provided_complete,
                    on_files=self.progress.on_files(progress),
                )
                if generation != self.generation:
                    return
                pending |= self._apply_scan(index, scan)
        except Exception:
            # A failed index must not leave requests waiting for it forever: they answer
            # from what is indexed (the failure itself is reported by the caller).
            if self._indexed is not None:
                self._indexed.set()
            raise
        finally:
            self.progress.end(progress)
            self.watching.release_when_quiet(lambda: self.server.last_client_message_at)
        # The index is long-lived: keep the collector from re-walking it on every GC pass.
        gc.collect()
        gc.freeze()
        if self._indexed is not None:
            self._indexed.set()
        self.catalogs.schedule()
        self.sources.schedule()
        await self.publish_in_batches(pending)
        for index in indexes:
            await self.overlaps.build(index, generation, every_file=True)
        if generation == self.generation:
            await asyncio.to_thread(release_free_memory)  # the build's high-water mark

    async def _note_sources(self, config: SkilldeckConfig) -> set[str]:
        """Warn on the config file about its failing sources (read from the cache, after
        the providers tried them); the config file's path when its warnings changed.
        A failing editor source has no file: its failure is logged once (and its
        recovery), never shown in a dialog."""
        editor = self.settings_sync.settings.layer.remote_sources or ()
        editor_names = {spec.name for spec in editor}
        if config.source_of("remote_sources") == EDITOR_SETTINGS:
            await self._log_editor_sources(config, editor_names)
        if config.config_file is None:
            return set()
        path = os.path.normpath(config.config_file)
        findings = await asyncio.to_thread(
            source_findings, config, default_cache_dir(), elsewhere=editor_names
        )
        if self._source_findings.get(path, ()) == findings:
            return set()
        self._source_findings[path] = findings
        return {path}

    async def _log_editor_sources(self, config: SkilldeckConfig, names: set[str]) -> None:
        cache = default_cache_dir()
        for spec in config.remote_sources:
            if spec.name not in names:
                continue
            status = await asyncio.to_thread(source_status, spec, cache)
            failing = status.health in FAILING_HEALTH
            error = (status.error or status.health) if failing else None
            before = self._editor_source_errors.get(spec.label)
            if error == before:
                continue
            self._editor_source_errors[spec.label] = error
            if error is not None:
                self.server.log(
                    f'skilldeck: skill source "{spec.name}" ({spec.label}, from '
                    f"skilldeck.sources) is {status.health}: {error}",
                    types.MessageType.Warning,
                )
            elif before is not None:
                self.server.log(
                    f'skilldeck: skill source "{spec.name}" ({spec.label}) is back',
                    types.MessageType.Info,
                )

    async def note_source_health(self, folders: set[str]) -> None:
        """After a background refresh: the sources' warnings of ``folders`` again."""
        changed: set[str] = set()
        for folder in sorted(folders):
            index = self.folders.get(folder)
            if index is not None:
                changed |= await self._note_sources(index.config)
        if changed:
            self.publisher.changed(changed)

    async def _collector_paused(self, function: Callable[..., T], *args: Any, **kw: Any) -> T:
        """``function`` in a worker thread with the cyclic GC paused (this process is ours).

        A scan allocates many small acyclic objects; with the collector running, a
        10,000-file scan spends a third of its time in collections.
        """
        with self.collector_pause():
            return await asyncio.to_thread(function, *args, **kw)

    @contextlib.contextmanager
    def collector_pause(self) -> Iterator[None]:
        """Pause the cyclic GC for a scan or an overlap build. Overlapping pauses share
        one: the last to end resumes the collector (if it was running before the first).

        What the work allocated is frozen before the collector resumes: it is the index,
        long-lived and acyclic, and all of it sits in the youngest generation, so the
        first collections afterwards would walk it whole (~0.3 s at 10,000 skills, before
        the first diagnostics). A cycle of garbage made meanwhile stays with it.
        """
        if self._scans_running == 0:
            self._gc_was_enabled = gc.isenabled()
            gc.disable()
        self._scans_running += 1
        try:
            yield
        finally:
            self._scans_running -= 1
            if self._scans_running == 0 and self._gc_was_enabled:
                gc.freeze()
                gc.enable()

    def index_cache(self) -> IndexCache | None:
        """The persistent index cache (``$SKILLDECK_CACHE_DIR`` or the user cache dir).

        A warm start then parses only what changed since the last session (or the last
        ``skilldeck check``). ``None`` when the cache directory cannot be determined.
        """
        if self._index_cache is None:
            try:
                self._index_cache = IndexCache.default()
            except Exception:  # no usable cache dir: scan without one
                return None
        return self._index_cache

    def _plan(self, folder: str) -> tuple[SkilldeckConfig, tuple[SkillRoot, ...]]:
        config = self.config_for(folder)
        return config, resolve_roots(config, folder)

    def _apply_scan(self, index: FolderIndex, scan: FolderScan) -> set[str]:
        """Install ``scan``; publish open documents now, return the other changed paths."""
        changed = index.apply_scan(scan)
        open_paths: set[str] = set()
        for path, document in self.documents.items():
            open_paths.add(path)
            if index.classify(path) is not None:
                # The scan read the disk: a buffer whose file is gone stays out of the deck.
                if index.entry(path) is not None or os.path.isfile(path):
                    changed |= index.update_text(path, document.source)
            elif index.not_a_skill(path) is not None:
                changed.add(path)  # SD007: not a skill where it sits
            elif os.path.basename(path) == BUNDLE_FILE:
                changed.add(path)  # outside the roots: judged alone (LooseSkills)
        opened = changed & open_paths
        if opened:
            self.publisher.changed(opened)
        return changed - opened

    async def publish_in_batches(self, paths: set[str], batch: int = PUBLISH_BATCH) -> None:
        """Publish the diagnostics of ``paths`` a batch at a time, yielding in between.

        After a full scan that is every file of the deck: in batches, edits and requests
        are served while the Problems view fills. A newer index does not stop it: the
        newer index's own changes need not include these paths (a file the older index
        cleared is unchanged for the newer one), and a batch always publishes the
        diagnostics as they are now.
        """
        if not paths:
            return
        if self.publisher.pull:
            self.publisher.changed(paths)
            return
        ordered = sorted(paths)
        start = 0
        while start < len(ordered) and not self.closed:
            size = batch
            if self.client_at_work():
                # The user is at work (typing, completing, hovering). Stdout is written
                # synchronously: a batch the client has not read yet holds back the answer
                # behind it (8,000 overlap findings after a first index held keystrokes
                # for up to 0.4 s). So meanwhile, a small batch per pause.
                size = min(batch, TYPING_BATCH)
                await asyncio.sleep(TYPING_PAUSE)
                if self.closed:
                    return
                # And a time slice at a time: ten files of a family of copies (twenty
                # related locations each) took ~10 ms, and a keystroke waited behind them.
                await self.publisher.push_in_slices(ordered[start : start + size])
            else:
                self.publisher.changed(ordered[start : start + size])
            start += size
            await asyncio.sleep(0)

    def client_at_work(self) -> bool:
        """Whether the user is at work (typing, completing, hovering): a message from
        the client within :data:`TYPING_PAUSE`. Bulk work then yields to it."""
        return time.monotonic() - self.server.last_client_message_at < TYPING_PAUSE

    def needs_lines(self) -> bool:
        """Whether positions need line text (every encoding but UTF-32 does)."""
        return self.encoding is not Encoding.UTF32

    def overlay(self) -> dict[str, str]:
        """Unsaved text of every open document, by path."""
        return {path: document.source for path, document in self.documents.items()}

    def on_paths_changed(self, paths: set[str]) -> None:
        """Files changed on disk (our own watcher): see :class:`FileEvents`."""
        self.file_events.on_paths_changed(paths)

    # -- queries used by features --------------------------------------------------

    def findings(self, path: str) -> tuple[Finding, ...]:
        """Findings of ``path`` from the first folder that indexes it."""
        path = os.path.normpath(path)
        if path in self._source_findings:
            return self._source_findings[path]
        for index in self.folders.values():
            if index.entry(path) is not None:
                return index.findings(path)
        for index in self.folders.values():
            # A script or reference of a bundle: its safety findings, at its lines.
            found = index.bundle_file_findings(path)
            if found is not None:
                return found
        is_open = self.documents.get(path) is not None
        for index in self.folders.values():
            # A stray is judged while the scan found it there (or its buffer is open):
            # once deleted, its SD007 goes, as it does from ``check``.
            if not index.ready or not (is_open or path in index.strays()):
                continue
            misplaced = index.not_a_skill(path)
            if misplaced is not None:
                finding = misplaced.finding(index.config.rule_settings())
                # an agent that loads it anyway says so (Codex, below a root: SD903)
                hosted = index.hosted_of(path) if path in index.strays() else ()
                return (() if finding is None else (finding,)) + hosted
        loose = self.loose.findings(path)  # an open SKILL.md outside every root
        if loose is None:
            loose = self.loose.bundle_file_findings(path)  # or a file of its bundle
        return () if loose is None else loose

    def not_a_skill(self, path: str) -> NotASkill | None:
        """Why ``path`` under a root of some folder is no skill (``SD007``), if it is not."""
        path = os.path.normpath(path)
        for index in self.folders.values():
            misplaced = index.not_a_skill(path) if index.ready else None
            if misplaced is not None:
                return misplaced
        return None

    def all_paths(self) -> set[str]:
        """Every indexed skill file path across folders, every Markdown file that is no
        skill where it sits (``SD007``), and every file of a bundle with safety findings."""
        paths: set[str] = set()
        for index in self.folders.values():
            paths.update(index.paths())
            paths.update(index.strays())
            paths.update(index.bundle_paths())
        return paths | self.loose.paths()

    def lines(self, path: str) -> LineSource:
        """Line text for position conversion: the open buffer, else the cached head lines."""
        document = self.documents.get(path)
        if document is not None:
            return line_source(document.source)
        for index in self.folders.values():
            wide = index.wide_lines(path)
            if wide:
                return sparse_line_source(wide)
        return sparse_line_source({})

    def folder_for(self, uri: str) -> FolderIndex | None:
        """The folder index for a document or folder URI (the deepest containing folder)."""
        path = self.documents.path_of(uri) if uri.startswith("file:") else None
        if not path:
            return None
        for index in self.folders.values():
            if index.entry(path) is not None:
                return index
        best: FolderIndex | None = None
        for index in self.folders.values():
            if inside_or_equal(path, index.folder) and (
                best is None or len(index.folder) > len(best.folder)
            ):
                best = index
        return best

    # -- tasks -------------------------------------------------------------------

    def spawn(self, coroutine: Any) -> asyncio.Task[Any]:
        """Run ``coroutine`` as a task of this session (cancelled by :meth:`close`; a
        failure is reported like a handler's)."""
        task: asyncio.Task[Any] = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            error = task.exception()
            if isinstance(error, Exception):
                self.server.report_server_error(error, None)
