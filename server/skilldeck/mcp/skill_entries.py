"""Skill entries of the Skills extension (``io.modelcontextprotocol/skills``, SEP-2640).

An entry is what ``skills/list`` pages through and ``skills/get`` returns: the URI of
the skill's ``SKILL.md``, its frontmatter verbatim as JSON (:mod:`skill_frontmatter`),
and the manifest of its files (``uri``, ``digest`` as ``sha256:<hex>``, ``size`` in
bytes). Entries are built on demand and kept for one deck view (:class:`EntryCache`), so
a warm ``skills/list`` re-reads nothing. Every model-visible skill may have one: a skill
with a file serves its files; a skill without one (a provider's) serves one
``SKILL.md`` synthesized from its definition (:mod:`provided_skills`).

Under a gate (``--require-safe``) an entry is built from one read of each file it lists:
those bytes give the digests, the frontmatter and the safety verdict
(:func:`skilldeck.engine.filesystem.judge_files`); an unsafe skill gets a
:class:`RefusedEntry` instead, and a read later serves only bytes with the listed
digests: exactly the bytes judged.
"""

from __future__ import annotations

import hashlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any

import anyio.to_thread

from skilldeck.engine.config import RuleSettings
from skilldeck.engine.files import SkillReadError, decode_skill_bytes
from skilldeck.engine.filesystem import Refusal, judge_files, served_scanned_only
from skilldeck.engine.registry import SkillCandidate, SkillDefinition
from skilldeck.mcp.deck_view import DeckView
from skilldeck.mcp.provided_skills import synthesized_skill_md
from skilldeck.mcp.skill_files import (
    MAX_SKILL_BYTES,
    SKILL_FILE,
    SkillFile,
    SkillFileError,
    SkillFiles,
    SkillOverLimitError,
    SkillTreeTooLargeError,
    collect_skill_files,
)
from skilldeck.mcp.skill_frontmatter import entry_problem, frontmatter_json
from skilldeck.mcp.skill_uris import skill_uri

#: Loads a skill's definition by name (the registry's ``get`` for the deck's ``cwd``).
LoadDefinition = Callable[[str], Awaitable[SkillDefinition | None]]

EXTENSION_ID = "io.modelcontextprotocol/skills"
#: How many entries one ``skills/list`` page (and one ``resources/list`` page) holds.
PAGE_SIZE = 100

JsonValue = Any


@dataclass(frozen=True)
class SkillEntry:
    """One skill's wire entry and the files it lists (what ``resources/read`` serves)."""

    name: str
    wire: dict[str, JsonValue]
    files: SkillFiles


@dataclass(frozen=True)
class RefusedEntry:
    """A skill the gate found unsafe in the very bytes its entry was to serve."""

    refusal: Refusal


def served_skills(view: DeckView) -> list[SkillCandidate]:
    """The skills the extension and the ``skill://`` resources serve: the model-visible
    winners, with a file on disk or not, sorted by name."""
    return view.model_visible()


class EntryCache:
    """Entries built for one deck view; a new view (revision) starts afresh."""

    def __init__(
        self, load: LoadDefinition, *, scanned_only: bool = False, judge: RuleSettings | None = None
    ) -> None:
        self._load = load
        #: Serve only the bundle files the safety scan reads in full (``--require-safe``).
        self._scanned_only = scanned_only
        #: Judge each entry's bytes under these rule settings (``--require-safe``).
        self._judge = judge
        self._revision = -1
        self._entries: dict[str, SkillEntry | str] = {}

    async def entry(
        self, view: DeckView, skill: SkillCandidate, *, fresh: bool = False
    ) -> SkillEntry | RefusedEntry | str:
        """``skill``'s entry, or why it has none (its ``SKILL.md`` is unreadable, over the
        limits, or its frontmatter lacks the extension's ``name`` or ``description``), or
        the gate's refusal of the bytes it read (never kept: judged again next time).

        ``fresh`` reads the files (or the provider's definition) again and keeps the new
        entry: the root watcher reports changes to ``SKILL.md`` files, not to the files
        beside them.
        """
        if view.revision != self._revision:
            self._revision = view.revision
            self._entries = {}
        known = None if fresh else self._entries.get(skill.name)
        if known is None:
            if skill.path is None:
                built: SkillEntry | RefusedEntry | str = await provided_entry(
                    skill.name, self._load
                )
            else:
                scanned_only = self._scanned_only or served_scanned_only(skill)
                built = await anyio.to_thread.run_sync(
                    build_entry, skill, scanned_only, self._judge
                )
            if isinstance(built, RefusedEntry):
                self._entries.pop(skill.name, None)
                return built
            known = built
            if view.revision == self._revision:
                self._entries[skill.name] = known
        return known

    def forget(self, name: str) -> None:
        """Drop ``name``'s entry (its files changed since it was built)."""
        self._entries.pop(name, None)


