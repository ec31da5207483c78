"""The safety scan of a bundle's other files (:data:`BUNDLE_CODES`), and where its
findings are reported.

Markdown files (references the skill sends the model to read) are read like the body:
their instructions, and what they hide in Markdown that renders to nothing. Scripts are
parsed (:mod:`~skilldeck.engine.safety._scripts`) where their language is known.

A bundle (``<root>/<name>/SKILL.md``) ships scripts and references beside its
``SKILL.md``; the agent runs or reads them with the user's permissions. This module
walks the bundle folder, bounded, and scans each text file with the same code as the
body (:mod:`~skilldeck.engine.safety._commands`, tag characters from
:mod:`~skilldeck.engine.safety._chars`). **A finding is reported where it is**: at its
file and line (:attr:`BundleFindings.located`), as ``check``, the editor and the gates
show it; ``SKILL.md`` gets one summary (SD1035, :func:`bundle_summary`) pointing at each
of them, and the findings about the bundle as a whole (the scan stopped early: SD1016).

Bounds: an iterative walk, at most :data:`MAX_DEPTH` folder levels below the bundle,
:data:`MAX_FILES` files and :data:`MAX_FILE_BYTES` read from each; symbolic links are
never followed (a link could lead outside the folder or loop); FIFOs and devices are
never opened; files with a NUL byte in their first block are binary and skipped;
``.git``, ``node_modules``, ``__pycache__``, ``venv`` and ``.venv`` are not entered. The
result is memoised by the walk's file identities (device, inode, size, mtime and ctime
of each file: a same-size rewrite whose mtime was restored still changes the ctime), so
a keystroke in ``SKILL.md`` costs a folder listing and an ``lstat`` a file, not a
rescan; a walk holding a file modified within :data:`RACY_WINDOW_NS` is not memoised (a
later rewrite in the same clock tick could keep its identity).

:func:`scan_coverage` says which files a scan of the bundle reads in full, and why it
does not read the others: a gate that serves a bundle's files (``skilldeck mcp
--require-safe``) serves only those, and judges the very bytes it serves
(:func:`judged_contents`: the same scan over the bytes the gate read), so it judges
exactly what it serves.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace

from skilldeck.engine.disk import open_regular
from skilldeck.engine.frontmatter import LineIndex
from skilldeck.engine.rules import Finding, RelatedLocation, rule
from skilldeck.engine.safety._bundle_walk import Walk, walk_bundle
from skilldeck.engine.safety._chars import (
    InvisibleRun,
    describe_points,
    describe_tag_text,
    invisible_runs,
    run_kinds,
)
from skilldeck.engine.safety._code_prose import code_prose
from skilldeck.engine.safety._commands import SCRIPT_WINDOW, command_hits
from skilldeck.engine.safety._hits import Hit, folded, present_marks
from skilldeck.engine.safety._instructions import (
    INSTRUCTION_CODES,
    hidden_hits,
    instruction_hits,
    tag_text_hit,
)
from skilldeck.engine.safety._normalise import line_feeds
from skilldeck.engine.safety._scripts import STRUCTURAL, file_scripts, language_of_file
from skilldeck.engine.text import FILE_START, LINE_BREAK, Span

#: The rules a bundle scan reports, and the summary ``SKILL.md`` gets (SD1035).
BUNDLE_CODES = frozenset(
    {"SD1001", "SD1003", "SD1005", "SD1006", "SD1007", "SD1008", "SD1009", "SD1011",
     "SD1012", "SD1013", "SD1014", "SD1015", "SD1016", "SD1017", "SD1018", "SD1019",
     "SD1020", "SD1025", "SD1026", "SD1027", "SD1028", "SD1035",
     "SD1050", "SD1051", "SD1052", "SD1053", "SD1054", "SD1055"}
)  # fmt: skip
MAX_FILE_BYTES = 256 * 1024
_BINARY_PROBE = 8192
_MEMO_SIZE = 256
#: A walk holding a file modified this recently is not memoised (as the index cache).
RACY_WINDOW_NS = 2_000_000_000
#: How many bundle findings the summary on ``SKILL.md`` names before "and N more".
_SUMMARY_NAMED = 5


@dataclass(frozen=True, slots=True)
class BundleFindings:
    """What the safety scan of a bundle's other files found.

    ``located``: each finding at its place, ``(absolute path of the file, finding)``,
    the finding's span in that file. ``own``: the findings about the bundle as a whole,
    which ``SKILL.md`` carries (the scan stopped early: SD1016). ``lines``: the non-ASCII
    lines the located findings point into (``(path, line, text)``), so a position
    converts to UTF-16 or UTF-8 columns without reading the file again.
    """

    located: tuple[tuple[str, Finding], ...] = ()
    own: tuple[Finding, ...] = ()
    lines: tuple[tuple[str, int, str], ...] = ()


_NONE = BundleFindings()
_memo: OrderedDict[tuple[str, Walk], BundleFindings] = OrderedDict()


def bundle_findings(skill_path: str) -> BundleFindings:
    """SD1001/SD1006/SD1011-SD1016 for the files beside a bundle's ``SKILL.md`` (nothing
    for a flat skill file or a folder that cannot be listed)."""
    if os.path.basename(skill_path) != "SKILL.md":
        return _NONE
    folder = os.path.dirname(os.path.abspath(skill_path))
    walk = walk_bundle(folder)
    if not walk.files and walk.stopped is None:
        return _NONE  # nothing beside SKILL.md (most skills): no scan, no memo entry
    key = (folder, walk)
    cached = _memo.get(key)
    if cached is not None:
        _memo.move_to_end(key)
        return cached
    found = _scan(folder, walk, _read_text)
    if not _racy(walk):
        _memo[key] = found
        if len(_memo) > _MEMO_SIZE:
            _memo.popitem(last=False)
    return found


def _racy(walk: Walk) -> bool:
    """Whether a file of ``walk`` was modified so recently that a rewrite in the same
    clock tick could keep its identity (then its findings are not memoised)."""
    if not walk.files:
        return False
    newest = max(max(item[2], item[3]) for item in walk.files)
    return newest >= time.time_ns() - RACY_WINDOW_NS


_judged: OrderedDict[tuple[str, Walk, tuple[tuple[str, str], ...]], BundleFindings] = OrderedDict()


def judged_contents(coverage: ScanCoverage, served: Mapping[str, bytes]) -> BundleFindings:
    """The bundle scan of ``coverage``'s walk, judging for each file of ``served``
    (relative path -> bytes, files the scan reads in full) those very bytes, and the
    others as they are on disk now: what a gate that serves ``served`` must judge (the
    bytes it read once, then serves). Memoised by the served bytes' SHA-256 and the
    walk's identities (not for a racy walk)."""
    digests = tuple(
        sorted((relative, hashlib.sha256(data).hexdigest()) for relative, data in served.items())
    )
    key = (coverage.folder, coverage.walk, digests)
    cached = _judged.get(key)
    if cached is not None:
        _judged.move_to_end(key)
        return cached
    found = _judged_scan(coverage, served)
    if not _racy(coverage.walk):
        _judged[key] = found
        if len(_judged) > _MEMO_SIZE:
            _judged.popitem(last=False)
    return found


