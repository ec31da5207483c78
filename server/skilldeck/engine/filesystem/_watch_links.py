"""The symlinks a root's watch follows (SPEC section 6).

inotify watches folders, and it reports a change where it happens: an edit of a
symlink's target in the target's folder, a symlink re-pointed in the folder that holds
the link. A watch of a root and its bundle folders therefore misses

- an edit of the target of a symlinked skill file (``<root>/<name>.md`` or
  ``<root>/<name>/SKILL.md`` linking to a file elsewhere): the target's folder is watched
  too (non-recursively), and a change of the target is reported as the skill file(s)
  linking to it;
- a symlink on the way to the root re-pointed (the root ``-> release-1`` swapped for
  ``release-2``, or a ``current`` link above the root; also a link on the way to a
  skill file's target): the folder holding each such link is watched too, and a change of
  the link's entry re-opens the root's watch (which then watches where the path leads now)
  and is reported as the root (or the skill file).

:func:`resolve` walks a path as the kernel does and names each symlink it meets;
:func:`follow_links` turns the links of a root's listing into :class:`FollowedLinks`: the
extra folders to watch and what a change in them means. Each folder is watched once,
however many links lead into it, and not at all when it is a folder the root's watch
already has (the root, a bundle folder; compared by real path): watchfiles reports a folder
watched under two paths under the one given last only, so a target there is known by the
path the folder is watched under. A watched folder itself removed or moved re-opens the
watch; a folder that does not exist (a dangling link's) is not watched, so its coming is
seen only once the root is listed again. A deck without symlinks gets :data:`NO_LINKS`
and costs nothing per event.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field

#: Symlinks :func:`resolve` follows before it calls the path a loop (the kernel's 40).
MAX_LINKS = 40

#: The symlinks met resolving a path (physical paths, in the order met) and the physical
#: path it leads to (``None``: a symlink loop).
Resolution = tuple[tuple[str, ...], str | None]


def resolve(path: str) -> Resolution:
    """Resolve the absolute ``path`` as the kernel would (blocking; one ``lstat`` per
    component, one ``readlink`` per symlink): the symlinks met and where it leads. A
    component that does not exist (or cannot be read) ends the walk; the rest is taken as
    written, as ``os.path.realpath`` does."""
    pending = [part for part in reversed(path.split(os.sep)) if part]
    resolved = os.sep
    links: list[str] = []
    while pending:
        name = pending.pop()
        if name == ".":
            continue
        if name == "..":
            resolved = os.path.dirname(resolved)
            continue
        candidate = os.path.join(resolved, name)
        try:
            if not stat.S_ISLNK(os.lstat(candidate).st_mode):
                resolved = candidate
                continue
            target = os.readlink(candidate)
        except OSError:
            return tuple(links), os.path.normpath(os.path.join(candidate, *reversed(pending)))
        links.append(candidate)
        if len(links) > MAX_LINKS:
            return tuple(dict.fromkeys(links)), None
        if os.path.isabs(target):
            resolved = os.sep
        pending.extend(part for part in reversed(target.split(os.sep)) if part)
    return tuple(links), resolved


@dataclass(frozen=True)
class FollowedLinks:
    """What a root's watch adds for symlinks: :attr:`folders` to watch, and what a change
    reported at a path in them means."""

    #: Folders watched for the links alone (each once, none the root's watch has).
    folders: tuple[str, ...] = ()
    #: A target's path as reported -> the skill files linking to it.
    targets: Mapping[str, frozenset[str]] = field(default_factory=dict)
    #: A path whose change re-opens the watch (a link on the way, or a watched target
    #: folder itself) -> what to report: the root, or the skill files it leads to.
    reopen_on: Mapping[str, frozenset[str]] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.targets or self.reopen_on)

    def seen(self, paths: Iterable[str]) -> tuple[set[str], bool]:
        """What the changed ``paths`` (normalised) mean: the paths to report, and whether
        the watch must re-open."""
        found: set[str] = set()
        reopen = False
        for path in paths:
            linked = self.targets.get(path)
            if linked is not None:
                found |= linked
            moved = self.reopen_on.get(path)
            if moved is not None:
                found |= moved
                reopen = True
        return found, reopen


#: The links of a deck without any.
NO_LINKS = FollowedLinks()


class _Folders:
    """The folders a root's watch has, and the extra ones the links add; a folder is
    known by the path it is watched under."""

    def __init__(
        self,
        anchor: str,
        bundles: Collection[str],
        linked_bundles: Iterable[str],
        watchable: Callable[[str], bool],
    ) -> None:
        self._anchor = anchor
        self._real_anchor: str | None = None
        self._given_bundles = bundles
        self._bundles: frozenset[str] | None = None
        self._linked_bundles = linked_bundles
        self._real_linked: dict[str, str] | None = None
        self._watchable = watchable
        self.extra: dict[str, None] = {}

    def key(self, path: str) -> str | None:
        """The path a change of ``path`` (a physical path) is reported at, once its folder
        is watched (added to :attr:`extra` if need be); ``None`` when it cannot be."""
        folder, name = os.path.split(path)
        watched = self._watched_as(folder)
        if watched is None:
            if folder not in self.extra:
                if not (self._watchable(folder) and os.path.isdir(folder)):
                    return None
                self.extra[folder] = None
            watched = folder
        return os.path.join(watched, name)

    def _watched_as(self, folder: str) -> str | None:
        """The path the root's watch has ``folder`` (a physical path) under, if it has it."""
        if self._real_anchor is None:
            self._real_anchor = os.path.realpath(self._anchor)
        if folder == self._real_anchor:
            return self._anchor
        parent, name = os.path.split(folder)
        if parent == self._real_anchor:
            # ``folder`` is a real folder, so ``<anchor>/<name>`` is no symlink: the same.
            if self._bundles is None:
                self._bundles = frozenset(self._given_bundles)
            bundle = os.path.join(self._anchor, name)
            if bundle in self._bundles:
                return bundle
        if self._real_linked is None:
            self._real_linked = {os.path.realpath(b): b for b in self._linked_bundles}
        return self._real_linked.get(folder)


