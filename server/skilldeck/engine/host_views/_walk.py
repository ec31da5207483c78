"""The ``SKILL.md`` files deeper than one folder below a root: what hosts that search
recursively (Codex, GitHub Copilot, OpenCode, Kimi Code) find there.

The engine's own layout stops at ``<root>/<name>/SKILL.md`` (and flags a file one level
deeper, SD007); :func:`deep_skill_files` walks further, following symlinked folders
(each real folder once, so a link loop ends), and records for each file what the hosts'
rules ask about the way to it: how many folders deep it sits, whether a folder on the way
is hidden or a symlink, and whether a folder on the way is itself a skill. Which host
loads which of these is :mod:`skilldeck.engine.host_views._view`'s call.

The walk is bounded: at most :data:`MAX_LEVELS` folders deep and
:data:`MAX_DIRS_PER_ROOT` folders per root (Codex's own limit, ``MAX_SKILLS_DIRS_PER_ROOT``
in ``codex-rs/core-skills/src/loader.rs``); past it the walk stops and says so.
"""

from __future__ import annotations

import os
from collections import deque
from dataclasses import dataclass

from skilldeck.engine.filesystem import BUNDLE_FILE

#: The deepest a walk goes for a host with no documented limit (folders below the root).
MAX_LEVELS = 32
#: Folders read per root before the walk stops (Codex's ``MAX_SKILLS_DIRS_PER_ROOT``).
MAX_DIRS_PER_ROOT = 2000


@dataclass(frozen=True)
class DeepFile:
    """A ``SKILL.md`` two or more folders below ``root``.

    ``folders``: the folder names from the root down to the skill's own (their number is
    how deep the file sits: ``<root>/a/b/SKILL.md`` is 2). ``linked``: a folder on the way
    (the skill's own included) or the file is a symlink. ``inside_skill``: the nearest
    folder on the way (above the skill's own) that holds a ``SKILL.md`` of its own.
    """

    path: str
    root: str
    folders: tuple[str, ...]
    linked: bool
    inside_skill: str | None

    @property
    def levels(self) -> int:
        """How many folders below the root the file sits."""
        return len(self.folders)


@dataclass(frozen=True)
class _Dir:
    path: str
    folders: tuple[str, ...]
    linked: bool
    skill: str | None


def deep_skill_files(root: str, max_levels: int) -> tuple[list[DeepFile], bool]:
    """Every ``SKILL.md`` from two to ``max_levels`` folders below ``root``, sorted by
    path, and whether the walk read every folder (``False`` past
    :data:`MAX_DIRS_PER_ROOT`)."""
    found: list[DeepFile] = []
    if max_levels < 2:
        return found, True
    try:
        top = os.stat(root)
    except OSError:
        return found, True
    seen = {(top.st_dev, top.st_ino)}
    queue = deque([_Dir(root, (), False, None)])
    read = 0
    complete = True
    while queue:
        folder = queue.popleft()
        if read >= MAX_DIRS_PER_ROOT:
            complete = False
            break
        read += 1
        for name, path, is_link, identity in _child_folders(folder.path):
            folders = (*folder.folders, name)
            level = len(folders)
            own = _skill_file(path)
            if level >= 2 and own is not None:
                linked = folder.linked or is_link or os.path.islink(own)
                found.append(DeepFile(own, root, folders, linked, folder.skill))
            if level >= max_levels:
                continue
            if identity in seen:
                continue
            seen.add(identity)
            below_skill = own if own is not None else folder.skill
            queue.append(_Dir(path, folders, folder.linked or is_link, below_skill))
    found.sort(key=lambda item: item.path)
    return found, complete


def deep_identity(root: str, max_levels: int) -> list[str]:
    """What a memo of a view must key on below ``root``: each deep file's path and
    identity (device, inode, size, mtime and ctime: a same-size rewrite whose mtime was
    restored still has a new ctime); a file that cannot be read is keyed by its path
    alone."""
    files, complete = deep_skill_files(root, max_levels)
    keys: list[str] = [] if complete else [f"{root}\0incomplete"]
    for item in files:
        try:
            stat = os.stat(item.path)
        except OSError:
            keys.append(item.path)
            continue
        keys.append(
            f"{item.path}\0{stat.st_dev}\0{stat.st_ino}\0{stat.st_size}\0{stat.st_mtime_ns}"
            f"\0{stat.st_ctime_ns}"
        )
    return keys


def _child_folders(folder: str) -> list[tuple[str, str, bool, tuple[int, int]]]:
    """The folders in ``folder`` (symlinks followed), sorted: name, path, whether it is a
    symlink, and the real folder's identity (device, inode: each is walked once)."""
    children: list[tuple[str, str, bool, tuple[int, int]]] = []
    try:
        with os.scandir(folder) as listing:
            for entry in listing:
                try:
                    if entry.is_dir():
                        stat = entry.stat()
                        identity = (stat.st_dev, stat.st_ino)
                        children.append((entry.name, entry.path, entry.is_symlink(), identity))
                except OSError:
                    continue
    except OSError:
        return []
    children.sort()
    return children


def _skill_file(folder: str) -> str | None:
    path = os.path.join(folder, BUNDLE_FILE)
    return path if os.path.isfile(path) else None
