"""Routing overlap: skills whose model-visible text says nearly the same thing.

The model picks a skill from its name and description. :class:`OverlapIndex` holds every
competing skill of a deck (the model-invocable winners) as a TF-IDF vector over the
features of :mod:`skilldeck.engine.overlap._features`, weighted by the deck itself:

- a feature's weight is ``(1 + log tf) * idf`` with the smoothed inverse document
  frequency ``log((1 + n) / (1 + df)) + 1``, so words many skills share (template
  boilerplate: "This skill should be used when...") weigh little, and features more than
  :data:`MAX_SHARED_FRACTION` of a large deck carry are dropped outright;
- the score of a pair is the cosine of their vectors, times :data:`ENTITY_PENALTY` when
  both name languages, vendors or clouds and none in common (the model tells those apart),
  times :data:`ACTIVITY_PENALTY` when their names say different kinds of work (one
  reviews, the other writes or generates), times :data:`FAMILY_PENALTY` when their names
  divide one family's work (``c4-component`` / ``c4-container``: the names begin alike
  and each adds a part the other does not).

Pairs are found without comparing every pair (all-pairs similarity search with prefix
filtering): features are ordered rarest first, and each skill is indexed only under the
prefix of its features whose remaining weight could still reach the threshold, so a pair
scoring at least the threshold shares an indexed feature. Features carried by more than
:data:`MIN_COMMON_POSTINGS` skills (1% of a large deck) are never indexed: two skills
compete only when they share something distinctive (this is what keeps a 10,000-skill
deck written from a small vocabulary tractable; below 64 skills the search is exact).
One skill (the one being edited) is compared against the index the same way, so a
keystroke costs the postings of its rare features, not the deck.
"""

from __future__ import annotations

import functools
import itertools
import math
import re
from collections import Counter
from collections.abc import Container, Generator, Iterable, Iterator, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field

from skilldeck.engine.config import DEFAULT_NEAR_DUPLICATE_THRESHOLD, DEFAULT_OVERLAP_THRESHOLD
from skilldeck.engine.overlap._features import (
    SkillFeatures,
    TextFeatures,
    divide_a_family,
    name_different_things,
    skill_features,
    text_features,
)
from skilldeck.engine.overlap._time_slices import TimeSlice

#: Score multiplier when both skills name different languages, vendors or clouds.
ENTITY_PENALTY = 0.3
#: Score multiplier when the names say different kinds of work (review / write).
ACTIVITY_PENALTY = 0.5
#: Score multiplier when the names divide one family's work (``c4-code`` / ``c4-context``).
FAMILY_PENALTY = 0.3
#: The least score of a generalist and a skill whose name says its task for a named thing
#: (``code-reviewer`` / ``swift-reviewer``, ``tdd-guide`` / ``django-tdd``): the
#: generalist catches the specialist's requests however differently their descriptions
#: read (:func:`skilldeck.engine.overlap._features.skill_features`).
GENERALIST_SCORE = 0.3
#: In a deck of at least :data:`MIN_DECK_FOR_SHARED_CUT` skills, features carried by more
#: than this fraction of them are boilerplate and dropped.
MAX_SHARED_FRACTION = 0.2
MIN_DECK_FOR_SHARED_CUT = 50
#: A feature more than this many skills carry (or this fraction of a large deck) finds
#: no candidates: a pair must share something distinctive. Scores stay exact.
MIN_COMMON_POSTINGS = 64
COMMON_FRACTION = 0.01
#: How many shared words a pair reports.
SHARED_WORDS = 6

_DESCRIPTION_WORD = re.compile(r"[^\W_]+")
#: How many descriptions' bigram sets :func:`description_similarity` keeps.
_BIGRAM_SETS_KEPT = 64


@dataclass(frozen=True)
class OverlapSkill:
    """A skill as overlap detection sees it: an identity, its name and model-visible text.

    ``key`` identifies the skill in the deck (its file path, else its provider and name);
    ``description`` is what the catalog shows; ``when_to_use`` the host's extra hint.
    """

    key: str
    name: str
    description: str
    when_to_use: str | None = None

    @property
    def text(self) -> str:
        """The text the model reads besides the name."""
        if self.when_to_use:
            return f"{self.description}\n{self.when_to_use}"
        return self.description


