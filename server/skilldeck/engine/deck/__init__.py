"""The deck: what every front end reads for one lookup. Each name's winner across files and
providers, the cross-skill findings (shadowing, ``/name`` mentions, hosts, overlap) with
the user's rule settings applied, the names of other files as shown, and the default
registry.

Invariant: one deck, one verdict; ``check``, the language server and the MCP server read
the same findings from here.
"""

from skilldeck.engine.deck._deck import (
    DeckMember,
    NameVerdict,
    ProvidedSkill,
    deck_findings,
    host_findings,
    mention_findings,
    mention_targets,
    mentions_affected,
    name_groups,
    provided_skills,
    resolve_name,
    view_findings,
)
from skilldeck.engine.deck._defaults import default_registry, provider_registry
from skilldeck.engine.deck._shown_paths import project_of

__all__ = [
    "DeckMember",
    "NameVerdict",
    "ProvidedSkill",
    "deck_findings",
    "default_registry",
    "host_findings",
    "mention_findings",
    "mention_targets",
    "mentions_affected",
    "name_groups",
    "project_of",
    "provided_skills",
    "provider_registry",
    "resolve_name",
    "view_findings",
]
