"""Remote skill sources (``[[sources]]`` in ``skilldeck.toml``): a team's deck from git or
from another skills server, each one a provider of the deck (see ``docs/sources.md``).

Invariant: a failed fetch keeps the last good copy, marked incomplete; a revision being
read is never deleted under its readers.
"""

from skilldeck.engine.sources._config_findings import source_findings
from skilldeck.engine.sources._factories import source_factory
from skilldeck.engine.sources._git_cache import good_commit, good_copy, read_state, source_dir
from skilldeck.engine.sources._git_provider import pins_a_commit
from skilldeck.engine.sources._listing_copy import (
    CopiedSkill,
    ListingCopy,
    listing_dir,
    load_listing,
    note_failure,
    save_listing,
)
from skilldeck.engine.sources._status import (
    FAILING_HEALTH,
    SourceStatus,
    fetch_in_time,
    source_status,
    update_sources,
)

__all__ = [
    "FAILING_HEALTH",
    "CopiedSkill",
    "ListingCopy",
    "SourceStatus",
    "fetch_in_time",
    "good_commit",
    "good_copy",
    "listing_dir",
    "load_listing",
    "note_failure",
    "pins_a_commit",
    "read_state",
    "save_listing",
    "source_dir",
    "source_factory",
    "source_findings",
    "source_status",
    "update_sources",
]
