"""The deck's routing overlap: SD801 / SD802 between the skills the model chooses from.

:class:`DeckOverlap` holds the :class:`~skilldeck.engine.overlap.OverlapIndex` of a deck's
competing skills (each name's winner, when it is model-invocable: what the catalog lists)
and every pair above the threshold. ``check`` builds one per deck
(:func:`skilldeck.engine.deck.deck_findings`); the language server keeps one per folder
and, on a keystroke, compares only the edited skill against it (:meth:`DeckOverlap.update`).
Both read their findings from :meth:`DeckOverlap.findings_of`, so they agree.

Provided skills (bundled, runtime) compete too but receive no findings: a file that
overlaps one is told so, naming the provider. Pairs the author has declared distinct
(``[overlap] distinct``, :mod:`skilldeck.engine.overlap_distinct`) are left out here, once,
unless their descriptions are near-identical (SD802).
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Iterator
from collections.abc import Set as AbstractSet
from dataclasses import replace
from typing import TYPE_CHECKING

from skilldeck.engine.catalog_text import catalog_description
from skilldeck.engine.findings import Finding, RelatedLocation
from skilldeck.engine.fs_provider import SkillFileEntry
from skilldeck.engine.overlap import (
    Neighbour,
    OverlapIndex,
    OverlapPair,
    OverlapSkill,
    sort_pairs,
)
from skilldeck.engine.overlap_distinct import DistinctMatcher
from skilldeck.engine.positions import FILE_START, Span
from skilldeck.engine.time_slices import TimeSlice

if TYPE_CHECKING:
    from skilldeck.engine.deck import DeckMember
    from skilldeck.engine.skill_file import RuleSettings

OVERLAP_CODES = ("SD801", "SD802")
#: A file is told about its nearest competitors only (``skilldeck overlap`` lists all).
MAX_FINDINGS_PER_SKILL = 3


def member_key(member: DeckMember) -> str:
    """The identity of a member in the overlap index: a file's path; a provided skill's
    provider and name (its path, when it has one, moves: a git source's checkout is
    another folder for every commit, and the skill must stay the same member)."""
    if isinstance(member, SkillFileEntry):
        return member.path
    return f"{member.provider}:{member.name}"


def competing_skill(member: DeckMember, max_length: int) -> OverlapSkill | None:
    """What the model sees of ``member`` when it can choose it (``None`` otherwise): the
    description as the catalog shapes it (collapsed, cut at ``max_length``) and the
    ``whenToUse`` hint cut the same way."""
    if isinstance(member, SkillFileEntry):
        analysis = member.analysis
        if (
            not analysis.accepted
            or not analysis.invocation.model_invocable
            or analysis.name is None
            or analysis.description is None
        ):
            return None
        name, description, hint = analysis.name, analysis.description, analysis.when_to_use
    else:
        candidate = member.candidate
        if not candidate.invocation.model_invocable:
            return None
        name, description, hint = candidate.name, candidate.description, candidate.when_to_use
    return OverlapSkill(
        member_key(member),
        name,
        catalog_description(description, max_length),
        catalog_description(hint, max_length) if hint else None,
    )


class DeckOverlap:
    """The overlap pairs of one deck's winners, kept current one skill at a time.

    ``scope`` is said in each finding after "overlapping tasks" (empty for the deck
    itself; `` for Codex`` for one agent's skills, see :meth:`around`).
    """

    scope: str = ""

    def __init__(self, winners: Iterable[DeckMember], settings: RuleSettings | None) -> None:
        for _ in self._fill(winners, settings):
            pass

    @classmethod
    def around(
        cls,
        members: Iterable[DeckMember],
        focus: AbstractSet[str],
        settings: RuleSettings | None,
        scope: str,
    ) -> DeckOverlap:
        """The pairs among ``members`` (weighted as one deck) that involve a member whose
        key is in ``focus``, and no others: only the focus skills are compared against the
        index (an agent's deck where only a few skills differ from skilldeck's)."""
        overlap = cls.__new__(cls)
        overlap.scope = scope
        for _ in overlap._fill(members, settings, focus=focus):
            pass
        return overlap

    @classmethod
    def stepwise(
        cls, winners: Iterable[DeckMember], settings: RuleSettings | None
    ) -> Generator[None, None, DeckOverlap]:
        """Build a few skills at a time, yielding in between (the language server builds
        on its event loop so keystrokes are served meanwhile); returns the result."""
        overlap = cls.__new__(cls)
        yield from overlap._fill(winners, settings)
        return overlap

    def _fill(
        self,
        winners: Iterable[DeckMember],
        settings: RuleSettings | None,
        *,
        focus: AbstractSet[str] | None = None,
    ) -> Generator[None, None, None]:
        from skilldeck.engine.skill_file import RuleSettings  # noqa: PLC0415

        self.settings = settings if settings is not None else RuleSettings()
        self._max_length = self.settings.catalog_max_description_length
        self._members: dict[str, DeckMember] = {}
        #: The text each competing skill was last indexed with.
        self._skills: dict[str, OverlapSkill] = {}
        self._distinct = DistinctMatcher(self.settings.overlap_distinct)
        #: Pairs above the threshold left out as declared distinct (by their two keys).
        self._declared: set[tuple[str, str]] = set()
        #: Both rules switched off: nothing to compare, nothing to pay for.
        self.enabled = any(
            self.settings.overrides.get(code, True) is not None for code in OVERLAP_CODES
        )
        clock = TimeSlice()
        for member in winners if self.enabled else ():
            skill = competing_skill(member, self._max_length)
            if skill is not None:
                self._members[skill.key] = member
                self._skills[skill.key] = skill
            if clock.over():
                yield
                clock.restart()
        self._index = yield from OverlapIndex.stepwise(
            self._skills.values(),
            threshold=self.settings.overlap_threshold,
            near_duplicate_threshold=self.settings.near_duplicate_threshold,
        )
        self._pairs: dict[str, dict[str, OverlapPair]] = {}
        if focus is None:
            pairs = yield from self._index.pairs_stepwise(ordered=False)
        else:
            pairs = [
                pair
                for key in focus
                if key in self._skills
                for pair in self._index.pairs_of(self._skills[key])
            ]
        clock.restart()
        for pair in pairs:
            self._record(pair)
            if clock.over():
                yield
                clock.restart()

    def pairs(self) -> list[OverlapPair]:
        """Every pair, best first."""
        unique = {
            (pair.a.key, pair.b.key): pair
            for pairs in self._pairs.values()
            for pair in pairs.values()
        }
        return sort_pairs(unique.values())

    def declared_distinct(self) -> int:
        """How many pairs above the threshold are left out as declared distinct."""
        return len(self._declared)

    def is_declared_distinct(self, name: str, other: str) -> bool:
        """Whether the settings declare skills named ``name`` and ``other`` distinct."""
        return self._distinct.declared(name, other)

    def findings_of(self, path: str) -> tuple[Finding, ...]:
        """SD801 / SD802 for the file ``path`` (rule settings applied), best pair first, for
        its :data:`MAX_FINDINGS_PER_SKILL` nearest competitors."""
        return tuple(finding for finding, _other in self.reported(path))

    def reported(self, path: str) -> list[tuple[Finding, OverlapSkill]]:
        """:meth:`findings_of` ``path``, each with the skill it points at."""
        member = self._members.get(path)
        if not isinstance(member, SkillFileEntry):
            return []
        found: list[tuple[Finding, OverlapSkill]] = []
        pairs = sorted(
            self._pairs.get(path, {}).values(), key=lambda p: (-p.score, p.other(path).name)
        )
        for pair in pairs[:MAX_FINDINGS_PER_SKILL]:
            partner = pair.other(path)
            finding = _finding(member, self._members[partner.key], pair, self.scope)
            severity = self.settings.severity_for(finding.code, finding.severity)
            if severity == finding.severity:
                found.append((finding, partner))
            elif severity is not None:
                found.append((replace(finding, severity=severity), partner))
        return found

    def path_of(self, key: str) -> str | None:
        """The file of the competing skill ``key`` (``None`` for a provided skill without
        one, or an unknown key)."""
        member = self._members.get(key)
        return member.path if member is not None else None

    def paths(self) -> list[str]:
        """The files that have a pair."""
        return [key for key, pairs in self._pairs.items() if pairs and self._is_file(key)]

    def nearest(self, member: DeckMember, limit: int = 3) -> list[Neighbour]:
        """The ``limit`` skills nearest ``member`` (as it is now), best first."""
        skill = competing_skill(member, self._max_length) if self.enabled else None
        if skill is None:
            return []
        return self._index.neighbours(skill, limit=limit)

    def update(self, key: str, member: DeckMember | None) -> set[str]:
        """Make ``member`` the competing skill ``key`` (``None``, or a member the model
        cannot choose: it competes no more). Only ``member`` is compared against the
        index. Returns the files whose findings changed (``key`` and its partners)."""
        if not self.enabled:
            return set()
        skill = competing_skill(member, self._max_length) if member is not None else None
        if skill is not None and member is not None and skill == self._skills.get(key):
            # Same text: the pairs stand, but the partners point at this skill's name.
            previous = self._members.get(key)
            moved = _name_span(previous) != _name_span(member) or (
                previous is not None and previous.path != member.path
            )
            self._members[key] = member
            return {p for p in self._pairs.get(key, {}) if self._is_file(p)} if moved else set()
        if skill is None and key not in self._skills:
            return set()
        before = self._pairs.pop(key, {})
        for other in before:
            self._pairs.get(other, {}).pop(key, None)
        if self._declared:
            self._declared = {keys for keys in self._declared if key not in keys}
        after: dict[str, OverlapPair] = {}
        if skill is None or member is None:
            self._members.pop(key, None)
            self._skills.pop(key, None)
            self._index.remove(key)
        else:
            self._members[key] = member
            self._skills[key] = skill
            for pair in self._index.pairs_of(skill):
                if self._record(pair):
                    after[pair.other(key).key] = pair
            self._index.replace(skill)
        changed = {
            other
            for other in before.keys() | after.keys()
            if _shown(before.get(other)) != _shown(after.get(other))
        }
        if changed or member is None:
            changed.add(key)
        return {path for path in changed if self._is_file(path) or path == key}

    def dismantle(self) -> Iterator[None]:
        """Let go of everything a time slice at a time, yielding in between (see
        :meth:`OverlapIndex.dismantle`): for an overlap the editor has replaced."""
        clock = TimeSlice()
        while self._pairs:
            self._pairs.popitem()
            if clock.over():
                yield
                clock.restart()
        yield from self._index.dismantle()
        self._members.clear()
        self._skills.clear()

    def _record(self, pair: OverlapPair) -> bool:
        """Keep ``pair``, unless it is declared distinct (and not near-identical);
        whether it was kept."""
        if (
            self._distinct
            and self._distinct.declared(pair.a.name, pair.b.name)
            and not pair.near_duplicate
        ):
            self._declared.add((pair.a.key, pair.b.key))
            return False
        self._pairs.setdefault(pair.a.key, {})[pair.b.key] = pair
        self._pairs.setdefault(pair.b.key, {})[pair.a.key] = pair
        return True

    def _is_file(self, key: str) -> bool:
        return isinstance(self._members.get(key), SkillFileEntry)


def _name_span(member: DeckMember | None) -> Span | None:
    return member.name_span if isinstance(member, SkillFileEntry) else None


def _shown(pair: OverlapPair | None) -> tuple[float, bool, tuple[str, ...]] | None:
    """What a finding shows of a pair (``None``: no pair)."""
    return None if pair is None else (pair.score, pair.near_duplicate, pair.shared)


def _finding(entry: SkillFileEntry, other: DeckMember, pair: OverlapPair, scope: str) -> Finding:
    from skilldeck.engine.rules import rule  # noqa: PLC0415

    code = "SD802" if pair.near_duplicate else "SD801"
    other_name = pair.other(entry.path).name
    related: tuple[RelatedLocation, ...] = ()
    note = f"`{other_name}`: the skill it overlaps (score {pair.score:.2f})"
    if isinstance(other, SkillFileEntry):
        related = (RelatedLocation(other.path, other.name_span, note),)
    elif other.path is not None:
        related = (RelatedLocation(other.path, FILE_START, note),)
    return rule(code).finding(
        entry.name_span,
        related=related,
        name=entry.analysis.name,
        other=other_name,
        score=pair.score,
        shared=", ".join(pair.shared) or "none",
        scope=scope,
    )
