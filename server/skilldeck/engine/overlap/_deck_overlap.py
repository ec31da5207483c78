"""The deck's routing overlap: SD801 / SD802 between the skills the model chooses from.

:class:`DeckOverlap` holds the :class:`~skilldeck.engine.overlap._families.OverlapFamilies`
of a deck's competing skills (each name's winner, when it is model-invocable: what the
catalog lists): its near-duplicate families and each skill's competitors. ``check`` builds
one per deck (:func:`skilldeck.engine.deck.deck_findings`); the language server keeps one
per folder and, on a keystroke, updates only the edited skill (:meth:`DeckOverlap.update`).
Both read their findings from :meth:`DeckOverlap.findings_of`, so they agree.

Each file of a family of near-duplicates gets one SD802 naming the others (seven copies:
seven findings, not 21), and SD801 for its nearest competitors outside its family.
Provided skills (bundled, runtime) compete too but receive no findings: a file that
overlaps one is told so, naming the provider. Pairs the author has declared distinct
(``[overlap] distinct``, :mod:`skilldeck.engine.config`) are left out of SD801
here, once; a family is reported whatever the declarations say (a description copied
word for word leaves the model nothing to tell the skills apart by).
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Iterator
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from skilldeck.engine.config import DistinctMatcher, RuleSettings
from skilldeck.engine.filesystem import SkillFileEntry
from skilldeck.engine.overlap._families import Family, OverlapFamilies
from skilldeck.engine.overlap._index import Neighbour, OverlapPair, OverlapSkill
from skilldeck.engine.overlap._time_slices import TimeSlice
from skilldeck.engine.rules import Finding, RelatedLocation, rule
from skilldeck.engine.text import FILE_START, Span, catalog_description

if TYPE_CHECKING:
    from skilldeck.engine.deck import DeckMember

OVERLAP_CODES = ("SD801", "SD802")
#: A file is told about its family and its nearest competitors: this many findings at
#: most (``skilldeck overlap`` lists more).
MAX_FINDINGS_PER_SKILL = 3
#: How many names an SD802 finding lists ("... and 12 more"), and how many related
#: locations it carries: a family of a thousand copies must not make a million.
FAMILY_NAMES_SHOWN = 6
FAMILY_LOCATIONS = 20
#: How many answers of :meth:`DeckOverlap.nearest` are kept between two updates.
NEAREST_MEMO = 8


def member_key(member: DeckMember) -> str:
    """The identity of a member in the overlap index: a file's path; a provided skill's
    provider and name (its path, when it has one, moves: a git source's checkout is
    another folder for every commit, and the skill must stay the same member)."""
    if isinstance(member, SkillFileEntry):
        return member.path
    return f"{member.provider}:{member.name}"


def listed_name(entry: SkillFileEntry) -> str:
    """The name ``entry`` competes under: the agent's, where an agent's view made it."""
    if entry.listed is not None:
        return entry.listed[0]
    return entry.analysis.name or ""


def competing_skill(member: DeckMember, max_length: int) -> OverlapSkill | None:
    """What the model sees of ``member`` when it can choose it (``None`` otherwise): the
    description as the catalog shapes it (collapsed, cut at ``max_length``) and the
    ``whenToUse`` hint cut the same way. A file as an agent lists it
    (:attr:`SkillFileEntry.listed`, made by the agent's view) competes under the name and
    with the entry text that agent shows, already shaped by its rules."""
    if isinstance(member, SkillFileEntry) and member.listed is not None:
        name, text = member.listed
        return OverlapSkill(member_key(member), name, text, None)
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
    """The near-duplicate families and competing pairs of one deck's winners, kept current
    one skill at a time.

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
        """The pairs and families among ``members`` (weighted as one deck) that involve a
        member whose key is in ``focus``, and no others: only the focus skills are compared
        against the index (an agent's deck where only a few skills differ from
        skilldeck's)."""
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

        self.settings = settings if settings is not None else RuleSettings()
        self._max_length = self.settings.catalog_max_description_length
        self._members: dict[str, DeckMember] = {}
        self._distinct = DistinctMatcher(self.settings.overlap_distinct)
        #: Both rules switched off: nothing to compare, nothing to pay for.
        self.enabled = any(
            self.settings.overrides.get(code, True) is not None for code in OVERLAP_CODES
        )
        skills: list[OverlapSkill] = []
        clock = TimeSlice()
        for member in winners if self.enabled else ():
            skill = competing_skill(member, self._max_length)
            if skill is not None:
                self._members[skill.key] = member
                skills.append(skill)
            if clock.over():
                yield
                clock.restart()
        #: ``path -> the inputs of its findings`` (:meth:`_told_inputs`) as of the last
        #: update that returned it.
        self._told: dict[str, tuple[object, ...]] = {}
        #: Files an update left to :meth:`settle` (``update(..., settle=False)``).
        self._unsettled: set[str] = set()
        #: Skills :meth:`relocate` moved whose next :meth:`update` must tell the others.
        self._relocated: set[str] = set()
        #: ``(skill as given, limit) -> its nearest skills`` (:meth:`nearest`).
        self._nearest: dict[tuple[OverlapSkill, int], list[Neighbour]] = {}
        #: ``id(family) -> (family, what its SD802 findings share)``.
        self._described: dict[int, tuple[Family, _Described]] = {}
        self._families = yield from OverlapFamilies.stepwise(
            skills,
            threshold=self.settings.overlap_threshold,
            near_duplicate_threshold=self.settings.near_duplicate_threshold,
            focus=focus,
        )

    def pairs(self) -> list[OverlapPair]:
        """The competing pairs (each skill's strongest, between families; see
        :meth:`OverlapFamilies.pairs`), best first, without those declared distinct."""
        return [pair for pair in self._families.pairs() if not self._declared(pair)]

    def families(self) -> list[Family]:
        """Every family of near-duplicates of two or more skills, largest first."""
        return self._families.families()

    def family_members(self, key: str) -> tuple[str, ...]:
        """The keys of ``key``'s family (``key`` alone when it has no near-duplicate)."""
        return self._families.family(key).members

    def declared_distinct(self) -> int:
        """How many pairs :meth:`pairs` leaves out as declared distinct."""
        return sum(1 for pair in self._families.pairs() if self._declared(pair))

    def is_declared_distinct(self, name: str, other: str) -> bool:
        """Whether the settings declare skills named ``name`` and ``other`` distinct."""
        return self._distinct.declared(name, other)

    def skill(self, key: str) -> OverlapSkill | None:
        """The competing skill ``key``."""
        return self._families.skill(key)

    def family_of(self, path: str) -> Family | None:
        """The family of near-duplicates the file ``path`` is told about (``None``: none)."""
        return self._families.reported_family(path) if self.enabled else None

    def findings_of(self, path: str) -> tuple[Finding, ...]:
        """SD802 (its family) and SD801 (its nearest competitors outside it) for the file
        ``path``, rule settings applied: :data:`MAX_FINDINGS_PER_SKILL` at most."""
        return tuple(finding for finding, _other in self.reported(path))

    def reported(self, path: str) -> list[tuple[Finding, OverlapSkill]]:
        """:meth:`findings_of` ``path``, each with the skill it points at (a family's
        first other member)."""
        member = self._members.get(path)
        if not isinstance(member, SkillFileEntry):
            return []
        found: list[tuple[Finding, OverlapSkill]] = []
        family = self._families.reported_family(path)
        if family is not None:
            finding, other = self._family_finding(member, family)
            found.append((finding, other))
        own = listed_name(member)
        for pair in self._families.competitors(path):
            if len(found) == MAX_FINDINGS_PER_SKILL:
                break
            partner = self._families.rival(path, pair)
            if self._distinct and self._distinct.declared(own, partner.name):
                continue
            finding = _finding(member, self._members[partner.key], pair, partner, self.scope)
            found.append((finding, partner))
        result: list[tuple[Finding, OverlapSkill]] = []
        for finding, other in found:
            severity = self.settings.severity_for(finding.code, finding.severity)
            if severity == finding.severity:
                result.append((finding, other))
            elif severity is not None:
                result.append((replace(finding, severity=severity), other))
        return result

    def path_of(self, key: str) -> str | None:
        """The file of the competing skill ``key`` (``None`` for a provided skill without
        one, or an unknown key)."""
        member = self._members.get(key)
        return member.path if member is not None else None

    def paths(self) -> list[str]:
        """The files that may have findings (in a family, or with a competitor)."""
        families = self._families
        return [
            key
            for key, member in self._members.items()
            if isinstance(member, SkillFileEntry)
            and (families.reported_family(key) is not None or families.competitors(key))
        ]

    def nearest(self, member: DeckMember, limit: int = 3) -> list[Neighbour]:
        """The ``limit`` skills nearest ``member`` (as it is now) outside its family,
        best first."""
        skill = competing_skill(member, self._max_length) if self.enabled else None
        if skill is None:
            return []
        # A hover asks again and again for the document under the pointer; the answer
        # stands until the index changes (:meth:`update`).
        found = self._nearest.get((skill, limit))
        if found is None:
            if len(self._nearest) >= NEAREST_MEMO:
                self._nearest.clear()
            found = self._nearest[(skill, limit)] = self._families.neighbours(skill, limit)
        return list(found)

    def update(self, key: str, member: DeckMember | None, *, settle: bool = True) -> set[str]:
        """Make ``member`` the competing skill ``key`` (``None``, or a member the model
        cannot choose: it competes no more). Only what changed is compared against the
        index. Returns the files whose findings may have changed (``key``, its family and
        its competitors).

        ``settle=False`` returns ``key`` alone (when its findings may have changed) and
        leaves the other files to :meth:`settle`: an editor publishes the typed buffer at
        once and the files an edit told something when the typist pauses, so finding
        which of them differ (~100 files of a family of copies and its rivals) is no part
        of a keystroke."""
        if not self.enabled:
            return set()
        self._nearest.clear()
        # The edited file is shown as it is now, whatever this returns (an editor
        # publishes the typed buffer at once): what it was told last is not what it shows.
        # Kept, a later settle could find its inputs back as they were then (a copy of
        # the family it competes with leaving, joining and leaving again) and leave it
        # showing those of this update. Forgotten, the next settle that meets it tells it.
        self._told.pop(key, None)
        skill = competing_skill(member, self._max_length) if member is not None else None
        if skill is not None and member is not None and skill == self._families.skill(key):
            # Same text: the findings stand, but the others point at this skill's name.
            previous = self._members.get(key)
            moved = (
                key in self._relocated
                or _name_span(previous) != _name_span(member)
                or (previous is not None and previous.path != member.path)
            )
            self._relocated.discard(key)
            self._members[key] = member
            if not moved:
                return set()
            self._described.clear()  # the related locations point at the old name
            # Every file whose findings may point at it: not only its family and the
            # families it lists, but those that list it (competition is not symmetric).
            told = {path for path in self._families.pointing_at(key) if self._is_file(path)}
            told.discard(key)
            for path in told:  # what they were told is not what they are told now
                self._told.pop(path, None)
            if not settle:
                self._unsettled |= told
                return set()
            return told | self.settle()
        self._relocated.discard(key)  # a changed text tells the others below
        if skill is None and self._families.skill(key) is None:
            return set()
        self._described.clear()
        if skill is None or member is None:
            changed = self._families.update(key, None)
            self._members.pop(key, None)
        else:
            self._members[key] = member
            changed = self._families.update(key, skill)
        paths = {p for p in changed if self._is_file(p) or p == key}
        own = {key} & paths
        self._unsettled |= paths
        self._unsettled -= own  # returned now
        return own | self.settle() if settle else own

    def relocate(self, key: str, member: DeckMember | None) -> None:
        """Point the findings of ``key`` at the places of ``member`` (its name may have
        moved), its family and competitors staying as they are until :meth:`update`: an
        editor updates the overlap when the typist pauses, and the buffer's diagnostics
        in between must not point at lines that moved. That update tells the files whose
        findings point at ``key`` that it moved. The file is shown as it is now: like
        :meth:`update`, this forgets what it was told last."""
        self._told.pop(key, None)
        previous = self._members.get(key)
        if isinstance(member, SkillFileEntry) and isinstance(previous, SkillFileEntry):
            if _name_span(previous) != _name_span(member) or previous.path != member.path:
                self._relocated.add(key)
            self._members[key] = member
            self._described.clear()  # the related locations point at the old places

    def settle(self) -> set[str]:
        """The files left by ``update(..., settle=False)`` whose findings may differ from
        those they were last told (see :meth:`_differing`); none are left after."""
        paths, self._unsettled = self._unsettled, set()
        return self._differing(paths)

    def _differing(self, paths: set[str]) -> set[str]:
        """The ``paths`` whose findings may differ from those of the last update that
        returned them: each file whose findings' inputs moved (:meth:`_told_inputs`). A
        family's copies and the families competing with it are returned by
        :meth:`OverlapFamilies.update` whenever the edited skill's text moves; most
        keystrokes change none of what they are told, and re-publishing a family of
        copies per keystroke grew with the deck. A file never compared before is
        returned."""
        told = self._told
        differing: set[str] = set()
        memo: dict[int, tuple[object, ...]] = {}
        for path in paths:
            now = self._told_inputs(path, memo)
            if told.get(path) != now:
                differing.add(path)
                if now is None:
                    told.pop(path, None)
                else:
                    told[path] = now
        return differing

    def _told_inputs(
        self, path: str, memo: dict[int, tuple[object, ...]]
    ) -> tuple[object, ...] | None:
        """Everything :meth:`reported` ``path`` reads but the file's own entry (which moves
        only with an update of ``path`` itself): its family with its members' names and
        locations, and its nearest competitors with their scores, shared words and
        locations. Equal inputs make equal findings. ``memo``: by family (its members are
        told the same), for this update."""
        member = self._members.get(path)
        if not isinstance(member, SkillFileEntry):
            return None
        families = self._families
        family = families.reported_family(path)
        shared = family is not None and not families.focused
        if shared:
            known = memo.get(id(family))
            if known is not None:
                return known
        family_part: tuple[object, ...] = ()
        if family is not None:
            family_part = (
                family.members,
                family.identical,
                tuple(
                    (skill.name, *_whereabouts(self._members.get(key)))
                    for key in family.members
                    if (skill := families.skill(key)) is not None
                ),
            )
        competitors = families.competitors(path)
        if not self._distinct:  # the first few are all it is told about
            competitors = competitors[:MAX_FINDINGS_PER_SKILL]
        rivals = []
        for pair in competitors:
            partner = families.rival(path, pair)
            rivals.append(
                (
                    partner.key,
                    partner.name,
                    pair.score,
                    pair.shared,
                    *_whereabouts(self._members.get(partner.key)),
                )
            )
        inputs = (family_part, tuple(rivals))
        if shared:
            memo[id(family)] = inputs
        return inputs

    def dismantle(self) -> Iterator[None]:
        """Let go of everything a time slice at a time, yielding in between (see
        :meth:`OverlapIndex.dismantle`): for an overlap the editor has replaced."""
        yield from self._families.dismantle()
        self._members.clear()
        self._told.clear()
        self._unsettled.clear()
        self._relocated.clear()
        self._nearest.clear()

    def _declared(self, pair: OverlapPair) -> bool:
        return bool(self._distinct) and self._distinct.declared(pair.a.name, pair.b.name)

    def _family_finding(
        self, entry: SkillFileEntry, family: Family
    ) -> tuple[Finding, OverlapSkill]:

        described = self._described.get(id(family))
        if described is None or described[0] is not family:
            described = (family, self._describe(family))
            self._described[id(family)] = described
        shared = described[1]
        related: list[RelatedLocation] = []
        for key, location in shared.locations:
            if key != entry.path:
                related.append(location)
                if len(related) == FAMILY_LOCATIONS:
                    break
        first = next((skill for skill in shared.members if skill.key != entry.path), None)
        finding = rule("SD802").finding(
            entry.name_span,
            related=tuple(related),
            count=shared.count,
            how=shared.how,
            names=shared.names,
            scope=self.scope,
        )
        return finding, first or shared.members[0]

    def _describe(self, family: Family) -> _Described:
        """A family's members by name, what its SD802 message says and where its findings
        point (the same on every member): computed once per family, not once per member."""
        members = [skill for key in family.members if (skill := self._families.skill(key))]
        members.sort(key=lambda s: (s.name, s.key))
        names = [f"`{skill.name}`" for skill in members]
        shown = ", ".join(names[:FAMILY_NAMES_SHOWN])
        if len(names) > FAMILY_NAMES_SHOWN:
            shown += f" and {len(names) - FAMILY_NAMES_SHOWN} more"
        how = "the same description" if family.identical else "nearly the same description"
        # One more than a finding carries: a member's own location is left out of its own.
        locations: list[tuple[str, RelatedLocation]] = []
        for skill in members:
            location = related_location(self._members[skill.key], f"`{skill.name}`: {how}")
            if location is not None:
                locations.append((skill.key, location))
                if len(locations) > FAMILY_LOCATIONS:
                    break
        return _Described(tuple(members), len(names), how, shown, tuple(locations))

    def _is_file(self, key: str) -> bool:
        return isinstance(self._members.get(key), SkillFileEntry)


@dataclass(frozen=True, slots=True)
class _Described:
    """What every SD802 finding of one family shares: its members by name, the message's
    fields, and the related locations of its first members (shared, not made per
    finding: a family of 17 copies pointed 17 x 16 new locations at one another)."""

    members: tuple[OverlapSkill, ...]
    count: int
    how: str
    names: str
    locations: tuple[tuple[str, RelatedLocation], ...]


def _name_span(member: DeckMember | None) -> Span | None:
    return member.name_span if isinstance(member, SkillFileEntry) else None


def _whereabouts(member: DeckMember | None) -> tuple[object, ...]:
    """Where a finding points at ``member`` (see :func:`related_location`)."""
    if member is None:
        return (None, None)
    return (member.path, _name_span(member))


def related_location(member: DeckMember, message: str) -> RelatedLocation | None:
    """Where a finding points at ``member``: a file's name, else a provided skill's file
    (``None``: a provided skill without one)."""
    if isinstance(member, SkillFileEntry):
        return RelatedLocation(member.path, member.name_span, message)
    if member.path is not None:
        return RelatedLocation(member.path, FILE_START, message)
    return None


def _finding(
    entry: SkillFileEntry, other: DeckMember, pair: OverlapPair, partner: OverlapSkill, scope: str
) -> Finding:

    location = related_location(
        other, f"`{partner.name}`: the skill it overlaps (score {pair.score:.2f})"
    )
    return rule("SD801").finding(
        entry.name_span,
        related=(location,) if location is not None else (),
        name=listed_name(entry),
        other=partner.name,
        score=pair.score,
        shared=", ".join(pair.shared) or "none",
        scope=scope,
    )
