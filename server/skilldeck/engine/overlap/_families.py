"""Near-duplicate families and each family's strongest competitors, in time linear in the deck.

A deck built from copies (seven skills with one description, a template filled in and
never changed) made the pair search quadratic: k copies are k(k-1)/2 pairs, each one
scored, stored and reported. :class:`OverlapFamilies` works on families instead:

1. **Copies** are grouped by their model-visible text (description and ``whenToUse``,
   case-folded, every word kept, punctuation dropped: :func:`text_key`), one hash bucket
   per text; the bucket's *representative* is its first member by name.
2. **Pairs** are scored only where one side is a representative: each representative is
   compared with every indexed skill outside its bucket (the
   :class:`~skilldeck.engine.overlap._index.OverlapIndex` holds every skill, so names count as
   they do for any pair), never two copies with each other and never two members that
   are both not representatives. Seven copies cost one search, not 21 pairs.
3. **Near-duplicates**: two buckets whose skills form a pair scoring at least the
   threshold with descriptions nearly word for word the same
   (:attr:`~skilldeck.engine.overlap._index.OverlapPair.near_duplicate`) are joined; a
   :class:`Family` is a connected group of buckets (found by a walk over those links).
   Every member of a family of two or more gets one finding naming the others (SD802),
   never one per pair. Skills with the same text are one family as far as each copy
   scores the threshold with the representative (names that say different things keep
   a copy out, as they kept such a pair from SD802 before: k - 1 scores, not k^2);
   skills whose texts differ join only through a pair that scores.
4. **Competitors** (SD801): a family competes as one skill. :meth:`competitors` lists
   the pairs of its members with other families, the best one per other family, best
   first; :meth:`pairs` lists each family's :data:`MAX_PAIRS_PER_SKILL` strongest, so
   the listing grows with the deck, not with its square.

The editor changes one skill at a time (:meth:`update`): the skill is compared against
the index (against the representatives only, unless it is one), a representative that
changes hands is compared again, and only the families it touches are regrouped; the
result is what a fresh build of the same skills gives (the word weights aside: those of
the last full build, as for the index).
"""

from __future__ import annotations

import bisect
import functools
import hashlib
import itertools
import re
from collections.abc import Generator, Iterable, Iterator
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field

from skilldeck.engine.config import DEFAULT_NEAR_DUPLICATE_THRESHOLD, DEFAULT_OVERLAP_THRESHOLD
from skilldeck.engine.overlap._index import (
    Neighbour,
    OverlapIndex,
    OverlapPair,
    OverlapSkill,
    sort_pairs,
)
from skilldeck.engine.overlap._time_slices import TimeSlice

#: How many competitors of each skill ``skilldeck overlap`` lists (its strongest; a
#: file's findings name its three nearest): the listing grows with the deck, not with
#: the square of it.
MAX_PAIRS_PER_SKILL = 10

_WORD = re.compile(r"[^\W_]+")


