"""What ``skilldeck mcp`` serves at one moment: the deck's winners and their catalog.

One :class:`DeckView` is read from the registry (``resolve()``: each name's winner with
its file path) and kept until the deck changes. :class:`DeckState` holds the last good
view: a read that comes back incomplete (a provider failed, a root was unreadable)
never replaces a complete view, as the catalog tracker keeps the last good catalog.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from skilldeck.engine.filesystem import refusal_of
from skilldeck.engine.model_view import catalog_digest, catalog_entries, render_entries
from skilldeck.engine.registry import SkillCandidate, SkillRegistry, is_skill_name


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
    #: Winners left out by ``--require-safe`` (``mcp-require-safe``), with the reason.
    refused: Mapping[str, str] = field(default_factory=dict)

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
    registry: SkillRegistry,
    *,
    cwd: str,
    max_description_length: int,
    revision: int = 0,
    require_safe: bool = False,
) -> DeckView:
    """A fresh view of the deck for ``cwd``; ``require_safe`` leaves out the winners with
    error-level safety findings (and notes why in ``refused``)."""
    resolution = await registry.resolve(cwd=cwd)
    skills = {name: found.winner.candidate for name, found in resolution.names.items()}
    refused: dict[str, str] = {}
    if require_safe:
        for name, skill in list(skills.items()):
            reason = refusal_of(skill)
            if reason is not None:
                refused[name] = reason
                del skills[name]
    entries = catalog_entries(skills.values(), max_description_length)
    return DeckView(
        skills=skills,
        complete=resolution.complete,
        catalog_text=render_entries(entries, kind="initial"),
        digest=catalog_digest(entries),
        revision=revision,
        refused=refused,
    )


class DeckState:
    """The view being served; :meth:`refresh` reads again and keeps the last good one."""

    def __init__(
        self,
        registry: SkillRegistry,
        *,
        cwd: str,
        max_description_length: int,
        require_safe: bool = False,
    ) -> None:
        self.registry = registry
        self.require_safe = require_safe
        self.cwd = cwd
        self._max_description_length = max_description_length
        self._view: DeckView | None = None
        self._revision = 0

    async def current(self) -> DeckView:
        """The served view (read on first use)."""
        if self._view is None:
            await self.refresh()
        assert self._view is not None
        return self._view

    async def refresh(self) -> bool:
        """Read the deck again; true when the served view was replaced.

        An incomplete read replaces nothing once a view is served (the last good view
        stays); the very first read is served even when incomplete.
        """
        self._revision += 1
        view = await read_view(
            self.registry,
            cwd=self.cwd,
            max_description_length=self._max_description_length,
            revision=self._revision,
            require_safe=self.require_safe,
        )
        if self._view is not None and not view.complete:
            return False
        self._view = view
        return True
