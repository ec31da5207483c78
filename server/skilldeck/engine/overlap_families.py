"""Near-duplicate families and each skill's strongest competitors, in time linear in the deck.

A deck built from copies (seven skills with one description, a template filled in and
never changed) made the pair search quadratic: k copies are k(k-1)/2 pairs, each one
scored, stored and reported. :class:`OverlapFamilies` works on families instead:

1. **Copies** are grouped by their model-visible text (description and ``whenToUse``,
   case-folded, every word kept, punctuation dropped: :func:`text_key`), one hash bucket
   per text. Only the bucket's *representative* (its first member by name) is put in the
   :class:`~skilldeck.engine.overlap.OverlapIndex`: the pair search runs over the deck's
   distinct texts, and words are weighed over them (copies do not make their words
   common).
2. **Near-duplicates**: two representatives whose pair scores at least the threshold and
   whose descriptions are nearly word for word the same
   (:attr:`~skilldeck.engine.overlap.OverlapPair.near_duplicate`) join their buckets
   (union-find): a :class:`Family` is a connected group of buckets. Every member of a
   family of two or more gets one finding naming the others (SD802), never one per pair.
   Skills with the same text are one family whatever their names say (the description
   is copied word for word); skills whose texts differ join only through a pair that
   scores (names that say different things keep them apart, as for SD801).
3. **Competitors** (SD801) are the pairs of a skill's representative with the
   representatives of other families: a copy competes as its representative does, and a
   family is one competitor (its best-scoring pair stands for it).
   :meth:`competitors` lists them best first; :meth:`pairs` lists each skill's
   :data:`MAX_PAIRS_PER_SKILL` strongest, so the listing is bounded by the deck's size.

The editor changes one skill at a time (:meth:`update`): only a representative that
appears, goes or changes is compared against the index, and only the families it
touches are regrouped; the result is what a fresh build of the same skills gives (the
word weights aside: those of the last full build, as for the index).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Generator, Iterable, Iterator
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from skilldeck.engine.overlap import (
    DEFAULT_NEAR_DUPLICATE_THRESHOLD,
    DEFAULT_OVERLAP_THRESHOLD,
    Neighbour,
    OverlapIndex,
    OverlapPair,
    OverlapSkill,
    sort_pairs,
)
from skilldeck.engine.time_slices import TimeSlice

#: How many competitors of each skill ``skilldeck overlap`` lists (its strongest; a
#: file's findings name its three nearest): the listing grows with the deck, not with
#: the square of it.
MAX_PAIRS_PER_SKILL = 10

_WORD = re.compile(r"[^\W_]+")


def text_key(skill: OverlapSkill) -> str:
    """The text that makes two skills copies: the model-visible text's words, case-folded
    (what :func:`~skilldeck.engine.overlap.description_similarity` compares)."""
    return " ".join(_WORD.findall(skill.text.casefold()))


@dataclass(frozen=True, slots=True)
class Family:
    """Skills whose descriptions are nearly word for word the same: ``members`` (keys,
    sorted); ``identical`` when they all have one text."""

    members: tuple[str, ...]
    identical: bool = True


class OverlapFamilies:
    """The families and competing pairs of one deck's competing skills (see the module
    doc). ``focus`` (keys): only the pairs and families that involve those skills are
    looked for (an agent's deck where only a few skills differ from the deck's)."""

    def __init__(
        self,
        skills: Iterable[OverlapSkill],
        *,
        threshold: float = DEFAULT_OVERLAP_THRESHOLD,
        near_duplicate_threshold: float = DEFAULT_NEAR_DUPLICATE_THRESHOLD,
        focus: AbstractSet[str] | None = None,
    ) -> None:
        for _ in self._fill(skills, threshold, near_duplicate_threshold, focus):
            pass

    @classmethod
    def stepwise(
        cls,
        skills: Iterable[OverlapSkill],
        *,
        threshold: float = DEFAULT_OVERLAP_THRESHOLD,
        near_duplicate_threshold: float = DEFAULT_NEAR_DUPLICATE_THRESHOLD,
        focus: AbstractSet[str] | None = None,
    ) -> Generator[None, None, OverlapFamilies]:
        """Build a few skills at a time, yielding in between; returns the result."""
        families = cls.__new__(cls)
        yield from families._fill(skills, threshold, near_duplicate_threshold, focus)
        return families

    def _fill(
        self,
        skills: Iterable[OverlapSkill],
        threshold: float,
        near_duplicate_threshold: float,
        focus: AbstractSet[str] | None,
    ) -> Iterator[None]:
        self.threshold = threshold
        self._focus = frozenset(focus) if focus is not None else None
        self._skills: dict[str, OverlapSkill] = {}
        #: ``key -> text`` (:func:`text_key`) and ``text -> members``, representative first.
        self._text: dict[str, str] = {}
        self._buckets: dict[str, list[str]] = {}
        clock = TimeSlice()
        for skill in skills:
            text = text_key(skill)
            self._skills[skill.key] = skill
            self._text[skill.key] = text
            self._buckets.setdefault(text, []).append(skill.key)
            if clock.over():
                yield
                clock.restart()
        for members in self._buckets.values():
            members.sort(key=self._rank)
        representatives = [self._skills[members[0]] for members in self._buckets.values()]
        self._index = yield from OverlapIndex.stepwise(
            representatives,
            threshold=threshold,
            near_duplicate_threshold=near_duplicate_threshold,
        )
        #: Pairs between representatives scoring at least the threshold (both ways).
        self._pairs: dict[str, dict[str, OverlapPair]] = {}
        if self._focus is None:
            pairs = yield from self._index.pairs_stepwise(ordered=False)
        else:
            wanted = {self._buckets[self._text[key]][0] for key in self._focus if key in self._text}
            pairs = [p for rep in sorted(wanted) for p in self._index.pairs_of(self._skills[rep])]
        clock.restart()
        for pair in pairs:
            self._record(pair)
            if clock.over():
                yield
                clock.restart()
        #: ``text -> family`` for the buckets in a family of two or more skills.
        self._families: dict[str, Family] = {}
        self._regroup(self._buckets.keys())

    # -- queries --------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._skills)

    def skill(self, key: str) -> OverlapSkill | None:
        """The competing skill ``key`` as last given."""
        return self._skills.get(key)

    def representative(self, key: str) -> OverlapSkill:
        """The skill that stands for ``key``'s copies (``key`` itself when it has none)."""
        return self._skills[self._buckets[self._text[key]][0]]

    def family(self, key: str) -> Family:
        """The family of ``key`` (a family of one when it has no near-duplicate)."""
        text = self._text.get(key)
        family = self._families.get(text) if text is not None else None
        return family if family is not None else Family((key,))

    def families(self) -> list[Family]:
        """Every family of two or more skills, largest first."""
        unique = {family.members: family for family in self._families.values()}
        return sorted(unique.values(), key=lambda f: (-len(f.members), f.members))

    def competitors(self, key: str) -> list[OverlapPair]:
        """The pairs of ``key``'s representative with other families, best first, one per
        family (its best; a family's representative is named for it). With ``focus``,
        only pairs involving a focus skill."""
        text = self._text.get(key)
        if text is None:
            return []
        rep = self._buckets[text][0]
        own = self._family_texts(text)
        seen: set[str] = set()
        result: list[OverlapPair] = []
        for pair in _best_first(self._pairs.get(rep, {}).values(), rep):
            other = pair.other(rep).key
            other_text = self._text[other]
            if other_text in own:
                continue
            family = self._families.get(other_text)
            group = family.members[0] if family is not None else other
            if group in seen:
                continue
            seen.add(group)
            if (
                self._focus is not None
                and key not in self._focus
                and self._focus.isdisjoint(self._bucket_or_family(other_text))
            ):
                continue
            result.append(pair)
        return result

    def pairs(self) -> list[OverlapPair]:
        """Each skill's :data:`MAX_PAIRS_PER_SKILL` strongest competitors (between
        representatives; a pair either side keeps), best first."""
        kept: dict[tuple[str, str], OverlapPair] = {}
        for members in self._buckets.values():
            for pair in self.competitors(members[0])[:MAX_PAIRS_PER_SKILL]:
                kept[(pair.a.key, pair.b.key)] = pair
        return sort_pairs(kept.values())

    def neighbours(self, skill: OverlapSkill, limit: int) -> list[Neighbour]:
        """The ``limit`` skills nearest ``skill`` (as given, e.g. an edited buffer) outside
        its family, best first (see :meth:`OverlapIndex.neighbours`)."""
        own = self._family_texts(self._text[skill.key]) if skill.key in self._text else set()
        own.add(text_key(skill))
        found = [
            n
            for n in self._index.neighbours(skill)
            if self._text.get(n.skill.key) not in own and n.skill.key != skill.key
        ]
        return found[:limit]

    def reported_family(self, key: str) -> Family | None:
        """The family ``key`` is told about: its family when it has two or more members
        (with ``focus``, one of them a focus skill), else ``None``."""
        family = self.family(key)
        if len(family.members) < 2:
            return None
        if self._focus is not None and self._focus.isdisjoint(family.members):
            return None
        return family

    # -- updates --------------------------------------------------------------------

    def update(self, key: str, skill: OverlapSkill | None) -> set[str]:
        """Make ``skill`` the competing skill ``key`` (``None``: it competes no more).
        Returns the keys whose findings may have changed: the members of the families it
        left and joined, and of the families whose competitors changed."""
        if skill is not None and skill == self._skills.get(key):
            return set()
        old_text = self._text.get(key)
        new_text = text_key(skill) if skill is not None else None
        touched: set[str] = set()  # texts whose family may have changed
        partners: set[str] = set()  # representatives whose pairs changed
        if old_text is not None:
            touched |= self._family_texts(old_text)
            members = self._buckets[old_text]
            leaving_rep = members[0] == key
            if leaving_rep:
                partners |= self._drop_representative(key)
            members.remove(key)
            del self._skills[key], self._text[key]
            if not members:
                del self._buckets[old_text]
                self._families.pop(old_text, None)
            elif leaving_rep:
                partners |= self._add_representative(members[0])
        if skill is not None and new_text is not None:
            self._skills[key] = skill
            self._text[key] = new_text
            members = self._buckets.setdefault(new_text, [])
            bisect.insort(members, key, key=self._rank)
            if members[0] == key:
                if len(members) > 1:
                    partners |= self._drop_representative(members[1])
                partners |= self._add_representative(key)
            touched |= self._family_texts(new_text)
        for rep in partners:
            text = self._text.get(rep)
            if text is not None:
                touched |= self._family_texts(text)
        touched = {text for text in touched if text in self._buckets} | (
            {new_text} if new_text is not None else set()
        )
        before = {m for text in touched for m in self._bucket_or_family(text)}
        self._regroup(touched)
        after = {m for text in touched for m in self._bucket_or_family(text)}
        changed = before | after | {key}
        # Who competes with a family that changed is told about it differently (one pair
        # stands for each family), and so is who paired with a representative that changed.
        for text in touched:
            bucket = self._buckets.get(text)
            if bucket:
                partners.update(self._pairs.get(bucket[0], ()))
        for rep in partners:
            text = self._text.get(rep)
            if text is not None:
                changed.update(self._bucket_or_family(text))
        return changed

    def dismantle(self) -> Iterator[None]:
        """Empty everything a time slice at a time (see :meth:`OverlapIndex.dismantle`)."""
        clock = TimeSlice()
        for table in (self._pairs, self._families, self._buckets):
            while table:
                table.popitem()
                if clock.over():
                    yield
                    clock.restart()
        yield from self._index.dismantle()
        self._skills.clear()
        self._text.clear()

    # -- internals ------------------------------------------------------------------

    def _rank(self, key: str) -> tuple[bool, str, str]:
        """The order of a bucket's members: its representative first, the first by name
        (a focus skill before the others, so a finding names the skill an agent adds)."""
        return (self._focus is not None and key not in self._focus, self._skills[key].name, key)

    def _record(self, pair: OverlapPair) -> None:
        self._pairs.setdefault(pair.a.key, {})[pair.b.key] = pair
        self._pairs.setdefault(pair.b.key, {})[pair.a.key] = pair

    def _drop_representative(self, rep: str) -> set[str]:
        """Take ``rep`` out of the index and its pairs; returns its former partners."""
        self._index.remove(rep)
        gone = self._pairs.pop(rep, {})
        for other in gone:
            self._pairs.get(other, {}).pop(rep, None)
        return set(gone)

    def _add_representative(self, rep: str) -> set[str]:
        """Compare ``rep`` against the index, keep its pairs, index it; returns its
        partners."""
        skill = self._skills[rep]
        partners: set[str] = set()
        for pair in self._index.pairs_of(skill):
            self._record(pair)
            partners.add(pair.other(rep).key)
        self._index.replace(skill)
        return partners

    def _near(self, text: str) -> Iterator[str]:
        """The texts whose representatives are near-duplicates of ``text``'s."""
        members = self._buckets.get(text)
        if not members:
            return
        for other, pair in self._pairs.get(members[0], {}).items():
            if pair.near_duplicate:
                yield self._text[other]

    def _family_texts(self, text: str) -> set[str]:
        family = self._families.get(text)
        if family is None:
            return {text}
        # A family not yet regrouped may name a skill that has gone.
        return {self._text[m] for m in family.members if m in self._text} | {text}

    def _bucket_or_family(self, text: str) -> tuple[str, ...]:
        family = self._families.get(text)
        if family is not None:
            return family.members
        return tuple(self._buckets.get(text, ()))

    def _regroup(self, texts: Iterable[str]) -> None:
        """Recompute the families of ``texts``: each connected group of buckets (by
        near-duplicate pairs), found by a walk from each."""
        done: set[str] = set()
        for start in texts:
            if start in done or start not in self._buckets:
                continue
            group = {start}
            frontier = [start]
            while frontier:
                for other in self._near(frontier.pop()):
                    if other not in group:
                        group.add(other)
                        frontier.append(other)
            done |= group
            members = tuple(sorted(m for text in group for m in self._buckets[text]))
            if len(members) < 2:
                self._families.pop(start, None)
                continue
            family = Family(members, identical=len(group) == 1)
            for text in group:
                self._families[text] = family


def _best_first(pairs: Iterable[OverlapPair], key: str) -> list[OverlapPair]:
    return sorted(pairs, key=lambda p: (-p.score, p.other(key).name, p.other(key).key))
