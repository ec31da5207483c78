"""SD5xx: the catalog view.

Checked by ``checks/_sd5_catalog.py``.
"""

from __future__ import annotations

from skilldeck.engine.rules._findings import Severity
from skilldeck.engine.rules._rule import Rule

RULES: tuple[Rule, ...] = (
    Rule(
        code="SD501",
        name="description-truncated",
        severity=Severity.WARNING,
        message="description is {length}/{cap} characters; the catalog cuts it after '{tail}'",
        summary="The catalog will cut this description.",
        why=(
            "The catalog shows each description with whitespace collapsed and cut to the "
            "configured length (500 characters by default) with `...`. The model decides whether "
            "to load a skill from that text alone, so the cut part is never seen before loading. "
            "The finding underlines exactly the text the catalog drops; the message quotes the "
            "last words the catalog keeps."
        ),
        fix="put the key information first and move detail into the body.",
    ),
)
