"""Placeholder text an author has not replaced yet.

The new-skill completion snippet and the "add a description" quick fix insert
:data:`DESCRIPTION_PLACEHOLDER`; :func:`is_placeholder_description` recognises it and
the obvious stand-ins ("TODO", "TBD", "description", ...) so the catalog never
publishes them unflagged (``SD207``).
"""

from __future__ import annotations

import re

from skilldeck.engine.text import collapse_whitespace

#: The description the snippet and the quick fix insert, for the author to replace.
DESCRIPTION_PLACEHOLDER = "Describe what this skill does and when to use it."

_STAND_INS = frozenset(
    {
        "todo",
        "tbd",
        "tbc",
        "fixme",
        "xxx",
        "wip",
        "description",
        "placeholder",
        "description goes here",
        "add a description",
        "add description",
        "write a description",
        "describe the skill",
        "describe this skill",
        "skill description",
        "a description",
        "lorem ipsum",
        "...",
        "…",
    }
)
_LONGEST_STAND_IN = max(len(stand_in) for stand_in in _STAND_INS)
_MARKER_PREFIX = re.compile(r"^(?:todo|tbd|fixme|xxx)\b(?:\s*[:(\-]|\s*$)", re.IGNORECASE)
_WRAPPING = " \t.:;!?-_*#\"'`<>[](){}"


def is_placeholder_description(value: str) -> bool:
    """True when ``value`` is the snippet's placeholder or an obvious stand-in."""
    text = collapse_whitespace(value)
    if text == DESCRIPTION_PLACEHOLDER:
        return True
    core = text.strip(_WRAPPING)
    # Only a text as short as a stand-in can be one (every description is asked: a real
    # one is not lower-cased and looked up).
    if len(core) <= _LONGEST_STAND_IN and (
        core.lower() in _STAND_INS or text.strip() in _STAND_INS
    ):
        return True
    head = text.lstrip(_WRAPPING)
    return head[:11].lower() == "lorem ipsum" or _MARKER_PREFIX.match(head) is not None
