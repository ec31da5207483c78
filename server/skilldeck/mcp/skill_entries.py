"""Skill entries of the Skills extension (``io.modelcontextprotocol/skills``, SEP-2640).

An entry is what ``skills/list`` pages through and ``skills/get`` returns: the URI of
the skill's ``SKILL.md``, its frontmatter carried as JSON, and the manifest of its files
(``uri``, ``digest`` as ``sha256:<hex>``, ``size`` in bytes). Entries are built from files
on demand and kept for one deck view (:class:`EntryCache`), so a warm ``skills/list``
re-reads nothing. Only model-visible skills with a file on disk have entries.
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import anyio.to_thread

from skilldeck.engine.frontmatter import parse_frontmatter
from skilldeck.engine.model import SkillCandidate
from skilldeck.engine.skill_read import SkillReadError, decode_skill_bytes
from skilldeck.mcp.deck_view import DeckView
from skilldeck.mcp.skill_files import (
    SkillFileError,
    SkillFiles,
    SkillOverLimitError,
    collect_skill_files,
    read_served_file,
)
from skilldeck.mcp.skill_uris import skill_uri

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


def served_skills(view: DeckView) -> list[SkillCandidate]:
    """The skills the extension and the ``skill://`` resources serve: the model-visible
    winners that have a file on disk, sorted by name."""
    return [skill for skill in view.model_visible() if skill.path is not None]


class EntryCache:
    """Entries built for one deck view; a new view (revision) starts afresh."""

    def __init__(self) -> None:
        self._revision = -1
        self._entries: dict[str, SkillEntry | str] = {}

    async def entry(
        self, view: DeckView, skill: SkillCandidate, *, fresh: bool = False
    ) -> SkillEntry | str:
        """``skill``'s entry, or why it has none (its ``SKILL.md`` is unreadable).

        ``fresh`` reads the files again (and keeps the new entry): the root watcher
        reports changes to ``SKILL.md`` files, not to the files beside them.
        """
        if view.revision != self._revision:
            self._revision = view.revision
            self._entries = {}
        known = None if fresh else self._entries.get(skill.name)
        if known is None:
            known = await anyio.to_thread.run_sync(build_entry, skill)
            if view.revision == self._revision:
                self._entries[skill.name] = known
        return known

    def forget(self, name: str) -> None:
        """Drop ``name``'s entry (its files changed since it was built)."""
        self._entries.pop(name, None)


def build_entry(skill: SkillCandidate) -> SkillEntry | str:
    """Read ``skill``'s files and build its entry (blocking: run it in a thread)."""
    assert skill.path is not None
    try:
        files = collect_skill_files(skill.path)
        text = decode_skill_bytes(read_served_file(files.files[0]))
    except SkillOverLimitError as error:
        return f"skill {skill.name!r} exceeds the Skills extension's limit of {error}"
    except (SkillFileError, SkillReadError) as error:
        return str(error)
    frontmatter = frontmatter_json(text)
    frontmatter["name"] = skill.name
    frontmatter.setdefault("description", skill.description)
    wire: dict[str, JsonValue] = {
        "uri": skill_uri(skill.name),
        "frontmatter": frontmatter,
        "resources": [
            {
                "uri": skill_uri(skill.name, file.relative),
                "digest": f"sha256:{file.sha256}",
                "size": file.size,
            }
            for file in files.files
        ],
    }
    return SkillEntry(skill.name, wire, files)


def frontmatter_json(text: str) -> dict[str, JsonValue]:
    """The frontmatter's top-level keys as JSON values (the last of a repeated key wins;
    dates become ISO strings, non-finite numbers and other values their text)."""
    parsed = parse_frontmatter(text).frontmatter
    if parsed is None:
        return {}
    return {entry.key: _json_value(entry.value) for entry in parsed.entries}


def _json_value(value: object) -> JsonValue:
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, Mapping):
        return {str(key): _json_value(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_value(item) for item in value]
    if isinstance(value, (datetime.date, datetime.datetime)):
        return value.isoformat()
    return str(value)