def build_entry(
    skill: SkillCandidate, scanned_only: bool = False, judge: RuleSettings | None = None
) -> SkillEntry | RefusedEntry | str:
    """Read ``skill``'s files once and build its entry from those bytes (blocking: run it
    in a thread); ``scanned_only`` lists only the files the bundle's safety scan reads in
    full; ``judge`` refuses the skill when those bytes have error-level safety findings
    under these rule settings."""
    assert skill.path is not None
    try:
        files = collect_skill_files(
            skill.path, scanned_only=scanned_only, keep_contents=judge is not None
        )
        data = files.contents[SKILL_FILE]
        if judge is not None:
            served = {name: found for name, found in files.contents.items() if name != SKILL_FILE}
            refusal = judge_files(skill, data, judge, coverage=files.coverage, served=served)
            if refusal is not None:
                return RefusedEntry(refusal)
        text = decode_skill_bytes(data)
    except SkillOverLimitError as error:
        return f"skill {skill.name!r} exceeds the Skills extension's limit of {error}"
    except SkillTreeTooLargeError as error:
        return f"skill {skill.name!r} is not served through the Skills extension: {error}"
    except (SkillFileError, SkillReadError) as error:
        return str(error)
    # The entry is kept for the view: not the bytes it was built from (8,000 entries held
    # ~50 MB more of them), nor the scan's coverage.
    return _entry(skill.name, frontmatter_json(text), replace(files, contents={}, coverage=None))


async def provided_entry(name: str, load: LoadDefinition) -> SkillEntry | str:
    """The entry of a skill without a file: its ``SKILL.md`` synthesized from the
    definition its provider gives now."""
    data = await provided_skill_bytes(name, load)
    if isinstance(data, str):
        return data
    file = SkillFile(SKILL_FILE, None, len(data), hashlib.sha256(data).hexdigest())
    return _entry(name, frontmatter_json(data.decode("utf-8")), SkillFiles((file,)))


async def provided_skill_bytes(name: str, load: LoadDefinition) -> bytes | str:
    """The synthesized ``SKILL.md`` of provided skill ``name`` (from a fresh
    ``provider.get()``), or why there is none."""
    try:
        definition = await load(name)
    except Exception as error:  # a provider's failure is the provider's; say so
        return f"skill {name!r}: its provider failed to load it: {error}"
    if definition is None:
        return f"skill {name!r} is no longer served by its provider"
    data = synthesized_skill_md(definition)
    if isinstance(data, bytes) and len(data) > MAX_SKILL_BYTES:
        return f"skill {name!r} exceeds the Skills extension's limit of 16 MiB"
    return data


def _entry(name: str, frontmatter: dict[str, JsonValue], files: SkillFiles) -> SkillEntry | str:
    problem = entry_problem(frontmatter, name)
    if problem is not None:
        return f"skill {name!r} is not served through the Skills extension: {problem}"
    wire: dict[str, JsonValue] = {
        "uri": skill_uri(name),
        "frontmatter": frontmatter,
        "resources": [
            {
                "uri": skill_uri(name, file.relative),
                "digest": f"sha256:{file.sha256}",
                "size": file.size,
            }
            for file in files.files
        ],
    }
    return SkillEntry(name, wire, files)
