"""``skilldeck check`` reports the rules that tell authors what they got wrong."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_helpers import Run, skill, write

NESTED = (
    ".dsh/skills/skills/pdf-summary/SKILL.md:1:1: SD007 information not a skill: nested one "
    "level too deep; expected .dsh/skills/<name>/SKILL.md"
)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    write(root / ".dsh/skills/good/SKILL.md", skill("good", "Fine."))
    write(root / ".dsh/skills/skills/pdf-summary/SKILL.md", skill("pdf-summary", "Sums."))
    return root


def test_check_of_a_project_reports_a_nested_skill_file(run: Run, project: Path) -> None:
    result = run("check", cwd=project)
    assert result.code == 0, result.stderr
    assert result.stdout.splitlines() == [
        NESTED,
        "Found 1 problem (1 info) in 2 skill files; 0 skills dropped.",
    ]


def test_check_of_the_nested_file_itself_reports_it(run: Run, project: Path) -> None:
    result = run("check", ".dsh/skills/skills/pdf-summary/SKILL.md", cwd=project)
    assert result.code == 0, result.stderr
    assert result.stdout.splitlines()[0] == NESTED