def _judged_scan(coverage: ScanCoverage, served: Mapping[str, bytes]) -> BundleFindings:
    slashed = {relative.replace("/", os.sep): data for relative, data in served.items()}

    def read(path: str) -> str | None:
        data = slashed.get(os.path.relpath(path, coverage.folder))
        if data is None:
            return _read_text(path)
        return None if _binary(data) else data[:MAX_FILE_BYTES].decode("utf-8", "replace")

    return _scan(coverage.folder, coverage.walk, read)


def _scan(folder: str, walk: Walk, read: Callable[[str], str | None]) -> BundleFindings:
    located: list[tuple[str, Finding]] = []
    lines: list[tuple[str, int, str]] = []
    for relative, size, *_identity in walk.files:
        path = os.path.join(folder, relative)
        text = read(path)
        if text is None:
            continue
        found = _file_findings(path, relative, text)
        if size > MAX_FILE_BYTES:
            found.append(
                rule("SD1016").finding(FILE_START, reason="only its first 256 KiB were read")
            )
        if found:
            located += ((path, finding) for finding in found)
            lines += _wide_lines(path, text, found)
    own: tuple[Finding, ...] = ()
    if walk.stopped is not None:
        bundle = RelatedLocation(folder, FILE_START, "the bundle folder")
        own = (rule("SD1016").finding(_AT_TOP, related=(bundle,), reason=walk.stopped),)
    return BundleFindings(tuple(located), own, tuple(lines))


