"""Routing overlap (SD801 / SD802, ``docs/overlap.md``): how a skill's model-visible text is
read, the pair index, near-duplicate families and their competitors, and
:class:`DeckOverlap`, the one place pairs are kept or left out, updated one skill at a time
in the editor and built a time slice at a time.

Invariant: every pass is linear in the deck (copies read once, a family competes as one).
"""

from skilldeck.engine.overlap._deck_overlap import (
    DeckOverlap,
    competing_skill,
    member_key,
    related_location,
)
from skilldeck.engine.overlap._families import Family
from skilldeck.engine.overlap._index import OverlapPair, OverlapSkill, clusters
from skilldeck.engine.overlap._time_slices import TimeSlice

__all__ = [
    "DeckOverlap",
    "Family",
    "OverlapPair",
    "OverlapSkill",
    "TimeSlice",
    "clusters",
    "competing_skill",
    "member_key",
    "related_location",
]
