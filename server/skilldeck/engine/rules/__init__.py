"""What a check can report: findings (code, severity, message, span, fixes), the rules
(one :class:`Rule` per check, declared in its family's module, ``_sd2_name_description.py``
...; :data:`RULES` gathers them and ``docs/rules.md`` is generated from them) and the
profiles (the keys each dialect knows, with docs and limits).

Invariant: a rule is declared once, here, with a stable code in its family's range; the
lowest layer holds the declarations because every layer above names rules by code.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from skilldeck._lazy import lazy_exports

if TYPE_CHECKING:
    from skilldeck.engine.rules._findings import Finding as Finding
    from skilldeck.engine.rules._findings import Fix as Fix
    from skilldeck.engine.rules._findings import RelatedLocation as RelatedLocation
    from skilldeck.engine.rules._findings import Severity as Severity
    from skilldeck.engine.rules._findings import TextEdit as TextEdit
    from skilldeck.engine.rules._profiles import ALL_PROFILE_KEYS as ALL_PROFILE_KEYS
    from skilldeck.engine.rules._profiles import DEFAULT_PROFILE as DEFAULT_PROFILE
    from skilldeck.engine.rules._profiles import DEFERRED_EFFECTS as DEFERRED_EFFECTS
    from skilldeck.engine.rules._profiles import DESCRIPTION_ABOUT as DESCRIPTION_ABOUT
    from skilldeck.engine.rules._profiles import NAME_ABOUT as NAME_ABOUT
    from skilldeck.engine.rules._profiles import PROFILES as PROFILES
    from skilldeck.engine.rules._profiles import KeyInfo as KeyInfo
    from skilldeck.engine.rules._profiles import Profile as Profile
    from skilldeck.engine.rules._profiles import get_profile as get_profile
    from skilldeck.engine.rules._rules import HOST_PROFILES as HOST_PROFILES
    from skilldeck.engine.rules._rules import NOT_LOADED as NOT_LOADED
    from skilldeck.engine.rules._rules import RULES as RULES
    from skilldeck.engine.rules._rules import Rule as Rule
    from skilldeck.engine.rules._rules import render_rules_markdown as render_rules_markdown
    from skilldeck.engine.rules._rules import rule as rule
else:
    __getattr__, __dir__, __all__ = lazy_exports(
        __name__,
        {
            "_findings": ("Finding", "Fix", "RelatedLocation", "Severity", "TextEdit"),
            "_profiles": (
                "ALL_PROFILE_KEYS",
                "DEFAULT_PROFILE",
                "DEFERRED_EFFECTS",
                "DESCRIPTION_ABOUT",
                "KeyInfo",
                "NAME_ABOUT",
                "PROFILES",
                "Profile",
                "get_profile",
            ),
            "_rules": (
                "HOST_PROFILES",
                "NOT_LOADED",
                "RULES",
                "Rule",
                "render_rules_markdown",
                "rule",
            ),
        },
    )
