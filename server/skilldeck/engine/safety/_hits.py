"""What a safety scan of one text reports, before it becomes a finding: the rule, the
offsets of the text it points at, and the values its message is filled with."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

_ahocorasick: Any
try:  # a compiled automaton finds every gate's marks in one pass; the fallback is exact too
    import ahocorasick_rs as _ahocorasick
except ImportError:  # pragma: no cover - the editor's pure-Python bundle
    _ahocorasick = None


@dataclass(frozen=True, slots=True)
class Hit:
    """Rule ``code`` at ``start:end`` of the scanned text; ``fields`` fill its message."""

    code: str
    start: int
    end: int
    fields: tuple[tuple[str, str], ...]

    def values(self) -> dict[str, Any]:
        """The message fields as keyword arguments for :meth:`Rule.finding`."""
        return dict(self.fields)

    def value(self, key: str, default: str = "") -> str:
        """One message field."""
        return dict(self.fields).get(key, default)


def shorten(text: str, limit: int = 100) -> str:
    """One line of ``text`` for a message: whitespace collapsed, cut at ``limit``,
    backticks made quotes (messages put it in code spans)."""
    flat = " ".join(text.split()).replace("`", "'")
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


#: Every gate's marks, in the order the gates were made (:func:`present_marks` finds them).
_MARKS: dict[str, None] = {}


@dataclass(frozen=True, slots=True)
class Gate:
    """When a pattern is worth trying on a text: one of its ``marks`` (lowercase) is a
    substring of the text :func:`folded`, and one of ``also`` when that is given.

    Python's ``re`` tries a case-insensitive alternation at every position of a text,
    which costs far more than a substring search; each pattern runs only on the texts
    its gate opens for, and :mod:`skilldeck.engine.safety._file` judges a body in chunks
    of 1-4 KB, so a pattern runs on the few chunks that hold its words.
    Which marks a text holds is found once for every gate (:func:`present_marks`).
    """

    marks: tuple[str, ...]
    #: When given, the text must also hold one of these (every alternative of the
    #: pattern needs a word of each tuple).
    also: tuple[str, ...] = ()

    _marks: frozenset[str] = field(init=False, repr=False, compare=False)
    _also: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        _MARKS.update(dict.fromkeys(self.marks + self.also))
        object.__setattr__(self, "_marks", frozenset(self.marks))
        object.__setattr__(self, "_also", frozenset(self.also))

    def opens(self, present: frozenset[str]) -> bool:
        """Whether the text whose marks are ``present`` holds one of the marks (and one
        of ``also``)."""
        return not present.isdisjoint(self._marks) and (
            not self._also or not present.isdisjoint(self._also)
        )


class _Finder:
    """The marks of every gate made so far, found in one pass of an Aho-Corasick DFA
    (``ahocorasick-rs``; overlapping matches, so a mark inside another counts) or,
    without it (the editor's pure-Python bundle), by one substring test a mark."""

    def __init__(self) -> None:
        self.count = -1
        self.automaton: Any = None

    def present(self, lowered: str) -> frozenset[str]:
        if _ahocorasick is None:
            return frozenset(mark for mark in _MARKS if mark in lowered)
        if self.count != len(_MARKS):
            self.automaton = _ahocorasick.AhoCorasick(
                list(_MARKS),
                matchkind=_ahocorasick.MatchKind.Standard,
                implementation=_ahocorasick.Implementation.DFA,
            )
            self.count = len(_MARKS)
        return frozenset(self.automaton.find_matches_as_strings(lowered, overlapping=True))


_finder = _Finder()


def present_marks(lowered: str) -> frozenset[str]:
    """The gates' marks that are substrings of ``lowered`` (every occurrence counts,
    overlapping ones too), for :meth:`Gate.opens`."""
    if not lowered:
        return frozenset()
    return _finder.present(lowered)


#: The characters ``re.IGNORECASE`` matches with an ASCII letter that ``str.lower`` does
#: not turn into it: dotted and dotless i, long s, the Kelvin sign. (Checked over every
#: code point: these four and no others; U+0130 is also the one character whose
#: ``lower()`` is two characters long.)
_ODD_CASES = {"\u0130": "i", "\u0131": "i", "\u017f": "s", "\u212a": "k"}
_ODD_FOLD = str.maketrans(_ODD_CASES)


def folded(text: str) -> str:
    """``text`` lowered, one character for each character of it, with every character
    that a case-insensitive pattern matches with an ASCII letter made that letter. Start
    words found in it sit where the pattern would match them in ``text``
    (:func:`word_matches`), whatever the script."""
    if text.isascii():
        return text.lower()
    if any(odd in text for odd in _ODD_CASES):
        text = text.translate(_ODD_FOLD)
    return text.lower()


def word_matches(
    pattern: re.Pattern[str],
    starts: tuple[str, ...] | None,
    text: str,
    start: int,
    end: int,
    *,
    lowered: str | None,
) -> Iterator[re.Match[str]]:
    """``pattern.finditer(text, start, end)`` for a case-insensitive pattern every match
    of which begins with one of ``starts`` (lowercase ASCII words; ``None``: any text).

    ``lowered`` is :func:`folded` of ``text`` (``None``: the pattern scans the text as
    is). The pattern is tried only where a start word occurs in it (found by substring
    search), leftmost first and never inside the previous match, which is what
    ``finditer`` finds, at a fraction of letting ``re`` try every position of the text.
    """
    if starts is None or lowered is None:
        yield from pattern.finditer(text, start, end)
        return
    positions: set[int] = set()
    for word in starts:
        at = lowered.find(word, start, end)
        while at >= 0:
            positions.add(at)
            at = lowered.find(word, at + 1, end)
    last = start
    for at in sorted(positions):
        if at < last:
            continue
        match = pattern.match(text, at, end)
        if match is not None:
            yield match
            last = match.end()