@dataclass(frozen=True, slots=True)
class OverlapPair:
    """Two skills that compete for the same requests: ``a`` sorts before ``b`` by key.

    ``score`` is in [0, 1]; ``shared`` the words that weigh most in it, heaviest first;
    ``near_duplicate`` whether their descriptions are nearly word for word the same.
    """

    a: OverlapSkill
    b: OverlapSkill
    score: float
    #: The two skills' index entries (two fields, not a tuple: a big deck has many pairs).
    _first: _Doc = field(repr=False, compare=False)
    _second: _Doc = field(repr=False, compare=False)
    _near_duplicate_threshold: float = field(repr=False, compare=False)
    #: :attr:`shared` and :attr:`near_duplicate`, once asked (both files of a pair ask).
    _shared: tuple[str, ...] | None = field(default=None, repr=False, compare=False)
    _near_duplicate: bool | None = field(default=None, repr=False, compare=False)

    def other(self, key: str) -> OverlapSkill:
        """The member of the pair that is not ``key``."""
        return self.b if self.a.key == key else self.a

    @property
    def shared(self) -> tuple[str, ...]:
        """The words that weigh most in the score, heaviest first (computed when first
        asked: a big deck has many pairs and shows few)."""
        if self._shared is None:
            first, second = self._first, self._second
            va, vb = first.vector, second.vector
            contributions = {f: va[f] * vb[f] for f in va.keys() & vb.keys()}
            words = _shared_words(contributions, first.features, second.features)
            object.__setattr__(self, "_shared", words)  # a cache of a frozen value
            return words
        return self._shared

    @property
    def generalist(self) -> OverlapSkill | None:
        """The member whose name says only the task the other's name says for a named
        thing (``code-reviewer`` against ``swift-reviewer``), if the pair is such a one:
        it scores at least :data:`GENERALIST_SCORE`, whatever the descriptions say."""
        return _generalist_of(self._first, self._second)

    @property
    def near_duplicate(self) -> bool:
        """Whether the two descriptions are nearly word for word the same (computed when
        first asked: caching every description's bigrams cost more memory than the index)."""
        if self._near_duplicate is None:
            first, second = self._first, self._second
            similarity = description_similarity(first.skill.description, second.skill.description)
            near = similarity >= self._near_duplicate_threshold
            object.__setattr__(self, "_near_duplicate", near)  # a cache of a frozen value
            return near
        return self._near_duplicate


@dataclass(frozen=True)
class Neighbour:
    """A skill near another one, with the pair's score and shared words, and the pair's
    generalist (:attr:`OverlapPair.generalist`) if it is one."""

    skill: OverlapSkill
    score: float
    shared: tuple[str, ...]
    generalist: OverlapSkill | None = None


@dataclass(slots=True)
class _Doc:
    skill: OverlapSkill
    features: SkillFeatures
    vector: dict[str, float]
    #: The features the skill is found by (rare ones; see :meth:`OverlapIndex._doc`).
    indexed: tuple[str, ...]
    #: The norm of the vector's other features: what they can add to a score at most.
    rest_norm: float


