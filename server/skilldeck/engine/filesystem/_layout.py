"""Where a skill file must sit in a root: the one rule every front end asks.

A root holds skills one level deep: ``<root>/<name>/SKILL.md`` (a *bundle*; the files
beside it are its resources) or ``<root>/<name>.md`` (a *flat* skill). Children named
in the root's ``skip_names`` are never skills. :func:`place_in_root` decides it for a
path: the skill's :class:`SkillPlace`, or :class:`NotASkill` with the reason in the
author's words for a Markdown file under a root that the layout does not pick up
(``SD007``), or ``None`` for anything else (a resource of a bundle, a file outside the
root, a file that is not Markdown). The scan, the watcher, the language server and
``check`` all decide through this module.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Literal

from skilldeck.engine.config import RuleSettings
from skilldeck.engine.filesystem._roots import SkillRoot
from skilldeck.engine.rules import Finding, rule
from skilldeck.engine.text import FILE_START, Span

Layout = Literal["bundle", "flat"]

BUNDLE_FILE = "SKILL.md"
FLAT_SUFFIX = ".md"


@dataclass(frozen=True)
class SkillPlace:
    """A skill file's place: its root, layout and the name its folder or stem gives."""

    root: SkillRoot
    layout: Layout
    expected_name: str


@dataclass(frozen=True)
class NotASkill:
    """A Markdown file under ``root`` that no skill layout picks up, and why."""

    root: SkillRoot
    reason: str

    def finding(
        self, settings: RuleSettings | None = None, span: Span = FILE_START
    ) -> Finding | None:
        """The ``SD007`` finding that tells the author, with the severity ``settings``
        choose (``None`` when they switch the rule off)."""
        finding = rule("SD007").finding(span, reason=self.reason)
        if settings is None:
            return finding
        severity = settings.severity_for(finding.code, finding.severity)
        return None if severity is None else replace(finding, severity=severity)


def child_layout(name: str, *, is_dir: bool) -> tuple[Layout, str, str] | None:
    """What a direct child of a root is: ``(layout, skill file relative to the root,
    expected name)``, or ``None`` when the child is no skill (neither a folder nor an
    ``.md`` file)."""
    if is_dir:
        return "bundle", f"{name}/{BUNDLE_FILE}", name
    if name.endswith(FLAT_SUFFIX):
        return "flat", name, name[: -len(FLAT_SUFFIX)]
    return None


def listed_child_layout(dirent: os.DirEntry[str]) -> tuple[Layout, str, str] | None:
    """:func:`child_layout` of a child a root's listing gave: a folder is a bundle, a flat
    skill must be a regular file (a FIFO named ``x.md`` is none). ``OSError`` propagates
    (a symlink loop, an unreadable target): the caller decides what it means."""
    is_dir = dirent.is_dir()
    found = child_layout(dirent.name, is_dir=is_dir)
    if found is not None and not is_dir and not dirent.is_file():
        return None
    return found


def relative_parts(path: str, root: SkillRoot) -> list[str] | None:
    """``path`` below ``root`` as its components; ``None`` when it is not below it.

    Paths are compared after ``normpath`` only (symlinks are not resolved).
    """
    target = os.path.normpath(os.path.abspath(path))
    prefix = root.path.rstrip(os.sep) + os.sep
    if not target.startswith(prefix):
        return None
    parts = target[len(prefix) :].split(os.sep)
    if not parts[0] or parts[0] in root.skip_names:
        return None
    return parts


def place_in_root(
    path: str,
    root: SkillRoot,
    *,
    is_file: Callable[[str], bool] = os.path.isfile,
) -> SkillPlace | NotASkill | None:
    """The place of ``path`` in ``root`` (see the module doc).

    ``is_file`` is asked only for a Markdown file two or more levels deep, whether its
    bundle folder holds a ``SKILL.md`` (then the file is that bundle's resource).
    """
    parts = relative_parts(path, root)
    if parts is None:
        return None
    leaf = parts[-1]
    if len(parts) == 1:
        found = child_layout(leaf, is_dir=False)
        return SkillPlace(root, found[0], found[2]) if found is not None else None
    if len(parts) == 2 and leaf == BUNDLE_FILE:
        return SkillPlace(root, "bundle", parts[0])
    if not leaf.lower().endswith(FLAT_SUFFIX):
        return None
    shown = _root_display(root)
    expected = f"expected {shown}/<name>/SKILL.md or {shown}/<name>.md"
    if leaf == BUNDLE_FILE:
        depth = len(parts) - 2
        levels = "one level" if depth == 1 else f"{depth} levels"
        return NotASkill(root, f"nested {levels} too deep; expected {shown}/<name>/SKILL.md")
    bundle_file = os.path.join(root.path, parts[0], BUNDLE_FILE)
    if is_file(bundle_file):
        return None  # a resource of the bundle parts[0]
    if len(parts) == 2 and leaf.lower() == BUNDLE_FILE.lower():
        return NotASkill(
            root, f"the file is named {leaf}; a bundle's skill file is named exactly SKILL.md"
        )
    if len(parts) == 2:
        return NotASkill(root, f"the folder '{parts[0]}' has no SKILL.md; {expected}")
    return NotASkill(root, f"nested too deep; {expected}")


def place_of(
    path: str,
    roots: Iterable[SkillRoot],
    *,
    is_file: Callable[[str], bool] = os.path.isfile,
) -> SkillPlace | NotASkill | None:
    """The place of ``path`` in the first root (in rank order) that places it as a
    skill; else the first root's reason it is not one; else ``None``."""
    refused: NotASkill | None = None
    for root in roots:
        found = place_in_root(path, root, is_file=is_file)
        if isinstance(found, SkillPlace):
            return found
        if refused is None and found is not None:
            refused = found
    return refused


def skill_place(path: str, roots: Iterable[SkillRoot]) -> SkillPlace | None:
    """The place of ``path`` when it is a skill file of one of ``roots`` (no disk access)."""
    found = place_of(path, roots, is_file=_never)
    return found if isinstance(found, SkillPlace) else None


def _never(_: str) -> bool:
    return False


def _root_display(root: SkillRoot) -> str:
    """The root as authors know it: ``.dsh/skills`` for a root in a dot folder, else
    its whole path."""
    parent, name = os.path.split(root.path.rstrip(os.sep))
    if os.path.basename(parent).startswith("."):
        return f"{os.path.basename(parent)}/{name}"
    return root.path


def stray_files(root: SkillRoot, folder_name: str) -> list[tuple[str, NotASkill]]:
    """The Markdown files in the root's child folder ``folder_name`` (which holds no
    ``SKILL.md``) and one level below it, with why none is a skill: a bundle's misnamed
    skill file, ``<folder>/<name>/SKILL.md`` nested one level too deep. Sorted by path;
    unreadable folders yield nothing (blocking)."""
    folder = os.path.join(root.path, folder_name)
    candidates: list[str] = []
    try:
        with os.scandir(folder) as listing:
            for dirent in listing:
                try:
                    if dirent.is_dir():
                        candidates.append(os.path.join(dirent.path, BUNDLE_FILE))
                    elif dirent.name.lower().endswith(FLAT_SUFFIX) and dirent.is_file():
                        candidates.append(dirent.path)
                except OSError:
                    continue
    except OSError:
        return []
    found: list[tuple[str, NotASkill]] = []
    for path in sorted(candidates):
        if path.endswith(os.sep + BUNDLE_FILE) and not os.path.isfile(path):
            continue
        place = place_in_root(path, root)
        if isinstance(place, NotASkill):
            found.append((path, place))
    return found
