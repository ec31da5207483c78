"""Keeping the index true when files change on disk.

The server watches every root itself whenever it can (watchfiles installed), whatever
the client announces: no client's watching can be relied on for skill roots (issue #41,
the table in ``docs/editors.md``). Helix announces ``didChangeWatchedFiles`` but sends
it only for files it saved itself; eglot 1.9 watches only the folders of files the
project already tracks; VS Code misses what a folder created with its contents in one go
(``mkdir -p``, ``git pull``, ``cp -r``) holds, and a base folder that does not exist
yet. The engine's :class:`~skilldeck.engine.filesystem.RootWatcher` follows a missing
root from its nearest existing ancestor (non-recursively) until it appears; idle, it
costs about 0.3 % of a core at 500 skills, its check-ins being per root
(``benchmarks/bench_idle.py``). That watcher lists its roots before each index and goes
live after it once the client is quiet (:class:`~skilldeck.engine.filesystem.
QuietWindow`): setting up the watches stalls the loop for a moment per root, which
keystrokes right after an index should not meet. The folders' config files
(``skilldeck.toml``, ``pyproject.toml`` at each project root) are watched by
:class:`ConfigWatcher` (each project folder non-recursively, only those file names).

The client's log (``window/logMessage``) says when each of our root watches is live, and
again when it moves (a missing root followed from an ancestor, then the root itself).

watchfiles is compiled (Rust). The server bundled in the VS Code extension is pure Python
and runs without it: there the client, when it can register ``workspace/
didChangeWatchedFiles`` dynamically, watches every root and the config files. A root whose
folder does not exist yet is registered from its nearest existing ancestor: the ancestor's
first missing child (``.dsh`` for ``<project>/.dsh/skills``), which the client reports
when it appears (even created with its contents); the server then re-indexes and
registers the root itself (:func:`watch_anchor`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from lsprotocol import types

from skilldeck.engine.config import CONFIG_FILE_NAMES
from skilldeck.engine.filesystem import QuietWindow, SkillRoot, find_project_root
from skilldeck.lsp.diagnostics import uri_of

if TYPE_CHECKING:
    from skilldeck.engine.filesystem import RootWatcher
    from skilldeck.lsp.server import SkilldeckServer
    from skilldeck.lsp.session import Session

REGISTRATION_ID = "skilldeck-watch-roots"
DEBOUNCE_MS = 50
#: How long an idle config watch waits before it checks in (milliseconds).
CONFIG_IDLE_MS = 500

logger = logging.getLogger(__name__)


def own_watcher_available() -> bool:
    """Whether this server can watch folders itself (watchfiles is installed)."""
    try:
        import watchfiles  # noqa: F401, PLC0415
    except ImportError:
        return False
    return True


class Watching:
    """Which roots the client watches, and the watchfiles watcher for the rest."""

    def __init__(self, server: SkilldeckServer, session: Session) -> None:
        self.server = server
        self.session = session
        self.client_watches = False
        self.relative_patterns = False
        self._registered: tuple[frozenset[tuple[str, str]], frozenset[str]] = (
            frozenset(),
            frozenset(),
        )
        #: The project roots (normalised) whose config files the folders read; found
        #: once per index, not on every file event.
        self.config_folders: frozenset[str] = frozenset()
        self._watcher: RootWatcher | None = None
        self._watched: frozenset[str] = frozenset()
        #: Where each root's live watch is anchored, as last logged.
        self._anchors: dict[str, str] = {}
        #: Our watch of the config files, when the client watches none.
        self._config_watcher: ConfigWatcher | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        #: Without watchfiles the client watches every root, not only the workspace's.
        self.own_watcher = own_watcher_available()

    def configure(self, capabilities: types.ClientCapabilities) -> None:
        """Read whether the client can watch files for us."""
        workspace = capabilities.workspace
        watched = workspace.did_change_watched_files if workspace is not None else None
        self.client_watches = bool(watched and watched.dynamic_registration)
        self.relative_patterns = bool(watched and watched.relative_pattern_support)

    @property
    def by_client(self) -> bool:
        """Whether the client watches the roots for us: only when this server cannot
        watch itself (no watchfiles: the bundled server) and the client can register
        ``workspace/didChangeWatchedFiles`` dynamically."""
        return self.client_watches and not self.own_watcher

    def update(
        self,
        folders: Iterable[tuple[str, Sequence[SkillRoot]]],
        *,
        hold: bool = False,
        anchors: Mapping[str, str] | None = None,
    ) -> None:
        """Watch the roots of each ``(folder, roots)`` (called before every re-index).

        With ``hold``, a watcher started here lists its roots but goes live only at
        :meth:`release` (call it once the scan is done; see :meth:`RootWatcher.hold`).
        ``anchors`` (:func:`watch_anchors`, read off the loop) say, for a root the client
        watches, the nearest existing folder at or above its parent.
        """
        roots_by_path: dict[str, SkillRoot] = {}
        folders = list(folders)
        self.config_folders = frozenset(os.path.normpath(find_project_root(f)) for f, _ in folders)
        for _folder, roots in folders:
            for root in roots:
                roots_by_path[root.path] = root
        if self.by_client:
            self._register_client(frozenset(roots_by_path), anchors or {})
            self._watch_own({}, hold=hold)
        else:
            self._watch_own(roots_by_path, hold=hold)
        self._watch_config(frozenset() if self.by_client else self.config_folders)

    def release_when_quiet(self, last_activity: Callable[[], float]) -> None:
        """Let a watcher held by :meth:`update` go live once ``last_activity()`` (the
        client's last message, ``time.monotonic()``) is quiet, within a few seconds at
        most, a root at a time (:class:`~skilldeck.engine.filesystem.QuietWindow`)."""
        if self._watcher is not None:
            self._watcher.release(QuietWindow.from_now(last_activity))

    async def wait_listed(self, timeout: float = 5.0) -> None:
        """Return once our watcher has listed every root it watches (see
        :meth:`RootWatcher.wait_listed`): a scan started after this loses no change."""
        watchers = [w for w in (self._watcher, self._config_watcher) if w is not None]
        if not watchers:
            return

        async def listed() -> None:
            # One after the other (both only wait): no gathering future is left with an
            # unretrieved CancelledError when the client leaves meanwhile.
            for watcher in watchers:
                await watcher.wait_listed()

        try:
            await asyncio.wait_for(listed(), timeout)
        except asyncio.TimeoutError:  # a stuck listing must not stall indexing
            self.server.log("skilldeck: watcher not ready; indexing without waiting")

    def close(self) -> None:
        """Stop the watchfiles watchers (idempotent)."""
        self._close_roots()
        self._watch_config(frozenset())

    def _close_roots(self) -> None:
        watcher, self._watcher = self._watcher, None
        self._watched = frozenset()
        if watcher is not None:
            watcher.stop_nowait()
            try:
                task = asyncio.get_running_loop().create_task(watcher.aclose())
            except RuntimeError:
                return
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    def _watch_own(self, roots: dict[str, SkillRoot], *, hold: bool = False) -> None:
        paths = frozenset(roots)
        if paths == self._watched:
            return
        self._close_roots()
        self._watched = paths
        self._anchors = {}  # a new watcher: each of its watches is logged when live
        if not roots:
            return
        if not self.own_watcher:
            self.server.log(
                "skilldeck: watchfiles is not installed and the client does not watch files;"
                " changes on disk outside open editors are seen at the next re-index"
            )
            return
        from skilldeck.engine.filesystem import RootWatcher  # noqa: PLC0415 - needs watchfiles

        self._watcher = RootWatcher(
            roots.values(),
            self.session.on_paths_changed,
            debounce_ms=DEBOUNCE_MS,
            step_ms=20,
            on_error=lambda error: self.server.log(f"skilldeck: watching failed: {error}"),
            on_live=self._went_live,
        )
        if hold:
            self._watcher.hold()
        self._watcher.start()

    def _went_live(self, root: str, anchor: str, folders: int) -> None:
        """Log a root's watch going live, the first time and when its anchor moved."""
        if self._anchors.get(root) == anchor:
            return
        self._anchors[root] = anchor
        if anchor == root:
            self.server.log(f"skilldeck: watching {root} ({folders} folders)")
        else:
            self.server.log(f"skilldeck: watching {anchor} until {root} appears")

    def _watch_config(self, folders: frozenset[str]) -> None:
        """Watch the config files of ``folders`` ourselves (none: stop watching them)."""
        current = self._config_watcher
        if current is not None and current.folders == folders:
            return
        self._config_watcher = None
        if current is not None:
            task = current.stop()
            if task is not None and not task.done():  # kept until it has ended
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)
        if not folders or not self.own_watcher:
            return
        self._config_watcher = ConfigWatcher(folders, self.session.on_paths_changed)
        self._config_watcher.start()

    def _register_client(self, roots: frozenset[str], anchors: Mapping[str, str]) -> None:
        chosen = frozenset((root, anchors.get(root, os.path.dirname(root))) for root in roots)
        wanted = (chosen, self.config_folders)
        if not self.client_watches or wanted == self._registered:
            return
        self._registered = wanted
        watchers = [
            types.FileSystemWatcher(glob_pattern=pattern)
            for root, anchor in sorted(chosen)
            for pattern in self._patterns(root, anchor)
        ]
        # Each folder's config files: a changed setting re-indexes (file_events.py).
        watchers.extend(
            types.FileSystemWatcher(glob_pattern=pattern)
            for folder in sorted(self.config_folders)
            for pattern in self._config_patterns(folder)
        )
        params = types.RegistrationParams(
            registrations=[
                types.Registration(
                    id=REGISTRATION_ID,
                    method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                    register_options=types.DidChangeWatchedFilesRegistrationOptions(
                        watchers=watchers
                    ),
                )
            ]
        )
        self.server.client_register_capability(params)

    def _config_patterns(self, folder: str) -> list[types.GlobPattern]:
        if self.relative_patterns:
            base = uri_of(folder)
            return [types.RelativePattern(base_uri=base, pattern=n) for n in CONFIG_FILE_NAMES]
        return [os.path.join(folder, name) for name in CONFIG_FILE_NAMES]

    def _patterns(self, root: str, anchor: str) -> list[types.GlobPattern]:
        """The globs of one root. ``anchor`` is the nearest existing folder at or above
        the root's parent: when it is not the parent, the one glob is the anchor's
        missing child on the way to the root (a client cannot watch below a folder that
        does not exist: VS Code suspends such a watch and, once the folder appears,
        reports the folder alone, never what it was created with)."""
        parent = os.path.dirname(root)
        if os.path.normpath(anchor) != os.path.normpath(parent):
            first = os.path.relpath(root, anchor).split(os.sep)[0]
            if self.relative_patterns:
                return [types.RelativePattern(base_uri=uri_of(anchor), pattern=first)]
            return [os.path.join(anchor, first)]
        if self.relative_patterns:
            base = uri_of(parent)
            name = os.path.basename(root)
            return [
                types.RelativePattern(base_uri=base, pattern=f"{name}"),
                types.RelativePattern(base_uri=base, pattern=f"{name}/*"),
                types.RelativePattern(base_uri=base, pattern=f"{name}/*/SKILL.md"),
                # A bundle's other files at any depth: its SD10xx findings read them.
                types.RelativePattern(base_uri=base, pattern=f"{name}/*/**"),
            ]
        return [root, f"{root}/*", f"{root}/*/SKILL.md", f"{root}/*/**"]


