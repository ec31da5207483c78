"""The safety gates: which findings refuse a skill, and the reason a gate gives.

Two gates use this one verdict (``docs/safety.md``): a git source with
``require = "no-errors"`` refuses a new revision whose skills have error-level SD10xx
findings, or files the safety scan does not read (:func:`folder_refusal`), and keeps
serving the last good one (:mod:`skilldeck.engine.sources`); ``skilldeck mcp
--require-safe`` (config ``mcp-require-safe``) leaves such a skill out of what it
serves, saying why in ``skills/list``. The findings are the per-file analysis's own
and those of its bundle's other files at their places (``check`` reports the same, at
the same files and lines), with the rule settings in force, so a rule the user switched
off or turned into a warning does not refuse anything.

**A gate judges the bytes it serves** (:func:`judge_served`): the ``SKILL.md`` bytes and
the bundle files it read once, then serves, are what is analysed; nothing is read again
between the verdict and the answer.
"""

from __future__ import annotations

import hashlib
import os
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from skilldeck.engine.config import RuleSettings
from skilldeck.engine.files import (
    SkillFileAnalysis,
    analyze_skill_bytes,
    analyze_skill_file,
    bundle_verdict,
    keep_bundle_findings,
)
from skilldeck.engine.filesystem._layout import listed_child_layout
from skilldeck.engine.rules import Finding, Severity
from skilldeck.engine.safety import ScanCoverage, judged_contents, scan_coverage

