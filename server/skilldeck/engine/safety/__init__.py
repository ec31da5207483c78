"""Supply-chain safety (SD10xx, ``docs/safety.md``): invisible and tag characters, confusable
names, hidden Markdown and instructions to the model, routing hijacks, dangerous commands
and secrets, in a skill's text and in its bundle's other files.

Invariant: a pattern runs only where its gate's words occur (one Aho-Corasick pass), so a
clean file costs one scan; findings carry the exact span of what is hidden.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from skilldeck._lazy import lazy_exports

if TYPE_CHECKING:
    from skilldeck.engine.safety._bundle import BundleFindings as BundleFindings
    from skilldeck.engine.safety._bundle import ScanCoverage as ScanCoverage
    from skilldeck.engine.safety._bundle import bundle_findings as bundle_findings
    from skilldeck.engine.safety._bundle import bundle_summary as bundle_summary
    from skilldeck.engine.safety._bundle import is_bundle_finding as is_bundle_finding
    from skilldeck.engine.safety._bundle import judged_contents as judged_contents
    from skilldeck.engine.safety._bundle import scan_coverage as scan_coverage
    from skilldeck.engine.safety._bundle_walk import FolderListings as FolderListings
    from skilldeck.engine.safety._bundle_walk import bundle_state as bundle_state
    from skilldeck.engine.safety._bundle_walk import open_folder as open_folder
    from skilldeck.engine.safety._bundle_walk import (
        reuse_folder_listings as reuse_folder_listings,
    )
    from skilldeck.engine.safety._chars import code_point_name as code_point_name
    from skilldeck.engine.safety._chars import hidden_tag_text as hidden_tag_text
    from skilldeck.engine.safety._chars import run_at as run_at
    from skilldeck.engine.safety._file import safety_findings as safety_findings
else:
    __getattr__, __dir__, __all__ = lazy_exports(
        __name__,
        {
            "_bundle": (
                "BundleFindings",
                "ScanCoverage",
                "bundle_findings",
                "bundle_summary",
                "is_bundle_finding",
                "judged_contents",
                "scan_coverage",
            ),
            "_bundle_walk": (
                "FolderListings",
                "bundle_state",
                "open_folder",
                "reuse_folder_listings",
            ),
            "_chars": ("code_point_name", "hidden_tag_text", "run_at"),
            "_file": ("safety_findings",),
        },
    )