#: ``(mtime_ns, ctime_ns, size, inode)`` of each config file that exists, by path.
ConfigIdentities = dict[str, tuple[int, int, int, int]]


def config_identities(folders: Iterable[str]) -> ConfigIdentities:
    """The identity of each config file of ``folders`` (blocking: a worker thread)."""
    found: ConfigIdentities = {}
    for folder in folders:
        for name in CONFIG_FILE_NAMES:
            path = os.path.join(folder, name)
            try:
                st = os.stat(path)
            except OSError:
                continue
            found[path] = (st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino)
    return found


class ConfigWatcher:
    """Watch the config files (:data:`CONFIG_FILE_NAMES`) directly inside ``folders``
    (the project roots the workspace folders read their settings from) and call
    ``on_change(paths)`` when one is created, changed or deleted.

    Each folder is watched non-recursively and only those names count: the workspace's
    other files cost nothing. The files are listed before the watch goes live
    (:meth:`wait_listed`), and the listing is compared once it is live, so a change made
    in between is reported too.
    """

    def __init__(self, folders: frozenset[str], on_change: Callable[[set[str]], None]) -> None:
        self.folders = folders
        self._on_change = on_change
        self._stop = asyncio.Event()
        self._listed = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start watching (needs a running event loop)."""
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def wait_listed(self) -> None:
        """Return once the config files were listed (or the watcher ended)."""
        await self._listed.wait()

    def stop(self) -> asyncio.Task[None] | None:
        """Stop watching (idempotent); returns the task, which ends on its own."""
        self._stop.set()
        self._listed.set()
        return self._task

    async def _run(self) -> None:
        from watchfiles import awatch  # noqa: PLC0415 - needs watchfiles

        try:
            before = await asyncio.to_thread(config_identities, self.folders)
        finally:
            self._listed.set()
        names = frozenset(CONFIG_FILE_NAMES)
        folders = [f for f in sorted(self.folders) if os.path.isdir(f)]
        if not folders or self._stop.is_set():
            return
        try:
            async with contextlib.aclosing(
                awatch(
                    *folders,
                    watch_filter=lambda _change, path: os.path.basename(path) in names,
                    debounce=DEBOUNCE_MS,
                    step=20,
                    stop_event=self._stop,
                    rust_timeout=CONFIG_IDLE_MS,
                    yield_on_timeout=True,
                    recursive=False,
                    ignore_permission_denied=True,
                )
            ) as batches:
                first = True
                async for changes in batches:
                    paths = {os.path.normpath(path) for _change, path in changes}
                    if first:  # live now: what changed since the listing counts too
                        first = False
                        now = await asyncio.to_thread(config_identities, self.folders)
                        paths |= {
                            p for p in before.keys() | now.keys() if before.get(p) != now.get(p)
                        }
                    if paths and not self._stop.is_set():
                        self._on_change(paths)
        except Exception:  # a failing watch must not escape the task
            if not self._stop.is_set():
                logger.exception("skilldeck: watching the config files failed")


def watch_anchor(root: str) -> str:
    """The nearest existing folder at or above ``root``'s parent (blocking: a worker
    thread); the file system's top when nothing on the way exists."""
    candidate = os.path.dirname(os.path.normpath(root))
    while not os.path.isdir(candidate):
        parent = os.path.dirname(candidate)
        if parent == candidate:
            break
        candidate = parent
    return candidate


def watch_anchors(roots: Iterable[SkillRoot]) -> dict[str, str]:
    """:func:`watch_anchor` of every root that does not exist (blocking: a worker thread);
    an existing root's parent exists, so it needs no look."""
    return {root.path: watch_anchor(root.path) for root in roots if not os.path.isdir(root.path)}
