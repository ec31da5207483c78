"""What each agent host makes of a deck: the ``SKILL.md`` files it finds below a root (its own
walk: depth, symlinks, hidden folders), the skill it loads for each name, its listing
against its budget, and the findings for it (SD901-SD903; SD801/SD802 for the pairs it adds).

Invariant: a view is computed from the deck's scan and the hosts table only; what a host
does that is not documented is read conservatively and said so in ``docs/hosts.md``.
"""

from skilldeck.engine.host_views._view import (
    FoundFile,
    HostLoad,
    HostsView,
    build_view,
    host_listing,
    host_summary,
    scanned_roots,
    walk_levels,
)
from skilldeck.engine.host_views._walk import deep_identity

__all__ = [
    "FoundFile",
    "HostLoad",
    "HostsView",
    "build_view",
    "deep_identity",
    "host_listing",
    "host_summary",
    "scanned_roots",
    "walk_levels",
]
