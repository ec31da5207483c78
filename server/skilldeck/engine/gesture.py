"""The user's ``/name`` gesture: the user invokes a skill by naming it (SPEC section 5).

A mention is ``/`` plus a kebab-case skill name, standing at the start of the message
or after whitespace, and followed by whitespace or the end of the message. So
``/review now`` and ``please /review`` are mentions, while ``a/b``, ``/review.``,
``/usr/bin`` and ``http://x`` are not. Scan only text the user typed: the caller
decides which messages are the user's.

This is the only way in for skills with ``disable-model-invocation``; skills with
``user-invocable: false`` are left alone here, as are unknown names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from skilldeck.engine.skill_tool import SkillLookup, render_skill_content

_MENTION = re.compile(r"(?:^|(?<=\s))/([a-z0-9]+(?:-[a-z0-9]+)*)(?=\s|\Z)")


@dataclass(frozen=True, slots=True)
class Mention:
    """One ``/name`` token: ``start`` is the index of ``/``, ``end`` is just past the name."""

    name: str
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class SkillInjection:
    """A skill the user invoked: its name and the ``<skill_content>`` text to inject."""

    name: str
    text: str


def find_skill_mentions(message: str) -> list[Mention]:
    """Every ``/name`` token in ``message``, in order, repeats included (code-point offsets)."""
    return [
        Mention(match.group(1), match.start(), match.end()) for match in _MENTION.finditer(message)
    ]


async def expand_user_message(
    registry: SkillLookup,
    message: str,
    *,
    cwd: str | None = None,
    scope: Any = None,
) -> list[SkillInjection]:
    """The skill contents to inject after a user ``message``, in order of first mention.

    Each named skill is loaded once per message (fresh body, via ``registry.get``) and
    injected only when the loaded definition is user-invocable. The user's text itself is
    not changed; append each injection as a user-role message after it.
    """
    injections: list[SkillInjection] = []
    seen: set[str] = set()
    for mention in find_skill_mentions(message):
        if mention.name in seen:
            continue
        seen.add(mention.name)
        definition = await registry.get(mention.name, cwd=cwd, scope=scope)
        if definition is None or not definition.invocation.user_invocable:
            continue
        injections.append(SkillInjection(mention.name, render_skill_content(definition)))
    return injections