class OverlapIndex:
    """The similarity index of one deck's competing skills (see the module doc).

    ``threshold`` is the lowest score any caller asks for: pairs below it are not found.
    Mutable (:meth:`replace`, :meth:`remove`) so an editor can keep it current; document
    frequencies stay those of the last full build.
    """

    def __init__(
        self,
        skills: Iterable[OverlapSkill],
        *,
        threshold: float = DEFAULT_OVERLAP_THRESHOLD,
        near_duplicate_threshold: float = DEFAULT_NEAR_DUPLICATE_THRESHOLD,
    ) -> None:
        self.threshold = threshold
        self.near_duplicate_threshold = near_duplicate_threshold
        self._size = 0
        self._df: dict[str, int] = {}
        #: ``feature -> idf`` of every feature the deck carries (see :meth:`_doc`).
        self._idfs: dict[str, float] = {}
        self._common = MIN_COMMON_POSTINGS
        self._common_features: frozenset[str] = frozenset()
        self._dropped: frozenset[str] = frozenset()
        self._docs: dict[str, _Doc] = {}
        self._postings: dict[str, dict[str, float]] = {}
        #: ``task -> keys`` of the generalists of a task, and of the skills whose names
        #: say it for a named thing (see :data:`GENERALIST_SCORE`).
        self._generalists: dict[str, set[str]] = {}
        self._specialists: dict[str, set[str]] = {}
        for _ in self._fill(list(skills)):
            pass

    @classmethod
    def stepwise(
        cls,
        skills: Iterable[OverlapSkill],
        *,
        threshold: float = DEFAULT_OVERLAP_THRESHOLD,
        near_duplicate_threshold: float = DEFAULT_NEAR_DUPLICATE_THRESHOLD,
    ) -> Generator[None, None, OverlapIndex]:
        """Build the index a few skills at a time: the generator yields between steps
        (an event loop serves requests meanwhile) and returns the index."""
        index = cls((), threshold=threshold, near_duplicate_threshold=near_duplicate_threshold)
        yield from index._fill(list(skills))
        return index

    def _fill(self, skills: list[OverlapSkill]) -> Iterator[None]:
        clock = TimeSlice()
        featured: list[tuple[OverlapSkill, SkillFeatures]] = []
        #: Copies of one text read it once.
        read: dict[str, TextFeatures] = {}
        for skill in skills:
            text = skill.text
            known = read.get(text)
            if known is None:
                known = read[text] = text_features(text)
            featured.append((skill, skill_features(skill.name, text, known)))
            if clock.over():
                yield
                clock.restart()
        self._size = len(featured)
        df: Counter[str] = Counter()
        for _skill, features in featured:
            df.update(features.counts.keys())
            if clock.over():
                yield
                clock.restart()
        cut = (
            self._size * MAX_SHARED_FRACTION
            if self._size >= MIN_DECK_FOR_SHARED_CUT
            else float("inf")
        )
        self._df = {feature: count for feature, count in df.items() if count <= cut}
        size = self._size
        self._idfs = {f: math.log((1 + size) / (1 + count)) + 1.0 for f, count in self._df.items()}
        #: Features carried by more skills than this find no candidates.
        self._common = max(MIN_COMMON_POSTINGS, int(self._size * COMMON_FRACTION))
        self._common_features = frozenset(
            feature for feature, count in self._df.items() if count > self._common
        )
        self._dropped = frozenset(feature for feature, count in df.items() if count > cut)
        # Each skill's counts are dropped once its vector is made (peak memory: at 10,000
        # skills the counts of every skill weigh ~9 MB beside the vectors).
        del read, df
        featured.reverse()
        yield
        clock.restart()
        while featured:
            skill, features = featured.pop()
            self._add(skill, features)
            del features
            if clock.over():
                yield
                clock.restart()

    def __len__(self) -> int:
        return len(self._docs)

    def skills(self) -> list[OverlapSkill]:
        """Every indexed skill, in insertion order."""
        return [doc.skill for doc in self._docs.values()]

    # -- queries --------------------------------------------------------------------

    def pairs(self, threshold: float | None = None) -> list[OverlapPair]:
        """Every pair scoring at least ``threshold`` (default: the index's), best first."""
        steps = self.pairs_stepwise(threshold)
        while True:
            try:
                next(steps)
            except StopIteration as done:
                result: list[OverlapPair] = done.value
                return result

    def pairs_stepwise(
        self, threshold: float | None = None, *, ordered: bool = True
    ) -> Generator[None, None, list[OverlapPair]]:
        """:meth:`pairs`, yielding every few skills (see :meth:`stepwise`); unsorted
        unless ``ordered``."""
        limit = self.threshold if threshold is None else max(threshold, self.threshold)
        found: list[OverlapPair] = []
        postings: dict[str, dict[str, float]] = {}
        done: set[str] = set()
        clock = TimeSlice()
        for key, doc in self._docs.items():
            found.extend(self._pairs_with(doc, postings, limit, among=done))
            done.add(key)
            for feature in doc.indexed:
                postings.setdefault(feature, {})[key] = doc.vector[feature]
            if clock.over():
                yield
                clock.restart()
        return sort_pairs(found) if ordered else found

    def representative_pairs(
        self, groups: Sequence[Sequence[str]]
    ) -> Generator[None, None, list[OverlapPair]]:
        """The pairs in which one side is the first key of its group (``groups``
        partition the indexed keys): each first key against every indexed skill outside
        its group, a pair of two first keys once; yielding every few groups (see
        :meth:`stepwise`). Two postings, so the cost is the index's own whole-deck pass
        when every group has one key: the first keys searched so far (grown as they
        are searched) and the other keys (built once)."""
        limit = self.threshold
        firsts = {group[0] for group in groups}
        others: dict[str, dict[str, float]] = {}
        rest: set[str] = set()
        for key, doc in self._docs.items():
            if key not in firsts:
                rest.add(key)
                for feature in doc.indexed:
                    others.setdefault(feature, {})[key] = doc.vector[feature]
        postings: dict[str, dict[str, float]] = {}
        done: set[str] = set()
        found: list[OverlapPair] = []
        clock = TimeSlice()
        for group in groups:
            key = group[0]
            doc = self._docs[key]
            found.extend(self._pairs_with(doc, postings, limit, among=done))
            if rest:
                found.extend(self._pairs_with(doc, others, limit, among=rest, skip=group))
            done.add(key)
            for feature in doc.indexed:
                postings.setdefault(feature, {})[key] = doc.vector[feature]
            if clock.over():
                yield
                clock.restart()
        return found

    def neighbours(
        self, skill: OverlapSkill, *, threshold: float | None = None, limit: int | None = None
    ) -> list[Neighbour]:
        """The indexed skills (other than ``skill.key``) sharing a distinguishing feature
        with ``skill``, best first; only those scoring at least ``threshold`` when given.

        Every skill scoring at least the index's threshold is among them; below it the
        list holds the skills that share a rare word (what a hover shows).
        """
        found = (
            Neighbour(other, pair.score, pair.shared, pair.generalist)
            for other, pair in self.nearest_first(skill, threshold=threshold)
        )
        return list(found if limit is None else itertools.islice(found, limit))

    def nearest_first(
        self, skill: OverlapSkill, *, threshold: float | None = None
    ) -> Iterator[tuple[OverlapSkill, OverlapPair]]:
        """What :meth:`neighbours` is made of, in its order: each skill and its pair with
        ``skill``, one at a time (a caller that wants the nearest few, one per family,
        stops long before the hundreds of skills sharing a word with a description, and
        finds the shared words of those it keeps only)."""
        doc = self._doc(skill, skill_features(skill.name, skill.text))
        pairs = self._pairs_with(doc, self._postings, threshold or 0.0, exclude=skill.key)
        ranked = [
            (-p.score, (other := p.other(skill.key)).name, other.key, other, p) for p in pairs
        ]
        ranked.sort(key=lambda row: row[:3])
        for *_, other, pair in ranked:
            yield other, pair

    def pairs_of(self, skill: OverlapSkill) -> list[OverlapPair]:
        """The pairs ``skill`` (as given, e.g. an edited buffer) forms with the index."""
        doc = self._doc(skill, skill_features(skill.name, skill.text))
        return sort_pairs(self._pairs_with(doc, self._postings, self.threshold, exclude=skill.key))

    def pairs_of_indexed(
        self,
        key: str,
        *,
        skip: Container[str] = (),
        seen: Container[str] = (),
        only: Container[str] | None = None,
    ) -> list[OverlapPair]:
        """The pairs the indexed skill ``key`` forms with the other indexed skills, but
        those in ``skip`` or ``seen`` (two sets, so neither is copied) and (when given)
        those not in ``only``; unsorted."""
        return self._pairs_with(
            self._docs[key], self._postings, self.threshold, skip=skip, seen=seen, only=only
        )

    def _pairs_with(
        self,
        doc: _Doc,
        postings: dict[str, dict[str, float]],
        threshold: float,
        *,
        exclude: str | None = None,
        among: Container[str] | None = None,
        skip: Container[str] = (),
        seen: Container[str] = (),
        only: Container[str] | None = None,
    ) -> list[OverlapPair]:
        """The pairs ``doc`` forms with the skills in ``postings`` (feature -> skill ->
        weight, indexed prefixes only) scoring at least ``threshold``; generalist pairs
        (:data:`GENERALIST_SCORE`) with the skills ``among`` (default: all). Skills in
        ``skip`` or ``seen``, and (when given) skills not in ``only``, are left out.

        The dot product over the indexed features is accumulated from the postings;
        a candidate whose partial score plus the norm of its unindexed features cannot
        reach ``threshold`` is dropped without computing the full score.
        """
        partial: dict[str, float] = {}
        accumulated = partial.get
        for feature, weight in doc.vector.items():
            posting = postings.get(feature)
            if posting:
                for other, other_weight in posting.items():
                    partial[other] = accumulated(other, 0.0) + weight * other_weight
        own = doc.skill.key if exclude is None else exclude
        partial.pop(own, None)
        if skip or seen or only is not None:
            partial = {
                other: value
                for other, value in partial.items()
                if other not in skip and other not in seen and (only is None or other in only)
            }
        found: list[OverlapPair] = []
        docs = self._docs
        vector = doc.vector
        keys = vector.keys()
        features = doc.features
        if threshold <= GENERALIST_SCORE and (features.generalist or features.specialised):
            competing = self._competing(features, self._docs if among is None else among)
            competing.discard(own)
            if skip or seen or only is not None:
                competing = {
                    other
                    for other in competing
                    if other not in skip and other not in seen and (only is None or other in only)
                }
            for other in competing:
                partial.pop(other, None)
                candidate = docs[other]
                score = 0.0
                for feature in keys & candidate.vector.keys():
                    score += vector[feature] * candidate.vector[feature]
                score = max(penalised(score, features, candidate.features), GENERALIST_SCORE)
                found.append(self._make_pair(doc, candidate, score))
        for other, partial_score in partial.items():
            candidate = docs[other]
            if partial_score + candidate.rest_norm < threshold:
                continue
            theirs = candidate.vector
            # The cosine (a loop: the hot spot of a whole-deck pass, and cheaper than sum()
            # of a list, with the same additions in the same order).
            score = 0.0
            for feature in keys & theirs.keys():
                score += vector[feature] * theirs[feature]
            if score < threshold or score <= 0.0:
                continue
            score = penalised(score, doc.features, candidate.features)
            if score < threshold:
                continue
            found.append(self._make_pair(doc, candidate, score))
        return found

    def score(self, first: str, second: str) -> float:
        """The score of the indexed skills ``first`` and ``second`` (unrounded), as a pair
        search would find it."""
        a, b = self._docs[first], self._docs[second]
        va, vb = a.vector, b.vector
        cosine = 0.0
        for feature in va.keys() & vb.keys():
            cosine += va[feature] * vb[feature]
        score = penalised(cosine, a.features, b.features) if cosine > 0.0 else 0.0
        if self.threshold <= GENERALIST_SCORE and _generalist_of(a, b) is not None:
            score = max(score, GENERALIST_SCORE)
        return score

    # -- updates --------------------------------------------------------------------

    def replace(self, skill: OverlapSkill) -> None:
        """Index ``skill`` in place of any skill with its key."""
        self.remove(skill.key)
        self._add(skill, skill_features(skill.name, skill.text))

    def remove(self, key: str) -> None:
        """Forget the skill ``key`` (nothing when it is not indexed)."""
        doc = self._docs.pop(key, None)
        if doc is None:
            return
        for task, holders in self._task_holders(doc.features):
            keys = holders.get(task)
            if keys is not None:
                keys.discard(key)
                if not keys:
                    del holders[task]
        for feature in doc.indexed:
            posting = self._postings.get(feature)
            if posting is not None:
                posting.pop(key, None)
                if not posting:
                    del self._postings[feature]

    def dismantle(self) -> Iterator[None]:
        """Empty the index a time slice at a time (yielding in between): dropping a
        10,000-skill index at once frees a million objects in one go, ~40 ms the event
        loop of a language server would wait."""
        clock = TimeSlice()
        self._generalists.clear()
        self._specialists.clear()
        for table in (self._postings, self._docs):
            while table:
                table.popitem()
                if clock.over():
                    yield
                    clock.restart()

    # -- internals ------------------------------------------------------------------

    def _doc(self, skill: OverlapSkill, features: SkillFeatures) -> _Doc:
        # The smoothed idf, log((1 + n) / (1 + df)) + 1; a feature the deck never carried
        # (an edit's new word) has df 0. The term frequency is sublinear, 1 + log(count)
        # (a weighted count below one counts as itself).
        idfs = self._idfs
        unseen = math.log(1 + self._size) + 1.0
        dropped = self._dropped
        log = math.log
        weights = {
            feature: (1.0 + log(count) if count >= 1.0 else count) * idfs.get(feature, unseen)
            for feature, count in features.counts.items()
            if feature not in dropped
        }
        norm = math.sqrt(sum([w * w for w in weights.values()]))
        vector = {f: w / norm for f, w in weights.items()} if norm else {}
        # Prefix filtering: rarest features first; stop once the rest cannot reach the
        # threshold on their own. Features more than ``self._common`` skills carry find
        # no candidates (a pair must share something distinctive), and sort after every
        # other: only the rest are ordered.
        df = self._df
        common = self._common_features
        ordered = sorted([f for f in vector if f not in common], key=lambda f: (df.get(f, 0), f))
        remaining = sum([w * w for w in vector.values()])
        indexed: list[str] = []
        for feature in ordered:
            if math.sqrt(max(remaining, 0.0)) < self.threshold:
                break
            indexed.append(feature)
            remaining -= vector[feature] ** 2
        rest = math.sqrt(max(remaining, 0.0))
        # The counts are in the vector now: keep only what messages need.
        kept = SkillFeatures(
            {},
            features.surface,
            features.entities,
            features.activities,
            features.name_stems,
            features.generalist,
            features.specialised,
        )
        return _Doc(skill, kept, vector, tuple(indexed), rest)

    def _add(self, skill: OverlapSkill, features: SkillFeatures) -> None:
        doc = self._doc(skill, features)
        self._docs[skill.key] = doc
        for feature in doc.indexed:
            self._postings.setdefault(feature, {})[skill.key] = doc.vector[feature]
        for task, holders in self._task_holders(features):
            holders.setdefault(task, set()).add(skill.key)

    def _task_holders(self, features: SkillFeatures) -> Iterator[tuple[str, dict[str, set[str]]]]:
        """The tasks ``features``' name says, each with the table that lists it."""
        if features.generalist is not None:
            yield features.generalist, self._generalists
        for task in features.specialised:
            yield task, self._specialists

    def _competing(self, features: SkillFeatures, among: Container[str]) -> set[str]:
        """The keys (``among`` those given) of the skills that compete with one whose
        features are ``features`` because one is a generalist of a task the other's name
        says for a named thing: the task's specialists for a generalist, its generalists
        for a specialist."""
        found: set[str] = set()
        if features.generalist is not None:
            found.update(self._specialists.get(features.generalist, ()))
        for task in features.specialised:
            found.update(self._generalists.get(task, ()))
        return {key for key in found if key in among}

    def _make_pair(self, a: _Doc, b: _Doc, score: float) -> OverlapPair:
        first, second = (a, b) if a.skill.key <= b.skill.key else (b, a)
        return OverlapPair(
            first.skill,
            second.skill,
            min(round(score, 3), 1.0),
            first,
            second,
            self.near_duplicate_threshold,
        )


