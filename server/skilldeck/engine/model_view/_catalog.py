"""The skill catalog the model reads, and its lifecycle over one session (SPEC section 5).

The catalog is a user-role ``<system-reminder>`` message listing one line per
model-invocable skill: its name and its shaped description. It never carries bodies,
paths, sources, providers or ``whenToUse`` hints.

Identity is a digest over the *entries* (name plus shaped description), never over the
surrounding prose, so rewording the guidance cannot force a republish and a republish
happens exactly when what the model can choose from changed.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import compress, count
from operator import is_not
from typing import Literal, Protocol

from skilldeck.engine.registry import InvocationPolicy, SkillSummary, is_skill_name
from skilldeck.engine.text import (
    DEFAULT_CATALOG_DESCRIPTION_MAX_LENGTH,
    catalog_description,
    escape_text,
    validate_max_description_length,
)

CatalogUpdateKind = Literal["initial", "replacement", "empty-replacement"]

_INITIAL_LEAD = (
    "Skills are packaged instructions for particular kinds of tasks. "
    "These skills can be loaded in this session:"
)
_INITIAL_GUIDANCE = (
    "Before acting on a task that matches a skill's description, or when the user names a "
    "skill, call the `skill` tool with that exact name and follow the instructions it "
    "returns. If several skills match, load each of them. The list above holds summaries "
    "only: do not guess a skill's instructions from its description.",
    "If the user has already invoked a skill directly, its <skill_content> block is in the "
    "conversation: follow that block and do not load the same skill again with the `skill` "
    "tool.",
)
_REPLACEMENT_LEAD = (
    "The set of available skills has changed. This complete list supersedes every earlier "
    "skill catalog in this session:"
)
_REPLACEMENT_GUIDANCE = (
    "Use only the names listed here; names from earlier catalogs may no longer exist. "
    "Before acting on a task that matches a listed skill, or when the user names one, call "
    "the `skill` tool with that exact name.",
    "If the user has already invoked a skill directly, its <skill_content> block is in the "
    "conversation: follow that block and do not load the same skill again with the `skill` "
    "tool.",
)
_EMPTY_REPLACEMENT_GUIDANCE = (
    "No skills can be loaded with the `skill` tool right now. Do not call it with any name "
    "from an earlier catalog.",
    "The user may still invoke a skill directly; its <skill_content> block then appears in "
    "the conversation. Follow that block without calling the `skill` tool.",
)


@dataclass(frozen=True, slots=True)
class CatalogEntry:
    """One catalog line before escaping: the skill name and its shaped description."""

    name: str
    description: str


class CatalogView(Protocol):
    """What the tracker needs from a registry snapshot (``CatalogSnapshot`` fits)."""

    @property
    def skills(self) -> Sequence[SkillSummary]: ...

    @property
    def complete(self) -> bool: ...


@dataclass(frozen=True, slots=True)
class CatalogUpdate:
    """A catalog message the session must append now.

    ``kind`` is ``initial`` for the session's first catalog, ``replacement`` when the
    entries changed after a publication, and ``empty-replacement`` when every skill is
    gone. ``text`` is the user-role message; ``entries`` and ``digest`` are what it
    published, for consumers that must not re-parse the model-facing text.
    """

    kind: CatalogUpdateKind
    text: str
    entries: tuple[CatalogEntry, ...]
    digest: str


def catalog_entries(
    skills: Iterable[SkillSummary],
    max_description_length: int = DEFAULT_CATALOG_DESCRIPTION_MAX_LENGTH,
) -> tuple[CatalogEntry, ...]:
    """The entries a catalog publishes, unescaped, in catalog order.

    Keeps model-invocable skills with a valid name (a name the ``skill`` tool would refuse
    is never advertised), sorted by name in code-point order, each description
    whitespace-collapsed and capped with ``...`` at ``max_description_length`` code points.
    Raises ``ValueError`` when ``max_description_length`` is below 3.
    """
    validate_max_description_length(max_description_length)
    entries = (
        catalog_entry(skill.name, skill.description, skill.invocation, max_description_length)
        for skill in skills
    )
    return tuple(sorted((e for e in entries if e is not None), key=lambda entry: entry.name))


def is_listed(name: str, invocation: InvocationPolicy) -> bool:
    """Whether a catalog lists a skill: model-invocable, with a name the ``skill`` tool
    accepts (a name it would refuse is never advertised)."""
    return invocation.model_invocable and is_skill_name(name)


def catalog_entry(
    name: str, description: str, invocation: InvocationPolicy, max_description_length: int
) -> CatalogEntry | None:
    """One skill's entry as :func:`catalog_entries` makes it (``None`` when a catalog
    leaves the skill out); ``max_description_length`` must be valid already."""
    if not is_listed(name, invocation):
        return None
    return CatalogEntry(name, catalog_description(description, max_description_length))


def catalog_digest(entries: Iterable[CatalogEntry]) -> str:
    """SHA-256 (hex) over the entries, each field length-prefixed (``4:name12:description``)
    so no text inside a field can shift a boundary. About 5x faster than a JSON form, which
    matters: the language server re-digests a 10,000-skill catalog while the user types."""
    return _digest_of("".join(_digest_piece(entry) for entry in entries))


def _digest_piece(entry: CatalogEntry) -> str:
    return f"{len(entry.name)}:{entry.name}{len(entry.description)}:{entry.description}"


def _digest_of(canonical: str) -> str:
    return hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()


def catalog_line(entry: CatalogEntry) -> str:
    """One entry's line of ``<available_skills>``, its description XML-escaped."""
    return f"- `{entry.name}`: {escape_text(entry.description)}"


