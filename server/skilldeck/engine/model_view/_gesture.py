"""The user's ``/name`` gesture: the user invokes a skill by naming it (SPEC section 5).

A mention is ``/`` plus a kebab-case skill name, standing at the start of the message
or after whitespace, and followed by whitespace or the end of the message. So
``/review now`` and ``please /review`` are mentions, while ``a/b``, ``/review.``,
``/usr/bin`` and ``http://x`` are not. Scan only text the user typed: the caller
decides which messages are the user's.

Text in Markdown code is not a gesture: a fenced code block (a line opening with three
or more backticks or tildes, through its closing fence or the end of the message) and
an inline code span (a run of backticks through the next run of the same length, within
one paragraph) are skipped, so ``rm -rf /tmp`` in a code block never names a skill
``tmp``. The editor's completion, references and rename use this same grammar.

This is the only way in for skills with ``disable-model-invocation``; skills with
``user-invocable: false`` are left alone here, as are unknown names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from skilldeck.engine.model_view._skill_tool import SkillLookup, render_skill_content

#: ``/name`` at the start or after whitespace, ending at whitespace or the end. Written to
#: start with the literal ``/`` (the lookbehind then checks the character before it), so
#: the engine scans for ``/`` instead of trying every position: ~18x faster on a body.
_MENTION = re.compile(r"/(?<!\S/)([a-z0-9]+(?:-[a-z0-9]+)*)(?=\s|\Z)")
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
_BACKTICKS = re.compile(r"`+")
_PARAGRAPH_END = re.compile(r"(?:\r\n|\r|\n)[ \t]*(?:\r\n|\r|\n)")


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
    """Every ``/name`` token in ``message``, in order, repeats included (code-point offsets).

    Tokens inside Markdown code are left out (see the module doc).
    """
    if "/" not in message:
        return []
    found = [
        Mention(match.group(1), match.start(), match.end()) for match in _MENTION.finditer(message)
    ]
    if not found or ("`" not in message and "~~~" not in message):
        return found
    regions = code_regions(message)
    return [m for m in found if not any(start <= m.start < end for start, end in regions)]


def code_regions(message: str) -> list[tuple[int, int]]:
    """``(start, end)`` offsets of the Markdown code in ``message``: fenced blocks (fence
    lines included) and inline code spans (backticks included), in order."""
    regions: list[tuple[int, int]] = []
    prose_start = 0
    for start, end in fenced_blocks(message):
        regions.extend(_inline_code(message, prose_start, start))
        regions.append((start, end))
        prose_start = end
    regions.extend(_inline_code(message, prose_start, len(message)))
    return regions


def fenced_blocks(message: str) -> list[tuple[int, int]]:
    """``(start, end)`` offsets of the fenced code blocks in ``message``, fence lines
    included (``end`` is the end of the closing fence line, or of the message)."""
    blocks: list[tuple[int, int]] = []
    fence: str | None = None
    fence_start = 0
    for offset, end in _fence_lines(message):
        line = message[offset:end]
        match = _FENCE.match(line)
        if fence is None:
            if match is not None and not (match.group(1)[0] == "`" and "`" in line[match.end() :]):
                fence, fence_start = match.group(1), offset
        elif (
            match is not None
            and match.group(1)[0] == fence[0]
            and len(match.group(1)) >= len(fence)
            and not line[match.end() :].strip()
        ):
            blocks.append((fence_start, end))
            fence = None
    if fence is not None:
        blocks.append((fence_start, len(message)))
    return blocks


def _fence_lines(message: str) -> list[tuple[int, int]]:
    """The ``(start, end)`` of each line that holds three backticks or tildes, in order
    (``end`` before its line break): only those can open or close a fence, so the other
    lines are never looked at (found by substring search)."""
    lines: dict[int, int] = {}
    for mark in ("```", "~~~"):
        at = message.find(mark)
        while at >= 0:
            start = max(message.rfind("\n", 0, at), message.rfind("\r", 0, at)) + 1
            end = _line_end(message, at)
            lines[start] = end
            at = message.find(mark, end)
    return sorted(lines.items())


def _line_end(message: str, at: int) -> int:
    """Where the line holding ``at`` ends: its line break, or the end of ``message``."""
    newline, carriage = message.find("\n", at), message.find("\r", at)
    if newline < 0:
        return len(message) if carriage < 0 else carriage
    return newline if carriage < 0 else min(newline, carriage)


def _inline_code(message: str, start: int, end: int) -> list[tuple[int, int]]:
    """Inline code spans in ``message[start:end]``: a backtick run through the next run of
    the same length in the same paragraph (an unmatched run is literal text)."""
    regions: list[tuple[int, int]] = []
    runs = list(_BACKTICKS.finditer(message, start, end))
    index = 0
    while index < len(runs):
        opener = runs[index]
        width = len(opener.group())
        for later in range(index + 1, len(runs)):
            closer = runs[later]
            if _PARAGRAPH_END.search(message, opener.end(), closer.start()):
                break
            if len(closer.group()) == width:
                regions.append((opener.start(), closer.end()))
                index = later
                break
        index += 1
    return regions


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
