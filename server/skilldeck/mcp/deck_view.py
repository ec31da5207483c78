"""What ``skilldeck mcp`` serves at one moment: the deck's winners and their catalog.

One :class:`DeckView` is read from the registry (``resolve()``: each name's winner with
its file path) and kept until the deck changes. :class:`DeckState` holds the last good
view: a read that comes back incomplete (a provider failed, a root was unreadable)
never replaces a complete view, as the catalog tracker keeps the last good catalog.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import anyio

from skilldeck.engine.catalog import catalog_digest, catalog_entries, render_entries
from skilldeck.engine.model import SkillCandidate, is_skill_name
from skilldeck.engine.registry import SkillRegistry


@dataclass(frozen=True)
class DeckView:
    """The winners of the deck (by name), whether the read was complete, the catalog.

    ``catalog_text`` is byte for byte what ``skilldeck catalog`` prints (without the
    final newline); ``digest`` identifies the catalog's entries.
    """

    skills: Mapping[str, SkillCandidate]
    complete: bool
    catalog_text: str
    digest: str
    revision: int = 0

    def model_visible(self) -> list[SkillCandidate]:
        """The skills the model may load (the catalog's skills), sorted by name."""
        return [
            skill
            for name, skill in sorted(self.skills.items())
            if skill.invocation.model_invocable and is_skill_name(name)
        ]

    def user_invocable(self) -> list[SkillCandidate]:
        """The skills the user may invoke (``/name``), sorted by name."""
        return [
            skill
            for name, skill in sorted(self.skills.items())
            if skill.invocation.user_invocable and is_skill_name(name)
        ]


async def read_view(
    registry: SkillRegistry, *, cwd: str, max_description_length: int, revision: int = 0
) -> DeckView:
    """A fresh view of the deck for ``cwd``."""
    resolution = await registry.resolve(cwd=cwd)
    skills = {name: found.winner.candidate for name, found in resolution.names.items()}
    entries = catalog_entries(skills.values(), max_description_length)
    return DeckView(
        skills=skills,
        complete=resolution.complete,
        catalog_text=render_entries(entries, kind="initial"),
        digest=catalog_digest(entries),
        revision=revision,
    )


class DeckState:
    """The view being served; :meth:`refresh` reads again and keeps the last good one.

    Reads never overlap: a :meth:`current` that finds no view yet waits for the read
    under way (the first read starts before the MCP library is even imported) instead of
    starting another.
    """

    def __init__(self, registry: SkillRegistry, *, cwd: str, max_description_length: int) -> None:
        self.registry = registry
        self.cwd = cwd
        self._max_description_length = max_description_length
        self._view: DeckView | None = None
        self._revision = 0
        self._reading: anyio.Lock | None = None

    async def current(self) -> DeckView:
        """The served view (read on first use, or when the read under way ends)."""
        if self._view is None:
            async with self._lock():
                if self._view is None:
                    await self._read()
        assert self._view is not None
        return self._view

    async def refresh(self) -> bool:
        """Read the deck again; true when the served view was replaced.

        An incomplete read replaces nothing once a view is served (the last good view
        stays); the very first read is served even when incomplete.
        """
        async with self._lock():
            return await self._read()

    def _lock(self) -> anyio.Lock:
        if self._reading is None:
            self._reading = anyio.Lock()
        return self._reading

    async def _read(self) -> bool:
        self._revision += 1
        view = await read_view(
            self.registry,
            cwd=self.cwd,
            max_description_length=self._max_description_length,
            revision=self._revision,
        )
        if self._view is not None and not view.complete:
            return False
        self._view = view
        return True