def penalised(cosine: float, a: SkillFeatures, b: SkillFeatures) -> float:
    """The score of two skills whose vectors' cosine is ``cosine``: lower when they name
    different things (:data:`ENTITY_PENALTY`), their names say different kinds of work
    (:data:`ACTIVITY_PENALTY`) or divide one family's work (:data:`FAMILY_PENALTY`)."""
    score = cosine
    if name_different_things(a.entities, b.entities):
        score *= ENTITY_PENALTY
    if a.activities != b.activities:
        score *= ACTIVITY_PENALTY
    if divide_a_family(a.name_stems, b.name_stems):
        score *= FAMILY_PENALTY
    return score


def _generalist_of(first: _Doc, second: _Doc) -> OverlapSkill | None:
    for general, special in ((first, second), (second, first)):
        task = general.features.generalist
        if task is not None and task in special.features.specialised:
            return general.skill
    return None


def _shared_words(
    contributions: dict[str, float], a: SkillFeatures, b: SkillFeatures
) -> tuple[str, ...]:
    words: list[str] = []
    for feature, _weight in sorted(contributions.items(), key=lambda item: (-item[1], item[0])):
        shown = a.surface.get(feature) or b.surface.get(feature)
        if shown is None:  # a bigram, or an acronym neither skill writes out
            continue
        if shown not in words:
            words.append(shown)
        if len(words) == SHARED_WORDS:
            break
    return tuple(words)