def text_key(skill: OverlapSkill) -> str:
    """What makes two skills copies: the model-visible text's words, case-folded (what
    :func:`~skilldeck.engine.overlap._index.description_similarity` compares), as a
    128-bit digest (a deck keeps 32 characters a skill for it, not a second copy of
    every description)."""
    words = " ".join(_WORD.findall(skill.text.casefold()))
    return hashlib.blake2b(words.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


@dataclass(frozen=True, slots=True)
class Family:
    """Skills whose descriptions are nearly word for word the same: ``members`` (keys,
    sorted); ``identical`` when they all have one text."""

    members: tuple[str, ...]
    identical: bool = True
    #: ``members`` as a set (what membership asks).
    keys: frozenset[str] = field(default=frozenset(), compare=False, repr=False)


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
        listed = list(skills)
        self._skills: dict[str, OverlapSkill] = {skill.key: skill for skill in listed}
        #: ``key -> text`` (:func:`text_key`) and ``text -> members``, representative first.
        self._text: dict[str, str] = {}
        self._buckets: dict[str, list[str]] = {}
        clock = TimeSlice()
        for skill in listed:
            text = text_key(skill)
            self._text[skill.key] = text
            self._buckets.setdefault(text, []).append(skill.key)
            if clock.over():
                yield
                clock.restart()
        for members in self._buckets.values():
            members.sort(key=self._rank)
        #: The representatives' keys.
        self._reps: set[str] = {members[0] for members in self._buckets.values()}
        self._index = yield from OverlapIndex.stepwise(
            listed, threshold=threshold, near_duplicate_threshold=near_duplicate_threshold
        )
        #: ``key -> other -> pair``: pairs scoring at least the threshold, one side a
        #: representative (both ways).
        self._pairs: dict[str, dict[str, OverlapPair]] = {}
        #: Whether two texts' descriptions are nearly the same (asked once per two texts).
        self._near_memo: dict[tuple[str, str], bool] = {}
        #: ``family's first text -> competitors`` (cleared by every update).
        self._competing: dict[str, list[OverlapPair]] = {}
        #: ``text -> its family's texts`` (:meth:`_family_text_set`); ``None`` while an
        #: update moves skills between buckets and families.
        self._texts_memo: dict[str, frozenset[str]] | None = None
        clock.restart()
        if self._focus is None:
            pairs = yield from self._index.representative_pairs(list(self._buckets.values()))
            for pair in pairs:
                self._record(pair)
                if clock.over():
                    yield
                    clock.restart()
        else:
            done: set[str] = set()  # representatives searched: their pairs are known
            for members in self._buckets.values():
                if not self._focus.isdisjoint(members):
                    for pair in self._index.pairs_of_indexed(members[0], skip=members, seen=done):
                        self._record(pair)
                    done.add(members[0])
        if self._focus is not None:
            # A focus skill that is no representative meets the representatives.
            for key in sorted(self._focus - self._reps):
                if key in self._text:
                    self._query_as_member(key)
        #: ``text -> family`` for the buckets in a family of two or more skills.
        self._families: dict[str, Family] = {}
        #: ``text -> its members in the family``: the representative and the copies that
        #: score at least the threshold with it (names can keep copies apart).
        self._linked_memo: dict[str, tuple[str, ...]] = {}
        self._regroup(list(self._buckets))
        self._texts_memo = {}

    # -- queries --------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._skills)

    @property
    def focused(self) -> bool:
        """Whether only the pairs and families of some skills are looked for (``focus``)."""
        return self._focus is not None

    def skill(self, key: str) -> OverlapSkill | None:
        """The competing skill ``key`` as last given."""
        return self._skills.get(key)

    def family(self, key: str) -> Family:
        """The family of ``key`` (a family of one when it has no near-duplicate)."""
        text = self._text.get(key)
        family = self._families.get(text) if text is not None else None
        return family if family is not None and key in family.keys else Family((key,))

    def families(self) -> list[Family]:
        """Every family of two or more skills, largest first."""
        unique = {family.members: family for family in self._families.values()}
        return sorted(unique.values(), key=lambda f: (-len(f.members), f.members))

    def reported_family(self, key: str) -> Family | None:
        """The family ``key`` is told about: its family when it has two or more members
        (with ``focus``, one of them a focus skill), else ``None``."""
        family = self.family(key)
        if len(family.members) < 2:
            return None
        if self._focus is not None and self._focus.isdisjoint(family.members):
            return None
        return family

    def competitors(self, key: str) -> list[OverlapPair]:
        """The pairs of ``key``'s family with other families, best first, one per other
        family (its best pair, which names one member of each: :meth:`rival`). With
        ``focus``, only pairs involving a focus skill."""
        text = self._text.get(key)
        if text is None:
            return []
        own = self._family_text_set(text)
        first = min(own)
        found = self._competing.get(first)
        if found is None:
            found = self._family_competitors(own)
            self._competing[first] = found
        if self._focus is None:
            return found
        return [pair for pair in found if self._focus_pair(key, pair)]

    def pointing_at(self, key: str) -> set[str]:
        """Every skill whose findings may name ``key`` or point at it: the skills of its
        family's texts, and those of every family one of them forms a pair with (a pair
        of any member may stand for the family in :meth:`competitors`, either way)."""
        text = self._text.get(key)
        if text is None:
            return set()
        own = self._bucket_or_family(text)
        found = set(own)
        for member in own:
            for other in self._pairs.get(member, ()):
                found.update(self._bucket_or_family(self._text[other]))
        return found

    def rival(self, key: str, pair: OverlapPair) -> OverlapSkill:
        """The skill ``pair`` (one of :meth:`competitors` ``key``) names for the other
        family."""
        own = self._family_text_set(self._text[key])
        return pair.b if self._text[pair.a.key] in own else pair.a

    def pairs(self) -> list[OverlapPair]:
        """Each family's :data:`MAX_PAIRS_PER_SKILL` strongest competitors (a pair either
        side keeps), best first."""
        kept: dict[tuple[str, str], OverlapPair] = {}
        done: set[str] = set()
        for text, members in self._buckets.items():
            first = min(self._family_text_set(text))
            if first in done:
                continue
            done.add(first)
            for pair in self.competitors(members[0])[:MAX_PAIRS_PER_SKILL]:
                kept[(pair.a.key, pair.b.key)] = pair
        return sort_pairs(kept.values())

    def neighbours(self, skill: OverlapSkill, limit: int) -> list[Neighbour]:
        """The ``limit`` skills nearest ``skill`` (as given, e.g. an edited buffer) outside
        its family, one per family, best first (see :meth:`OverlapIndex.neighbours`)."""
        own = self._family_texts(self._text[skill.key]) if skill.key in self._text else set()
        own.add(text_key(skill))
        seen: set[str] = set()
        found: list[Neighbour] = []
        for other, pair in self._index.nearest_first(skill):
            text = self._text.get(other.key)
            if text is None or text in own or other.key == skill.key:
                continue
            group = min(self._family_text_set(text))
            if group not in seen:
                seen.add(group)
                found.append(Neighbour(other, pair.score, pair.shared, pair.generalist))
                if len(found) == limit:
                    break
        return found

    # -- updates --------------------------------------------------------------------

    def update(self, key: str, skill: OverlapSkill | None) -> set[str]:
        """Make ``skill`` the competing skill ``key`` (``None``: it competes no more).
        Returns the keys whose findings may have changed: the members of the families it
        left and joined, and of the families that compete with those."""
        if skill is not None and skill == self._skills.get(key):
            return set()
        self._competing.clear()
        self._texts_memo = None
        old_text = self._text.get(key)
        touched: set[str] = set()  # texts whose family or competitors may have changed
        partners: set[str] = set()  # skills whose pairs changed
        if old_text is not None:
            touched |= self._family_text_set(old_text)
            members = self._buckets[old_text]
            partners |= self._drop_pairs(key)
            self._index.remove(key)
            members.remove(key)
            del self._skills[key], self._text[key]
            self._reps.discard(key)
            if not members:
                del self._buckets[old_text]
                self._families.pop(old_text, None)
            elif members[0] not in self._reps:
                partners |= self._promote(members[0])
        new_text = text_key(skill) if skill is not None else None
        if skill is not None and new_text is not None:
            self._skills[key] = skill
            self._text[key] = new_text
            self._index.replace(skill)
            members = self._buckets.setdefault(new_text, [])
            bisect.insort(members, key, key=self._rank)
            if members[0] == key:
                if len(members) > 1:
                    partners |= self._demote(members[1])
                partners |= self._promote(key)
            else:
                partners |= self._query_as_member(key)
            touched |= self._family_text_set(new_text) | {new_text}
        for other in partners:
            text = self._text.get(other)
            if text is not None:
                touched |= self._family_text_set(text)
        touched = {text for text in touched if text in self._buckets}
        before = {m for text in touched for m in self._bucket_or_family(text)}
        for text in (old_text, new_text):
            if text is not None:
                self._linked_memo.pop(text, None)
        self._regroup(touched)
        self._texts_memo = {}
        after = {m for text in touched for m in self._bucket_or_family(text)}
        changed = before | after | {key}
        # Who competes with a family that changed is told about it differently (one pair
        # stands for each family).
        rivals = {self._text[other] for other in partners if other in self._text}
        for text in touched:
            for member in self._buckets[text]:
                rivals.update(self._text[other] for other in self._pairs.get(member, ()))
        for text in rivals:
            changed.update(self._bucket_or_family(text))
        return changed

    def dismantle(self) -> Iterator[None]:
        """Empty everything a time slice at a time (see :meth:`OverlapIndex.dismantle`)."""
        clock = TimeSlice()
        self._competing.clear()
        self._texts_memo = None
        self._near_memo.clear()
        self._linked_memo.clear()
        for table in (self._pairs, self._families, self._buckets):
            while table:
                table.popitem()
                if clock.over():
                    yield
                    clock.restart()
        yield from self._index.dismantle()
        self._skills.clear()
        self._text.clear()
        self._reps.clear()

    # -- internals ------------------------------------------------------------------

    def _rank(self, key: str) -> tuple[bool, str, str]:
        """The order of a bucket's members: its representative first, the first by name
        (a focus skill before the others, so a finding names the skill an agent adds)."""
        return (self._focus is not None and key not in self._focus, self._skills[key].name, key)

    def _record(self, pair: OverlapPair) -> None:
        self._pairs.setdefault(pair.a.key, {})[pair.b.key] = pair
        self._pairs.setdefault(pair.b.key, {})[pair.a.key] = pair

    def _drop_pairs(self, key: str) -> set[str]:
        """Forget the pairs of ``key``; returns its former partners."""
        gone = self._pairs.pop(key, {})
        for other in gone:
            partner = self._pairs.get(other)
            if partner is not None:
                partner.pop(key, None)
                if not partner:
                    del self._pairs[other]
        return set(gone)

    def _promote(self, rep: str) -> set[str]:
        """Make ``rep`` its bucket's representative: compared with every skill outside
        its bucket. Returns the skills whose pairs changed."""
        self._reps.add(rep)
        changed = self._drop_pairs(rep)
        members = self._buckets[self._text[rep]]
        for pair in self._index.pairs_of_indexed(rep, skip=members):
            self._record(pair)
            changed.add(pair.other(rep).key)
        return changed

    def _demote(self, key: str) -> set[str]:
        """``key`` is its bucket's representative no more: compared with the
        representatives only. Returns the skills whose pairs changed."""
        self._reps.discard(key)
        return self._drop_pairs(key) | self._query_as_member(key)

    def _query_as_member(self, key: str) -> set[str]:
        """Pair ``key`` (no representative) with the representatives of other buckets."""
        members = self._buckets[self._text[key]]
        changed: set[str] = set()
        for pair in self._index.pairs_of_indexed(key, skip=members, only=self._reps):
            self._record(pair)
            changed.add(pair.other(key).key)
        return changed

    def _is_near(self, first: str, second: str, pair: OverlapPair) -> bool:
        memo = (first, second) if first < second else (second, first)
        near = self._near_memo.get(memo)
        if near is None:
            # Word-pair sets whose sizes differ by more than the threshold allows cannot
            # be that similar (Jaccard <= the smaller size over the larger): no need to
            # build them.
            small, large = sorted(
                (_pair_count(pair.a.description), _pair_count(pair.b.description))
            )
            near = (
                small >= large * self._index.near_duplicate_threshold - 1e-9 and pair.near_duplicate
            )
            self._near_memo[memo] = near
        return near

    def _linked(self, text: str) -> tuple[str, ...]:
        """The members of the bucket ``text`` that belong to its family: the
        representative, and each copy scoring at least the threshold with it (copies are
        one family unless their names tell them apart, as SD801 would)."""
        linked = self._linked_memo.get(text)
        if linked is None:
            members = self._buckets.get(text, [])
            if not members:
                return ()
            rep = members[0]
            score = self._index.score
            linked = (rep, *(m for m in members[1:] if score(m, rep) >= self.threshold))
            self._linked_memo[text] = linked
        return linked

    def _near(self, text: str) -> Iterator[str]:
        """The texts whose skills form a near-duplicate pair with ``text``'s."""
        for member in self._linked(text):
            for other, pair in self._pairs.get(member, {}).items():
                other_text = self._text[other]
                if self._is_near(text, other_text, pair):
                    yield other_text

    def _family_texts(self, text: str) -> set[str]:
        """The texts of ``text``'s family (``text`` alone when it has none); a fresh set."""
        return set(self._family_text_set(text))

    def _family_text_set(self, text: str) -> frozenset[str]:
        """:meth:`_family_texts`, shared: a family's are built once between two updates
        (a family of k copies is asked once per member and per pair of each member)."""
        memo = self._texts_memo
        if memo is not None:
            known = memo.get(text)
            if known is not None:
                return known
        family = self._families.get(text)
        if family is None:
            texts = frozenset((text,))
        else:
            # A family not yet regrouped may name a skill that has gone.
            texts = frozenset({self._text[m] for m in family.members if m in self._text} | {text})
        if memo is not None:
            memo[text] = texts
        return texts

    def _bucket_or_family(self, text: str) -> tuple[str, ...]:
        """Every skill of ``text``'s family's texts (copies outside the family too)."""
        return tuple(k for t in self._family_text_set(text) for k in self._buckets.get(t, ()))

    def _family_competitors(self, own: AbstractSet[str]) -> list[OverlapPair]:
        pairs = {
            (pair.a.key, pair.b.key): pair
            for text in own
            for member in self._buckets.get(text, ())
            for pair in self._pairs.get(member, {}).values()
        }
        seen: set[str] = set()
        result: list[OverlapPair] = []
        for pair in sort_pairs(pairs.values()):
            first, second = self._text[pair.a.key], self._text[pair.b.key]
            other_text = second if first in own else first
            if other_text in own:
                continue
            group = min(self._family_text_set(other_text))
            if group not in seen:
                seen.add(group)
                result.append(pair)
        return result

    def _focus_pair(self, key: str, pair: OverlapPair) -> bool:
        """With ``focus``: whether ``pair`` (one of ``key``'s family's) is reported to
        ``key``: when ``key`` or the other family has a focus skill."""
        focus = self._focus
        if focus is None or key in focus:
            return True
        return not focus.isdisjoint(self._bucket_or_family(self._text[self.rival(key, pair).key]))

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
            members = tuple(sorted(m for text in group for m in self._linked(text)))
            if len(members) < 2:
                self._families.pop(start, None)
                continue
            family = Family(members, identical=len(group) == 1, keys=frozenset(members))
            for text in group:
                self._families[text] = family


@functools.lru_cache(maxsize=32_768)
def _pair_count(description: str) -> int:
    """How many distinct word pairs ``description`` has (what
    :func:`~skilldeck.engine.overlap._index.description_similarity` compares), at least 1."""
    words = _WORD.findall(description.casefold())
    return max(len(set(itertools.pairwise(words))), 1)
