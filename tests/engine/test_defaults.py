"""The embedded default registry every front end starts from."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from skilldeck import SkilldeckConfig, default_registry
from skilldeck.engine.config._skilldeck_config import ConfigError, load_config_file


def _skill(root: Path, name: str, description: str) -> None:
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(
        f"---\nname: {name}\ndescription: {description}\n---\nDo the {name} thing.\n",
        encoding="utf-8",
    )


def _config(tmp_path: Path, *, bundled_skills: bool = False) -> SkilldeckConfig:
    base = SkilldeckConfig(
        dsh_home=str(tmp_path / "home-dsh"), agents_home=str(tmp_path / "home-agents")
    )
    return replace(base, bundled_skills=bundled_skills)


async def test_default_registry_lists_project_skills_and_shadowing(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    _skill(project / ".dsh" / "skills", "review", "Project review.")
    _skill(project / ".agents" / "skills", "review", "Agents review.")
    _skill(tmp_path / "home-agents" / "skills", "deploy", "User deploy.")
    registry = default_registry(_config(tmp_path))

    snapshot = await registry.snapshot(cwd=str(project))
    assert snapshot.complete
    assert [(s.name, s.description, s.source) for s in snapshot.skills] == [
        ("deploy", "User deploy.", "user-agents"),
        ("review", "Project review.", "project-dsh"),
    ]
    resolution = await registry.resolve(cwd=str(project))
    shadowed = resolution.names["review"].shadowed
    assert [r.candidate.source for r in shadowed] == ["project-agents"]

    loaded = await registry.get("review", cwd=str(project))
    assert loaded is not None
    assert loaded.content.strip() == "Do the review thing."


async def test_bundled_skill_only_when_enabled(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    off = await default_registry(_config(tmp_path)).list(cwd=str(project))
    assert [s.name for s in off] == []

    on = await default_registry(_config(tmp_path, bundled_skills=True)).list(cwd=str(project))
    assert [(s.name, s.source, s.provider) for s in on] == [
        ("skill-authoring", "bundled", "skilldeck-bundled")
    ]


def test_bundled_skills_config_key(tmp_path: Path) -> None:
    good = tmp_path / "skilldeck.toml"
    good.write_text("bundled-skills = true\n", encoding="utf-8")
    assert SkilldeckConfig().merged(load_config_file(good)).bundled_skills is True

    bad = tmp_path / "bad" / "skilldeck.toml"
    bad.parent.mkdir()
    bad.write_text('bundled-skills = "yes"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="'bundled-skills' must be true or false"):
        load_config_file(bad)