def description_similarity(a: str, b: str) -> float:
    """How nearly word for word two descriptions are the same: the Jaccard similarity of
    their word-bigram sets (case-folded, every word kept), in [0, 1]."""
    return _jaccard(_bigrams(a), _bigrams(b))


def _jaccard(grams_a: AbstractSet[object], grams_b: AbstractSet[object]) -> float:
    if not grams_a or not grams_b:
        return 1.0 if grams_a == grams_b else 0.0
    shared = len(grams_a & grams_b)
    return shared / (len(grams_a) + len(grams_b) - shared)  # the size of the union


@functools.lru_cache(maxsize=_BIGRAM_SETS_KEPT)
def _bigrams(text: str) -> frozenset[tuple[str, str]]:
    """The word bigrams of ``text``; the last few are kept (a file's findings ask for its
    own description's once per pair shown; all of them would cost more memory than the
    index)."""
    words = _DESCRIPTION_WORD.findall(text.casefold())
    if len(words) == 1:
        return frozenset({(words[0], "")})
    return frozenset(itertools.pairwise(words))


def sort_pairs(pairs: Iterable[OverlapPair]) -> list[OverlapPair]:
    """Pairs by score (highest first), then by the names and keys (a stable order)."""
    return sorted(pairs, key=lambda p: (-p.score, p.a.name, p.b.name, p.a.key, p.b.key))


def clusters(pairs: Sequence[OverlapPair]) -> list[list[str]]:
    """Groups of skill names in which every two skills form a pair (built greedily from
    the best pair down: two groups join only when all their members pair up), each
    sorted, largest group first; skills in no pair are left out."""
    linked = {(p.a.key, p.b.key) for p in pairs} | {(p.b.key, p.a.key) for p in pairs}
    group_of: dict[str, list[str]] = {}
    names: dict[str, str] = {}
    for pair in sort_pairs(pairs):
        names[pair.a.key], names[pair.b.key] = pair.a.name, pair.b.name
        first = group_of.setdefault(pair.a.key, [pair.a.key])
        second = group_of.setdefault(pair.b.key, [pair.b.key])
        if first is second:
            continue
        if all((x, y) in linked for x in first for y in second):
            first.extend(second)
            for key in second:
                group_of[key] = first
    unique = {id(group): group for group in group_of.values() if len(group) > 1}
    result = [sorted(names[key] for key in group) for group in unique.values()]
    return sorted(result, key=lambda g: (-len(g), g))
