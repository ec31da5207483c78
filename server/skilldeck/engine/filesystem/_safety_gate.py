"""The safety gates: which findings refuse a skill, and the reason a gate gives.

Two gates use this one verdict (``docs/safety.md``): a git source with
``require = "no-errors"`` refuses a new revision whose skills have error-level SD10xx
findings and keeps serving the last good one (:mod:`skilldeck.engine.sources`),
and ``skilldeck mcp --require-safe`` (config ``mcp-require-safe``) leaves such a skill
out of what it serves, saying why in ``skills/list``. The findings are the per-file
analysis's own (bundle files included), with the rule settings in force, so a rule the
user switched off or turned into a warning does not refuse anything.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from skilldeck.engine.config import RuleSettings
from skilldeck.engine.files import analyze_skill_file
from skilldeck.engine.filesystem._layout import listed_child_layout
from skilldeck.engine.rules import Finding, Severity

#: How many findings a refusal names before it says how many more there are.
_NAMED = 2


def safety_errors(findings: Iterable[Finding]) -> tuple[Finding, ...]:
    """The error-level SD10xx findings among ``findings``."""
    return tuple(
        f
        for f in findings
        if f.code.startswith("SD10") and len(f.code) == 6 and f.severity is Severity.ERROR
    )


def refusal_reason(errors: Iterable[Finding], where: str = "") -> str:
    """One line naming the first findings (``SD1001 at line 3: ...``)."""
    listed = list(errors)
    named = [
        f"{where}{f.code} at line {f.span.start.line + 1}: {f.message}" for f in listed[:_NAMED]
    ]
    more = len(listed) - _NAMED
    return "; ".join(named) + (f"; and {more} more" if more > 0 else "")


def folder_refusal(folder: str, settings: RuleSettings | None = None) -> str | None:
    """Why the skills in ``folder`` (a root: bundles and flat files one level down) may
    not be served, or ``None`` when none has an error-level safety finding."""
    reasons: list[tuple[str, tuple[Finding, ...]]] = []
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
        errors = safety_errors(analysis.findings)
        if errors:
            reasons.append((relative, errors))
    if not reasons:
        return None
    total = sum(len(errors) for _relative, errors in reasons)
    relative, errors = reasons[0]
    first = refusal_reason(errors[:1], f"{relative}: ")
    more = total - 1
    return f"{total} error-level safety finding{'s' if total > 1 else ''} ({first}" + (
        f"; and {more} more)" if more > 0 else ")"
    )