def _wide_lines(path: str, text: str, findings: Iterable[Finding]) -> list[tuple[str, int, str]]:
    """The non-ASCII lines of ``text`` (the file ``path``) that ``findings`` touch."""
    if text.isascii():
        return []
    touched = {n for f in findings for n in range(f.span.start.line, f.span.end.line + 1)}
    head = LINE_BREAK.split(text, max(touched) + 1)
    return [(path, n, head[n]) for n in sorted(touched) if n < len(head) and not head[n].isascii()]


def bundle_summary(skill_path: str, located: Iterable[tuple[str, Finding]]) -> Finding | None:
    """SD1035 on ``SKILL.md``: one finding naming each of the bundle's findings ``located``
    (file, line, code, severity), with a related location at each; ``None`` when there
    is none."""
    items = sorted(located, key=lambda item: (item[0], item[1].span.start, item[1].code))
    if not items:
        return None
    folder = os.path.dirname(skill_path)
    named = [
        f"`{_shown(folder, path)}` line {f.span.start.line + 1} ({f.code} {f.severity.value})"
        for path, f in items[:_SUMMARY_NAMED]
    ]
    more = len(items) - _SUMMARY_NAMED
    files = len({path for path, _f in items})
    related = tuple(
        RelatedLocation(path, f.span, f"{f.code} {f.severity.value}: {f.message}")
        for path, f in items
    )
    return rule("SD1035").finding(
        _AT_TOP,
        related=related,
        count=str(len(items)),
        plural="s" if len(items) > 1 else "",
        files=f"{files} file{'s' if files > 1 else ''}",
        found=", ".join(named) + (f" and {more} more" if more > 0 else ""),
    )


def _shown(folder: str, path: str) -> str:
    relative = os.path.relpath(path, folder)
    return relative if os.sep == "/" else relative.replace(os.sep, "/")


@dataclass(frozen=True, slots=True)
class ScanCoverage:
    """Which files of a bundle folder its safety scan reads in full (one walk: what
    :func:`bundle_findings` judges), and why it does not read the others. Paths are
    relative to the folder, ``/``-separated. Whether a walked file is text the scan
    judges (not binary) is read when asked, for that file alone."""

    folder: str
    #: The walk this coverage is of (:func:`judged_contents` scans it again).
    walk: Walk
    #: Each file the scan reads, with its size when walked.
    sizes: Mapping[str, int]
    #: What the walk met and did not read, with why (:attr:`Walk.passed`).
    passed: Mapping[str, str]
    #: Why the walk stopped early, if it did (:attr:`Walk.stopped`).
    stopped: str | None

    def covers(self, relative: str, size: int) -> bool:
        """Whether the scan reads and judges ``relative`` in full when it holds ``size``
        bytes."""
        return relative in self.sizes and size <= MAX_FILE_BYTES and self._judged(relative)

    def covers_data(self, relative: str, data: bytes) -> bool:
        """Whether the scan reads and judges ``relative`` in full when its bytes are
        ``data`` (a gate's one read of it: no other read decides)."""
        return relative in self.sizes and len(data) <= MAX_FILE_BYTES and not _binary(data)

    def _judged(self, relative: str) -> bool:
        """Whether the scan judges the text of the walked file ``relative`` (it reads it:
        a regular file whose first block holds no NUL byte), from its first block now."""
        start = _read_start(os.path.join(self.folder, *relative.split("/")), _BINARY_PROBE)
        return start is not None and not _binary(start)

    def folders(self) -> frozenset[str]:
        """Every folder (``a``, ``a/b``) holding a file the scan reads."""
        found: set[str] = set()
        for relative in self.sizes:
            parts = relative.split("/")[:-1]
            found.update("/".join(parts[: end + 1]) for end in range(len(parts)))
        return frozenset(found)

    def reason(self, relative: str) -> str | None:
        """Why the scan does not read ``relative`` in full (the folder or entry it
        passed over on the way, the size cap, or the file count that stopped it);
        ``None`` when it does, or when the walk never met such a path."""
        size = self.sizes.get(relative)
        if size is not None:
            if not self._judged(relative):
                return (
                    "it is binary (a NUL byte in its first "
                    f"{_BINARY_PROBE // 1024} KiB) or unreadable: the scan judges nothing in it"
                )
            if size <= MAX_FILE_BYTES:
                return None
            return f"it is larger than the {MAX_FILE_BYTES // 1024} KiB the scan reads of a file"
        parts = relative.split("/")
        for end in range(1, len(parts) + 1):
            why = self.passed.get("/".join(parts[:end]))
            if why is not None:
                return why
        if self.stopped is not None:
            return f"the scan stopped early: {self.stopped}"
        return None


