"""``check --fix`` / ``--diff``: apply the engine's fixes to skill files, safely.

The fixes are the engine's (each :class:`~skilldeck.engine.findings.Fix` of a finding);
this module only chooses and applies them. Per finding the first fix is taken, a fix
marked ``unsafe`` only with ``--unsafe-fixes``, and a fix whose edits overlap one already
chosen waits for the next pass. A file is changed only when:

- it lies inside the root it was checked in, symlinks resolved (a link that leaves the
  root is never followed for writing);
- it is writable (a read-only file is the user's "do not touch");
- it still holds exactly what was checked (its per-file findings are found again in the
  bytes read now) and, at the moment of writing, exactly the bytes read: otherwise it is
  left alone with a message.

It is written atomically: a temporary file beside it, its mode copied, then renamed over
it. Line endings and a byte order mark stay as they were (edits insert the file's own
line break).
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from skilldeck.engine.findings import Finding, Fix, TextEdit
from skilldeck.engine.frontmatter import LineIndex
from skilldeck.engine.positions import Span
from skilldeck.engine.skill_file import RuleSettings, SkillFileAnalysis, analyze_skill_text
from skilldeck.engine.skill_read import SkillReadError, decode_skill_bytes, read_skill_bytes

_BOM = b"\xef\xbb\xbf"


@dataclass(frozen=True)
class FixTarget:
    """Where a checked file lies and how it was judged (to judge it again)."""

    root: str
    expected_name: str
    settings: RuleSettings
    #: The ``/name`` mentions the check saw (deck findings point at them).
    mentions: tuple[tuple[str, Span], ...] = ()


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
    finding is found again as is; a deck finding needs the same ``/name`` mentions."""
    if finding in fresh.findings:
        return True
    return fresh.mentions == target.mentions and any(
        span == finding.span for _, span in fresh.mentions
    )


def plan_file(
    path: str, target: FixTarget, findings: Iterable[Finding], *, unsafe: bool
) -> FilePlan | Skipped | None:
    """The fixed text of ``path``; ``Skipped`` when it must be left alone; ``None`` when
    no fix applies."""
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
    fresh = analyze_skill_text(
        text, path=path, expected_name=target.expected_name, settings=target.settings
    )
    if not all(_still_found(fresh, target, finding) for finding, _ in chosen):
        return Skipped(path, "it changed on disk since it was checked; left alone")
    fixed = apply_edits(text, [edit for _, fix in chosen for edit in fix.edits])
    if fixed == text:
        return None
    return FilePlan(path, real, original, text, fixed, tuple(chosen))


def write_plan(plan: FilePlan) -> Skipped | None:
    """Write ``plan`` atomically unless the file changed since it was read."""
    try:
        with open(plan.real, "rb") as handle:
            current = handle.read()
        info = os.stat(plan.real)
    except OSError as error:
        return Skipped(plan.path, f"cannot read it again: {error.strerror or error}; left alone")
    if current != plan.original:
        return Skipped(plan.path, "it changed on disk since it was read; left alone")
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
            os.fsync(handle.fileno())
        os.chmod(temporary, stat.S_IMODE(info.st_mode))
        os.replace(temporary, plan.real)
    except OSError as error:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        return Skipped(plan.path, f"cannot write it: {error.strerror or error}; left alone")
    return None


def unified_diff(plan: FilePlan, shown: str) -> str:
    """The change of ``plan`` as a unified diff (``a/`` and ``b/`` prefixed paths)."""
    import difflib  # noqa: PLC0415 - only for --diff

    lines = difflib.unified_diff(
        plan.text.splitlines(keepends=True),
        plan.fixed.splitlines(keepends=True),
        fromfile=f"a/{shown}",
        tofile=f"b/{shown}",
    )
    out = []
    for line in lines:
        out.append(
            line if line.endswith(("\n", "\r")) else line + "\n\\ No newline at end of file\n"
        )
    return "".join(out)


def describe(plan: FilePlan) -> list[str]:
    """One line per applied fix: ``SD404 Rename to 'user-invocable' (line 4)``."""
    return [
        f"{finding.code} {fix.title} (line {finding.span.start.line + 1})"
        for finding, fix in plan.applied
    ]
