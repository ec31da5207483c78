"""The files of one skill as MCP serves them: which files, their size and sha256.

A skill whose file is ``<folder>/SKILL.md`` owns that folder: its ``SKILL.md`` and the
files beside and below it. A flat skill (``<root>/<name>.md``) shares its folder with
other skills, so only its own file is served (as ``SKILL.md``).

Never served: anything whose real path leaves the skill's folder (a symlink out, a
``..``; checked by :func:`skilldeck.engine.resources.resolve_resource`), hidden files and
folders (``.git``, ``.env``, ...), version-control folders, folders holding another
``SKILL.md`` (skills do not nest), FIFOs, devices and sockets. A skill serves at most
:data:`MAX_SKILL_FILES` files and :data:`MAX_SKILL_BYTES` bytes in all, and no file over
:data:`MAX_FILE_BYTES`; what does not fit is left out of the manifest and cannot be read.
"""

from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass

from skilldeck.engine.model import DirectoryResourceBase, SkillSummary
from skilldeck.engine.resources import resolve_resource
from skilldeck.engine.skill_read import SkillReadError, read_skill_bytes

SKILL_FILE = "SKILL.md"
#: The Skills extension's per-skill limits (what every conforming host accepts).
MAX_SKILL_FILES = 512
MAX_SKILL_BYTES = 16 * 1024 * 1024
#: One file: a resource is read whole into a response.
MAX_FILE_BYTES = 8 * 1024 * 1024
_VCS_FOLDERS = frozenset({"CVS", "_darcs", "RCS", "SCCS", "node_modules", "__pycache__"})


@dataclass(frozen=True, slots=True)
class SkillFile:
    """One served file: its ``/``-separated path in the skill, real path, size, digest."""

    relative: str
    path: str
    size: int
    sha256: str


@dataclass(frozen=True, slots=True)
class SkillFiles:
    """A skill's served files, ``SKILL.md`` first; ``truncated`` when caps left some out."""

    files: tuple[SkillFile, ...]
    truncated: bool = False

    def find(self, relative: str) -> SkillFile | None:
        """The served file at ``relative`` (exact match), else ``None``."""
        return next((file for file in self.files if file.relative == relative), None)


class SkillFileError(Exception):
    """A file could not be served; the message says why (shown to the client)."""


def skill_folder(skill_path: str) -> str | None:
    """The folder a skill owns (``None`` for a flat ``<name>.md`` skill)."""
    if os.path.basename(skill_path) != SKILL_FILE:
        return None
    return os.path.dirname(skill_path)


def collect_skill_files(skill_path: str) -> SkillFiles:
    """Walk a skill's files (see the module docstring); raises :class:`SkillFileError`
    when its own ``SKILL.md`` cannot be read."""
    main = _digest(skill_path, SKILL_FILE)
    folder = skill_folder(skill_path)
    if folder is None:
        return SkillFiles((main,))
    summary = _folder_owner(folder)
    walker = _Walker(summary, main.size)
    walker.walk(folder, "")
    return SkillFiles((main, *walker.files), walker.truncated)


def read_served_file(file: SkillFile) -> bytes:
    """The bytes of a served file, read again (no device, no growth past the cap)."""
    try:
        return read_skill_bytes(file.path, max_bytes=MAX_FILE_BYTES)
    except SkillReadError as error:
        raise SkillFileError(f"{file.relative}: {error.finding.message}") from error


def _folder_owner(folder: str) -> SkillSummary:
    return SkillSummary(
        name="skill",
        description="",
        source="mcp",
        provider="mcp",
        resource_base=DirectoryResourceBase(folder),
    )


def _digest(path: str, relative: str) -> SkillFile:
    try:
        data = read_skill_bytes(path, max_bytes=MAX_FILE_BYTES)
    except SkillReadError as error:
        raise SkillFileError(f"{relative}: {error.finding.message}") from error
    return SkillFile(relative, path, len(data), hashlib.sha256(data).hexdigest())


class _Walker:
    def __init__(self, owner: SkillSummary, used_bytes: int) -> None:
        self.owner = owner
        self.files: list[SkillFile] = []
        self.used_bytes = used_bytes
        self.truncated = False
        self.visited: set[str] = set()

    def walk(self, folder: str, prefix: str) -> None:
        real = os.path.realpath(folder)
        if real in self.visited:
            return  # a symlink back into the skill: each folder once
        self.visited.add(real)
        try:
            with os.scandir(folder) as listing:
                entries = sorted(listing, key=lambda entry: entry.name)
        except OSError:
            return
        for entry in entries:
            name = entry.name
            if name.startswith(".") or name in _VCS_FOLDERS:
                continue
            relative = f"{prefix}{name}"
            if not prefix and name == SKILL_FILE:
                continue
            if resolve_resource(self.owner, relative) is None:
                continue  # leaves the folder (symlink out)
            try:
                info = os.stat(entry.path)
            except OSError:
                continue
            if stat.S_ISDIR(info.st_mode):
                if not os.path.exists(os.path.join(entry.path, SKILL_FILE)):
                    self.walk(entry.path, f"{relative}/")
                continue
            if not stat.S_ISREG(info.st_mode):
                continue  # FIFOs, devices, sockets
            if not self._fits(info.st_size):
                self.truncated = True
                continue
            try:
                file = _digest(entry.path, relative)
            except SkillFileError:
                continue
            self.used_bytes += file.size
            self.files.append(file)

    def _fits(self, size: int) -> bool:
        return (
            len(self.files) + 1 < MAX_SKILL_FILES
            and size <= MAX_FILE_BYTES
            and self.used_bytes + size <= MAX_SKILL_BYTES
        )
