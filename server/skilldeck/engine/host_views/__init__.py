"""What each agent host makes of a deck: the ``SKILL.md`` files it finds below a root (its own
walk: depth, symlinks, hidden folders), the skill it loads for each name, its listing
against its budget, and the findings for it (SD901-SD903; SD801/SD802 for the pairs it adds).

Invariant: a view is computed from the deck's scan, the deck's provided skills (DSH's
verdicts are the deck's own, resolved by ``group_by_name``) and the hosts table only; what
a host does that is not documented is read conservatively and said so in ``docs/hosts.md``.
A host's own settings files (``_settings``: the project's and the user's, as the hosts table
declares them) are the one place a view reads beyond the deck.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from skilldeck._lazy import lazy_exports

if TYPE_CHECKING:
    from skilldeck.engine.host_views._settings import AppliedSettings as AppliedSettings
    from skilldeck.engine.host_views._settings import settings_files as settings_files
    from skilldeck.engine.host_views._view import FoundFile as FoundFile
    from skilldeck.engine.host_views._view import HostLoad as HostLoad
    from skilldeck.engine.host_views._view import HostsView as HostsView
    from skilldeck.engine.host_views._view import build_view as build_view
    from skilldeck.engine.host_views._view import host_listing as host_listing
    from skilldeck.engine.host_views._view import host_listing_text as host_listing_text
    from skilldeck.engine.host_views._view import host_settings as host_settings
    from skilldeck.engine.host_views._view import host_summary as host_summary
    from skilldeck.engine.host_views._view import scanned_roots as scanned_roots
    from skilldeck.engine.host_views._view import walk_levels as walk_levels
    from skilldeck.engine.host_views._walk import deep_identity as deep_identity
else:
    __getattr__, __dir__, __all__ = lazy_exports(
        __name__,
        {
            "_view": (
                "FoundFile",
                "HostLoad",
                "HostsView",
                "build_view",
                "host_listing",
                "host_listing_text",
                "host_settings",
                "host_summary",
                "scanned_roots",
                "walk_levels",
            ),
            "_settings": ("AppliedSettings", "settings_files"),
            "_walk": ("deep_identity",),
        },
    )
