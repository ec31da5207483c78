"""What a check can report: findings (code, severity, message, span, fixes), the rules table
(one :class:`Rule` per check; ``docs/rules.md`` is generated from it) and the profiles
(the keys each dialect knows, with docs and limits).

Invariant: a rule exists once, here, with a stable code.
"""

from skilldeck.engine.rules._findings import Finding, Fix, RelatedLocation, Severity, TextEdit
from skilldeck.engine.rules._profiles import (
    ALL_PROFILE_KEYS,
    DEFAULT_PROFILE,
    DEFERRED_EFFECTS,
    PROFILES,
    KeyInfo,
    Profile,
    get_profile,
)
from skilldeck.engine.rules._rules import NOT_LOADED, RULES, Rule, render_rules_markdown, rule

__all__ = [
    "ALL_PROFILE_KEYS",
    "DEFAULT_PROFILE",
    "DEFERRED_EFFECTS",
    "NOT_LOADED",
    "PROFILES",
    "RULES",
    "Finding",
    "Fix",
    "KeyInfo",
    "Profile",
    "RelatedLocation",
    "Rule",
    "Severity",
    "TextEdit",
    "get_profile",
    "render_rules_markdown",
    "rule",
]