#: How many findings a refusal names before it says how many more there are.
_NAMED = 2
#: How many unread files a source's refusal names.
_UNREAD_NAMED = 3


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a gate does not serve a skill: its error-level safety findings, each with the
    file it is in (the skill file or a file of its bundle, absolute paths), and the one
    line a gate says (:func:`refusal_reason`)."""

    reason: str
    findings: tuple[tuple[str, Finding], ...]
    #: The skill file judged (its folder is the bundle the findings' files are in).
    skill_path: str = ""


def safety_errors(findings: Iterable[Finding]) -> tuple[Finding, ...]:
    """The error-level SD10xx findings among ``findings``."""
    return tuple(f for f in findings if _is_safety_error(f))


def _is_safety_error(finding: Finding) -> bool:
    code = finding.code
    return code.startswith("SD10") and len(code) == 6 and finding.severity is Severity.ERROR


def analysis_errors(analysis: SkillFileAnalysis) -> tuple[tuple[str, Finding], ...]:
    """The error-level SD10xx findings of ``analysis``: the skill file's own, then its
    bundle's other files' (each with its file)."""
    own = [(analysis.path, f) for f in analysis.findings if _is_safety_error(f)]
    return tuple(own) + tuple(item for item in analysis.bundle_located if _is_safety_error(item[1]))


def analysis_refusal(analysis: SkillFileAnalysis) -> Refusal | None:
    """The :class:`Refusal` of a skill whose analysis is ``analysis`` (``None``: it has
    no error-level safety finding)."""
    errors = analysis_errors(analysis)
    if not errors:
        return None
    return Refusal(refusal_reason(errors, skill_path=analysis.path), errors, analysis.path)


def refusal_reason(
    errors: Sequence[tuple[str, Finding]], *, skill_path: str, base: str | None = None
) -> str:
    """One line naming the first findings: ``SD1001 at line 3: ...`` in the skill file,
    ``scripts/run.sh: SD1013 at line 2: ...`` in a file of its bundle (relative to the
    skill's folder; to ``base`` for every file when given)."""
    named = [
        f"{_place(path, skill_path, base)}{f.code} at line {f.span.start.line + 1}: {f.message}"
        for path, f in errors[:_NAMED]
    ]
    more = len(errors) - _NAMED
    return "; ".join(named) + (f"; and {more} more" if more > 0 else "")


def _place(path: str, skill_path: str, base: str | None) -> str:
    if base is None:
        if path == skill_path:
            return ""
        base = os.path.dirname(skill_path)
    relative = os.path.relpath(path, base)
    return (relative if os.sep == "/" else relative.replace(os.sep, "/")) + ": "


# --------------------------------------------------------------------------- served bytes

_MEMO_SIZE = 512
#: ``(path, expected name, sha256 of the bytes, settings)`` -> the analysis of those bytes
#: without its bundle (a skill file judged again when its entry is rebuilt, unchanged).
_analyses: OrderedDict[tuple[str, str, str, RuleSettings], SkillFileAnalysis] = OrderedDict()


def analysis_of_bytes(
    path: str, expected_name: str, data: bytes, settings: RuleSettings
) -> SkillFileAnalysis:
    """The analysis of the skill file ``path`` as ``data`` (its bytes, read once by the
    caller), without its bundle; memoised by the bytes' digest."""
    key = (path, expected_name, hashlib.sha256(data).hexdigest(), settings)
    known = _analyses.get(key)
    if known is not None:
        _analyses.move_to_end(key)
        return known
    analysis = analyze_skill_bytes(
        data, path=path, expected_name=expected_name, settings=settings
    ).without_frontmatter()
    _analyses[key] = analysis
    if len(_analyses) > _MEMO_SIZE:
        _analyses.popitem(last=False)
    return analysis


def judge_served(
    path: str,
    expected_name: str,
    data: bytes,
    settings: RuleSettings,
    *,
    coverage: ScanCoverage | None = None,
    served: Mapping[str, bytes] | None = None,
) -> Refusal | None:
    """The verdict on a skill as a gate serves it: its skill file as ``data`` and the
    bundle files of ``served`` (relative path -> the bytes read once, all of them files
    ``coverage``'s scan reads in full) as those bytes; the bundle's other files as they
    are now. Without ``coverage`` the bundle is judged as it is now."""
    analysis = analysis_of_bytes(path, expected_name, data, settings)
    if os.path.basename(path) == "SKILL.md":
        if coverage is None:
            coverage = scan_coverage(os.path.dirname(os.path.abspath(path)))
        found = judged_contents(coverage, served or {})
        analysis = keep_bundle_findings(analysis, bundle_verdict(path, found, settings))
    return analysis_refusal(analysis)


# --------------------------------------------------------------------------- sources


def folder_refusal(folder: str, settings: RuleSettings | None = None) -> str | None:
    """Why the skills in ``folder`` (a root: bundles and flat files one level down) may
    not be served, or ``None``: a skill with an error-level safety finding, or a bundle
    file the safety scan does not read in full (below its 4 levels, in a folder it does
    not enter, past 256 KiB, binary, past its file count: a gate cannot vouch for it)."""
    errors: list[tuple[str, Finding]] = []
    unread: list[tuple[str, str]] = []
    try:
        with os.scandir(folder) as listing:
            children = sorted(listing, key=lambda item: item.name)
    except OSError:
        return None
    for child in children:
        try:
            found = listed_child_layout(child)
        except OSError:
            continue
        if found is None:
            continue
        _layout, relative, name = found
        path = os.path.join(folder, relative)
        if not os.path.isfile(path):
            continue
        analysis = analyze_skill_file(path, expected_name=name, settings=settings)
        errors += analysis_errors(analysis)
        if os.path.basename(path) == "SKILL.md":
            unread += _unread_files(os.path.dirname(path), folder)
    if errors:
        total = len(errors)
        first = refusal_reason(errors[:1], skill_path="", base=folder)
        more = total - 1
        return f"{total} error-level safety finding{'s' if total > 1 else ''} ({first}" + (
            f"; and {more} more)" if more > 0 else ")"
        )
    if unread:
        named = "; ".join(f"{path}: {why}" for path, why in unread[:_UNREAD_NAMED])
        more = len(unread) - _UNREAD_NAMED
        count = len(unread)
        return f"{count} file{'s' if count > 1 else ''} the safety scan did not read ({named}" + (
            f"; and {more} more)" if more > 0 else ")"
        )
    return None


def _unread_files(bundle: str, base: str) -> list[tuple[str, str]]:
    """Each file of the bundle folder ``bundle`` the safety scan does not read in full,
    with why, as a path relative to ``base``; a folder the scan does not enter (or a
    stopped walk) counts once."""
    coverage = scan_coverage(bundle)
    prefix = os.path.relpath(bundle, base).replace(os.sep, "/")
    found: list[tuple[str, str]] = []
    for relative, size in coverage.sizes.items():
        if not coverage.covers(relative, size):
            found.append((f"{prefix}/{relative}", coverage.reason(relative) or "not read"))
    for relative, why in coverage.passed.items():
        if _holds_anything(os.path.join(bundle, relative)):
            found.append((f"{prefix}/{relative}", why))
    if coverage.stopped is not None and not coverage.passed:
        found.append((f"{prefix}/", f"the scan stopped early: {coverage.stopped}"))
    return sorted(found)


def _holds_anything(path: str) -> bool:
    """Whether ``path`` (a folder, link or special file the scan passed over) could be
    served: anything but an empty folder."""
    try:
        with os.scandir(path) as listing:
            return next(iter(listing), None) is not None
    except NotADirectoryError:
        return True
    except OSError:
        return os.path.lexists(path)
