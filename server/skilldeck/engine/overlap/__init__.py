"""Routing overlap (SD801 / SD802, ``docs/overlap.md``): how a skill's model-visible text is
read, the pair index, near-duplicate families and their competitors, and
:class:`DeckOverlap`, the one place pairs are kept or left out, updated one skill at a time
in the editor and built a time slice at a time.

Invariant: every pass is linear in the deck (copies read once, a family competes as one).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from skilldeck._lazy import lazy_exports

if TYPE_CHECKING:
    from skilldeck.engine.overlap._deck_overlap import DeckOverlap as DeckOverlap
    from skilldeck.engine.overlap._deck_overlap import competing_skill as competing_skill
    from skilldeck.engine.overlap._deck_overlap import member_key as member_key
    from skilldeck.engine.overlap._deck_overlap import related_location as related_location
    from skilldeck.engine.overlap._families import Family as Family
    from skilldeck.engine.overlap._index import OverlapPair as OverlapPair
    from skilldeck.engine.overlap._index import OverlapSkill as OverlapSkill
    from skilldeck.engine.overlap._index import clusters as clusters
    from skilldeck.engine.overlap._time_slices import SLICE_PAUSE_SECONDS as SLICE_PAUSE_SECONDS
    from skilldeck.engine.overlap._time_slices import TimeSlice as TimeSlice
else:
    __getattr__, __dir__, __all__ = lazy_exports(
        __name__,
        {
            "_deck_overlap": ("DeckOverlap", "competing_skill", "member_key", "related_location"),
            "_families": ("Family",),
            "_index": ("OverlapPair", "OverlapSkill", "clusters"),
            "_time_slices": ("SLICE_PAUSE_SECONDS", "TimeSlice"),
        },
    )
