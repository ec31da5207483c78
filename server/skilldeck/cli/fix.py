"""``check --fix`` / ``--diff``: apply the engine's fixes to skill files, safely.

The fixes are the engine's (each :class:`~skilldeck.engine.rules.Fix` of a finding);
this module only chooses and applies them. Per finding the first fix is taken, a fix
marked ``unsafe`` only with ``--unsafe-fixes``, and a fix whose edits overlap one already
chosen waits for the next pass. A file is changed only when:

- it lies inside the root it was checked in, symlinks resolved (a link that leaves the
  root is never followed for writing);
- it is writable (a read-only file is the user's "do not touch");
- it still holds exactly what was checked (its per-file findings are found again in the
  bytes read now) and, at the moment of writing, exactly the bytes read: otherwise it is
  left alone with a message.

It is written atomically: a temporary file beside it, its mode copied, flushed to disk;
then the file is compared with what was read (identity and bytes) and the temporary file
renamed over it right after, so a save made while the fix was written is kept
(:func:`write_plan`). Line endings and a byte order mark stay as they were (edits insert
the file's own line break).

A file is fixed once per real path: paths that resolve to one file (a folder linked to
another in the same root) are planned through one of them. A fix that renames the skill
is left out, with a message, when the new name is ambiguous: the file is reached under
more than one name, or another file or folder of its root already carries the new name
(:func:`plan_file`).
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Container, Iterable, Sequence
from dataclasses import dataclass

from skilldeck.engine.config import RuleSettings
from skilldeck.engine.files import (
    SkillFileAnalysis,
    SkillReadError,
    analyze_skill_text,
    decode_skill_bytes,
    read_skill_bytes,
)
from skilldeck.engine.filesystem import FLAT_SUFFIX, SkillRoot, skill_place
from skilldeck.engine.frontmatter import LineIndex
from skilldeck.engine.registry import RANK_CUSTOM, SOURCE_CUSTOM
from skilldeck.engine.rules import Finding, Fix, TextEdit
from skilldeck.engine.text import Span

_BOM = b"\xef\xbb\xbf"


#: How many times the findings of a fixed text are fixed in turn, at most.
MAX_FIX_PASSES = 5


@dataclass(frozen=True)
class FixTarget:
    """Where a checked file lies and how it was judged (to judge it again)."""

    root: str
    expected_name: str
    settings: RuleSettings
    #: The ``/name`` mentions the check saw (deck findings point at them).
    mentions: tuple[tuple[str, Span], ...] = ()


@dataclass(frozen=True)
class FileIdentity:
    """Which file a path held and in what state: device, inode, size, modification and
    change times (nanoseconds), mode. Any save changes one of them (or the bytes)."""

    device: int
    inode: int
    size: int
    mtime_ns: int
    ctime_ns: int
    mode: int

    @classmethod
    def of(cls, info: os.stat_result) -> FileIdentity:
        return cls(
            info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_mode
        )


@dataclass(frozen=True)
class FilePlan:
    """The fixed text of one file and the fixes it applies."""

    path: str
    #: The file written: ``path`` with symlinks resolved (inside the root).
    real: str
    original: bytes
    text: str
    fixed: str
    applied: tuple[tuple[Finding, Fix], ...]
    #: The file as it was when ``original`` was read (taken before the read).
    identity: FileIdentity
    #: Why fixes of this file were left out (an ambiguous rename), one line each.
    refused: tuple[str, ...] = ()

    def encoded(self) -> bytes:
        data = self.fixed.encode("utf-8")
        return _BOM + data if self.original.startswith(_BOM) else data


@dataclass(frozen=True)
class Skipped:
    """A file with fixes that was left alone, and why."""

    path: str
    reason: str


def choose_fixes(findings: Iterable[Finding], *, unsafe: bool) -> list[tuple[Finding, Fix]]:
    """Per finding its first fix (``unsafe`` ones only when allowed), none overlapping."""
    chosen: list[tuple[Finding, Fix]] = []
    taken: list[TextEdit] = []
    ordered = sorted(findings, key=lambda f: (f.span.start, f.span.end, f.code))
    for finding in ordered:
        fix = next((fix for fix in finding.fixes if unsafe or not fix.unsafe), None)
        if fix is None or any(_overlap(a, b) for a in fix.edits for b in taken):
            continue
        chosen.append((finding, fix))
        taken.extend(fix.edits)
    return chosen


def _overlap(a: TextEdit, b: TextEdit) -> bool:
    if a.span.start == b.span.start:
        return True  # two insertions at one point: their order would be a guess
    return a.span.start < b.span.end and b.span.start < a.span.end


def apply_edits(text: str, edits: Sequence[TextEdit]) -> str:
    """``text`` with non-overlapping ``edits`` applied (positions as the engine counts)."""
    index = LineIndex(text)
    spans = sorted(
        ((index.offset(e.span.start), index.offset(e.span.end), e.new_text) for e in edits),
        reverse=True,
    )
    for start, end, new_text in spans:
        text = text[:start] + new_text + text[end:]
    return text


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _still_found(fresh: SkillFileAnalysis, target: FixTarget, finding: Finding) -> bool:
    """Whether ``finding`` (from the check) holds for the text read now: a per-file
    finding is found again (the same rule says the same at the same place); a deck
    finding needs the same ``/name`` mentions."""
    if _where(finding) in {_where(found) for found in fresh.findings}:
        return True
    return fresh.mentions == target.mentions and any(
        span == finding.span for _, span in fresh.mentions
    )


def plan_files(
    items: Iterable[tuple[str, FixTarget, Sequence[Finding]]],
    *,
    unsafe: bool,
    codes: Container[str] | None = None,
) -> tuple[list[FilePlan], list[Skipped]]:
    """Plan each real file once: ``items`` are the checked paths with their fixable
    findings; paths that resolve to one file (a folder linked to another in the same
    root) are planned through one of them, the real path when it was checked, and every
    name they give the file makes a rename ambiguous (:func:`plan_file`'s ``aliases``).
    ``codes`` (``None``: all) are the rules whose fixes later passes may apply."""
    groups: dict[str, list[tuple[str, FixTarget, Sequence[Finding]]]] = {}
    for item in items:
        groups.setdefault(os.path.realpath(item[0]), []).append(item)
    plans: list[FilePlan] = []
    skipped: list[Skipped] = []
    for real, members in groups.items():
        fixable = [member for member in members if member[2]]
        if not fixable:
            continue
        path, target, findings = next((m for m in fixable if m[0] == real), fixable[0])
        aliases = frozenset(member[1].expected_name for member in members)
        plan = plan_file(path, target, findings, unsafe=unsafe, aliases=aliases, codes=codes)
        if isinstance(plan, FilePlan):
            plans.append(plan)
            skipped.extend(Skipped(plan.path, reason) for reason in plan.refused)
        elif isinstance(plan, Skipped):
            skipped.append(plan)
    return plans, skipped


def plan_file(
    path: str,
    target: FixTarget,
    findings: Iterable[Finding],
    *,
    unsafe: bool,
    aliases: frozenset[str] = frozenset(),
    codes: Container[str] | None = None,
) -> FilePlan | Skipped | None:
    """The fixed text of ``path``; ``Skipped`` when it must be left alone; ``None`` when
    no fix applies.

    The fixes of ``findings`` are applied, then the file's own findings in the fixed
    text are fixed in turn (a YAML error hides every other finding of the frontmatter
    until it is fixed), :data:`MAX_FIX_PASSES` passes at most, all in memory: ``--diff``
    shows and ``--fix`` writes the text the last pass leaves. ``codes`` (``None``: all)
    are the rules whose fixes those later passes apply (``--select`` / ``--ignore``).

    A fix that renames the skill is left out when its new name is ambiguous: the file
    is also reached under another name (``aliases``, the names of other checked paths
    to it, or its real folder's name), or another file or folder of the root already
    carries the new name. A fix after which its finding stands where it stood is left
    out too (:func:`_unresolved`)."""
    chosen = choose_fixes(findings, unsafe=unsafe)
    if not chosen:
        return None
    real = os.path.realpath(path)
    root = os.path.realpath(target.root)
    if not _inside(real, root):
        return Skipped(path, f"it resolves to {real}, outside its root {target.root}; left alone")
    try:
        info = os.stat(real)
    except OSError as error:
        return Skipped(path, f"cannot read it: {error.strerror or error}; left alone")
    if not stat.S_ISREG(info.st_mode):
        return Skipped(path, "it is not a regular file; left alone")
    if not info.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
        return Skipped(path, "it is read-only; left alone")
    try:
        original = read_skill_bytes(real)
        text = decode_skill_bytes(original)
    except SkillReadError as error:
        return Skipped(path, f"cannot read it: {error.finding.message}; left alone")
    fresh = _analysis(text, path, target)
    if not all(_still_found(fresh, target, finding) for finding, _ in chosen):
        return Skipped(path, "it changed on disk since it was checked; left alone")
    names = {target.expected_name, *aliases}
    place = skill_place(real, [SkillRoot(RANK_CUSTOM, SOURCE_CUSTOM, root, True)])
    if place is not None:
        names.add(place.expected_name)
    applied: list[tuple[Finding, Fix]] = []
    refused: dict[str, None] = {}
    current = text
    for _ in range(MAX_FIX_PASSES):
        kept: list[tuple[Finding, Fix]] = []
        for finding, fix in chosen:
            reason = _ambiguous_rename(current, fresh, fix, target, real=real, names=names)
            if reason is None:
                kept.append((finding, fix))
            else:
                refused[reason] = None
        if not kept:
            break
        fixed = apply_edits(current, [edit for _, fix in kept for edit in fix.edits])
        after = _analysis(fixed, path, target)
        stuck = _unresolved(fresh, kept, after)
        if stuck:
            kept = [item for item in kept if item not in stuck]
            for finding, fix in stuck:
                why = f"{finding.code}: '{fix.title}' would leave the problem as it is"
                refused[why + "; left alone"] = None
            if not kept:
                break
            fixed = apply_edits(current, [edit for _, fix in kept for edit in fix.edits])
            after = _analysis(fixed, path, target)
        applied.extend(kept)
        current, fresh = fixed, after
        chosen = choose_fixes(
            (f for f in fresh.findings if f.fixes and (codes is None or f.code in codes)),
            unsafe=unsafe,
        )
        if not chosen:
            break
    if not applied:
        return Skipped(path, next(iter(refused))) if refused else None
    if current == text:
        return None
    identity = FileIdentity.of(info)
    return FilePlan(path, real, original, text, current, tuple(applied), identity, tuple(refused))


def _analysis(text: str, path: str, target: FixTarget) -> SkillFileAnalysis:
    """``text`` judged as the file ``path`` of ``target``'s root is."""
    return analyze_skill_text(
        text, path=path, expected_name=target.expected_name, settings=target.settings
    )


def _unresolved(
    fresh: SkillFileAnalysis, kept: Sequence[tuple[Finding, Fix]], after: SkillFileAnalysis
) -> list[tuple[Finding, Fix]]:
    """The fixes in ``kept`` (chosen for the text ``fresh`` analysed) whose file's own
    finding is found where it was, saying the same, in the text they make (``after``):
    applied, they would change the file without resolving anything (and each later
    pass would apply them again)."""
    before = {_where(finding) for finding in fresh.findings}
    remaining = {_where(finding) for finding in after.findings}
    return [
        (finding, fix)
        for finding, fix in kept
        if _where(finding) in before and _where(finding) in remaining
    ]


def _where(finding: Finding) -> tuple[str, str, Span]:
    """What identifies a file's finding across two analyses: its rule, message and range
    (its fixes are made from the text, and are the same when these are)."""
    return finding.code, finding.message, finding.span


def _ambiguous_rename(
    text: str,
    fresh: SkillFileAnalysis,
    fix: Fix,
    target: FixTarget,
    *,
    real: str,
    names: set[str],
) -> str | None:
    """Why ``fix`` must not be applied when it changes the skill's name to an
    ambiguous one; ``None`` for any other fix."""
    if not fix.unsafe:  # a safe fix keeps what the skill means, its name included
        return None
    renamed = analyze_skill_text(
        apply_edits(text, fix.edits), path=real, expected_name=None, settings=target.settings
    ).name
    if renamed is None or renamed == fresh.name:
        return None
    if len(names) > 1:
        listed = " and ".join(f"'{name}'" for name in sorted(names))
        return (
            f"renaming it to '{renamed}' is ambiguous: the same file is reached as {listed} "
            "(through a symlink); left alone"
        )
    for candidate in (renamed, renamed + FLAT_SUFFIX):
        taken = os.path.join(target.root, candidate)
        if os.path.lexists(taken) and os.path.realpath(taken) not in (real, os.path.dirname(real)):
            return f"renaming it to '{renamed}' is ambiguous: {taken} already exists; left alone"
    return None


def write_plan(plan: FilePlan) -> Skipped | None:
    """Write ``plan`` atomically unless the file changed since it was read.

    The slow part comes first: the fixed bytes go to a temporary file beside the file,
    flushed to disk. Only then is the file compared with what was read (identity and
    bytes, :func:`_unchanged`), and the temporary file renamed over it right after: a
    save made while the fix was being written is kept, never replaced by the fix of the
    older text. (No lock is shared with editors: a save in the two system calls between
    that comparison and the rename can still be replaced.)
    """
    import tempfile  # noqa: PLC0415 - only when a file is written

    folder, name = os.path.split(plan.real)
    try:
        fd, temporary = tempfile.mkstemp(dir=folder, prefix=f".{name}.", suffix=".skilldeck")
    except OSError as error:
        return Skipped(plan.path, f"cannot write beside it: {error.strerror or error}")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(plan.encoded())
            handle.flush()
            os.fchmod(handle.fileno(), stat.S_IMODE(plan.identity.mode))
            os.fsync(handle.fileno())
        changed = _unchanged(plan)
        if changed is None:
            os.replace(temporary, plan.real)
            return None
    except OSError as error:
        changed = Skipped(plan.path, f"cannot write it: {error.strerror or error}; left alone")
    with contextlib.suppress(OSError):
        os.unlink(temporary)
    return changed


def _unchanged(plan: FilePlan) -> Skipped | None:
    """``None`` when the file still holds the bytes read and is the same file (device,
    inode, size, modification and change times, mode: taken after this read, without
    following a symlink); else why it is left alone."""
    try:
        current = read_skill_bytes(plan.real, max_bytes=len(plan.original))
        identity = FileIdentity.of(os.lstat(plan.real))
    except SkillReadError as error:
        if error.os_error is not None:
            reason = error.os_error.strerror or str(error.os_error)
            return Skipped(plan.path, f"cannot read it again: {reason}; left alone")
        current, identity = b"", None  # no longer a regular file, or grown past its size
    except OSError as error:
        return Skipped(plan.path, f"cannot read it again: {error.strerror or error}; left alone")
    if (identity, current) != (plan.identity, plan.original):
        return Skipped(plan.path, "it changed on disk since it was read; left alone")
    return None


def unified_diff(plan: FilePlan, shown: str) -> str:
    """The change of ``plan`` as a unified diff that ``git apply`` and ``patch -p1``
    apply: ``a/`` and ``b/`` prefixed paths quoted as git quotes them, lines cut at
    ``\\n`` only as those tools cut them (a form feed or U+2028 stays in its line), a byte
    order mark kept on the first line."""
    import difflib  # noqa: PLC0415 - only for --diff

    mark = "\ufeff" if plan.original.startswith(_BOM) else ""
    name_a, name_b = _diff_name("a/" + shown), _diff_name("b/" + shown)
    lines = difflib.unified_diff(
        _lines_of(mark + plan.text), _lines_of(mark + plan.fixed), fromfile=name_a, tofile=name_b
    )
    out = []
    for line in lines:
        out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(out)


def _lines_of(text: str) -> list[str]:
    """``text`` cut after each ``\\n``, as ``patch`` and git count lines (a ``\\r`` stays
    in its line, a CRLF file's lines end in ``\\r\\n``)."""
    lines = [line + "\n" for line in text.split("\n")]
    lines[-1] = lines[-1][:-1]
    return lines if lines[-1] else lines[:-1]


def _diff_name(name: str) -> str:
    """A path as a diff header writes it, as git does: in double quotes with C escapes
    when it holds a quote, a backslash, a control character or a byte outside ASCII
    (octal escapes of its bytes); followed by a tab when it holds a space (so ``patch``
    reads the name to its end)."""
    data = os.fsencode(name)
    if any(byte < 0x20 or byte >= 0x7F or byte in b'"\\' for byte in data):
        escaped = "".join(_C_ESCAPES.get(byte) or _c_char(byte) for byte in data)
        return f'"{escaped}"'
    return name + "\t" if " " in name else name


_C_ESCAPES = {
    0x07: "\\a", 0x08: "\\b", 0x09: "\\t", 0x0A: "\\n", 0x0B: "\\v", 0x0C: "\\f",
    0x0D: "\\r", 0x22: '\\"', 0x5C: "\\\\",
}  # fmt: skip


def _c_char(byte: int) -> str:
    return chr(byte) if 0x20 <= byte < 0x7F else f"\\{byte:03o}"


def describe(plan: FilePlan) -> list[str]:
    """One line per applied fix: ``SD404 Rename to 'user-invocable' (line 4)``."""
    return [
        f"{finding.code} {fix.title} (line {finding.span.start.line + 1})"
        for finding, fix in plan.applied
    ]
