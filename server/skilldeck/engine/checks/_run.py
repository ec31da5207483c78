"""The per-file checks in the order they run: :data:`FILE_CHECKS`, gathered from the
family modules' ``CHECKS``, and :func:`run_checks`.

A check may read what an earlier one set: the SD2xx checks set ``ctx.name`` and
``ctx.description`` first, and the safety run (SD10xx) comes last, since it leaves out a
name another rule already refused. The order of the findings does not depend on it: an
analysis sorts them by position and code.
"""

from __future__ import annotations

from skilldeck.engine.checks import (
    _sd2_name_description,
    _sd3_invocation,
    _sd4_keys,
    _sd5_catalog,
    _sd6_agentskills,
    _sd10_safety,
)
from skilldeck.engine.checks._context import Check, CheckContext

#: The family modules of the per-file rules, in the order their checks run.
FAMILIES = (
    _sd2_name_description,
    _sd3_invocation,
    _sd4_keys,
    _sd5_catalog,
    _sd6_agentskills,
    _sd10_safety,
)

FILE_CHECKS: tuple[Check, ...] = tuple(check for family in FAMILIES for check in family.CHECKS)


def run_checks(ctx: CheckContext) -> None:
    """Every per-file check over ``ctx``'s frontmatter (there must be one)."""
    fm = ctx.frontmatter
    assert fm is not None
    for check in FILE_CHECKS:
        check(ctx, fm)