def scan_coverage(folder: str) -> ScanCoverage:
    """The :class:`ScanCoverage` of the bundle folder ``folder``, walked now."""
    walk = walk_bundle(folder)
    return ScanCoverage(
        folder=folder,
        walk=walk,
        sizes={_slashed(relative): size for relative, size, *_identity in walk.files},
        passed={_slashed(relative): why for relative, why in walk.passed},
        stopped=walk.stopped,
    )


def _slashed(relative: str) -> str:
    return relative if os.sep == "/" else relative.replace(os.sep, "/")


def is_bundle_finding(finding: Finding, skill_path: str) -> bool:
    """Whether ``finding`` of ``SKILL.md`` came from its bundle's scan (SD1035, or an
    SD1016 about the whole bundle: they point at other files)."""
    return finding.code in BUNDLE_CODES and any(r.path != skill_path for r in finding.related)


def _read_start(path: str, limit: int) -> bytes | None:
    """The first ``limit`` bytes of the regular file ``path`` (never a FIFO or a link),
    or ``None`` when it cannot be read."""
    try:
        descriptor, _info = open_regular(path)
    except OSError:
        return None
    try:
        with os.fdopen(descriptor, "rb") as handle:
            return handle.read(limit)
    except OSError:
        return None


def _binary(data: bytes) -> bool:
    """Whether a file starting with ``data`` is binary to the scan (a NUL byte in its
    first block): nothing in it is judged."""
    return b"\x00" in data[:_BINARY_PROBE]


def _read_text(path: str) -> str | None:
    data = _read_start(path, MAX_FILE_BYTES)
    if data is None or _binary(data):
        return None
    return data.decode("utf-8", "replace")


