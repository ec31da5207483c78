"""Paths the OS refuses or that name nothing skilldeck reads: a precise message, exit 2."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_helpers import Run, skill, write


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / ".git").mkdir(parents=True)
    write(root / ".dsh/skills/fine/SKILL.md", skill("fine"))
    return root


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ('custom-skill-dirs = ["team\\u0000skills"]\n', "custom-skill-dirs"),
        ('bundled-skill-dir = "b\\u0000"\n', "bundled-skill-dir"),
    ],
)
def test_a_nul_in_a_config_path_names_the_key(run: Run, project: Path, text: str, key: str) -> None:
    config = write(project / "skilldeck.toml", text)
    for command in (("check",), ("list",), ("catalog",), ("roots",)):
        result = run(*command, cwd=project)
        assert (result.code, result.stdout) == (2, ""), command
        assert result.stderr == (
            f"skilldeck: {config}: '{key}' must not contain a NUL character\n"
        ), command
