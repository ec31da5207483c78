"""What a safety scan of one text reports, before it becomes a finding: the rule, the
offsets of the text it points at, and the values its message is filled with."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


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


@dataclass(frozen=True, slots=True)
class Gate:
    """When a pattern is worth trying on a text: one of its ``marks`` (lowercase) is a
    substring of the lowered text, and one of ``also`` when that is given.

    Python's ``re`` tries a case-insensitive alternation at every position of a text,
    which costs far more than a substring search; each pattern runs only on the texts
    its gate opens for, and :mod:`skilldeck.engine.safety_file` judges a body a few
    paragraphs at a time, so a pattern runs on the few paragraphs that hold its words.
    """

    marks: tuple[str, ...]
    #: When given, the text must also hold one of these (every alternative of the
    #: pattern needs a word of each tuple).
    also: tuple[str, ...] = ()

    def opens(self, lowered: str, start: int, end: int) -> bool:
        """Whether ``lowered[start:end]`` holds one of the marks (and one of ``also``)."""
        return any(lowered.find(mark, start, end) >= 0 for mark in self.marks) and (
            not self.also or any(lowered.find(mark, start, end) >= 0 for mark in self.also)
        )
