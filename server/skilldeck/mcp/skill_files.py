"""The files of one skill as MCP serves them: which files, their size and sha256.

A skill whose file is ``<folder>/SKILL.md`` owns that folder: its ``SKILL.md`` and the
files beside and below it. A flat skill (``<root>/<name>.md``) shares its folder with
other skills, so only its own file is served (as ``SKILL.md``).

Never served: anything whose real path leaves the skill's folder (a symlink out, a
``..``; checked by :func:`skilldeck.engine.resources.resolve_resource`), hidden files and
folders (``.git``, ``.env``, ...), version-control folders, FIFOs, devices and sockets.
A folder holding another ``SKILL.md`` (a nested skill) is walked like any other: the
extension's manifest is complete, nested skills' files included. A skill over the
extension's limits (:data:`MAX_SKILL_FILES` files, :data:`MAX_SKILL_BYTES` bytes in all)
is not served at all (:class:`SkillOverLimitError`), never with a partial manifest.
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
#: One file: a resource is read whole into a response (no more than a whole skill).
MAX_FILE_BYTES = MAX_SKILL_BYTES
_VCS_FOLDERS = frozenset({"CVS", "_darcs", "RCS", "SCCS", "node_modules", "__pycache__"})


@dataclass(frozen=True, slots=True)
class SkillFile:
    """One served file: its ``/``-separated path in the skill, real path, size, digest.

    ``path`` is ``None`` for the ``SKILL.md`` of a skill without a file (synthesized
    from its provider's definition: :mod:`skilldeck.mcp.provided_skills`).
    """

    relative: str
    path: str | None
    size: int
    sha256: str


@dataclass(frozen=True, slots=True)
class SkillFiles:
    """A skill's served files, ``SKILL.md`` first: every file of the skill."""

    files: tuple[SkillFile, ...]

    def find(self, relative: str) -> SkillFile | None:
        """The served file at ``relative`` (exact match), else ``None``."""
        return next((file for file in self.files if file.relative == relative), None)


class SkillFileError(Exception):
    """A file could not be served; the message says why (shown to the client)."""


class SkillOverLimitError(SkillFileError):
    """The skill's files exceed one of the extension's per-skill limits (the message
    names it: ``512 files`` or ``16 MiB``)."""


def skill_folder(skill_path: str) -> str | None:
    """The folder a skill owns (``None`` for a flat ``<name>.md`` skill)."""
    if os.path.basename(skill_path) != SKILL_FILE:
        return None
    return os.path.dirname(skill_path)


def collect_skill_files(skill_path: str) -> SkillFiles:
    """Walk a skill's files (see the module docstring); raises :class:`SkillFileError`
    when its own ``SKILL.md`` cannot be read, :class:`SkillOverLimitError` when the
    skill exceeds the extension's limits."""
    main = _digest(skill_path, SKILL_FILE)
    folder = skill_folder(skill_path)
    if folder is None:
        return SkillFiles((main,))
    summary = _folder_owner(folder)
    walker = _Walker(summary, main.size)
    walker.walk(folder, "")
    return SkillFiles((main, *walker.files))


def read_served_file(file: SkillFile) -> bytes:
    """The bytes of a served file, read again (no device, no growth past the cap)."""
    if file.path is None:
        raise SkillFileError(f"{file.relative}: not a file (synthesized by the server)")
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
                self.walk(entry.path, f"{relative}/")
                continue
            if not stat.S_ISREG(info.st_mode):
                continue  # FIFOs, devices, sockets
            self._check_fits(info.st_size)
            try:
                file = _digest(entry.path, relative)
            except SkillFileError:
                continue
            self.used_bytes += file.size
            self.files.append(file)

    def _check_fits(self, size: int) -> None:
        if len(self.files) + 1 >= MAX_SKILL_FILES:  # SKILL.md is not in self.files
            raise SkillOverLimitError(f"{MAX_SKILL_FILES} files")
        if self.used_bytes + size > MAX_SKILL_BYTES:
            raise SkillOverLimitError(f"{MAX_SKILL_BYTES // (1024 * 1024)} MiB")
