"""Near misses: the key or skill name an author probably meant.

One definition for every front end: the per-file rule on frontmatter keys (SD404), the
deck rule on ``/name`` mentions (SD704) and completion all ask this module. A near miss
is the same word in another spelling (case, ``snake_case``, ``camelCase``,
``kebab-case``) or a small typo (an edit distance of 1, or 2 for words of 8 characters
and more; a swap of two neighbouring letters counts as one edit).
"""

from __future__ import annotations

from collections.abc import Iterable

_SEPARATORS = str.maketrans("", "", "-_ .")


def key_shape(key: str) -> str:
    """``key`` without case and word separators: ``user_invocable``, ``userInvocable``
    and ``User-Invocable`` all have the shape ``userinvocable``."""
    return key.translate(_SEPARATORS).casefold()


def edit_distance(a: str, b: str, limit: int = 3) -> int:
    """Optimal string alignment distance of ``a`` and ``b`` (capped at ``limit + 1``)."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cost = 0 if ca == cb else 1
            value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                value = min(value, previous2[j - 2] + 1)
            current[j] = value
        if min(current) > limit:
            return limit + 1
        previous2, previous = previous, current
    return previous[-1]


def _allowed(word: str, typed: str) -> int:
    """Edits forgiven against ``word``: 2 from 8 letters, 1 from 5, and for shorter
    words only a swap of two letters (``nmae``), never a different letter (``game``)."""
    if len(word) >= 8:
        return 2
    if len(word) >= 5:
        return 1
    return 1 if sorted(word) == sorted(typed) else 0


def near_miss_key(key: str, known: Iterable[str]) -> str | None:
    """The known key ``key`` most likely meant, or ``None`` (an exact key is no miss)."""
    shape = key_shape(key)
    best: tuple[int, str] | None = None
    for candidate in known:
        if candidate == key:
            return None
        other = key_shape(candidate)
        distance = 0 if other == shape else edit_distance(shape, other, 2)
        if distance <= _allowed(other, shape) and (best is None or distance < best[0]):
            best = (distance, candidate)
    return None if best is None else best[1]


def nearest_names(name: str, names: Iterable[str], limit: int = 3) -> list[str]:
    """Up to ``limit`` of ``names`` closest to ``name`` (nearest first, then code-point
    order): same shape, a small typo, or one a prefix of the other."""
    scored: list[tuple[int, str]] = []
    for candidate in names:
        if candidate == name:
            continue
        if key_shape(candidate) == key_shape(name):
            distance = 0
        else:
            distance = edit_distance(name, candidate, 2)
            if distance > max(1, _allowed(candidate, name)):
                continue
        scored.append((distance, candidate))
    scored.sort()
    return [candidate for _, candidate in scored[:limit]]


class NameSuggestions:
    """:func:`nearest_names` over one deck's names, from an index made once per deck:
    each unknown name is looked up once (memoized until the names change), and only
    the names that can be near it are scored.

    The answer equals :func:`nearest_names` ``(name, names)`` for distinct ``names``
    (``tests/engine/test_name_suggestions.py`` holds it on a fixture and on the real
    corpus's unknown mentions). Names of the same shape come from a table by shape; a
    typo (an optimal string alignment distance of at most 2) is looked for with
    rapidfuzz's OSA distance in C, cut off at 2, and confirmed by :func:`edit_distance`.
    """

    def __init__(self, names: Iterable[str] = ()) -> None:
        self._names: dict[str, None] = dict.fromkeys(names)
        #: Names by shape, and the names as one list for rapidfuzz: made on the first
        #: lookup (most decks have no unknown mention), then kept up to date.
        self._by_shape: dict[str, dict[str, None]] | None = None
        self._choices: list[str] | None = None
        self._memo: dict[str, tuple[str, ...]] = {}
        #: How many lookups scored the deck's names (a name asked again while the names
        #: have not changed is answered from the memo and not counted).
        self.lookups = 0

    def add(self, name: str) -> None:
        """Count ``name`` among the deck's names."""
        if name in self._names:
            return
        self._names[name] = None
        if self._by_shape is not None:
            self._by_shape.setdefault(key_shape(name), {})[name] = None
        self._changed()

    def discard(self, name: str) -> None:
        """Forget ``name`` (no error when it is not there)."""
        if name not in self._names:
            return
        del self._names[name]
        if self._by_shape is not None:
            shape = key_shape(name)
            same = self._by_shape[shape]
            del same[name]
            if not same:
                del self._by_shape[shape]
        self._changed()

    def _changed(self) -> None:
        self._choices = None
        if self._memo:
            self._memo.clear()

    def nearest(self, name: str, limit: int = 3) -> list[str]:
        """Up to ``limit`` names nearest to ``name``, as :func:`nearest_names` orders them."""
        found = self._memo.get(name)
        if found is None:
            self.lookups += 1
            found = self._memo[name] = tuple(nearest_names(name, self._candidates(name), 2**30))
        return list(found[:limit])

    def _candidates(self, name: str) -> list[str]:
        """A superset of the names :func:`nearest_names` keeps for ``name``."""
        try:
            from rapidfuzz import process  # noqa: PLC0415  (only when a name is unknown)
            from rapidfuzz.distance import OSA  # noqa: PLC0415
        except ImportError:
            # Pure Python (the VS Code extension's bundled server): every name is a
            # candidate, and edit_distance decides, as nearest_names does.
            return list(self._names)
        if self._choices is None:
            self._choices = list(self._names)
        if self._by_shape is None:
            self._by_shape = {}
            for known in self._names:
                self._by_shape.setdefault(key_shape(known), {})[known] = None
        close = process.extract(
            name, self._choices, scorer=OSA.distance, score_cutoff=2, limit=None
        )
        same = self._by_shape.get(key_shape(name), {})
        return list({**same, **{choice: None for choice, _score, _at in close}})


def could_mean(typed: str, key: str) -> bool:
    """Whether ``typed`` (a key being written) is on its way to ``key`` in another
    spelling: its shape starts ``key``'s shape (``user_inv`` → ``user-invocable``), or
    it is a near miss of ``key`` (``descripton``). Completion offers ``key`` then."""
    shape = key_shape(typed)
    if not shape:
        return False
    return key_shape(key).startswith(shape) or near_miss_key(typed, (key,)) == key
