"""Which candidate wins a name inside one layer, and which ones it shadows.

Order inside a layer: rank (lower wins), then the caller's order (provider
registration order, then each provider's own order). Python's sort is stable, so the
caller passes candidates already in registration/provider order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

from skilldeck.engine.model import SkillCandidate

T = TypeVar("T")


def group_by_name(
    items: Iterable[T],
    candidate_of: Callable[[T], SkillCandidate],
) -> dict[str, list[T]]:
    """Group ``items`` by candidate name; each group is ordered winner first.

    ``items`` must arrive in registration/provider order; the sort by rank is stable.
    """
    groups: dict[str, list[T]] = {}
    for item in sorted(items, key=lambda it: candidate_of(it).rank):
        groups.setdefault(candidate_of(item).name, []).append(item)
    return groups
