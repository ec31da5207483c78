"""The optional bundled provider: one immutable skill of ours, shipped inside the package.

The skill lives at ``skilldeck/bundled/skill-authoring/SKILL.md`` (read with
``importlib.resources``); its ``assets/`` folder is the skill's resource base, so the
files the body mentions resolve there. Rank 600 (``bundled``) means any user or project
skill of the same name wins.

The provider is **off unless configured**: register
``bundled_provider_factory(enabled=...)`` with ``enabled`` taken from the host's
configuration (``False`` by default). A disabled provider lists nothing and loads
nothing, so registering it is always safe. For skilldeck's own front ends the intended
switch is a boolean ``bundled-skills`` setting in ``skilldeck.toml`` /
``[tool.skilldeck]`` (``SkilldeckConfig``); this is unrelated to ``bundled-skill-dir``,
which names a filesystem root of the same rank.
"""

from __future__ import annotations

import pathlib
import sys
from collections.abc import Sequence
from importlib import resources

from skilldeck.engine.frontmatter import FrontmatterBounds, find_frontmatter
from skilldeck.engine.registry import (
    RANK_BUNDLED,
    SOURCE_BUNDLED,
    DirectoryResourceBase,
    InvocationPolicy,
    LookupOptions,
    OpaqueResourceBase,
    ProviderControl,
    ProviderFactory,
    ResourceBase,
    SkillCandidate,
    SkillDefinition,
)
from skilldeck.engine.text import trim_body

if sys.version_info >= (3, 11):
    from importlib.resources.abc import Traversable
else:
    from importlib.abc import Traversable

BUNDLED_PROVIDER_NAME = "skilldeck-bundled"
BUNDLED_SKILL_NAME = "skill-authoring"
BUNDLED_SKILL_DESCRIPTION = (
    "Write or improve an agent skill (a SKILL.md with name and description frontmatter). "
    "Use when the user asks to create, review, rename or tighten a skill, or to turn a "
    "repeated workflow into one."
)


def bundled_skill_folder() -> Traversable:
    """The packaged skill's folder (``SKILL.md`` plus ``assets/``)."""
    return resources.files("skilldeck") / "bundled" / BUNDLED_SKILL_NAME


def _local_path(item: Traversable) -> str | None:
    return str(item) if isinstance(item, pathlib.Path) else None


def _resource_base(folder: Traversable) -> ResourceBase:
    assets = _local_path(folder / "assets")
    if assets is not None:
        return DirectoryResourceBase(assets)
    return OpaqueResourceBase(
        "packaged inside the skilldeck Python package (skilldeck/bundled/"
        f"{BUNDLED_SKILL_NAME}/assets); read them with importlib.resources"
    )


def skill_body(text: str) -> str:
    """The Markdown body of our own ``SKILL.md`` (what follows the closing ``---`` line),
    trimmed as every skill body is (:func:`~skilldeck.engine.text.trim_body`)."""
    bounds = find_frontmatter(text)
    body = text[bounds.body_start :] if isinstance(bounds, FrontmatterBounds) else text
    return trim_body(body)


def bundled_candidate() -> SkillCandidate:
    """Our packaged skill as a candidate (what the provider lists when enabled)."""
    folder = bundled_skill_folder()
    return SkillCandidate(
        name=BUNDLED_SKILL_NAME,
        description=BUNDLED_SKILL_DESCRIPTION,
        source=SOURCE_BUNDLED,
        provider=BUNDLED_PROVIDER_NAME,
        invocation=InvocationPolicy(model_invocable=True, user_invocable=True),
        resource_base=_resource_base(folder),
        rank=RANK_BUNDLED,
        locator=BUNDLED_SKILL_NAME,
        path=_local_path(folder / "SKILL.md"),
    )


class BundledProvider:
    """A ``SkillProvider`` with one packaged skill, or none when disabled."""

    def __init__(self, *, enabled: bool) -> None:
        self._enabled = enabled
        self._skill_file = bundled_skill_folder() / "SKILL.md"
        self._candidate = bundled_candidate()

    @property
    def name(self) -> str:
        return BUNDLED_PROVIDER_NAME

    @property
    def enabled(self) -> bool:
        """Whether the configuration turned the bundled skill on."""
        return self._enabled

    async def list(self, options: LookupOptions) -> Sequence[SkillCandidate]:
        """The packaged skill when enabled; nothing otherwise. ``cwd`` does not matter."""
        return (self._candidate,) if self._enabled else ()

    async def get(
        self, candidate: SkillCandidate, options: LookupOptions
    ) -> SkillDefinition | None:
        """Read the packaged body afresh; ``None`` when disabled or asked for another skill."""
        if not self._enabled or candidate.name != BUNDLED_SKILL_NAME:
            return None
        body = skill_body(self._skill_file.read_text(encoding="utf-8"))
        return SkillDefinition(
            name=self._candidate.name,
            description=self._candidate.description,
            source=self._candidate.source,
            provider=self._candidate.provider,
            invocation=self._candidate.invocation,
            resource_base=self._candidate.resource_base,
            content=body,
            path=self._candidate.path,
        )


def bundled_provider_factory(enabled: bool = False) -> ProviderFactory:
    """A factory for ``SkillRegistry.register_provider``; disabled unless ``enabled``."""

    def create(control: ProviderControl) -> BundledProvider:
        return BundledProvider(enabled=enabled)

    return create
