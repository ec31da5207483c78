"""The server's state: one :class:`FolderIndex` per workspace folder, kept true.

Owns the lifecycle handlers (initialize, text sync, configuration, file events) and
routes every change to the folder indexes, then to the :class:`Publisher` and the
catalog notifier. Full scans run in a worker thread (``asyncio.to_thread``) and are
applied on the event loop in one step; edits to one document are re-judged in place.
"""

from __future__ import annotations

import asyncio
import gc
import os
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, TypeVar

from lsprotocol import types
from pygls.exceptions import JsonRpcServerNotInitialized

from skilldeck.engine.config import ConfigError, SkilldeckConfig, load_project_config
from skilldeck.engine.deck import ProvidedSkill, provided_skills
from skilldeck.engine.defaults import provider_registry
from skilldeck.engine.fs_provider import BUNDLE_FILE, SkillFileEntry, name_span
from skilldeck.engine.index_cache import IndexCache
from skilldeck.engine.layout import NotASkill, relative_parts, stray_files
from skilldeck.engine.positions import Encoding
from skilldeck.engine.roots import SkillRoot, find_project_root, resolve_roots
from skilldeck.engine.scan_helpers import usable_cpus
from skilldeck.engine.skill_file import analyze_skill_file
from skilldeck.lsp.diagnostics import path_of, uri_of
from skilldeck.lsp.index import (
    FolderIndex,
    FolderScan,
    current_catalog,
    hosts_of,
    scan_folder,
)
from skilldeck.lsp.open_documents import OpenDocuments
from skilldeck.lsp.positions import LineSource, line_source, sparse_line_source
from skilldeck.lsp.publisher import Publisher
from skilldeck.lsp.settings import ParsedSettings, anchored, parse_settings
from skilldeck.lsp.watching import Watching

if TYPE_CHECKING:
    from skilldeck.engine.findings import Finding
    from skilldeck.engine.provider import ProviderFactory
    from skilldeck.engine.registry import SkillRegistry
    from skilldeck.lsp.server import SkilldeckServer

T = TypeVar("T")

CATALOG_CHANGED = "skilldeck/catalogChanged"
#: Delay before a burst of file events becomes a rescan of the folder.
RESCAN_DELAY_S = 0.05
#: Quiet time after the last change before catalogs are re-digested (off the keystroke path).
CATALOG_DELAY_S = 0.3
#: Longest a catalog check waits while changes keep coming (seconds).
CATALOG_MAX_WAIT_S = 1.0
#: Files whose diagnostics are pushed between two turns of the event loop after a scan.
PUBLISH_BATCH = 200
#: How long the server waits for the client to answer ``workspace/configuration``.
CONFIGURATION_TIMEOUT_S = 2.0
#: Roughly how many ``done/total skill files`` progress reports one folder's scan sends.
PROGRESS_STEPS = 50
#: How long a request waits for ``initialized`` before it is refused (seconds).
INITIALIZED_WAIT_S = 5.0


