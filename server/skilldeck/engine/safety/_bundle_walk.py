"""The walk of a bundle folder, bounded, and what a bundle scan depends on.

Only the standard library: a memo key (:func:`bundle_state`) is taken on a warm
``check`` that loads none of the rules. Bounds: at most :data:`MAX_DEPTH` folder levels,
:data:`MAX_FILES` files; symbolic links never followed; ``.git``, ``node_modules``,
``__pycache__`` and virtual environments not entered. A walk notes what it met and did
not read, with why (:attr:`Walk.passed`), so a gate can say why a file was not judged.
A folder's listing may come from :class:`FolderListings` (reused while the folder keeps
its identity).
"""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

MAX_DEPTH = 4
MAX_FILES = 200
_SKIP_DIRS = frozenset({".git", "node_modules", "__pycache__", ".venv", "venv"})


@dataclass(frozen=True, slots=True)
class Walk:
    """What a bundle scan reads: its files, each with its whole identity (a memo keyed
    by a walk holds for exactly these files: a rewrite that keeps the size and restores
    the mtime, as ``tar`` and ``cp -p`` do, still changes the ctime and, for a new file,
    the inode), and why the walk stopped early, if it did."""

    #: Relative path, size, mtime_ns, ctime_ns, device, inode (``lstat``).
    files: tuple[tuple[str, int, int, int, int, int], ...]
    stopped: str | None
    #: What the walk met and did not read, each with why (relative path, reason): the
    #: folders it does not enter (skipped, or too deep) and the entries that are neither
    #: a folder nor a regular file (symbolic links, FIFOs, devices). Files past
    #: :data:`MAX_FILES` are not named one by one: :attr:`stopped` says so.
    passed: tuple[tuple[str, str], ...] = ()


#: The walk of a folder that holds ``SKILL.md`` alone (most bundles).
ALONE = Walk((), None)
#: Its listing, as :meth:`FolderListings.listing` stores it after the folder's identity.
_ALONE_LISTING = "\0fSKILL.md"


def walk_bundle(folder: str) -> Walk:
    """The bounded walk of a bundle folder (see :mod:`~skilldeck.engine.safety._bundle`)."""
    files: list[tuple[str, int, int, int, int, int]] = []
    passed: list[tuple[str, str]] = []
    pending: list[tuple[str, int]] = [("", 0)]
    stopped: str | None = None
    listings = _listings
    if listings is not None:
        # one listing string to compare: a folder with SKILL.md alone is walked
        try:
            listing = listings.listing(folder, os.stat(folder))
        except OSError:
            return ALONE
        if listing.endswith(_ALONE_LISTING) and listing.count("\0") == 1:
            return ALONE
    while pending:
        relative, depth = pending.pop()
        try:
            items = _entries(os.path.join(folder, relative) if relative else folder, listings)
        except OSError:
            continue
        for name, kind in items:
            path = os.path.join(relative, name) if relative else name
            if kind == "d":
                if name in _SKIP_DIRS:
                    passed.append((path, f"the scan does not enter `{name}` folders"))
                    continue
                if depth + 1 >= MAX_DEPTH:
                    too_deep = f"`{path}` is deeper than {MAX_DEPTH} folder levels"
                    passed.append((path, too_deep))
                    stopped = stopped or too_deep
                    continue
                pending.append((path, depth + 1))
            elif kind == "f" and path != "SKILL.md":
                try:
                    info = os.stat(os.path.join(folder, path), follow_symlinks=False)
                except OSError:
                    continue
                if not stat.S_ISREG(info.st_mode):
                    passed.append((path, _not_read(path)))
                    continue
                if len(files) >= MAX_FILES:
                    stopped = stopped or f"it has more than {MAX_FILES} files"
                    break
                files.append(
                    (
                        path,
                        info.st_size,
                        info.st_mtime_ns,
                        info.st_ctime_ns,
                        info.st_dev,
                        info.st_ino,
                    )
                )
            elif kind == "o":
                passed.append((path, _not_read(path)))
    return Walk(tuple(sorted(files)), stopped, tuple(sorted(passed)))


def _not_read(path: str) -> str:
    """Why the walk does not read ``path``, neither a folder nor a regular file."""
    return f"`{path}` is a symbolic link or a special file, which the scan never follows or opens"


def _entries(path: str, listings: FolderListings | None) -> list[tuple[str, str]]:
    if listings is not None:
        return listings.entries(path, os.stat(path))
    return _listing(path)


def _listing(path: str) -> list[tuple[str, str]]:
    """The sorted ``(name, kind)`` entries of the folder ``path`` (see
    :meth:`FolderListings.entries`), listed now."""
    with os.scandir(path) as items:
        return sorted((item.name, _kind(item)) for item in items)


