"""SD10xx: the safety rules' run over one skill file (declared in
``engine/rules/_sd10_safety.py``; the checks themselves are ``engine/safety/``'s)."""

from __future__ import annotations

from skilldeck.engine.checks._context import Check, CheckContext
from skilldeck.engine.frontmatter import Frontmatter
from skilldeck.engine.rules import Severity
from skilldeck.engine.safety import safety_findings


def check_safety(ctx: CheckContext, fm: Frontmatter) -> None:
    """SD1001-SD1015 (:mod:`skilldeck.engine.safety`)."""
    body_start = ctx.parsed.body_start
    if body_start is None:
        return
    entry = fm.get("name")
    # A name another rule already refuses (SD203 names its look-alike or invisible
    # character) is not reported twice.
    refused = entry is not None and any(
        f.severity is Severity.ERROR and f.span.start.line == entry.value_span.start.line
        for f in ctx.findings
    )
    ctx.findings.extend(
        safety_findings(
            ctx.text,
            fm,
            body_start,
            name=ctx.name,
            description=ctx.description,
            offer=ctx.offer,
            name_refused=refused,
        )
    )


#: This family's checks, in the order they run.
CHECKS: tuple[Check, ...] = (check_safety,)