def _file_findings(path: str, relative: str, text: str) -> list[Finding]:
    """The findings of the bundle file ``path`` (``relative`` to the bundle folder:
    its name tells the script's language) whose text is ``text``, at their spans
    in it (each message as for the body: the file and line are the finding's place)."""
    text = line_feeds(text)  # line endings never matter (same offsets, same lines)
    hits: list[Hit] = []
    language = language_of_file(relative, text)
    trojan_lines: dict[int, int] = {}  # one SD1027 a line, naming every character on it
    for run in invisible_runs(text):
        if not run.has_tags:
            hit = _invisible_hit(text, run, code=language not in (None, "markdown"))
            line = text.count("\n", 0, run.start)
            if hit.code == "SD1027" and line in trojan_lines:
                first = hits[trojan_lines[line]]
                points = f"{first.value('points')}, {hit.value('points')}"
                hits[trojan_lines[line]] = replace(
                    first,
                    fields=tuple((k, points if k == "points" else v) for k, v in first.fields),
                )
                continue
            if hit.code == "SD1027":
                trojan_lines[line] = len(hits)
            hits.append(hit)
        if run.has_tags:
            hidden = describe_tag_text(run.text)
            hits.append(
                Hit(
                    "SD1001",
                    run.start,
                    run.end,
                    (("count", str(len(run.text))), ("place", "this file"), ("hidden", hidden)),
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
    lowered = folded(text)
    present = present_marks(lowered)
    hits += command_hits(
        text, 0, len(text), present, where="@", window=SCRIPT_WINDOW, lowered=lowered
    )
    forced = tuple(hit.start for hit in hits if hit.code in STRUCTURAL)
    analysed = file_scripts(relative, text, forced)
    if analysed is not None:
        # a parsed script's findings stand for the patterns' (a command quoted in a
        # string is no command); where the parse failed, both count
        hits = [hit for hit in hits if not analysed.replaces(hit)]
        lines = {(hit.code, text.count("\n", 0, hit.start)) for hit in hits}
        for hit in analysed.hits:
            key = (hit.code, text.count("\n", 0, hit.start))
            if key not in lines:
                lines.add(key)
                hits.append(hit)
    if not relative.lower().endswith(_MARKDOWN):
        # what the model reads in code and manifests: comments, docstrings, descriptions
        masked = code_prose(language, relative, text)
        if masked is not None:
            hits += (
                h for h in instruction_hits(masked, 0, len(masked)) if h.code in INSTRUCTION_CODES
            )
    if relative.lower().endswith(_MARKDOWN):
        # A reference the skill sends the model to read is read like the body: its
        # instructions, and what it hides from whoever reviews the bundle rendered.
        commands = list(hits)
        said = [h for h in instruction_hits(text, 0, len(text)) if h.code in INSTRUCTION_CODES]
        concealed, regions = hidden_hits(
            text, 0, len(text), ((0, len(text)),), commands=commands,
            also=[h.start for h in said],
        )  # fmt: skip
        hits += concealed
        hits += (h for h in said if not regions.inside(h.start))
    if not hits:
        return []
    index = LineIndex(text)
    findings: list[Finding] = []
    for hit in hits:
        values = hit.values()
        if "where" in values:
            note = values.get("note", "")
            # the file and line are the finding's place; what else placed it stays
            values["where"] = f"in {note.strip()[1:-1]}: " if note else ""
        findings.append(rule(hit.code).finding(index.span(hit.start, hit.end), **values))
    return findings


_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")
_ZERO_WIDTH = frozenset("\u200b\u200c\u200d\u2060\ufeff\u180e")


def _invisible_hit(text: str, run: InvisibleRun, *, code: bool) -> Hit:
    """SD1027 for characters that make code differ from what is shown (bidirectional
    controls; a zero-width character inside an identifier), SD1003 for the others."""
    points = describe_points(run.text)
    if code:
        before = text[run.start - 1] if run.start else ""
        after = text[run.end] if run.end < len(text) else ""
        if any(char in _BIDI for char in run.text):
            what = (
                "bidirectional control characters reorder what is shown "
                "(Trojan Source, CVE-2021-42574)"
            )
            return Hit("SD1027", run.start, run.end, (("where", "@"), ("what", what),
                                                      ("points", points)))  # fmt: skip
        if all(char in _ZERO_WIDTH for char in run.text) and (
            (before.isalnum() or before == "_") and (after.isalnum() or after == "_")
        ):
            what = "an invisible character inside an identifier (CVE-2021-42694)"
            return Hit("SD1027", run.start, run.end, (("where", "@"), ("what", what),
                                                      ("points", points)))  # fmt: skip
    return Hit(
        "SD1003",
        run.start,
        run.end,
        (("count", str(len(run.text))), ("kinds", run_kinds(run.text)), ("place", "this file"),
         ("points", points)),
    )  # fmt: skip


#: The bundle files read as Markdown (hidden instructions, SD1006).
_MARKDOWN = (".md", ".markdown", ".mdx")
#: Where a finding about the whole bundle sits in ``SKILL.md``: its first line (the ``---``).
_AT_TOP = Span.at(0, 0, 3)
