"""``skilldeck check --profile agentskills`` judges names as the Agent Skills standard does."""

from __future__ import annotations

import json
from pathlib import Path

from cli_helpers import Run, skill, write


def test_agentskills_names_through_the_cli(run: Run, tmp_path: Path) -> None:
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    skills = root / ".agents/skills"
    write(skills / "навык/SKILL.md", skill("навык"))
    write(skills / "НАВЫК/SKILL.md", skill("НАВЫК"))
    write(skills / "forms/SKILL.md", skill("pdf-forms"))
    result = run("check", "--format", "json", "--profile", "agentskills", cwd=root)
    items = json.loads(result.stdout)
    seen = sorted((Path(i["path"]).parent.name, i["code"], i["severity"]) for i in items)
    assert seen == [
        ("forms", "SD206", "error"),
        ("НАВЫК", "SD203", "error"),
        ("навык", "SD606", "warning"),
    ]
    assert result.code == 1
    dsh = json.loads(run("check", "--format", "json", cwd=root).stdout)
    assert sorted((Path(i["path"]).parent.name, i["code"], i["severity"]) for i in dsh) == [
        ("forms", "SD206", "warning"),
        ("НАВЫК", "SD203", "error"),
        ("навык", "SD203", "error"),
    ]