class Session:
    """Everything the server knows (see the module doc)."""

    def __init__(self, server: SkilldeckServer) -> None:
        self.server = server
        self.folders: dict[str, FolderIndex] = {}
        self._index_cache: IndexCache | None = None
        self.encoding = Encoding.UTF16
        self.settings = ParsedSettings()
        self.publisher = Publisher(server, self)
        self.watching = Watching(server, self)
        self.documents = OpenDocuments(self.folders.keys)
        self._pending_docs: set[str] = set()
        self._flush_handle: asyncio.Handle | None = None
        self._catalog_handle: asyncio.TimerHandle | None = None
        self._catalog_due: float | None = None
        self._rescan_handle: asyncio.TimerHandle | None = None
        self._hosts_handle: asyncio.TimerHandle | None = None
        self._generation = 0
        self._indexed: asyncio.Event | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        #: Scans running with the collector paused (:meth:`_collector_paused`).
        self._scans_running = 0
        self._gc_was_enabled = True
        self._config_supported = False
        #: True from ``initialize`` until ``initialized`` has set up the folder indexes.
        self._setting_up = False
        #: Set when ``initialized`` arrives (indexing starts only then).
        self._initialized_seen = asyncio.Event()
        #: Extra skill providers of every folder's deck (``build_server(providers)``).
        self.providers: tuple[ProviderFactory, ...] = ()
        #: Per folder: the registry of the deck's non-filesystem providers, and the
        #: unsubscribe of its change listener.
        self._provider_registries: dict[str, tuple[SkillRegistry, Callable[[], None]]] = {}

    # -- registration --------------------------------------------------------------

    def register_core(self) -> None:
        """Register lifecycle, text sync, configuration and file-event handlers."""
        for method, handler in (
            (types.INITIALIZE, self.on_initialize),
            (types.INITIALIZED, self.on_initialized),
            (types.TEXT_DOCUMENT_DID_OPEN, self.on_document),
            (types.TEXT_DOCUMENT_DID_CHANGE, self.on_document),
            (types.TEXT_DOCUMENT_DID_CLOSE, self.on_close),
            (types.WORKSPACE_DID_CHANGE_CONFIGURATION, self.on_configuration),
            (types.WORKSPACE_DID_CHANGE_WATCHED_FILES, self.on_watched_files),
            (types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS, self.on_folders),
            (types.SHUTDOWN, self.on_shutdown),
        ):
            self.server.feature(method)(as_handler(handler))

    # -- lifecycle -----------------------------------------------------------------

    def on_initialize(self, params: types.InitializeParams) -> None:
        """Negotiated encoding, push/pull choice, initial settings."""
        self.encoding = Encoding.of(self.server.workspace.position_encoding)
        self.publisher.configure(params.capabilities)
        self.watching.configure(params.capabilities)
        workspace = params.capabilities.workspace
        self._config_supported = bool(workspace and workspace.configuration)
        options = params.initialization_options
        raw = options.get("skilldeck", options) if isinstance(options, dict) else options
        self._apply_settings(parse_settings(raw))
        self._indexed = asyncio.Event()
        self._setting_up = True

    async def on_initialized(self, params: types.InitializedParams) -> None:
        """Fetch settings, then index every folder.

        Documents opened meanwhile are not indexed on their own (that would use settings
        not yet known): the first index applies every open buffer.
        """
        self._indexed = self._indexed or asyncio.Event()
        self._initialized_seen.set()
        try:
            await self._fetch_configuration()
        finally:
            self._setting_up = False
        for path in self._folder_paths():
            self.folders.setdefault(path, FolderIndex(path, SkilldeckConfig()))
        if not self.folders:
            self._index_open_documents_alone()
        await self.reindex()

    def on_shutdown(self, params: None) -> None:
        """Stop watchers and background work."""
        self.close()

    def close(self) -> None:
        """Stop everything this session started (idempotent)."""
        self._generation += 1
        self.watching.close()
        if self._hosts_handle is not None:
            self._hosts_handle.cancel()
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

    # -- settings ------------------------------------------------------------------

    def _apply_settings(self, parsed: ParsedSettings) -> None:
        self.settings = parsed
        for warning in parsed.warnings:
            self.server.warn_user(warning)

    async def _fetch_configuration(self) -> None:
        """Ask the client for the ``skilldeck`` section; keep the settings on any failure.

        A client that does not answer within :data:`CONFIGURATION_TIMEOUT_S`, answers
        with an error, or answers with something other than a list of one value keeps
        the settings already known (``initializationOptions`` or the defaults); a
        warning is logged.
        """
        if not self._config_supported:
            return
        keeping = "keeping the initialization options or defaults"
        request: asyncio.Future[Any] = asyncio.ensure_future(
            self.server.protocol.send_request_async(
                types.WORKSPACE_CONFIGURATION,
                types.ConfigurationParams(items=[types.ConfigurationItem(section="skilldeck")]),
            )
        )
        # Not wait_for: cancelling the request would make a late answer an error in pygls.
        request.add_done_callback(_retrieve)
        done, _ = await asyncio.wait({request}, timeout=CONFIGURATION_TIMEOUT_S)
        if not done:
            self.server.log(
                f"skilldeck: workspace/configuration got no answer within "
                f"{CONFIGURATION_TIMEOUT_S:g} s; {keeping}.",
                types.MessageType.Warning,
            )
            return
        try:
            result: Any = _json_value(request.result())
        except Exception as error:  # a client that cannot answer keeps the old settings
            self.server.log(
                f"skilldeck: workspace/configuration failed: {error}; {keeping}.",
                types.MessageType.Warning,
            )
            return
        if not isinstance(result, list) or len(result) != 1:
            self.server.log(
                "skilldeck: workspace/configuration answered "
                f"{_shorten(result)} instead of a list of one value; {keeping}.",
                types.MessageType.Warning,
            )
            return
        if result[0] is not None:
            self._apply_settings(parse_settings(result[0]))

    async def on_configuration(self, params: types.DidChangeConfigurationParams) -> None:
        """Settings changed: re-read them and re-index."""
        raw = params.settings
        if self._config_supported:
            await self._fetch_configuration()
        elif isinstance(raw, dict):
            self._apply_settings(parse_settings(raw.get("skilldeck", raw)))
        await self.reindex()

    def config_for(self, folder: str) -> SkilldeckConfig:
        """Environment, then the project's config file, then editor settings (blocking)."""
        base = SkilldeckConfig.from_environment()
        layer = anchored(self.settings.layer, folder)
        try:
            return load_project_config(find_project_root(folder), base=base).merged(layer)
        except ConfigError as error:
            self.server.warn_user(f"skilldeck: {error}; using the defaults.")
            return base.merged(layer)

    # -- folders and indexing ------------------------------------------------------

    def _folder_paths(self) -> list[str]:
        folders = [path_of(f.uri) for f in self.server.workspace.folders.values()]
        paths = [p for p in folders if p]
        root = self.server.workspace.root_path
        if not paths and root:
            paths.append(root)
        return paths

    async def on_folders(self, params: types.DidChangeWorkspaceFoldersParams) -> None:
        """Workspace folders added or removed: adjust and re-index."""
        for removed in params.event.removed:
            path = path_of(removed.uri)
            if path:
                self.folders.pop(path, None)
        for added in params.event.added:
            path = path_of(added.uri)
            if path:
                self.folders.setdefault(path, FolderIndex(path, SkilldeckConfig()))
        await self.reindex()

    async def reindex(self) -> None:
        """Scan every folder off the loop and apply each result atomically.

        Roots are resolved and watched *before* the scan, so a change made while the
        scan runs is not lost (it triggers a rescan).
        """
        self._generation += 1
        generation = self._generation
        pending: set[str] = set()
        progress = await self._progress_begin()
        try:
            indexes = list(self.folders.values())
            plans = [await asyncio.to_thread(self._plan, index.folder) for index in indexes]
            if generation != self._generation:
                return
            # A new watcher goes live after the scan: its inotify events would slow it.
            self.watching.update(
                ((i.folder, roots) for i, (_, roots) in zip(indexes, plans, strict=True)),
                hold=True,
            )
            await self.watching.wait_listed()
            if generation != self._generation:
                return
            for number, (index, (config, roots)) in enumerate(
                zip(indexes, plans, strict=True), start=1
            ):
                self._progress_report(progress, f"{index.folder}", number)
                provided, provided_complete = await self._provided_skills(index.folder, config)
                if generation != self._generation:
                    return
                overlay = self.overlay()
                scan = await self._collector_paused(
                    scan_folder,
                    index.folder,
                    config,
                    overlay,
                    roots=roots,
                    head_lines=self._needs_lines(),
                    cache=self.index_cache(),
                    processes=usable_cpus(),
                    provided=provided,
                    provided_complete=provided_complete,
                    on_files=self._file_progress(progress),
                )
                if generation != self._generation:
                    return
                pending |= self._apply_scan(index, scan)
        except Exception:
            # A failed index must not leave requests waiting for it forever: they answer
            # from what is indexed (the failure itself is reported by the caller).
            if self._indexed is not None:
                self._indexed.set()
            raise
        finally:
            self._progress_end(progress)
            self.watching.release()
        # The index is long-lived: keep the collector from re-walking it on every GC pass.
        gc.collect()
        gc.freeze()
        if self._indexed is not None:
            self._indexed.set()
        self.schedule_catalog_check()
        await self._publish_in_batches(pending, generation)

    async def _provided_skills(
        self, folder: str, config: SkilldeckConfig
    ) -> tuple[tuple[ProvidedSkill, ...], bool]:
        """The skills of the deck's other providers for ``folder`` (a fresh registry per
        index: the configuration may have changed). A provider that fails makes the
        folder's view incomplete; it never stops indexing."""
        old = self._provider_registries.pop(folder, None)
        if old is not None:
            old[1]()
        registry = provider_registry(config, self.providers)
        unsubscribe = registry.on_change(lambda: self._on_provider_change(folder))
        self._provider_registries[folder] = (registry, unsubscribe)
        try:
            return await provided_skills(registry, cwd=folder)
        except Exception as error:
            self.server.log(f"skilldeck: a skill provider failed: {error!r}")
            return (), False

    def _on_provider_change(self, folder: str) -> None:
        """A provider invalidated its skills: re-read them and re-resolve their names."""
        self._spawn(self._refresh_provided(folder))

    async def _refresh_provided(self, folder: str) -> None:
        index = self.folders.get(folder)
        held = self._provider_registries.get(folder)
        if index is None or held is None or not index.ready:
            return
        try:
            provided, complete = await provided_skills(held[0], cwd=folder)
        except Exception as error:
            self.server.log(f"skilldeck: a skill provider failed: {error!r}")
            provided, complete = index.provided, False
        if self.folders.get(folder) is not index:
            return
        changed = index.set_provided(provided, complete)
        self.publisher.changed(changed)
        self.schedule_catalog_check()

    async def _collector_paused(self, function: Callable[..., T], *args: Any, **kw: Any) -> T:
        """``function`` in a worker thread with the cyclic GC paused (this process is ours).

        A scan allocates many small acyclic objects; with the collector running, a
        10,000-file scan spends a third of its time in collections. Overlapping scans
        share one pause; the last to finish resumes the collector.
        """
        if self._scans_running == 0:
            self._gc_was_enabled = gc.isenabled()
            gc.disable()
        self._scans_running += 1
        try:
            return await asyncio.to_thread(function, *args, **kw)
        finally:
            self._scans_running -= 1
            if self._scans_running == 0 and self._gc_was_enabled:
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
                changed |= index.update_text(path, document.source)
            elif index.not_a_skill(path) is not None:
                changed.add(path)  # SD007: not a skill where it sits
        opened = changed & open_paths
        if opened:
            self.publisher.changed(opened)
        return changed - opened

    async def _publish_in_batches(self, paths: set[str], generation: int) -> None:
        """Publish the diagnostics of ``paths`` a batch at a time, yielding in between.

        After a full scan that is every file of the deck: in batches, edits and requests
        are served while the Problems view fills. A newer index supersedes the rest
        (it publishes its own changes).
        """
        if not paths:
            return
        if self.publisher.pull:
            self.publisher.changed(paths)
            return
        ordered = sorted(paths)
        for start in range(0, len(ordered), PUBLISH_BATCH):
            if generation != self._generation:
                return
            self.publisher.changed(ordered[start : start + PUBLISH_BATCH])
            await asyncio.sleep(0)

    def _needs_lines(self) -> bool:
        return self.encoding is not Encoding.UTF32

    def overlay(self) -> dict[str, str]:
        """Unsaved text of every open document, by path."""
        return {path: document.source for path, document in self.documents.items()}

    # -- documents -----------------------------------------------------------------

    def on_document(
        self, params: types.DidOpenTextDocumentParams | types.DidChangeTextDocumentParams
    ) -> None:
        """A buffer opened or changed: re-judge it soon (bursts coalesce).

        Before ``initialized`` has set up the folder indexes the buffer waits: the first
        index applies it.
        """
        uri = params.text_document.uri
        if self._setting_up:
            return
        if not self.folders:
            if self._index_open_documents_alone():
                self._spawn(self.reindex())
            return
        self._pending_docs.add(uri)
        if self._flush_handle is None:
            self._flush_handle = asyncio.get_running_loop().call_soon(self._flush_documents)

    def _index_open_documents_alone(self) -> bool:
        """Without workspace folders, index each open document's own folder instead."""
        added = False
        for path, _ in self.documents.items():
            folder = os.path.dirname(path)
            if folder not in self.folders:
                self.folders[folder] = FolderIndex(folder, SkilldeckConfig())
                added = True
        return added

    def _flush_documents(self) -> None:
        self._flush_handle = None
        uris, self._pending_docs = self._pending_docs, set()
        for uri in uris:
            document = self.documents.by_uri(uri)
            path = self.documents.path_of(uri)
            if document is None or not path:
                continue
            changed: set[str] = set()
            for index in self.folders.values():
                if index.ready and index.classify(path) is not None:
                    changed |= index.update_text(path, document.source)
            if not changed and self.not_a_skill(path) is not None:
                changed.add(path)  # SD007: not a skill where it sits
            self.publisher.changed(changed, by_client=True)
        self.schedule_catalog_check()

    def on_close(self, params: types.DidCloseTextDocumentParams) -> None:
        """A buffer closed: the file on disk is the truth again."""
        path = self.documents.path_of(params.text_document.uri)
        if path:
            self.on_paths_changed({path})

    # -- file events ---------------------------------------------------------------

    def on_watched_files(self, params: types.DidChangeWatchedFilesParams) -> None:
        """The client saw files change on disk."""
        paths = {self.documents.path_of(change.uri) for change in params.changes}
        self.on_paths_changed({p for p in paths if p})

    def on_paths_changed(self, paths: set[str]) -> None:
        """Files changed on disk: refresh those skill files, or rescan when roots moved."""
        open_paths = set(self.overlay())
        files: set[str] = set()
        rescan = False
        for index in self.folders.values():
            for path in paths:
                if path in open_paths:
                    continue
                if index.classify(path) is not None:
                    files.add(path)
                elif _root_child_folder(path, index) is not None:
                    files.add(path)  # a file inside a bundle folder: strays may change
                elif _is_root_child(path, index) and index.classify(
                    os.path.join(path, BUNDLE_FILE)
                ):
                    files.add(os.path.join(path, BUNDLE_FILE))
                elif any(_inside_or_equal(root.path, path) for root in index.roots):
                    rescan = True
        if rescan:
            self.schedule_rescan()
        elif files:
            self._spawn(self._refresh_files(files))

    def schedule_rescan(self) -> None:
        """Re-index every folder shortly (a burst of events is one rescan)."""
        if self._rescan_handle is None:
            loop = asyncio.get_running_loop()
            self._rescan_handle = loop.call_later(RESCAN_DELAY_S, self._start_rescan)

    def _start_rescan(self) -> None:
        self._rescan_handle = None
        self._spawn(self.reindex())

    async def _refresh_files(self, paths: set[str]) -> None:
        generation = self._generation
        for index in list(self.folders.values()):
            wanted = [(p, index.classify(p)) for p in paths]
            fresh = await asyncio.to_thread(_read_entries, index, wanted, self._needs_lines())
            if generation != self._generation:
                return
            changed: set[str] = set()
            open_paths = set(self.overlay())
            for path, entry, wide in fresh:
                if path in open_paths:
                    continue
                changed |= index.remove(path) if entry is None else index.replace_entry(entry, wide)
            folders = {f for p in paths if (f := _root_child_folder(p, index)) is not None}
            for folder, strays in (await asyncio.to_thread(_strays_in, index, folders)).items():
                changed |= index.set_strays(folder, strays)
            self.publisher.changed(changed)
        self.schedule_catalog_check()
        self._schedule_hosts_refresh()

    def _schedule_hosts_refresh(self) -> None:
        """After files changed on disk, recompute what the agents of a ``hosts`` setting
        make of the deck, once the burst is over (never on the keystroke path: unsaved
        buffers do not count until saved)."""
        if not any(tuple(i.config.hosts) != ("dsh",) for i in self.folders.values()):
            return
        if self._hosts_handle is not None:
            self._hosts_handle.cancel()
        loop = asyncio.get_running_loop()
        self._hosts_handle = loop.call_later(
            RESCAN_DELAY_S, lambda: self._spawn(self._refresh_hosts())
        )

    async def _refresh_hosts(self) -> None:
        self._hosts_handle = None
        generation = self._generation
        for index in list(self.folders.values()):
            if not index.ready or tuple(index.config.hosts) == ("dsh",):
                continue
            view, found = await asyncio.to_thread(
                hosts_of, index.config, index.folder, index.entries(), self.index_cache()
            )
            if generation != self._generation:
                return
            self.publisher.changed(index.set_hosts(view, found))

    # -- queries used by features --------------------------------------------------

    def findings(self, path: str) -> tuple[Finding, ...]:
        """Findings of ``path`` from the first folder that indexes it."""
        path = os.path.normpath(path)
        for index in self.folders.values():
            if index.entry(path) is not None:
                return index.findings(path)
        for index in self.folders.values():
            misplaced = index.not_a_skill(path) if index.ready else None
            if misplaced is not None:
                finding = misplaced.finding(index.config.rule_settings())
                return () if finding is None else (finding,)
        return ()

    def not_a_skill(self, path: str) -> NotASkill | None:
        """Why ``path`` under a root of some folder is no skill (``SD007``), if it is not."""
        path = os.path.normpath(path)
        for index in self.folders.values():
            misplaced = index.not_a_skill(path) if index.ready else None
            if misplaced is not None:
                return misplaced
        return None

    def all_paths(self) -> set[str]:
        """Every indexed skill file path across folders, and every Markdown file that is
        no skill where it sits (``SD007``)."""
        paths: set[str] = set()
        for index in self.folders.values():
            paths.update(index.paths())
            paths.update(index.strays())
        return paths

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
            if _inside_or_equal(path, index.folder) and (
                best is None or len(index.folder) > len(best.folder)
            ):
                best = index
        return best

    # -- catalog -------------------------------------------------------------------

    def schedule_catalog_check(self) -> None:
        """Re-digest catalogs once changes pause; notify ``skilldeck/catalogChanged``.

        Debounced: each change restarts the ``CATALOG_DELAY_S`` wait, so the whole-deck
        rebuild stays off the keystroke path while the user types; a steady stream of
        changes still gets a check every ``CATALOG_MAX_WAIT_S``.
        """
        loop = asyncio.get_running_loop()
        now = loop.time()
        if self._catalog_due is None:
            self._catalog_due = now + CATALOG_MAX_WAIT_S
        if self._catalog_handle is not None:
            self._catalog_handle.cancel()
        delay = max(0.0, min(CATALOG_DELAY_S, self._catalog_due - now))
        self._catalog_handle = loop.call_later(delay, self._check_catalogs)

    def _check_catalogs(self) -> None:
        self._catalog_handle = None
        self._catalog_due = None
        self._spawn(self._notify_catalogs())

    async def _notify_catalogs(self) -> None:
        for index in list(self.folders.values()):
            if not index.ready:
                continue
            state = await current_catalog(index)
            if state.digest == index.catalog_digest:
                continue
            index.catalog_digest = state.digest
            self.server.protocol.notify(
                CATALOG_CHANGED,
                {
                    "folderUri": uri_of(index.folder),
                    "complete": state.complete,
                    "tokenEstimate": state.token_estimate,
                    "skillCount": state.skill_count,
                },
            )

    # -- progress and tasks --------------------------------------------------------

    async def _progress_begin(self) -> str | None:
        window = self.server.client_capabilities.window
        if not (window and window.work_done_progress):
            return None
        token = f"skilldeck-index-{self._generation}"
        try:
            await self.server.work_done_progress.create_async(token)
        except Exception:
            return None
        self.server.work_done_progress.begin(
            token, types.WorkDoneProgressBegin(title="Indexing skills", percentage=0)
        )
        return token

    def _progress_report(self, token: str | None, message: str, number: int) -> None:
        if token is None:
            return
        total = max(1, len(self.folders))
        self.server.work_done_progress.report(
            token,
            types.WorkDoneProgressReport(
                message=message, percentage=int(100 * (number - 1) / total)
            ),
        )

    def _file_progress(self, token: str | None) -> Callable[[int, int], None] | None:
        """``on_files`` for a scan in a worker thread: about :data:`PROGRESS_STEPS` reports
        ``done/total skill files`` per folder, each sent from the event loop."""
        if token is None:
            return None
        loop = asyncio.get_running_loop()

        def on_files(done: int, total: int) -> None:
            if done % max(1, total // PROGRESS_STEPS) == 0 or done == total:
                loop.call_soon_threadsafe(self._progress_files, token, done, total)

        return on_files

    def _progress_files(self, token: str, done: int, total: int) -> None:
        self.server.work_done_progress.report(
            token,
            types.WorkDoneProgressReport(
                message=f"{done:,}/{total:,} skill files",
                percentage=int(100 * done / max(1, total)),
            ),
        )

    def _progress_end(self, token: str | None) -> None:
        if token is not None:
            self.server.work_done_progress.end(
                token, types.WorkDoneProgressEnd(message="Skills indexed")
            )

    def _spawn(self, coroutine: Any) -> None:
        task = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            error = task.exception()
            if isinstance(error, Exception):
                self.server.report_server_error(error, None)


def as_handler(method: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """A plain function calling ``method`` (pygls tags handlers; bound methods refuse)."""
    if asyncio.iscoroutinefunction(method):

        async def handle_async(params: Any) -> Any:
            return await method(params)

        return handle_async

    def handle(params: Any) -> Any:
        return method(params)

    return handle


def _root_child_folder(path: str, index: FolderIndex) -> str | None:
    """The root child folder ``<root>/<child>`` that ``path`` lies in, below it."""
    for root in index.roots:
        parts = relative_parts(path, root)
        if parts is not None and len(parts) >= 2:
            return os.path.join(root.path, parts[0])
    return None


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


def _inside_or_equal(path: str, ancestor: str) -> bool:
    path = os.path.normpath(path)
    ancestor = os.path.normpath(ancestor)
    return path == ancestor or path.startswith(ancestor.rstrip(os.sep) + os.sep)


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


def _retrieve(future: asyncio.Future[Any]) -> None:
    """Mark a late request's outcome as seen (no "exception never retrieved" noise)."""
    if not future.cancelled():
        future.exception()


def _json_value(value: Any) -> Any:
    """A raw JSON-RPC value with pygls' ``Object`` namedtuples turned back into dicts."""
    if hasattr(value, "_asdict"):
        return {key: _json_value(item) for key, item in value._asdict().items()}
    if isinstance(value, list):
        return [_json_value(item) for item in value]
    if isinstance(value, dict):
        return {key: _json_value(item) for key, item in value.items()}
    return value


def _shorten(value: Any, limit: int = 80) -> str:
    """``repr(value)`` cut to ``limit`` characters (for a log line)."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
