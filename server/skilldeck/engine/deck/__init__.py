"""The deck: what every front end reads for one lookup. Each name's winner across files and
providers, the cross-skill findings (shadowing, ``/name`` mentions, hosts, overlap) with
the user's rule settings applied, the names of other files as shown, and the default
registry.

Invariant: one deck, one verdict; ``check``, the language server and the MCP server read
the same findings from here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from skilldeck._lazy import lazy_exports

if TYPE_CHECKING:
    from skilldeck.engine.deck._deck import DeckMember as DeckMember
    from skilldeck.engine.deck._deck import NameVerdict as NameVerdict
    from skilldeck.engine.deck._deck import ProvidedSkill as ProvidedSkill
    from skilldeck.engine.deck._deck import deck_findings as deck_findings
    from skilldeck.engine.deck._deck import host_findings as host_findings
    from skilldeck.engine.deck._deck import mention_findings as mention_findings
    from skilldeck.engine.deck._deck import mention_targets as mention_targets
    from skilldeck.engine.deck._deck import mentions_affected as mentions_affected
    from skilldeck.engine.deck._deck import name_groups as name_groups
    from skilldeck.engine.deck._deck import provided_skills as provided_skills
    from skilldeck.engine.deck._deck import resolve_name as resolve_name
    from skilldeck.engine.deck._deck import view_findings as view_findings
    from skilldeck.engine.deck._defaults import default_registry as default_registry
    from skilldeck.engine.deck._defaults import provider_registry as provider_registry
    from skilldeck.engine.deck._shown_paths import project_of as project_of
else:
    __getattr__, __dir__, __all__ = lazy_exports(
        __name__,
        {
            "_deck": (
                "DeckMember",
                "NameVerdict",
                "ProvidedSkill",
                "deck_findings",
                "host_findings",
                "mention_findings",
                "mention_targets",
                "mentions_affected",
                "name_groups",
                "provided_skills",
                "resolve_name",
                "view_findings",
            ),
            "_defaults": ("default_registry", "provider_registry"),
            "_shown_paths": ("project_of",),
        },
    )
