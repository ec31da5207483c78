"""The files of one skill as MCP serves them: which files, their size and sha256.

A skill whose file is ``<folder>/SKILL.md`` owns that folder: its ``SKILL.md`` and the
files beside and below it. A flat skill (``<root>/<name>.md``) shares its folder with
other skills, so only its own file is served (as ``SKILL.md``).

Never served: anything whose real path leaves the skill's folder (a symlink out; the
rule :mod:`skilldeck.engine.model_view` applies to a resource: the real path strictly
inside the folder's real path, applied here to the literal file name), hidden files and
folders (``.git``, ``.env``, ...) and version-control folders, whether named so or
reached through a symlink whose real path passes through one (``settings.txt -> .env``),
FIFOs, devices and sockets.

A folder holding another ``SKILL.md`` (a nested skill) is walked like any other: the
extension's manifest is complete, nested skills' files included. A skill over the
extension's limits (:data:`MAX_SKILL_FILES` files, :data:`MAX_SKILL_BYTES` bytes in all)
is not served at all (:class:`SkillOverLimitError`), never with a partial manifest; nor
is a skill whose folder tree is larger than a walk visits (:data:`MAX_WALK_ENTRIES`
files and folders, :data:`MAX_FOLDER_DEPTH` levels: :class:`SkillTreeTooLargeError`).
The walk is iterative and resolves a path only where a symlink is met, so a deep or
wide tree costs no more than the entries the bound lets it visit.

With ``scanned_only`` (``skilldeck mcp --require-safe``) a file is served only if the
safety scan of the bundle reads it in full
(:func:`skilldeck.engine.safety.scan_coverage`: its walk's bounds, folders it skips such
as ``venv``, no symlink followed), so the gate judges every file it serves.

A file is judged again when it is read (:func:`read_served_file`), as a fresh walk would
judge it: its real path must still lie inside the skill's folder and pass through no
hidden or version-control component, it is opened one path segment at a time from that
folder without following a symlink, and read only if it is a regular file (and, with
``scanned_only``, one the safety scan reads in full now). The caller compares the bytes
with the manifest's digest.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from skilldeck.engine.files import SkillReadError, file_kind, read_skill_bytes
from skilldeck.engine.safety import ScanCoverage, scan_coverage

SKILL_FILE = "SKILL.md"
#: The Skills extension's per-skill limits (what every conforming host accepts).
MAX_SKILL_FILES = 512
MAX_SKILL_BYTES = 16 * 1024 * 1024
#: One file: a resource is read whole into a response (no more than a whole skill).
MAX_FILE_BYTES = MAX_SKILL_BYTES
#: The most entries (files, folders, and what is passed over: hidden files, symlinks
#: out, special files) one skill's walk lists before the skill is refused: four times
#: the extension's file limit, so a skill within that limit fits with room for folders.
MAX_WALK_ENTRIES = 4 * MAX_SKILL_FILES
#: The deepest folder below a skill's own that its walk enters (``a/b/c.md`` is at 2).
MAX_FOLDER_DEPTH = 32
_VCS_FOLDERS = frozenset({"CVS", "_darcs", "RCS", "SCCS", "node_modules", "__pycache__"})
_READ_CHUNK = 1024 * 1024


@dataclass(frozen=True, slots=True)
class SkillFile:
    """One served file: its ``/``-separated path in the skill, path, size, digest.

    ``path`` is ``None`` for the ``SKILL.md`` of a skill without a file (synthesized
    from its provider's definition: :mod:`skilldeck.mcp.provided_skills`).
    """

    relative: str
    path: str | None
    size: int
    sha256: str


@dataclass(frozen=True, slots=True)
class SkillFiles:
    """A skill's served files, ``SKILL.md`` first: every file of the skill, and the
    folder the skill owns (``None`` for a flat skill or a skill without a file)."""

    files: tuple[SkillFile, ...]
    folder: str | None = None
    #: Only the files the bundle's safety scan reads in full (``--require-safe``).
    scanned_only: bool = False
    #: The bytes each listed file was read as when its digest was taken (the one read a
    #: gate judges, then serves): ``SKILL.md`` always, the others when asked for.
    contents: Mapping[str, bytes] = field(default_factory=dict, compare=False, repr=False)
    #: The safety scan's coverage the files were listed by (``scanned_only``).
    coverage: ScanCoverage | None = field(default=None, compare=False, repr=False)

    def find(self, relative: str) -> SkillFile | None:
        """The served file at ``relative`` (exact match), else ``None``."""
        return next((file for file in self.files if file.relative == relative), None)


class SkillFileError(Exception):
    """A file could not be served; the message says why (shown to the client)."""


class SkillOverLimitError(SkillFileError):
    """The skill's files exceed one of the extension's per-skill limits (the message
    names it: ``512 files`` or ``16 MiB``)."""


class SkillTreeTooLargeError(SkillFileError):
    """The skill's folder tree is wider or deeper than a walk visits (the message says
    which bound: :data:`MAX_WALK_ENTRIES` or :data:`MAX_FOLDER_DEPTH`)."""


def skill_folder(skill_path: str) -> str | None:
    """The folder a skill owns (``None`` for a flat ``<name>.md`` skill)."""
    if os.path.basename(skill_path) != SKILL_FILE:
        return None
    return os.path.dirname(skill_path)


def collect_skill_files(
    skill_path: str, *, scanned_only: bool = False, keep_contents: bool = False
) -> SkillFiles:
    """Walk a skill's files (see the module docstring); raises :class:`SkillFileError`
    when its own ``SKILL.md`` cannot be read, :class:`SkillOverLimitError` when the
    skill exceeds the extension's limits, :class:`SkillTreeTooLargeError` when its tree
    exceeds the walk's bounds. ``scanned_only`` keeps only the files the bundle's
    safety scan reads in full (and enters only the folders it reads files in). Each file
    is read once, for its digest; ``SKILL.md``'s bytes are kept (:attr:`SkillFiles.
    contents`), and with ``keep_contents`` every file's."""
    data = _read_skill_file(skill_path, SKILL_FILE)
    main = SkillFile(SKILL_FILE, skill_path, len(data), hashlib.sha256(data).hexdigest())
    folder = skill_folder(skill_path)
    if folder is None:
        return SkillFiles((main,), scanned_only=scanned_only, contents={SKILL_FILE: data})
    coverage = scan_coverage(folder) if scanned_only else None
    walker = _Walker(main.size, coverage, keep_contents=keep_contents)
    walker.walk(folder)
    contents = {SKILL_FILE: data, **walker.contents}
    return SkillFiles((main, *walker.files), folder, scanned_only, contents, coverage)


def read_served_file(files: SkillFiles, file: SkillFile) -> bytes:
    """The bytes of ``file`` (one of ``files``), read again and judged again: the
    skill's own ``SKILL.md`` as the engine reads it; any other file only while its real
    path lies inside the skill's folder and it is a regular file reached without a
    symlink from there (no device, no growth past the cap)."""
    if file.path is None:
        raise SkillFileError(f"{file.relative}: not a file (synthesized by the server)")
    if files.folder is None or file.relative == SKILL_FILE:
        try:
            return read_skill_bytes(file.path, max_bytes=MAX_FILE_BYTES)
        except SkillReadError as error:
            raise SkillFileError(f"{file.relative}: {error.finding.message}") from error
    data = _read_inside(files.folder, file.relative)
    if files.scanned_only:
        coverage = scan_coverage(files.folder)
        if not coverage.covers_data(file.relative, data):
            raise SkillFileError(unscanned_text(file.relative, coverage))
    return data


def unscanned_reason(files: SkillFiles, relative: str) -> str | None:
    """Why ``relative``, which ``files`` does not list, is not served because the
    bundle's safety scan does not read it in full (``scanned_only`` only); ``None``
    when that is not why (it is not there, or not served for another reason)."""
    if not files.scanned_only or files.folder is None or relative == SKILL_FILE:
        return None
    segments = relative.split("/")
    if _hidden_path(segments):
        return None
    if not os.path.lexists(os.path.join(files.folder, *segments)):
        return None
    coverage = scan_coverage(files.folder)
    if coverage.reason(relative) is None:
        return None
    return unscanned_text(relative, coverage)


def unscanned_text(relative: str, coverage: ScanCoverage) -> str:
    """The refusal of ``relative``, a file the safety scan does not read in full."""
    why = coverage.reason(relative) or "it was not there when the scan walked the bundle"
    return f"{relative}: not served under --require-safe: the safety scan did not read it ({why})"


def passed_over(name: str) -> bool:
    """True for a file or folder name no skill serves (hidden, version control)."""
    return name.startswith(".") or name in _VCS_FOLDERS


def _hidden_path(parts: Iterable[str]) -> bool:
    """True when a path of ``parts`` passes through a name no skill serves: the path a
    client names, or the real path a symlink leads to (``settings.txt -> .env``)."""
    return any(passed_over(part) for part in parts)


def _read_skill_file(path: str, relative: str) -> bytes:
    try:
        return read_skill_bytes(path, max_bytes=MAX_FILE_BYTES)
    except SkillReadError as error:
        raise SkillFileError(f"{relative}: {error.finding.message}") from error


@dataclass(slots=True)
class _Folder:
    """A folder being listed by the walk: its entries and how far the walk got."""

    real: str
    prefix: str
    depth: int
    entries: list[os.DirEntry[str]]
    next: int = 0


class _Walker:
    """A depth-first walk in name order (the manifest's order), without recursion."""

    def __init__(
        self, used_bytes: int, coverage: ScanCoverage | None = None, *, keep_contents: bool = False
    ) -> None:
        self.root = ""
        self.files: list[SkillFile] = []
        #: The bytes each file was read as (``keep_contents``), by relative path.
        self.contents: dict[str, bytes] = {}
        self.keep_contents = keep_contents
        self.used_bytes = used_bytes
        self.listed = 0
        self.visited: set[str] = set()
        #: With a coverage, only what the safety scan reads in full is served, and only
        #: the (real, not symlinked) folders it reads files in are entered.
        self.coverage = coverage
        self.scanned_folders = coverage.folders() if coverage is not None else frozenset()

    def walk(self, folder: str) -> None:
        stack: list[_Folder] = []
        self.root = os.path.realpath(folder)
        self._enter(stack, folder, self.root, "", 0)
        while stack:
            current = stack[-1]
            if current.next == len(current.entries):
                stack.pop()
                continue
            entry = current.entries[current.next]
            current.next += 1
            name = entry.name
            if passed_over(name) or (not current.prefix and name == SKILL_FILE):
                continue
            relative = f"{current.prefix}{name}"
            real = self._real(entry, current.real)
            if real is None:
                continue  # leaves the folder (symlink out), or a dangling link
            try:
                info = os.stat(entry.path)
            except OSError:
                continue
            if stat.S_ISDIR(info.st_mode):
                if self.coverage is None or relative in self.scanned_folders:
                    self._enter(stack, entry.path, real, f"{relative}/", current.depth + 1)
            elif stat.S_ISREG(info.st_mode):  # never FIFOs, devices, sockets
                self._add(entry.path, relative, info.st_size)

    def _enter(self, stack: list[_Folder], path: str, real: str, prefix: str, depth: int) -> None:
        if real in self.visited:
            return  # a symlink back into the skill: each folder once
        self.visited.add(real)
        if depth > MAX_FOLDER_DEPTH:
            raise SkillTreeTooLargeError(f"its folders nest deeper than {MAX_FOLDER_DEPTH} levels")
        try:
            with os.scandir(path) as listing:
                entries = sorted(listing, key=lambda entry: entry.name)
        except OSError:
            return
        self.listed += len(entries)
        if self.listed > MAX_WALK_ENTRIES:
            raise SkillTreeTooLargeError(f"it holds more than {MAX_WALK_ENTRIES} files and folders")
        stack.append(_Folder(real, prefix, depth, entries))

    def _real(self, entry: os.DirEntry[str], parent_real: str) -> str | None:
        """The entry's real path when it lies inside the skill's folder, else ``None``.

        Below a real folder inside the skill, an entry that is not a symlink is inside
        too (its real path is the folder's plus its name: no system call); a symlink is
        resolved and judged (:func:`_real_inside`)."""
        try:
            is_link = entry.is_symlink()
        except OSError:
            return None
        if not is_link:
            return os.path.join(parent_real, entry.name)
        if self.coverage is not None:
            return None  # the safety scan never follows a symlink: nothing behind one is judged
        real = _real_inside(self.root, entry.path)
        if real is None or _hidden_path(os.path.relpath(real, self.root).split(os.sep)):
            return None
        return real

    def _add(self, path: str, relative: str, size: int) -> None:
        if self.coverage is not None and not self.coverage.covers(relative, size):
            return  # the safety scan does not read it in full: not served under the gate
        if len(self.files) + 1 >= MAX_SKILL_FILES:  # SKILL.md is not in self.files
            raise SkillOverLimitError(f"{MAX_SKILL_FILES} files")
        if self.used_bytes + size > MAX_SKILL_BYTES:
            raise SkillOverLimitError(f"{MAX_SKILL_BYTES // (1024 * 1024)} MiB")
        try:
            data = _read_skill_file(path, relative)
        except SkillFileError:
            return
        if self.coverage is not None and not self.coverage.covers_data(relative, data):
            return  # changed since it was listed: not read in full by the scan either
        self.used_bytes += len(data)
        self.files.append(SkillFile(relative, path, len(data), hashlib.sha256(data).hexdigest()))
        if self.keep_contents:
            self.contents[relative] = data


def _read_inside(folder: str, relative: str) -> bytes:
    """Read ``relative`` below ``folder`` after judging it again (see the module
    docstring); :class:`SkillFileError` says why it is refused."""
    segments = relative.split("/")
    if _hidden_path(segments):
        raise SkillFileError(f"{relative}: not served (a hidden or version-control path)")
    root = os.path.realpath(folder)
    real = _real_inside(root, os.path.join(folder, *segments))
    if real is None:
        raise SkillFileError(f"{relative}: its real path is no longer inside the skill's folder")
    inside = os.path.relpath(real, root).split(os.sep)
    if _hidden_path(inside):
        raise SkillFileError(
            f"{relative}: not served (its real path is a hidden or version-control path)"
        )
    try:
        fd = _open_beneath(root, inside)
    except OSError as error:
        reason = (error.strerror or str(error)).lower()
        raise SkillFileError(f"{relative}: cannot be opened inside the skill: {reason}") from error
    try:
        return _read_regular(fd, relative)
    except OSError as error:
        reason = (error.strerror or str(error)).lower()
        raise SkillFileError(f"{relative}: cannot be read: {reason}") from error
    finally:
        os.close(fd)


def _real_inside(root: str, path: str) -> str | None:
    """``path``'s real path when it lies strictly inside ``root`` (a real path), else
    ``None``: the containment rule of :mod:`skilldeck.engine.model_view`."""
    real = os.path.realpath(path)
    try:
        inside = os.path.commonpath([root, real]) == root and real != root
    except ValueError:  # different drives on Windows
        return None
    return real if inside else None


_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_FILE_FLAGS = (
    os.O_RDONLY
    | _NOFOLLOW
    | _CLOEXEC
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_BINARY", 0)
)
_FOLDER_FLAGS = os.O_RDONLY | _NOFOLLOW | _CLOEXEC | getattr(os, "O_DIRECTORY", 0)


def _open_beneath(root: str, segments: list[str]) -> int:
    """A descriptor of ``root/segments...``, opened one segment at a time relative to the
    folder before it, never through a symlink (``ELOOP`` or ``ENOTDIR`` when a segment
    became one): the real path judged a moment ago cannot be swapped for a link."""
    if os.open not in os.supports_dir_fd:  # no openat: the whole real path, last link refused
        return os.open(os.path.join(root, *segments), _FILE_FLAGS)
    fd = os.open(root, _FOLDER_FLAGS)
    try:
        for segment in segments[:-1]:
            below = os.open(segment, _FOLDER_FLAGS, dir_fd=fd)
            os.close(fd)
            fd = below
        return os.open(segments[-1], _FILE_FLAGS, dir_fd=fd)
    finally:
        os.close(fd)


def _read_regular(fd: int, relative: str) -> bytes:
    """At most :data:`MAX_FILE_BYTES` of the regular file open at ``fd``."""
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        raise SkillFileError(f"{relative}: not a regular file ({file_kind(info.st_mode)})")
    chunks: list[bytes] = []
    total = 0
    while chunk := os.read(fd, min(_READ_CHUNK, MAX_FILE_BYTES + 1 - total)):
        chunks.append(chunk)
        total += len(chunk)
        if total > MAX_FILE_BYTES:
            raise SkillFileError(f"{relative}: larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB")
    return b"".join(chunks)
