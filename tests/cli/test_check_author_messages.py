"""``skilldeck check`` reports the rules that tell authors what they got wrong."""

from __future__ import annotations

import json
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


@pytest.mark.parametrize("target", [".dsh/skills/skills/pdf-summary/SKILL.md", ".dsh/skills"])
def test_check_of_the_nested_file_or_its_root_reports_it(
    run: Run, project: Path, target: str
) -> None:
    result = run("check", target, cwd=project)
    assert result.code == 0, result.stderr
    assert result.stdout.splitlines()[0] == NESTED


def test_check_reports_a_placeholder_description(run: Run, tmp_path: Path) -> None:
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    write(root / ".dsh/skills/draft.md", skill("draft", "TODO"))
    result = run("check", cwd=root)
    assert result.code == 0, result.stderr
    assert result.stdout.splitlines()[0] == (
        ".dsh/skills/draft.md:3:14: SD207 warning description is a placeholder ('TODO'); the "
        "model picks skills by their description: say what this skill does and when to use it"
    )
    strict = run("check", "--fail-on", "warning", cwd=root)
    assert strict.code == 1


def test_check_words_a_yaml_error_for_the_author(run: Run, tmp_path: Path) -> None:
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    write(root / ".dsh/skills/tabs.md", "---\nname: tabs\ndescription: d\nmetadata:\n\tv: 1\n---\n")
    result = run("check", cwd=root)
    assert result.code == 1
    assert result.stdout.splitlines()[0] == (
        ".dsh/skills/tabs.md:5:1: SD103 error invalid YAML in frontmatter: tab used for "
        "indentation; YAML needs spaces (skill not loaded)"
    )


def test_rules_shows_the_message_a_dropping_finding_carries(run: Run) -> None:
    result = run("rules", "SD302")
    assert result.code == 0, result.stderr
    assert "Message: '{key}' must be true or false, found {found} (skill not loaded)" in (
        result.stdout.splitlines()
    )
    assert "Message: not a skill: {reason}" in run("rules", "SD007").stdout.splitlines()


def test_check_says_a_file_with_lone_cr_line_breaks_has_none(run: Run, tmp_path: Path) -> None:
    # Old Mac line endings: no line break skilldeck (or an agent) reads, so no frontmatter.
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    path = write(root / ".agents/skills/a/SKILL.md", "")
    path.write_bytes(b"---\rname: a\rdescription: Does a thing\r---\rbody\r")
    message = (
        "missing frontmatter: the opening '---' ends in a lone carriage return (CR), which "
        "skilldeck, like the agents, does not read as a line break; save the file with LF "
        "or CRLF line endings (skill not loaded)"
    )
    result = run("check", cwd=root)
    assert result.code == 1
    assert result.stdout.splitlines()[0] == f".agents/skills/a/SKILL.md:1:1: SD101 error {message}"
    (finding,) = json.loads(run("check", "--format", "json", cwd=root).stdout)
    assert finding["message"] == message
    assert finding["range"] == {
        "start": {"line": 0, "character": 0},
        "end": {"line": 0, "character": 3},
    }
    # No fix: converting the line breaks rewrites the body, which a fix never touches.
    run("check", "--fix", "--unsafe-fixes", "--no-cache", cwd=root)
    assert path.read_bytes() == b"---\rname: a\rdescription: Does a thing\r---\rbody\r"
    # Any other first line keeps the general words.
    path.write_bytes(b"# Title\n---\nname: a\n---\n")
    assert run("check", cwd=root).stdout.splitlines()[0] == (
        ".agents/skills/a/SKILL.md:1:1: SD101 error missing frontmatter: the first line must "
        "be exactly '---' (skill not loaded)"
    )