class FolderListings:
    """Listings of bundle folders, each reused while its folder keeps its identity.

    Adding, removing or renaming an entry of a folder changes the folder's mtime and
    ctime, so a listing taken when the folder's times were already ``racy_window_ns`` in
    the past stands for as long as the folder's (device, inode, mtime, ctime) are the ones
    it was taken with. ``known`` holds listings from an earlier run (the JSON form of
    :attr:`seen`); :attr:`seen` collects the listings this process used, without the
    folders modified within the window when listed (those are listed again each time).
    """

    def __init__(self, known: Mapping[str, Any] | None = None, *, racy_window_ns: int) -> None:
        self._known: Mapping[str, Any] = known or {}
        self._window = racy_window_ns
        #: folder path -> one string: ``dev:ino:mtime_ns:ctime_ns``, then each entry as
        #: ``\0`` + its kind + its name (one object a folder: 10,000 folders ~2.5 MB)
        self.seen: dict[str, str] = {}

    def entries(self, path: str, st: os.stat_result) -> list[tuple[str, str]]:
        """The sorted ``(name, kind)`` entries of the folder ``path`` whose ``stat`` is
        ``st`` (kind ``d`` a folder, ``f`` a regular file, ``o`` anything else, symlinks
        not followed); ``OSError`` when it cannot be listed."""
        return [(item[1:], item[:1]) for item in self.listing(path, st).split("\0")[1:]]

    def listing(self, path: str, st: os.stat_result) -> str:
        """:meth:`entries` as the stored string (the folder's identity, then ``\0``, kind
        and name of each entry): what a memo key digests, without a list of pairs."""
        head = f"{st.st_dev}:{st.st_ino}:{st.st_mtime_ns}:{st.st_ctime_ns}"
        stored = self.seen.get(path) or self._known.get(path)
        if not isinstance(stored, str) or stored.partition("\0")[0] != head:
            stored = head + "".join(f"\0{kind}{name}" for name, kind in _listing(path))
        if max(st.st_mtime_ns, st.st_ctime_ns) < time.time_ns() - self._window:
            self.seen[path] = stored
        return stored

    def changed(self) -> bool:
        """Whether :attr:`seen` differs from the listings this object started from."""
        return self.seen != self._known


#: The listings bundle scans in this process go through (``None``: each folder is listed).
_listings: FolderListings | None = None


def reuse_folder_listings(listings: FolderListings | None) -> None:
    """Let the bundle scans of this process list folders through ``listings`` (a one-shot
    command sets it: its deck memo key then reuses what the scan listed), or list every
    folder each time (``None``, the default)."""
    global _listings  # noqa: PLW0603 - one process-wide switch
    _listings = listings


def _kind(item: os.DirEntry[str]) -> str:
    try:
        if item.is_dir(follow_symlinks=False):
            return "d"
        return "f" if item.is_file(follow_symlinks=False) else "o"
    except OSError:
        return "o"


def bundle_state(
    folder: str,
    listings: FolderListings,
    *,
    racy_from_ns: int,
    at: tuple[int, str] | None = None,
) -> str | None:
    """Everything :func:`bundle_findings` of ``folder``'s ``SKILL.md`` depends on, as text:
    each folder the walk lists (its identity and entries) and each file it may read (its
    identity; ``SKILL.md`` itself is the caller's). Equal states mean equal findings.
    ``None`` when a file was modified at or after ``racy_from_ns`` (a later same-size
    edit could keep its identity).

    ``at`` is ``(descriptor of the folder's parent, the folder's name in it)``: each file
    is then looked up from the parent (``stat`` with ``dir_fd``, where the platform has
    it: :func:`open_folder`), not along the whole path again (a fifth of a warm key's
    20,000 lookups at 10,000 skills)."""
    parts: list[str] = []
    if not _state(folder, "", 0, listings, parts, racy_from_ns, at):
        return None
    return "\0".join(parts)


def open_folder(path: str) -> int | None:
    """A descriptor of the folder ``path`` to look files up from (:func:`bundle_state`'s
    ``at``; the caller closes it), or ``None`` where ``stat`` takes no ``dir_fd``
    (Windows) or the folder cannot be opened (then paths are looked up whole)."""
    if os.stat not in os.supports_dir_fd or not hasattr(os, "O_DIRECTORY"):
        return None
    try:
        return os.open(path, os.O_RDONLY | os.O_DIRECTORY | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None


def _state(  # noqa: PLR0917 - the recursion's state
    folder: str,
    relative: str,
    depth: int,
    listings: FolderListings,
    parts: list[str],
    racy_from_ns: int,
    at: tuple[int, str] | None,
) -> bool:
    path = os.path.join(folder, relative) if relative else folder
    try:
        if at is None:
            st = os.stat(path)
        else:
            st = os.stat(os.path.join(at[1], relative) if relative else at[1], dir_fd=at[0])
        items = listings.listing(path, st).split("\0")
    except OSError as error:
        parts.append(f"!{relative}:{error.errno}")
        return True
    parts.append(f"D{relative}:{st.st_dev},{st.st_ino},{st.st_mtime_ns},{st.st_ctime_ns}")
    prefix = relative + os.sep if relative else ""
    for item in items[1:]:
        kind, name = item[:1], item[1:]
        child = prefix + name
        if kind == "d":
            parts.append(f"d{child}")
            entered = name not in _SKIP_DIRS and depth + 1 < MAX_DEPTH
            if entered and not _state(folder, child, depth + 1, listings, parts, racy_from_ns, at):
                return False
        elif kind == "f" and child != "SKILL.md":
            try:
                if at is None:
                    info = os.stat(os.path.join(folder, child), follow_symlinks=False)
                else:
                    info = os.stat(os.path.join(at[1], child), dir_fd=at[0], follow_symlinks=False)
            except OSError as error:
                parts.append(f"!{child}:{error.errno}")
                continue
            if info.st_mtime_ns >= racy_from_ns:
                return False
            parts.append(
                f"F{child}:{info.st_mode},{info.st_dev},{info.st_ino},{info.st_size},"
                f"{info.st_mtime_ns},{info.st_ctime_ns}"
            )
        else:
            parts.append(f"{kind}{child}")
    return True
