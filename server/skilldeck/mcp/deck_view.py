"""What ``skilldeck mcp`` serves at one moment: the deck's winners and their catalog.

One :class:`DeckView` is read from the registry (``resolve()``: each name's winner with
its file path) and kept until the deck changes. :class:`DeckState` holds the last good
view: a read that comes back incomplete (a provider failed, a root was unreadable)
never replaces a complete view, as the catalog tracker keeps the last good catalog.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import anyio
import anyio.to_thread

from skilldeck.engine.config import RuleSettings
from skilldeck.engine.filesystem import Refusal, refusal_now, refusal_of
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
    refused: Mapping[str, Refusal] = field(default_factory=dict)

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
    refused: dict[str, Refusal] = {}
    if require_safe:
        for name, skill in skills.items():
            reason = refusal_of(skill)
            if reason is not None:
                refused[name] = reason
    return _view_of(skills, refused, resolution.complete, revision, max_description_length)


def _view_of(
    winners: Mapping[str, SkillCandidate],
    refused: Mapping[str, Refusal],
    complete: bool,
    revision: int,
    max_description_length: int,
) -> DeckView:
    """The view serving ``winners`` but those ``refused`` (named with the reason)."""
    skills = {name: skill for name, skill in winners.items() if name not in refused}
    entries = catalog_entries(skills.values(), max_description_length)
    return DeckView(
        skills=skills,
        complete=complete,
        catalog_text=render_entries(entries, kind="initial"),
        digest=catalog_digest(entries),
        revision=revision,
        refused=dict(refused),
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
        settings: RuleSettings | None = None,
    ) -> None:
        self.registry = registry
        self.require_safe = require_safe
        self.cwd = cwd
        self._max_description_length = max_description_length
        self._settings = settings if settings is not None else RuleSettings()
        self._view: DeckView | None = None
        self._revision = 0
        #: Skills found unsafe when they were used (:meth:`refused_now`) that the deck's
        #: own read still serves (its candidates can be older than the files: a root
        #: watcher does not see every depth of a bundle), with their candidate and why.
        #: Kept out of the served view until judged safe again (:meth:`recheck`).
        self._refused_when_used: dict[str, tuple[SkillCandidate, Refusal]] = {}

    @property
    def settings(self) -> RuleSettings:
        """The rule settings the gate judges with."""
        return self._settings

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
        if self._refused_when_used:
            view = await self._keep_refusals(view)
        self._view = view
        return True

    async def refused_now(self, name: str) -> Refusal | None:
        """Why the skill ``name`` may not be served as its files are now
        (``refusal_now``: ``SKILL.md`` and its bundle judged again), or ``None``. A served
        skill found unsafe leaves the served view at once (a new revision: the caller
        tells the clients). A name the served view does not know is judged as the
        registry has it now (:meth:`_refused_unseen`). Without ``require_safe``, always
        ``None``."""
        if not self.require_safe:
            return None
        view = await self.current()
        skill = view.skills.get(name)
        if skill is None:
            return await self._refused_unseen(name)
        reason = await self._judge(skill)
        if reason is not None:
            self.refuse(name, reason)
        return reason

    def refuse(self, name: str, reason: Refusal) -> bool:
        """Leave the served skill ``name`` out of the view, found unsafe when it was used
        (or its files read to be served); true when the view changed (a new revision:
        the caller tells the clients). Judged again whenever the deck is listed."""
        # The view as it is now: a read of the deck may have replaced it meanwhile.
        now = self._view
        if now is None or name not in now.skills:
            return False
        self._refused_when_used[name] = (now.skills[name], reason)
        self._revision += 1
        refused = {**now.refused, name: reason}
        self._view = _view_of(
            now.skills, refused, now.complete, self._revision, self._max_description_length
        )
        return True

    async def recheck(self) -> bool:
        """Judge the skills refused when used again; true when one is safe now and the
        served view took it back (a new revision: the caller tells the clients)."""
        restored: dict[str, SkillCandidate] = {}
        for name, (skill, _reason) in list(self._refused_when_used.items()):
            if await self._judge(skill) is None:
                restored[name] = skill
        # The view and the refusals as they are now (a read may have replaced them).
        view = self._view
        restored = {
            name: skill
            for name, skill in restored.items()
            if self._refused_when_used.get(name, (None, ""))[0] is skill
        }
        if not restored or view is None:
            return False
        for name in restored:
            del self._refused_when_used[name]
        self._revision += 1
        refused = {name: why for name, why in view.refused.items() if name not in restored}
        self._view = _view_of(
            {**view.skills, **restored},
            refused,
            view.complete,
            self._revision,
            self._max_description_length,
        )
        return True

    async def _refused_unseen(self, name: str) -> Refusal | None:
        """Why the registry's winner ``name``, which the served view does not know, may
        not be served now, or ``None`` (no such winner, or a safe one). The tool and the
        prompts load a skill from the registry, which knows a skill added to a root as
        soon as the root watcher reports it; the view learns of it only when the deck is
        read again (after a settling pause, and never from an incomplete read), so such
        a skill is judged here, at use, rather than served unjudged."""
        if not is_skill_name(name):
            return None
        found = (await self.registry.resolve(cwd=self.cwd)).names.get(name)
        if found is None:
            return None
        return await self._judge(found.winner.candidate)

    async def _judge(self, skill: SkillCandidate) -> Refusal | None:
        """``refusal_now`` of ``skill`` (its files read again), in a worker thread."""
        return await anyio.to_thread.run_sync(refusal_now, skill, self._settings)

    async def _keep_refusals(self, view: DeckView) -> DeckView:
        """``view`` (a fresh read) without the skills refused when used that are still
        unsafe, each judged again with the read's candidate; one found safe, or gone,
        is served as the read says."""
        still: dict[str, tuple[SkillCandidate, Refusal]] = {}
        for name in self._refused_when_used:
            skill = view.skills.get(name)
            if skill is None:
                continue
            reason = await self._judge(skill)
            if reason is not None:
                still[name] = (skill, reason)
        self._refused_when_used = still
        if not still:
            return view
        refused = {**view.refused, **{name: why for name, (_skill, why) in still.items()}}
        return _view_of(
            view.skills, refused, view.complete, view.revision, self._max_description_length
        )
