"""The model-facing ``skill`` tool: its schema, its executor and ``<skill_content>`` rendering.

An agent builder hands :func:`skill_tool_schema` to any model API that accepts
JSON-schema tool definitions, and answers each call with :func:`execute_skill_tool`.
The same :func:`render_skill_content` block is what the user's ``/name`` gesture
injects, so the model sees one shape on both paths.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from skilldeck.engine.registry import (
    SKILL_NAME_PATTERN,
    DirectoryResourceBase,
    InvocationPolicy,
    OpaqueResourceBase,
    SkillDefinition,
    SkillSummary,
    UrlResourceBase,
    is_skill_name,
)
from skilldeck.engine.text import escape_attribute, escape_text, trim_body

SKILL_TOOL_NAME = "skill"

SkillToolErrorKind = Literal["invalid-name", "unknown-skill", "not-model-invocable"]

_SHOWN_NAME_LIMIT = 80
_ON_DEMAND = "Open a resource only when the instructions call for it."


class SkillSnapshot(Protocol):
    """The part of a registry snapshot the tool reads."""

    @property
    def skills(self) -> Sequence[SkillSummary]: ...

    @property
    def complete(self) -> bool: ...


class SkillLookup(Protocol):
    """What the tool and the gesture need from a registry (``SkillRegistry`` fits).

    ``scope`` is passed through untouched (the registry's ``Scope`` or ``None``).
    """

    async def snapshot(self, *, cwd: str | None, scope: Any) -> SkillSnapshot: ...

    async def get(self, name: str, *, cwd: str | None, scope: Any) -> SkillDefinition | None: ...


@dataclass(frozen=True, slots=True)
class SkillToolResult:
    """What to send back as the tool result: ``text`` either way, ``error`` set on failure."""

    ok: bool
    text: str
    error: SkillToolErrorKind | None = None


def skill_tool_schema() -> dict[str, Any]:
    """A fresh JSON-schema tool definition: ``name``, ``description``, ``parameters``."""
    return {
        "name": SKILL_TOOL_NAME,
        "description": (
            "Load the full instructions of a skill from the available skills catalog. Call it "
            "with the skill's exact name before acting on a task that the skill's description "
            "matches or that the user names it for."
        ),
        "parameters": {
            "type": "object",
            "properties": {
                "name": {
                    "type": "string",
                    "description": "The exact skill name, as listed in the available skills.",
                    "pattern": SKILL_NAME_PATTERN.pattern,
                },
            },
            "required": ["name"],
            "additionalProperties": False,
        },
    }


def render_skill_content(skill: SkillDefinition) -> str:
    """The ``<skill_content>`` block for a loaded skill.

    The name rides an escaped attribute; resource guidance is escaped prose; the body is
    embedded verbatim (skills are trusted content) but for its leading and trailing
    whitespace (:func:`trim_body`: SPEC section 5, whichever provider served it). The
    skill folder is never listed.
    """
    return "\n".join(
        [
            f'<skill_content name="{escape_attribute(skill.name)}">',
            "<skill_resources>",
            *_resource_guidance(skill),
            "</skill_resources>",
            "",
            "<skill_instructions>",
            trim_body(skill.content),
            "</skill_instructions>",
            "</skill_content>",
        ]
    )


def _resource_guidance(skill: SkillDefinition) -> list[str]:
    base = skill.resource_base
    if isinstance(base, DirectoryResourceBase):
        return [
            f"Skill folder: {escape_text(base.path)}",
            "Relative paths in these instructions are relative to the skill folder; resolve "
            f"them there and do not leave the folder. {_ON_DEMAND}",
        ]
    if isinstance(base, UrlResourceBase):
        return [
            f"Skill base URL: {escape_text(base.url)}",
            "Relative URLs in these instructions are relative to the skill base URL; resolve "
            f"them there and do not leave it. {_ON_DEMAND}",
        ]
    if isinstance(base, OpaqueResourceBase):
        return [f"How to reach this skill's resources: {escape_text(base.description)}", _ON_DEMAND]
    return [
        f'This skill\'s resources are managed by its provider "{escape_text(skill.provider)}".',
        _ON_DEMAND,
    ]


def shown_name(name: str) -> str:
    """``name`` (or any text a client sent) as an error message echoes it: whole up to 80
    characters, else its first 80 and ``...`` (a 1 MB name is not sent back whole)."""
    return name if len(name) <= _SHOWN_NAME_LIMIT else name[:_SHOWN_NAME_LIMIT] + "..."


def invalid_name_text(value: object) -> str:
    """Error text for a missing, non-string or non-kebab-case ``name`` argument."""
    if isinstance(value, str):
        given = json.dumps(shown_name(value), ensure_ascii=False)
    elif value is None:
        given = "no name"
    else:
        given = f"a value of type {type(value).__name__}"
    return (
        f"Error: invalid skill name: got {given}. Pass the exact kebab-case name of a skill "
        "from the available skills catalog."
    )


def unknown_skill_text(name: str) -> str:
    """Error text for a well-formed name that no provider serves (any more)."""
    return (
        f'Error: skill "{shown_name(name)}" is unknown or no longer available. Use only names '
        "from the latest available skills catalog."
    )


def not_model_invocable_text(name: str, *, user_invocable: bool = True) -> str:
    """Error text for a skill with ``disable-model-invocation``; it says the user can
    invoke it only when the skill is ``user_invocable``."""
    text = f'Error: skill "{shown_name(name)}" is not available for model invocation'
    return f"{text}; only the user can invoke it." if user_invocable else f"{text}."


async def execute_skill_tool(
    registry: SkillLookup,
    arguments: Mapping[str, object],
    *,
    cwd: str | None = None,
    scope: Any = None,
) -> SkillToolResult:
    """Answer one ``skill`` tool call.

    Order of checks: the name must be a kebab-case string (``invalid-name``); a complete
    snapshot that lacks it, or a ``get()`` that returns nothing, is ``unknown-skill``; a
    summary or loaded definition that is not model-invocable is ``not-model-invocable``
    (the policy is checked before the body is read and again on what was read). The user
    invocation flag does not restrict this tool. Exceptions raised by a provider
    propagate to the caller.
    """
    value = arguments.get("name")
    if not isinstance(value, str) or not is_skill_name(value):
        return SkillToolResult(False, invalid_name_text(value), "invalid-name")
    name = value
    snapshot = await registry.snapshot(cwd=cwd, scope=scope)
    summary = next((skill for skill in snapshot.skills if skill.name == name), None)
    if summary is None and snapshot.complete:
        return SkillToolResult(False, unknown_skill_text(name), "unknown-skill")
    if summary is not None and not summary.invocation.model_invocable:
        return _not_model_invocable(name, summary.invocation)
    definition = await registry.get(name, cwd=cwd, scope=scope)
    if definition is None:
        return SkillToolResult(False, unknown_skill_text(name), "unknown-skill")
    if not definition.invocation.model_invocable:
        return _not_model_invocable(name, definition.invocation)
    return SkillToolResult(True, render_skill_content(definition))


def _not_model_invocable(name: str, invocation: InvocationPolicy) -> SkillToolResult:
    text = not_model_invocable_text(name, user_invocable=invocation.user_invocable)
    return SkillToolResult(False, text, "not-model-invocable")