def follow_links(
    root_path: str,
    anchor: str,
    *,
    bundles: Collection[str],
    linked_bundles: Iterable[str],
    skill_links: Mapping[str, Resolution],
    root_links: Iterable[str],
    watchable: Callable[[str], bool],
) -> FollowedLinks:
    """The :class:`FollowedLinks` of a root's watch (blocking: a ``realpath`` of the
    anchor and of each symlinked bundle folder, an ``isdir`` per extra folder).

    ``anchor`` and ``bundles`` are the folders the watch has (``linked_bundles``: those of
    them that are symlinks); ``skill_links`` maps each symlinked skill file to its
    :func:`resolve`; ``root_links`` are the links met resolving the root's path. Folders
    ``watchable`` refuses are left out (their changes are not seen).
    """
    on_the_way = tuple(dict.fromkeys(root_links))
    if not skill_links and not on_the_way:
        return NO_LINKS
    folders = _Folders(anchor, bundles, linked_bundles, watchable)
    targets: dict[str, set[str]] = {}
    reopen_on: dict[str, set[str]] = {}
    for link in on_the_way:
        key = folders.key(link)
        if key is not None:
            reopen_on.setdefault(key, set()).add(root_path)
    skipped = set(on_the_way)
    by_folder: dict[str, set[str]] = {}
    for path, (links, target) in skill_links.items():
        for link in links:
            key = None if link in skipped else folders.key(link)
            if key is not None and key != path:  # the skill file's own entry is watched
                reopen_on.setdefault(key, set()).add(path)
        if target is None:
            continue
        key = folders.key(target)
        if key is not None:
            targets.setdefault(key, set()).add(path)
            by_folder.setdefault(os.path.dirname(key), set()).add(path)
    for folder in folders.extra:
        # The folder itself removed or moved: its watch ends; re-open to watch it again.
        reopen_on.setdefault(folder, set()).update(by_folder.get(folder, ()))
    return FollowedLinks(
        folders=tuple(folders.extra),
        targets={key: frozenset(paths) for key, paths in targets.items()},
        reopen_on={key: frozenset(paths) for key, paths in reopen_on.items()},
    )
