"""Folder trees of the source cache (checkouts of other people's commits), walked and
removed without recursion.

A commit can hold a folder a thousand levels deep: a recursive walk (``os.walk`` before
Python 3.12, ``shutil.rmtree`` before 3.13) then dies of ``RecursionError``. Here a tree
is walked with an explicit stack, every path relative to one open descriptor of its top
folder (so a path is never longer than git's own, whatever the cache dir's path), and
symlinks are never followed. Where the platform has no ``dir_fd`` (Windows), paths are
joined to the top folder's instead.
"""

from __future__ import annotations

import contextlib
import errno
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

_DIRECTORY = (
    os.O_RDONLY
    | getattr(os, "O_DIRECTORY", 0)
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_CLOEXEC", 0)
)


@dataclass(frozen=True)
class TreeEntry:
    """One entry below the walked folder: its ``/``-separated path relative to it,
    whether it is a folder (a symlink never is), its size (``lstat``; 0 for a folder) and
    ``depth``, the number of folders it sits in below the top (0 for the top's own
    entries)."""

    relative: str
    is_dir: bool
    size: int
    depth: int


class TreeTooDeep(Exception):
    """A folder nested deeper than the walk's ``max_depth``."""

    def __init__(self, depth: int) -> None:
        super().__init__(f"folders nested more than {depth} deep")
        self.depth = depth


#: Whether entries can be named relative to an open folder (not on Windows).
_AT = {os.open, os.unlink, os.rmdir} <= os.supports_dir_fd and os.scandir in os.supports_fd


def _open_top(folder: Path) -> int | str:
    """The top folder as an open descriptor, or its path where ``dir_fd`` is missing."""
    if _AT:
        return os.open(folder, _DIRECTORY)
    if not os.path.isdir(folder) or os.path.islink(folder):
        raise NotADirectoryError(errno.ENOTDIR, "not a folder", str(folder))
    return str(folder)


def _close_top(top: int | str) -> None:
    if isinstance(top, int):
        os.close(top)


def _unlink(top: int | str, relative: str, *, folder: bool = False) -> None:
    remove = os.rmdir if folder else os.unlink
    if isinstance(top, int):
        remove(relative, dir_fd=top)
    else:
        remove(os.path.join(top, relative))


def walk_tree(folder: Path, *, max_depth: int | None = None) -> Iterator[TreeEntry]:
    """Every entry below ``folder``, each folder before its contents, without recursion.

    Raises ``OSError`` when a folder cannot be read and :class:`TreeTooDeep` at a folder
    nested deeper than ``max_depth``."""
    top = _open_top(folder)
    try:
        stack: list[tuple[str, int]] = [("", 0)]
        while stack:
            relative, depth = stack.pop()
            for name, is_dir, size in _entries(top, relative):
                child = f"{relative}/{name}" if relative else name
                yield TreeEntry(child, is_dir, size, depth)
                if is_dir:
                    if max_depth is not None and depth + 1 > max_depth:
                        raise TreeTooDeep(max_depth)
                    stack.append((child, depth + 1))
    finally:
        _close_top(top)


def remove_tree(folder: Path) -> bool:
    """Remove ``folder`` and everything below it, deepest first, without recursion.

    Best effort: what cannot be removed stays. Whether ``folder`` is gone."""
    try:
        top = _open_top(folder)
    except FileNotFoundError:
        return True
    except OSError:  # a file or a symlink where a folder was expected
        with contextlib.suppress(OSError):
            os.unlink(folder)
        return not os.path.lexists(folder)
    try:
        folders: list[str] = []
        stack = [""]
        while stack:
            relative = stack.pop()
            folders.append(relative)
            try:
                entries = _entries(top, relative)
            except OSError:
                continue
            for name, is_dir, _size in entries:
                child = f"{relative}/{name}" if relative else name
                if is_dir:
                    stack.append(child)
                else:
                    with contextlib.suppress(OSError):
                        _unlink(top, child)
        # Each folder was listed before everything below it: reversed, children go first.
        for relative in reversed(folders[1:]):
            with contextlib.suppress(OSError):
                _unlink(top, relative, folder=True)
    finally:
        _close_top(top)
    with contextlib.suppress(OSError):
        os.rmdir(folder)
    return not os.path.lexists(folder)


def _entries(top: int | str, relative: str) -> list[tuple[str, bool, int]]:
    """Name, is-a-folder and size of each entry of the folder ``relative`` to ``top``."""
    if isinstance(top, str):
        return _listed(os.path.join(top, relative))
    fd = os.open(relative or ".", _DIRECTORY, dir_fd=top)
    try:
        return _listed(fd)
    finally:
        os.close(fd)


def _listed(folder: int | str) -> list[tuple[str, bool, int]]:
    with os.scandir(folder) as listing:
        found = []
        for entry in listing:
            if entry.is_dir(follow_symlinks=False):  # from the listing: no stat call
                found.append((entry.name, True, 0))
            else:
                found.append((entry.name, False, entry.stat(follow_symlinks=False).st_size))
        return found
