from __future__ import annotations

import re
from pathlib import Path

from ruamel.yaml import YAML

from skilldeck.engine.filesystem._bundled import (
    BUNDLED_PROVIDER_NAME,
    BUNDLED_SKILL_DESCRIPTION,
    BUNDLED_SKILL_NAME,
    BundledProvider,
    bundled_provider_factory,
    bundled_skill_folder,
    skill_body,
)
from skilldeck.engine.model_view._catalog import render_catalog
from skilldeck.engine.model_view._resources import resolve_resource
from skilldeck.engine.model_view._skill_tool import execute_skill_tool
from skilldeck.engine.registry._model import (
    DirectoryResourceBase,
    InvocationPolicy,
    SkillCandidate,
    SkillDefinition,
)
from skilldeck.engine.registry._provider import LookupOptions, SkillProvider
from skilldeck.engine.registry._registry import SkillRegistry

SKILL_FILE = Path(str(bundled_skill_folder() / "SKILL.md"))


def test_packaged_frontmatter_matches_the_advertised_summary() -> None:
    text = SKILL_FILE.read_text(encoding="utf-8")
    front = text.split("---\n")[1]
    fields = YAML(typ="safe").load(front)
    assert fields == {"name": BUNDLED_SKILL_NAME, "description": BUNDLED_SKILL_DESCRIPTION}
    assert len(BUNDLED_SKILL_DESCRIPTION) <= 500  # fits the default catalog cap uncut


async def test_disabled_by_default_lists_and_loads_nothing() -> None:
    registry = SkillRegistry()
    registry.register_provider(bundled_provider_factory())
    snapshot = await registry.snapshot(cwd="/anywhere")
    assert snapshot.skills == () and snapshot.complete
    assert await registry.get(BUNDLED_SKILL_NAME) is None


async def test_enabled_provider_serves_the_packaged_skill() -> None:
    registry = SkillRegistry()
    registry.register_provider(bundled_provider_factory(enabled=True))
    (summary,) = (await registry.snapshot()).skills
    assert summary.name == BUNDLED_SKILL_NAME
    assert summary.source == "bundled"
    assert summary.provider == BUNDLED_PROVIDER_NAME == "skilldeck-bundled"
    assert summary.invocation == InvocationPolicy(model_invocable=True, user_invocable=True)
    assets = SKILL_FILE.parent / "assets"
    assert summary.resource_base == DirectoryResourceBase(str(assets))
    resolution = await registry.resolve()
    assert resolution.names[BUNDLED_SKILL_NAME].winner.candidate.rank == 600

    loaded = await registry.get(BUNDLED_SKILL_NAME)
    assert loaded is not None
    assert loaded.content == skill_body(SKILL_FILE.read_text(encoding="utf-8"))
    assert loaded.content.startswith("# Writing a good skill\n")
    assert "---" not in loaded.content.splitlines()[0]
    assert loaded.path == str(SKILL_FILE)

    assert f"- `{BUNDLED_SKILL_NAME}`: {BUNDLED_SKILL_DESCRIPTION}" in render_catalog([summary])
    result = await execute_skill_tool(registry, {"name": BUNDLED_SKILL_NAME})
    assert result.ok and f"Skill folder: {assets}\n" in result.text


async def test_every_resource_the_body_mentions_resolves_inside_the_assets() -> None:
    provider = BundledProvider(enabled=True)
    (candidate,) = await provider.list(LookupOptions())
    loaded = await provider.get(candidate, LookupOptions())
    assert loaded is not None
    mentioned = re.findall(r"^- `([a-z-]+\.md)`:", loaded.content, flags=re.MULTILINE)
    assert mentioned == ["checklist.md", "skill-template.md"]
    for reference in mentioned:
        resolved = resolve_resource(loaded, reference)
        assert resolved is not None and Path(resolved.location).is_file()
        assert Path(resolved.location).read_text(encoding="utf-8").strip()
    assert resolve_resource(loaded, "../SKILL.md") is None


async def test_a_project_skill_of_the_same_name_wins() -> None:
    registry = SkillRegistry()
    registry.register_provider(bundled_provider_factory(enabled=True))
    registry.register(
        SkillDefinition(
            name=BUNDLED_SKILL_NAME,
            description="Ours.",
            source="runtime",
            provider="runtime",
            content="Local body.",
        )
    )
    loaded = await registry.get(BUNDLED_SKILL_NAME)
    assert loaded is not None and loaded.content == "Local body."


async def test_provider_satisfies_the_protocol_and_refuses_other_names() -> None:
    disabled = BundledProvider(enabled=False)
    assert isinstance(disabled, SkillProvider)
    assert disabled.name == "skilldeck-bundled" and not disabled.enabled
    enabled = BundledProvider(enabled=True)
    (candidate,) = await enabled.list(LookupOptions())
    assert await disabled.get(candidate, LookupOptions()) is None
    other = SkillCandidate(
        name="other", description="x", source="bundled", provider=enabled.name, rank=600
    )
    assert await enabled.get(other, LookupOptions()) is None


def test_skill_body_split() -> None:
    assert skill_body("---\nname: x\n---\n\nBody.\n") == "Body."
    assert skill_body("---\r\nname: x\r\n---\r\nBody.\r\n") == "Body."
    assert skill_body("No frontmatter.\n") == "No frontmatter."
