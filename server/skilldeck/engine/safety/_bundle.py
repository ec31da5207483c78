"""The safety scan of a bundle's other files (SD1001, SD1006, SD1011-SD1016).

A bundle (``<root>/<name>/SKILL.md``) ships scripts and references beside its
``SKILL.md``; the agent runs or reads them with the user's permissions. This module
walks the bundle folder, bounded, and scans each text file with the same code as the
body (:mod:`~skilldeck.engine.safety._commands`, tag characters from
:mod:`~skilldeck.engine.safety._chars`). The findings are reported on ``SKILL.md``
(where the editor, ``check`` and the MCP gate look), each message naming the file and
line, with a related location at the line itself.

Bounds: an iterative walk, at most :data:`MAX_DEPTH` folder levels below the bundle,
:data:`MAX_FILES` files and :data:`MAX_FILE_BYTES` read from each; symbolic links are
never followed (a link could lead outside the folder or loop); FIFOs and devices are
never opened; files with a NUL byte in their first block are binary and skipped;
``.git``, ``node_modules`` and ``__pycache__`` are not entered. The result is memoised
by the walk's file identities (path, size, mtime), so a keystroke in ``SKILL.md`` costs
a folder listing and a ``stat`` a file, not a rescan.
"""

from __future__ import annotations

import os
import stat
import time
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from skilldeck.engine.disk import open_regular
from skilldeck.engine.frontmatter import LineIndex
from skilldeck.engine.rules import Finding, RelatedLocation, rule
from skilldeck.engine.safety._chars import describe_tag_text, invisible_runs
from skilldeck.engine.safety._commands import SCRIPT_WINDOW, command_hits
from skilldeck.engine.safety._hits import Hit, present_marks
from skilldeck.engine.safety._instructions import tag_text_hit
from skilldeck.engine.text import FILE_START, Span

#: The rules a bundle scan reports.
BUNDLE_CODES = frozenset(
    {"SD1001", "SD1006", "SD1011", "SD1012", "SD1013", "SD1014", "SD1015", "SD1016"}
)
MAX_DEPTH = 4
MAX_FILES = 200
MAX_FILE_BYTES = 256 * 1024
_SKIP_DIRS = frozenset({".git", "node_modules", "__pycache__", ".venv", "venv"})
_BINARY_PROBE = 8192
_MEMO_SIZE = 256


@dataclass(frozen=True, slots=True)
class _Walk:
    files: tuple[tuple[str, int, int], ...]  # relative path, size, mtime_ns
    stopped: str | None


_memo: OrderedDict[tuple[str, _Walk], tuple[Finding, ...]] = OrderedDict()


def bundle_findings(skill_path: str) -> tuple[Finding, ...]:
    """SD1001/SD1006/SD1011-SD1016 for the files beside a bundle's ``SKILL.md``
    (``()`` for a flat skill file or a folder that cannot be listed)."""
    if os.path.basename(skill_path) != "SKILL.md":
        return ()
    folder = os.path.dirname(os.path.abspath(skill_path))
    walk = _walk(folder)
    key = (folder, walk)
    cached = _memo.get(key)
    if cached is not None:
        _memo.move_to_end(key)
        return cached
    found = tuple(_scan(folder, walk))
    _memo[key] = found
    if len(_memo) > _MEMO_SIZE:
        _memo.popitem(last=False)
    return found


def _walk(folder: str) -> _Walk:
    files: list[tuple[str, int, int]] = []
    pending: list[tuple[str, int]] = [("", 0)]
    stopped: str | None = None
    listings = _listings
    while pending:
        relative, depth = pending.pop()
        try:
            items = _entries(os.path.join(folder, relative), listings)
        except OSError:
            continue
        for name, kind in items:
            path = os.path.join(relative, name) if relative else name
            if kind == "d":
                if name in _SKIP_DIRS:
                    continue
                if depth + 1 >= MAX_DEPTH:
                    stopped = stopped or f"`{path}` is deeper than {MAX_DEPTH} folder levels"
                    continue
                pending.append((path, depth + 1))
            elif kind == "f" and path != "SKILL.md":
                try:
                    info = os.stat(os.path.join(folder, path), follow_symlinks=False)
                except OSError:
                    continue
                if not stat.S_ISREG(info.st_mode):
                    continue
                if len(files) >= MAX_FILES:
                    stopped = stopped or f"it has more than {MAX_FILES} files"
                    break
                files.append((path, info.st_size, info.st_mtime_ns))
    return _Walk(tuple(sorted(files)), stopped)


def _entries(path: str, listings: FolderListings | None) -> list[list[str]]:
    if listings is not None:
        return listings.entries(path, os.stat(path))
    with os.scandir(path) as items:
        return sorted([item.name, _kind(item)] for item in items)


