"""Value types of the skill system (SPEC sections 3-5).

These are the public, provider-neutral shapes that flow between providers, the
registry and consumers. They carry no I/O and no LSP types.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

SKILL_NAME_PATTERN = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")

#: Standard precedence ranks of the built-in sources (lower wins inside one layer).
RANK_PROJECT_DSH = 100
RANK_PROJECT_AGENTS = 200
RANK_RUNTIME = 250
RANK_CUSTOM = 300
RANK_USER_DSH = 400
RANK_USER_AGENTS = 500
RANK_BUNDLED = 600

#: Source labels of the built-in roots. Other providers may use their own strings.
SOURCE_PROJECT_DSH = "project-dsh"
SOURCE_PROJECT_AGENTS = "project-agents"
SOURCE_RUNTIME = "runtime"
SOURCE_CUSTOM = "custom"
SOURCE_USER_DSH = "user-dsh"
SOURCE_USER_AGENTS = "user-agents"
SOURCE_BUNDLED = "bundled"


def is_skill_name(name: str) -> bool:
    """True when ``name`` is a valid kebab-case skill name."""
    return SKILL_NAME_PATTERN.fullmatch(name) is not None


@dataclass(frozen=True, slots=True)
class InvocationPolicy:
    """Who may invoke a skill. Both default to permitted."""

    model_invocable: bool = True
    user_invocable: bool = True


@dataclass(frozen=True, slots=True)
class DirectoryResourceBase:
    """Relative resources resolve against a local directory (the skill's folder)."""

    path: str
    kind: Literal["directory"] = "directory"


@dataclass(frozen=True, slots=True)
class UrlResourceBase:
    """Relative resources resolve against a base URL."""

    url: str
    kind: Literal["url"] = "url"


@dataclass(frozen=True, slots=True)
class OpaqueResourceBase:
    """Resources are managed by the provider; ``description`` tells the model how."""

    description: str
    kind: Literal["opaque"] = "opaque"


ResourceBase = DirectoryResourceBase | UrlResourceBase | OpaqueResourceBase


@dataclass(frozen=True, kw_only=True)
class SkillSummary:
    """Invocation-neutral metadata of a skill, as ``list()`` returns it."""

    name: str
    description: str
    source: str
    provider: str
    invocation: InvocationPolicy = field(default_factory=InvocationPolicy)
    when_to_use: str | None = None
    resource_base: ResourceBase | None = None


@dataclass(frozen=True, kw_only=True)
class SkillCandidate(SkillSummary):
    """A provider's catalog entry; the registry merges candidates by name.

    ``locator`` is an opaque provider-owned handle given back to ``provider.get()``.
    """

    rank: int
    locator: object = None
    path: str | None = None
    metadata: Mapping[str, object] | None = None


@dataclass(frozen=True, kw_only=True)
class SkillDefinition(SkillSummary):
    """A loaded skill: summary plus its Markdown body (``content``), read fresh."""

    content: str
    path: str | None = None
    metadata: Mapping[str, object] | None = None
