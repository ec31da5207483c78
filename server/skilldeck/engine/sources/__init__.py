"""Remote skill sources (``[[sources]]`` in ``skilldeck.toml``): a team's deck from git or
from another skills server, each one a provider of the deck (see ``docs/sources.md``).

Invariant: a failed fetch keeps the last good copy, marked incomplete; a revision being
read is never deleted under its readers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from skilldeck._lazy import lazy_exports

if TYPE_CHECKING:
    from skilldeck.engine.sources._config_findings import source_findings as source_findings
    from skilldeck.engine.sources._factories import McpSourceReader as McpSourceReader
    from skilldeck.engine.sources._factories import source_factory as source_factory
    from skilldeck.engine.sources._git_cache import good_commit as good_commit
    from skilldeck.engine.sources._git_cache import good_copy as good_copy
    from skilldeck.engine.sources._git_cache import read_state as read_state
    from skilldeck.engine.sources._git_cache import source_dir as source_dir
    from skilldeck.engine.sources._git_provider import pins_a_commit as pins_a_commit
    from skilldeck.engine.sources._listing_copy import CopiedSkill as CopiedSkill
    from skilldeck.engine.sources._listing_copy import ListingCopy as ListingCopy
    from skilldeck.engine.sources._listing_copy import listing_dir as listing_dir
    from skilldeck.engine.sources._listing_copy import load_listing as load_listing
    from skilldeck.engine.sources._listing_copy import note_failure as note_failure
    from skilldeck.engine.sources._listing_copy import save_listing as save_listing
    from skilldeck.engine.sources._status import FAILING_HEALTH as FAILING_HEALTH
    from skilldeck.engine.sources._status import SourceStatus as SourceStatus
    from skilldeck.engine.sources._status import fetch_in_time as fetch_in_time
    from skilldeck.engine.sources._status import source_status as source_status
    from skilldeck.engine.sources._status import update_sources as update_sources
else:
    __getattr__, __dir__, __all__ = lazy_exports(
        __name__,
        {
            "_config_findings": ("source_findings",),
            "_factories": ("McpSourceReader", "source_factory"),
            "_git_cache": ("good_commit", "good_copy", "read_state", "source_dir"),
            "_git_provider": ("pins_a_commit",),
            "_listing_copy": (
                "CopiedSkill",
                "ListingCopy",
                "listing_dir",
                "load_listing",
                "note_failure",
                "save_listing",
            ),
            "_status": (
                "FAILING_HEALTH",
                "SourceStatus",
                "fetch_in_time",
                "source_status",
                "update_sources",
            ),
        },
    )