def _scan(folder: str, walk: _Walk) -> list[Finding]:
    findings: list[Finding] = []
    for relative, size, _mtime in walk.files:
        text = _read_text(os.path.join(folder, relative))
        if text is None:
            continue
        findings += _file_findings(folder, relative, text)
        if size > MAX_FILE_BYTES:
            findings.append(
                rule("SD1016").finding(
                    FILE_START, reason=f"only the first 256 KiB of `{relative}` were read"
                )
            )
    if walk.stopped is not None:
        findings.append(rule("SD1016").finding(FILE_START, reason=walk.stopped))
    bundle = RelatedLocation(folder, FILE_START, "the bundle folder")
    return [f if f.related else replace(f, related=(bundle,)) for f in findings]


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
        #: folder path -> [device, inode, mtime_ns, ctime_ns, [[name, kind], ...]]
        self.seen: dict[str, list[Any]] = {}

    def entries(self, path: str, st: os.stat_result) -> list[list[str]]:
        """The sorted ``[name, kind]`` entries of the folder ``path`` whose ``stat`` is
        ``st`` (kind ``d`` a folder, ``f`` a regular file, ``o`` anything else, symlinks
        not followed); ``OSError`` when it cannot be listed."""
        identity = [st.st_dev, st.st_ino, st.st_mtime_ns, st.st_ctime_ns]
        stored = self.seen.get(path) or self._known.get(path)
        if isinstance(stored, list) and stored[:4] == identity and isinstance(stored[4], list):
            listing: list[list[str]] = stored[4]
        else:
            with os.scandir(path) as items:
                listing = sorted([item.name, _kind(item)] for item in items)
        if max(st.st_mtime_ns, st.st_ctime_ns) < time.time_ns() - self._window:
            self.seen[path] = [*identity, listing]
        return listing

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


def bundle_state(folder: str, listings: FolderListings, *, racy_from_ns: int) -> str | None:
    """Everything :func:`bundle_findings` of ``folder``'s ``SKILL.md`` depends on, as text:
    each folder the walk lists (its identity and entries) and each file it may read (its
    identity; ``SKILL.md`` itself is the caller's). Equal states mean equal findings.
    ``None`` when a file was modified at or after ``racy_from_ns`` (a later same-size
    edit could keep its identity)."""
    parts: list[str] = []
    if not _state(folder, "", 0, listings, parts, racy_from_ns):
        return None
    return "\0".join(parts)


def _state(  # noqa: PLR0917 - the recursion's state
    folder: str,
    relative: str,
    depth: int,
    listings: FolderListings,
    parts: list[str],
    racy_from_ns: int,
) -> bool:
    path = os.path.join(folder, relative) if relative else folder
    try:
        st = os.stat(path)
        entries = listings.entries(path, st)
    except OSError as error:
        parts.append(f"!{relative}:{error.errno}")
        return True
    parts.append(f"D{relative}:{st.st_dev},{st.st_ino},{st.st_mtime_ns},{st.st_ctime_ns}")
    for name, kind in entries:
        child = os.path.join(relative, name) if relative else name
        if kind == "d":
            parts.append(f"d{child}")
            entered = name not in _SKIP_DIRS and depth + 1 < MAX_DEPTH
            if entered and not _state(folder, child, depth + 1, listings, parts, racy_from_ns):
                return False
        elif kind == "f" and child != "SKILL.md":
            try:
                info = os.stat(os.path.join(folder, child), follow_symlinks=False)
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


def is_bundle_finding(finding: Finding, skill_path: str) -> bool:
    """Whether ``finding`` came from :func:`bundle_findings` (it points at another file)."""
    return finding.code in BUNDLE_CODES and any(r.path != skill_path for r in finding.related)


def _read_text(path: str) -> str | None:
    try:
        descriptor, _info = open_regular(path)  # a regular file, never a FIFO or a link
    except OSError:
        return None
    try:
        with os.fdopen(descriptor, "rb") as handle:
            data = handle.read(MAX_FILE_BYTES)
    except OSError:
        return None
    if b"\x00" in data[:_BINARY_PROBE]:
        return None
    return data.decode("utf-8", "replace")


def _file_findings(folder: str, relative: str, text: str) -> list[Finding]:
    hits: list[Hit] = []
    for run in invisible_runs(text):
        if run.has_tags:
            hidden = describe_tag_text(run.text)
            hits.append(
                Hit(
                    "SD1001",
                    run.start,
                    run.end,
                    (("count", str(len(run.text))), ("place", "`{where}`"), ("hidden", hidden)),
                )
            )
            kind = tag_text_hit(hidden)
            if kind is not None:
                hits.append(
                    Hit(
                        "SD1006",
                        run.start,
                        run.end,
                        (("what", "Unicode tag text"), ("kind", kind), ("text", hidden)),
                    )
                )
    lowered = text.lower()
    hits += command_hits(
        text,
        0,
        len(text),
        present_marks(lowered),
        where="@",
        window=SCRIPT_WINDOW,
        lowered=lowered if text.isascii() else None,
    )
    if not hits:
        return []
    index = LineIndex(text)
    path = os.path.join(folder, relative)
    findings: list[Finding] = []
    for hit in hits:
        span = index.span(hit.start, hit.end)
        where = f"`{relative}` line {span.start.line + 1}"
        values = hit.values()
        if "where" in values:
            values["where"] = f"in {where}: "
        if values.get("place") == "`{where}`":
            values["place"] = where
        if hit.code == "SD1006":
            values["what"] = f"Unicode tag text in {where}"
        related = (RelatedLocation(path, span, "here"),)
        findings.append(rule(hit.code).finding(_AT_TOP, related=related, **values))
    return findings


#: Where a bundle file's finding sits in ``SKILL.md``: its first line (the ``---``).
_AT_TOP = Span.at(0, 0, 3)
