"""Watching skill roots with watchfiles (SPEC section 6).

- An existing root is watched one level deep: the root and each of its direct child
  folders (bundles), each non-recursively, so a root holding a huge tree (a symlink to
  ``/``) costs one watch per child, never a walk of the tree. A child folder appearing
  or disappearing re-opens the watch with the new set of folders. A missing root is
  followed from its nearest existing ancestor (non-recursively) until it appears, one
  segment at a time.
- Deleting a root switches back to following its ancestor, so delete-and-recreate
  stays observable; an event on the root itself always re-opens the watch. A re-opened
  watch reports what changed since the last listing of the one before: the root when it
  now leads elsewhere (or came or went), else the skill files and bundle folders.
- Symlinks are followed (:mod:`~skilldeck.engine.filesystem._watch_links`): the folder of
  a symlinked skill file's target is watched too, and an edit of the target is reported
  as the skill file; the folder holding each symlink on the way to the root is watched
  too, so a re-pointed root (``current -> release-N``) re-opens the watch at its new
  target and is reported as the root. A skill file linked, unlinked or re-pointed
  re-opens the watch with the new set of targets. A deck without symlinks watches
  nothing more; the one cost left is an ``lstat`` per ``SKILL.md`` an event says was
  added (it may have become a symlink).
- Only changes that can alter the catalog or a skill's findings
  (:func:`is_relevant_change`): a direct child folder or ``.md`` file of a root appearing
  or disappearing, a ``SKILL.md`` directly inside a bundle, a flat ``.md`` file, any file
  directly inside a bundle folder (a script its SD10xx findings come from), the target
  of a symlinked skill file (reported as the skill file). Deeper files are not watched
  (each bundle folder is watched non-recursively); an editor that watches files itself
  reports them (``skilldeck.lsp.watching``).
- A burst (everything within one watchfiles batch, across all roots, plus a short
  coalescing delay) is one ``on_change`` call.
- A watcher that fails is retried; until it runs again :attr:`RootWatcher.healthy` is
  False (observations become incomplete) and ``on_error`` is told.
- :meth:`RootWatcher.aclose` stops every task and its worker thread.
- ``on_live`` (optional) is told each time a root's watch is live (its native watch
  built): the root, the folder it is anchored at (the root, or its nearest existing
  ancestor while it is missing) and how many folders it watches.
- :meth:`RootWatcher.hold` keeps the watches from going live (the first listing is
  still taken) until :meth:`RootWatcher.release`: a consumer scanning the roots does
  not pay for inotify events on every file it opens. Changes made meanwhile are found
  by comparing that listing with the one taken once the watch is live.
- Roots go live one at a time, with the loop served in between (:data:`LIVE_GAP_S`, or
  as long as the build took): building a root's native watch (watchfiles' ``RustNotify``,
  one inotify watch per bundle folder) holds the GIL for as long as it takes (~0.1 s for
  1,600 bundle folders), so the event loop stalls for one root's build at most.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import stat
import time
from collections.abc import AsyncGenerator, Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from types import TracebackType
from typing import Any

import anyio.to_thread
from watchfiles import Change, awatch

from skilldeck.engine.filesystem._layout import (
    BUNDLE_FILE,
    SkillPlace,
    child_layout,
    place_in_root,
    relative_parts,
)
from skilldeck.engine.filesystem._roots import SkillRoot
from skilldeck.engine.filesystem._watch_gate import QuietWindow
from skilldeck.engine.filesystem._watch_links import (
    FollowedLinks,
    Resolution,
    follow_links,
    resolve,
)

_log = logging.getLogger(__name__)


#: How long an idle watcher waits before re-checking its mode (and proving it is alive).
IDLE_CHECK_MS = 500
#: Delay before retrying a failed watcher.
RETRY_DELAY_S = 0.5
#: Seconds the event loop is served between two roots' watches being built, at least
#: (each build holds the GIL: watchfiles 1.3.0 adds every inotify watch in
#: ``RustNotify``'s constructor, which ``awatch`` calls when its generator first runs, on
#: the loop); after a longer build, as long as the build took, so the loop has at least
#: half the time while roots go live.
LIVE_GAP_S = 0.1


def is_relevant_change(path: str, roots: Iterable[SkillRoot]) -> bool:
    """Whether a change at ``path`` can change the catalog of ``roots``.

    True for: a root itself or one of its missing ancestors; a direct child of a root
    that is a folder, an ``.md`` file, or no longer exists (a removed bundle or flat
    file); ``<root>/<name>/SKILL.md`` and every other file directly in a root's child
    folder (a bundle's scripts are scanned for its SD10xx findings). Children named in
    ``skip_names`` never count.
    """
    target = os.path.normpath(os.path.abspath(path))
    for root in roots:
        root_path = os.path.normpath(root.path)
        if target == root_path or root_path.startswith(target.rstrip(os.sep) + os.sep):
            return True
        parts = relative_parts(target, root)
        if parts is None:
            continue
        if isinstance(place_in_root(target, root, is_file=_never), SkillPlace):
            return True
        # A folder (bundle) appearing, or something gone: we cannot tell a removed
        # bundle from a removed stray file, so a removal counts.
        if len(parts) == 1 and (os.path.isdir(target) or not os.path.lexists(target)):
            return True
        if len(parts) == 2:
            return True
    return False


def _never(_: str) -> bool:
    return False


def _watch_mode(root_path: str) -> tuple[str, bool]:
    """``(anchor, True)`` to watch an existing root, else ``(nearest ancestor, False)``."""
    candidate = root_path
    while True:
        if os.path.isdir(candidate):
            return candidate, candidate == root_path
        parent = os.path.dirname(candidate)
        if parent == candidate:
            return candidate, False
        candidate = parent


#: ``(mtime_ns, ctime_ns, size, inode)`` of each skill file, by path.
Identities = dict[str, tuple[int, int, int, int]]


def _watchable(path: str) -> bool:
    """watchfiles takes UTF-8 paths only; a folder name with undecodable bytes (kept as
    surrogate escapes) cannot get a watch of its own. Its coming and going is still seen
    through the root's watch; edits inside it are not (documented in SECURITY.md)."""
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


@dataclass(frozen=True)
class _Listing:
    """A root's listing: what its watch has and how its skill files are."""

    #: The root's direct child folders (sorted), each watched.
    bundles: tuple[str, ...] = ()
    identities: Identities = field(default_factory=dict)
    #: Each symlinked skill file, and where it leads (:func:`resolve`).
    links: Mapping[str, Resolution] = field(default_factory=dict)
    #: The bundle folders that are symlinks.
    linked_bundles: tuple[str, ...] = ()


def _bundle_folders(root: SkillRoot) -> _Listing:
    """The root's direct child folders (sorted), the identity of each skill file in it
    (``<child>/SKILL.md``, ``<root>/<name>.md``; a symlink's target) and where each
    symlinked one leads; blocking. One ``lstat`` per skill file, and for a symlink a
    ``stat`` and its :func:`resolve` as well."""
    found: list[str] = []
    linked: list[str] = []
    files: list[str] = []
    try:
        with os.scandir(root.path) as entries:
            for entry in entries:
                if entry.name in root.skip_names:
                    continue
                try:
                    is_dir = entry.is_dir()  # follows a symlinked bundle, as the scan does
                except OSError:
                    continue
                child = child_layout(entry.name, is_dir=is_dir)
                if child is None:
                    continue
                files.append(os.path.normpath(os.path.join(root.path, *child[1].split("/"))))
                folder = os.path.normpath(entry.path)
                if is_dir and _watchable(folder):
                    found.append(folder)
                    if entry.is_symlink():
                        linked.append(folder)
    except OSError:
        return _Listing()
    identities: Identities = {}
    links: dict[str, Resolution] = {}
    for path in files:
        try:
            st = os.lstat(path)
            if stat.S_ISLNK(st.st_mode):
                links[path] = resolve(path)
                st = os.stat(path)
        except OSError:
            continue
        identities[path] = (st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino)
    return _Listing(tuple(sorted(found)), identities, links, tuple(linked))


@dataclass(frozen=True)
class _Opening:
    """What a watch of a root opens with."""

    #: The root's listing (empty while the root is missing).
    listing: _Listing
    #: The folders and meanings its symlinks add.
    followed: FollowedLinks
    #: Where the root's path leads (its physical path), and whether it is a folder.
    resolved: tuple[str | None, bool]

    def same_watch(self, other: _Opening) -> bool:
        """Whether ``other`` would open this very watch."""
        return (
            self.listing.bundles == other.listing.bundles
            and self.listing.links == other.listing.links
            and self.followed.folders == other.followed.folders
        )

    def changes_since(self, before: _Opening, root_path: str) -> set[str]:
        """What changed between ``before`` (the last listing of the previous watch) and
        this one: the root, when it now leads elsewhere or came or went; else the bundle
        folders and skill files that came, went or changed."""
        if self.resolved != before.resolved:
            return {root_path}
        changed = _changed_files(before.listing.identities, self.listing.identities)
        return changed | (set(before.listing.bundles) ^ set(self.listing.bundles))


def _opening(root: SkillRoot, anchor: str, is_root: bool) -> _Opening:
    """What a watch of ``root`` opened at ``anchor`` has: the root's listing (none while
    the root is missing), the symlinks it follows and where the root leads; blocking."""
    listing = _bundle_folders(root) if is_root else _Listing()
    root_links, resolved = resolve(root.path)
    followed = follow_links(
        root.path,
        anchor,
        bundles=listing.bundles,
        linked_bundles=listing.linked_bundles,
        skill_links=listing.links,
        root_links=root_links,
        watchable=_watchable,
    )
    return _Opening(listing, followed, (resolved, is_root))


async def _list_bundles(root: SkillRoot) -> _Listing:
    # anyio's worker threads (which watchfiles already uses), not the loop's executor.
    return await anyio.to_thread.run_sync(_bundle_folders, root)


async def _open(root: SkillRoot, anchor: str, is_root: bool) -> _Opening:
    return await anyio.to_thread.run_sync(_opening, root, anchor, is_root)


def _link_of(path: str) -> Resolution | None:
    """Where ``path`` leads when it is a symlink, else ``None`` (blocking)."""
    try:
        if not stat.S_ISLNK(os.lstat(path).st_mode):
            return None
    except OSError:
        return None
    return resolve(path)


def _links_moved(changes: Iterable[tuple[Any, str]], root: SkillRoot, listing: _Listing) -> bool:
    """Whether a bundle's ``SKILL.md`` became, stopped being or was re-pointed as a symlink
    (a flat file's change re-lists the root instead). Costs an ``lstat`` per ``SKILL.md``
    added (an editor's save by rename, a new bundle's file) and per followed link changed;
    nothing for an edit in place."""
    links = listing.links
    for change, raw in changes:
        if change != Change.added and not links:
            continue  # an edit in place or a removal, in a root without symlinks
        path = os.path.normpath(raw)
        candidate = path in links or (change == Change.added and _is_bundle_file(path, root))
        if candidate and _link_of(path) != links.get(path):
            return True
    return False


def _is_bundle_file(path: str, root: SkillRoot) -> bool:
    """Whether ``path`` (normalised) is ``<root>/<name>/SKILL.md`` (no disk access)."""
    folder, name = os.path.split(path)
    if name != BUNDLE_FILE:
        return False
    parent, child = os.path.split(folder)
    return parent == os.path.normpath(root.path) and child not in root.skip_names


def _changed_files(before: Identities, after: Identities) -> set[str]:
    """Skill files that appeared, disappeared or changed identity."""
    return {path for path in before.keys() | after.keys() if before.get(path) != after.get(path)}


def _children_moved(paths: set[str], root: SkillRoot) -> bool:
    """Whether a change touched a direct child of the root (a bundle may come or go)."""
    root_path = os.path.normpath(root.path)
    return any(os.path.dirname(path) == root_path for path in paths)


class RootWatcher:
    """Watch skill roots and call ``on_change(paths)`` once per burst of relevant changes.

    Use ``async with RootWatcher(...)`` or :meth:`start` / :meth:`aclose` inside a
    running event loop. ``on_error(exc)`` (optional) is told when a watcher fails;
    :attr:`healthy` is False until it runs again (then ``on_change`` is called with the
    root, so consumers re-read a now complete view). ``on_live(root, anchor, folders)``
    (optional) is told each time a root's watch is live. ``watch_impl`` is
    ``watchfiles.awatch`` (replaceable to inject faults in tests).
    """

    def __init__(
        self,
        roots: Iterable[SkillRoot],
        on_change: Callable[[set[str]], None],
        *,
        debounce_ms: int = 200,
        step_ms: int = 50,
        on_error: Callable[[BaseException], None] | None = None,
        on_live: Callable[[str, str, int], None] | None = None,
        watch_impl: Callable[..., AsyncGenerator[set[tuple[Any, str]], None]] = awatch,
    ) -> None:
        self._watch_impl = watch_impl
        self._roots: dict[str, SkillRoot] = {}
        self._on_change = on_change
        self._on_error = on_error
        self._on_live = on_live
        self._debounce_ms = debounce_ms
        self._step_ms = step_ms
        self._stop = asyncio.Event()
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._failed: set[str] = set()
        self._pending: set[str] = set()
        self._flush_handle: asyncio.TimerHandle | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._closing_tasks: set[asyncio.Task[None]] = set()
        self._unlisted: set[str] = set()
        self._all_listed = asyncio.Event()
        self._live = asyncio.Event()
        self._live.set()
        #: Held by the root whose watch is being built (see :meth:`_take_turn`).
        self._turn = asyncio.Lock()
        self._quiet: QuietWindow | None = None
        for root in roots:
            self._roots.setdefault(root.path, root)

    @property
    def healthy(self) -> bool:
        """False while any root's watcher has failed and not yet recovered."""
        return not self._failed

    @property
    def roots(self) -> tuple[SkillRoot, ...]:
        """The roots being watched."""
        return tuple(self._roots.values())

    def start(self) -> None:
        """Start watching (needs a running event loop)."""
        self._loop = asyncio.get_running_loop()
        self._unlisted = set(self._roots)
        if not self._unlisted:
            self._all_listed.set()
        for path in self._roots:
            self._spawn(path)

    async def wait_listed(self) -> None:
        """Return once every root's first listing is taken (or the watcher stopped).

        A consumer that scans the roots after this loses no change: whatever changes
        between the listing and the moment the watch is live is reported once it is.
        """
        waits = [
            asyncio.ensure_future(self._stop.wait()),
            asyncio.ensure_future(self._all_listed.wait()),
        ]
        try:
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for waiting in waits:
                waiting.cancel()

    def hold(self) -> None:
        """Take listings but keep watches from going live until :meth:`release`.

        Meant for the span of a scan that follows :meth:`wait_listed`: every file the
        scan opens in a watched folder would otherwise cost an inotify event (and wake
        the watch threads). Nothing is lost: what changed between a root's listing and
        the moment its watch is live is reported then, as it is without a hold.
        """
        self._live.clear()

    def release(self, quiet: QuietWindow | None = None) -> None:
        """Let held watches go live (idempotent). With ``quiet``, each root's watch (and
        each re-opened one) is built only once the window is quiet, so a user who starts
        typing while the roots go live one at a time holds the rest back (at most until
        the window's deadline)."""
        self._quiet = quiet
        self._live.set()

    def add_roots(self, roots: Iterable[SkillRoot]) -> None:
        """Watch more roots (roots already watched are ignored)."""
        for root in roots:
            if root.path not in self._roots:
                self._roots[root.path] = root
                if self._loop is not None and not self._stop.is_set():
                    self._spawn(root.path)

    async def aclose(self) -> None:
        """Stop every watcher and wait for its task (and worker thread) to end."""
        self._stop.set()
        if self._flush_handle is not None:
            self._flush_handle.cancel()
            self._flush_handle = None
        tasks = list(self._tasks.values())
        if tasks:
            _done, pending = await asyncio.wait(tasks, timeout=2.0)
            for task in pending:
                task.cancel()
            if pending:
                await asyncio.wait(pending, timeout=2.0)
        self._tasks.clear()

    def stop_nowait(self) -> None:
        """Ask every watcher to stop without waiting (from synchronous code)."""
        self._stop.set()

    def keep_closing_task(self, task: asyncio.Task[None]) -> None:
        """Hold a reference to a background close task until it finishes."""
        self._closing_tasks.add(task)
        task.add_done_callback(self._closing_tasks.discard)

    async def __aenter__(self) -> RootWatcher:
        self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    # ----------------------------------------------------------------- internals

    def _spawn(self, path: str) -> None:
        assert self._loop is not None
        self._tasks[path] = self._loop.create_task(self._follow(self._roots[path]))

    async def _follow(self, root: SkillRoot) -> None:
        #: The last listing of the previous watch: what a re-opened one is compared with.
        known: _Opening | None = None
        while not self._stop.is_set():
            mode = _watch_mode(root.path)
            anchor, is_root = mode
            opening = await _open(root, anchor, is_root)
            listing, followed = opening.listing, opening.followed
            if known is not None:
                # Whatever changed while no watch was live (between the last listing and
                # this one) is reported: a root that now leads elsewhere, or its files.
                moved = opening.changes_since(known, root.path)
                if moved:
                    self._emit(moved)
            known = opening
            self._listed(root.path)
            if not self._live.is_set() and not await self._until_live():
                return
            if not await self._take_turn():
                return
            folders = (anchor, *listing.bundles, *followed.folders)
            # Runs once this step has gone on into the watch's first ``__anext__``, which
            # builds the native watch before it first suspends (cancelled if that fails).
            live = asyncio.get_running_loop().call_soon(
                self._went_live, root.path, anchor, len(folders)
            )
            try:
                async with contextlib.aclosing(
                    self._watch_impl(
                        *folders,
                        watch_filter=None,
                        debounce=self._debounce_ms,
                        step=self._step_ms,
                        stop_event=self._stop,
                        rust_timeout=IDLE_CHECK_MS,
                        yield_on_timeout=True,
                        recursive=False,
                        ignore_permission_denied=True,
                    )
                ) as batches:
                    first = True
                    async for changes in batches:
                        self._recovered(root.path)
                        paths = {os.path.normpath(path) for _, path in changes}
                        relevant = {p for p in paths if is_relevant_change(p, (root,))}
                        now = _watch_mode(root.path)
                        reopen = now != mode or (is_root and root.path in paths)
                        if reopen and now != mode:
                            relevant.add(root.path)
                        if followed:  # a symlink's target changed, or a link on the way
                            linked, moved_link = followed.seen(paths)
                            relevant |= linked
                            reopen = reopen or moved_link
                        if is_root and not reopen and _links_moved(changes, root, listing):
                            reopen = True  # a bundle's SKILL.md linked, unlinked, re-pointed
                        if is_root and not reopen and (first or _children_moved(paths, root)):
                            # The watch is live. Anything that changed between the listing
                            # (taken before the consumer's scan) and now is re-read, and a
                            # bundle folder that came or went (or a symlinked skill file
                            # that now leads elsewhere) re-opens the watch.
                            current = await _list_bundles(root)
                            if first:
                                relevant.update(
                                    _changed_files(known.listing.identities, current.identities)
                                )
                            if current.bundles != listing.bundles:
                                reopen = True
                                relevant.update(set(current.bundles) ^ set(listing.bundles))
                            if current.links != listing.links:
                                reopen = True
                            known = replace(opening, listing=current)
                        first = False
                        if relevant:
                            self._emit(relevant)
                        if reopen:
                            break
            except Exception as error:  # watcher failures must not escape the task
                live.cancel()  # a watch that failed to build never went live
                if self._stop.is_set():
                    return
                if _watch_mode(root.path) != mode:
                    self._emit({root.path})
                    continue  # the tree changed under us: re-open, not a failure
                if not (await _open(root, anchor, is_root)).same_watch(opening):
                    self._emit({root.path})
                    continue  # a folder vanished before its watch was added
                self._fail(root.path, error)
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(self._stop.wait(), RETRY_DELAY_S)

    async def _until_quiet(self) -> bool:
        """Wait for the release's quiet window (if any); False when the watcher stopped."""
        while not self._stop.is_set():
            wait = self._quiet.wait_s() if self._quiet is not None else 0.0
            if wait <= 0:
                return True
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._stop.wait(), wait)
        return False

    async def _until_live(self) -> bool:
        """Wait for :meth:`release`; False when the watcher stopped first."""
        waits = [
            asyncio.ensure_future(self._stop.wait()),
            asyncio.ensure_future(self._live.wait()),
        ]
        try:
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for waiting in waits:
                waiting.cancel()
        return not self._stop.is_set()

    async def _take_turn(self) -> bool:
        """Wait until no other root's watch is being built; False when the watcher
        stopped first. The turn passes on once this task's current step ends (that step
        goes on into the watch's first ``__anext__``, which builds ``RustNotify`` before
        it first suspends) and the loop has run for :data:`LIVE_GAP_S`, or as long as
        the build took."""
        stop = asyncio.ensure_future(self._stop.wait())
        turn = asyncio.ensure_future(self._turn.acquire())
        try:
            await asyncio.wait((stop, turn), return_when=asyncio.FIRST_COMPLETED)
        finally:
            stop.cancel()
            if not turn.done():
                turn.cancel()  # asyncio.Lock hands a turn granted meanwhile on
        if not turn.done() or turn.cancelled() or turn.exception() is not None:
            return False  # stopped first: the cancelled acquire settles on its own
        if not await self._until_quiet():
            self._turn.release()
            return False
        assert self._loop is not None
        self._loop.call_soon(self._pass_turn, time.monotonic())
        return True

    def _pass_turn(self, began: float) -> None:
        assert self._loop is not None
        built_for = time.monotonic() - began
        self._loop.call_later(max(LIVE_GAP_S, built_for), self._turn.release)

    def _went_live(self, path: str, anchor: str, folders: int) -> None:
        if self._on_live is None or self._stop.is_set():
            return
        try:
            self._on_live(path, anchor, folders)
        except Exception:  # a failing listener is contained
            _log.exception("skilldeck: watcher live callback failed")

    def _listed(self, path: str) -> None:
        self._unlisted.discard(path)
        if not self._unlisted:
            self._all_listed.set()

    def _fail(self, path: str, error: BaseException) -> None:
        _log.warning("skilldeck: watching %s failed: %s", path, error)
        self._failed.add(path)
        if self._on_error is not None:
            try:
                self._on_error(error)
            except Exception:  # a failing listener is contained
                _log.exception("skilldeck: watcher error callback failed")

    def _recovered(self, path: str) -> None:
        if path in self._failed:
            self._failed.discard(path)
            self._emit({path})

    def _emit(self, paths: set[str]) -> None:
        if self._stop.is_set() or self._loop is None:
            return
        self._pending.update(paths)
        if self._flush_handle is None:
            self._flush_handle = self._loop.call_later(self._step_ms / 1000, self._flush)

    def _flush(self) -> None:
        self._flush_handle = None
        paths, self._pending = self._pending, set()
        if not paths or self._stop.is_set():
            return
        try:
            self._on_change(paths)
        except Exception:  # a failing listener is contained
            _log.exception("skilldeck: watcher change callback failed")