class CatalogMemo:
    """The lines of the last rendering, reused by the next.

    The language server renders a folder's catalog again while the user types (about
    once a second, for the status bar and the preview); one description changed in a
    10,000-skill catalog. Entries that are the same objects as last time keep their line:
    finding them is one identity comparison per entry (in C), so only the changed
    entries are escaped and formatted (the whole rendering took ~10-17 ms of a worker
    thread holding the GIL, and a keystroke waited behind it). Renderings on several
    threads stay correct: each reads the last finished one and replaces it whole.
    """

    def __init__(self) -> None:
        self._last: tuple[tuple[CatalogEntry, ...], list[str]] = ((), [])

    def render(self, entries: Sequence[CatalogEntry]) -> list[str]:
        """The ``<available_skills>`` lines of ``entries`` (see :func:`catalog_line`;
        :func:`wrap_lines` makes the message)."""
        entries = tuple(entries)
        last_entries, last_lines = self._last
        if len(entries) == len(last_entries):
            lines = list(last_lines)
            moved = list(compress(count(), map(is_not, entries, last_entries)))
        else:
            lines = [""] * len(entries)
            moved = list(range(len(entries)))
        if len(moved) > _REUSE_BY_IDENTITY:  # names came or went: entries moved along
            # ``last_entries`` keeps the old entries alive, so their ids stay theirs.
            known = {id(e): line for e, line in zip(last_entries, last_lines, strict=True)}
            for index in moved:
                entry = entries[index]
                lines[index] = known.get(id(entry)) or catalog_line(entry)
        else:
            for index in moved:
                lines[index] = catalog_line(entries[index])
        self._last = (entries, lines)
        return lines


#: Changed entries above which a rendering looks each one up among the last rendering's
#: (a skill added or removed moves every entry after it) rather than rendering it.
_REUSE_BY_IDENTITY = 32


def estimate_tokens(text: str) -> int:
    """A rough token count for previews: one token per 4 code points, rounded up.

    This is a heuristic, not a tokenizer; English prose averages about four characters per
    token with common model vocabularies. Good enough to compare catalog sizes.
    """
    return tokens_for_length(len(text))


def tokens_for_length(length: int) -> int:
    """:func:`estimate_tokens` of a text ``length`` code points long."""
    return math.ceil(length / 4)


def render_catalog(
    skills: Iterable[SkillSummary],
    *,
    max_description_length: int = DEFAULT_CATALOG_DESCRIPTION_MAX_LENGTH,
) -> str:
    """The session's first catalog message for ``skills`` (see :func:`catalog_entries`)."""
    return render_entries(catalog_entries(skills, max_description_length), kind="initial")


def render_entries(entries: Sequence[CatalogEntry], *, kind: CatalogUpdateKind) -> str:
    """Render already-shaped entries as a catalog message of the given kind.

    Descriptions are XML-escaped here (``& < >``), so no description can close
    ``<available_skills>`` or ``<system-reminder>``.
    """
    return wrap_lines([catalog_line(entry) for entry in entries], kind)


def wrap_lines(lines: Sequence[str], kind: CatalogUpdateKind) -> str:
    """The catalog message of the given kind around ``<available_skills>`` lines."""
    if kind == "initial":
        lead, guidance = _INITIAL_LEAD, _INITIAL_GUIDANCE
    elif kind == "replacement":
        lead, guidance = _REPLACEMENT_LEAD, _REPLACEMENT_GUIDANCE
    else:
        lead, guidance = _REPLACEMENT_LEAD, _EMPTY_REPLACEMENT_GUIDANCE
    return "\n".join(
        [
            "<system-reminder>",
            lead,
            "",
            "<available_skills>",
            *lines,
            "</available_skills>",
            "",
            *guidance,
            "</system-reminder>",
        ]
    )


class CatalogTracker:
    """Decides, snapshot by snapshot, which catalog message one session must receive.

    Feed it every registry snapshot taken before a model step:

    - incomplete snapshot: ``None``; the last good view stays in force. This holds for the
      *first* snapshot too: nothing is published until a complete snapshot arrives, even
      if the incomplete one listed skills (a partial first catalog would be followed at
      once by a replacement).
    - nothing published yet and no model-invocable skill: ``None`` (no tombstone needed).
    - first complete non-empty view: an ``initial`` update.
    - entries changed since the last publication: a complete ``replacement`` that
      supersedes every earlier catalog, or an ``empty-replacement`` when every skill is
      gone, which tells the model not to use older names.
    - unchanged entries: ``None``.
    """

    def __init__(
        self, max_description_length: int = DEFAULT_CATALOG_DESCRIPTION_MAX_LENGTH
    ) -> None:
        self._max_description_length = validate_max_description_length(max_description_length)
        self._current: CatalogUpdate | None = None

    @property
    def current(self) -> CatalogUpdate | None:
        """The last catalog message published in this session, if any."""
        return self._current

    def update(self, snapshot: CatalogView) -> CatalogUpdate | None:
        """Return the catalog message to append for ``snapshot``, or ``None``."""
        if not snapshot.complete:
            return None
        entries = catalog_entries(snapshot.skills, self._max_description_length)
        digest = catalog_digest(entries)
        if self._current is None:
            if not entries:
                return None
            kind: CatalogUpdateKind = "initial"
        elif digest == self._current.digest:
            return None
        else:
            kind = "replacement" if entries else "empty-replacement"
        self._current = CatalogUpdate(
            kind=kind, text=render_entries(entries, kind=kind), entries=entries, digest=digest
        )
        return self._current
