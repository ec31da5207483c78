"""Which candidate wins a name inside one layer, and which ones it shadows.

Order inside a layer: rank (lower wins), then the caller's order (provider
registration order, then each provider's own order). Python's sort is stable, so the
caller passes candidates already in registration/provider order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

from skilldeck.engine.registry._model import SkillCandidate

T = TypeVar("T")

#: What ordering needs of an item: its skill name and its rank.
NameAndRank = Callable[[T], tuple[str, int]]


def group_by_name(items: Iterable[T], name_and_rank: NameAndRank[T]) -> dict[str, list[T]]:
    """Group ``items`` by skill name; each group is ordered winner first.

    ``items`` must arrive in registration/provider order; the sort by rank is stable.
    """
    keyed = sorted(((name_and_rank(item), item) for item in items), key=lambda pair: pair[0][1])
    groups: dict[str, list[T]] = {}
    for (name, _), item in keyed:
        groups.setdefault(name, []).append(item)
    return groups


def candidate_name_and_rank(candidate: SkillCandidate) -> tuple[str, int]:
    """:data:`NameAndRank` of a registry candidate."""
    return candidate.name, candidate.rank
