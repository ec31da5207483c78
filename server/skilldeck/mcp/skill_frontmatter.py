"""A ``SKILL.md``'s frontmatter as the Skills extension carries it: verbatim, as JSON.

The extension (``skills.mdx``, section *Frontmatter*) says an entry's ``frontmatter`` is
the file's YAML frontmatter "rendered verbatim as a JSON object" and "MUST be identical
in content" to it, and a host compares the two field by field before it loads a skill
(*Frontmatter Verification*). So nothing is added, dropped or renamed: every top-level
key the author wrote, as the engine's parser reads it (YAML 1.2), with the values JSON
has no type for written as text (dates and times in ISO 8601, ``.inf`` and ``.nan`` as
Python writes them: ``inf``, ``nan``) and keys that are not strings as their text. A skill whose own
frontmatter does not give the extension's required ``name`` (equal to the URI's last
segment) and ``description`` cannot have an entry (:func:`entry_problem`).
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Mapping
from typing import Any

from skilldeck.engine.frontmatter import parse_frontmatter

JsonValue = Any


def frontmatter_json(text: str) -> dict[str, JsonValue]:
    """The frontmatter's top-level keys as JSON values (the last of a repeated key wins;
    ``{}`` when the text has no frontmatter)."""
    parsed = parse_frontmatter(text).frontmatter
    if parsed is None:
        return {}
    return {str(entry.key): _json_value(entry.value) for entry in parsed.entries}


def entry_problem(frontmatter: Mapping[str, JsonValue], name: str) -> str | None:
    """Why a skill served as ``name`` cannot carry ``frontmatter`` verbatim in an entry,
    or ``None`` when it can."""
    found = frontmatter.get("name")
    if found != name:
        shown = "no 'name'" if found is None else f"'name' {found!r}"
        return f"its SKILL.md frontmatter has {shown}, not {name!r} (the URI's last segment)"
    description = frontmatter.get("description")
    if not isinstance(description, str) or not description.strip():
        return "its SKILL.md frontmatter has no 'description' text"
    return None


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
