"""The ``SKILL.md`` of a skill that has no file: one a provider serves from elsewhere.

A skill from ``--provider MODULE:ATTR``, a remote source or any other provider without a
local file has only its definition (what ``provider.get()`` returns: name, description,
body, ...). The Skills extension serves skills as files, so such a skill is served as
one file, a ``SKILL.md`` synthesized from that definition::

    ---
    name: "<name>"
    description: "<description>"
    whenToUse: "<when to use>"      (only when the definition has one)
    user-invocable: false           (only when the user may not invoke the skill)
    metadata: {"key": "value"}      (only when the definition has metadata)
    ---

    <content>

``<content>`` is the definition's body exactly as ``skilldeck load NAME`` prints it
inside ``<skill_instructions>``; strings are JSON strings (YAML double-quoted scalars)
and ``metadata`` a JSON object (a YAML flow mapping). The text is parsed back with the
engine's frontmatter parser, and a definition whose frontmatter does not read back
identically (a character YAML cannot carry, say) gets no ``SKILL.md``: the skill is
then served by the tool and the prompts only. The bytes are synthesized again on every
read, from a fresh ``provider.get()``, as ``skilldeck load`` reads it again.
"""

from __future__ import annotations

import json
from typing import Any

from skilldeck.engine.registry import SkillDefinition
from skilldeck.mcp.skill_frontmatter import frontmatter_json


def provided_frontmatter(definition: SkillDefinition) -> dict[str, Any]:
    """The frontmatter of a provided skill's synthesized ``SKILL.md`` (as JSON)."""
    frontmatter: dict[str, Any] = {
        "name": definition.name,
        "description": definition.description,
    }
    if definition.when_to_use is not None:
        frontmatter["whenToUse"] = definition.when_to_use
    if not definition.invocation.user_invocable:
        frontmatter["user-invocable"] = False
    if definition.metadata is not None:
        frontmatter["metadata"] = json.loads(json.dumps(definition.metadata, default=str))
    return frontmatter


def synthesized_skill_md(definition: SkillDefinition) -> bytes | str:
    """The ``SKILL.md`` bytes of a provided skill, or why it has none."""
    try:
        frontmatter = provided_frontmatter(definition)
    except (TypeError, ValueError):  # metadata that is no JSON object (a tuple key, ...)
        frontmatter = None
    if frontmatter is None:
        return _unwritable(definition.name)
    lines = [
        f"{key}: {json.dumps(value, ensure_ascii=False)}" for key, value in frontmatter.items()
    ]
    body = definition.content if definition.content.endswith("\n") else f"{definition.content}\n"
    text = "---\n" + "\n".join(lines) + "\n---\n\n" + body
    if frontmatter_json(text) != frontmatter:
        return _unwritable(definition.name)
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: no UTF-8 file can hold it
        return f"skill {definition.name!r} has no file, and its definition is not valid Unicode"


def _unwritable(name: str) -> str:
    return (
        f"skill {name!r} has no file, and its definition cannot be written as the "
        "frontmatter of a SKILL.md (it does not read back the same)"
    )
