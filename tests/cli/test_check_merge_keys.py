"""``skilldeck check`` reads YAML merge keys (``<<``) as ruamel's safe loader does
(SPEC §2): a merged key counts, its findings point where it is written, and a fix never
rewrites a key that comes in through an alias."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import Run, write


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    # The keys holding the anchors are keys nothing reads (SD405, a hint): not the subject.
    write(root / "skilldeck.toml", '[rules]\nSD405 = "off"\n')
    return root


def test_a_merged_description_loads_the_skill(run: Run, project: Path) -> None:
    write(
        project / ".agents/skills/a/SKILL.md",
        "---\nbase: &b\n  description: Does a thing when asked about widgets\nname: a\n"
        "<<: *b\n---\nbody\n",
    )
    result = run("check", cwd=project)
    assert result.code == 0, result.stderr
    assert result.stdout.splitlines() == ["No problems found in 1 skill file."]
    listed = run("list", "--json", cwd=project)
    assert '"description": "Does a thing when asked about widgets"' in listed.stdout


def test_a_finding_on_a_merged_value_points_at_the_anchored_value(run: Run, project: Path) -> None:
    write(
        project / ".agents/skills/a/SKILL.md",
        "---\nbase: &b\n  name: wrong-name\n  description: Does a thing.\n<<: *b\n---\nbody\n",
    )
    result = run("check", cwd=project)
    assert result.stdout.splitlines()[0] == (
        ".agents/skills/a/SKILL.md:3:9: SD206 warning name 'wrong-name' differs from its folder 'a'"
    )


def test_an_invalid_merge_is_invalid_yaml_at_the_merged_value(run: Run, project: Path) -> None:
    write(
        project / ".agents/skills/a/SKILL.md",
        "---\nname: a\ndescription: Does a thing.\nnote: &n text\n<<: *n\n---\nbody\n",
    )
    result = run("check", "--format", "json", cwd=project)
    assert result.code == 1
    (finding,) = json.loads(result.stdout)
    assert finding["code"] == "SD103"
    assert finding["message"] == (
        "invalid YAML in frontmatter: the merge key '<<' takes a mapping or a list of "
        "mappings, not the string 'text' (skill not loaded)"
    )
    assert finding["range"] == {
        "start": {"line": 4, "character": 4},
        "end": {"line": 4, "character": 6},
    }


ALIASED_LEGACY = (
    "---\nname: a\ndescription: Does a thing.\nshared: &s\n  disableModelInvocation: true\n"
    "<<: *s\n---\nbody\n"
)


def test_a_legacy_key_merged_through_an_alias_is_reported_and_never_rewritten(
    run: Run, project: Path
) -> None:
    path = write(project / ".agents/skills/a/SKILL.md", ALIASED_LEGACY)
    result = run("check", cwd=project)
    assert result.code == 1
    assert result.stdout.splitlines()[0] == (
        ".agents/skills/a/SKILL.md:5:3: SD301 error unsupported key 'disableModelInvocation': "
        "use 'disable-model-invocation' (skill not loaded)"
    )
    # Renaming the key in the anchored mapping would change 'shared' too: no fix.
    fixed = run("check", "--fix", "--unsafe-fixes", "--no-cache", cwd=project)
    assert path.read_text(encoding="utf-8") == ALIASED_LEGACY
    assert fixed.stdout.splitlines()[0] == "Fixed 0 problems."
    diff = run("check", "--diff", "--unsafe-fixes", "--no-cache", cwd=project)
    assert "+++" not in diff.stdout


def test_a_legacy_key_merged_inline_is_renamed_where_it_is_written(run: Run, project: Path) -> None:
    text = "---\nname: a\ndescription: Does a thing.\n<<: {disableModelInvocation: true}\n---\n"
    path = write(project / ".agents/skills/a/SKILL.md", text)
    result = run("check", "--fix", "--unsafe-fixes", "--no-cache", cwd=project)
    assert result.stdout.splitlines()[0] == (
        "Fixed .agents/skills/a/SKILL.md: SD301 Rename to 'disable-model-invocation' (line 4)"
    )
    assert path.read_text(encoding="utf-8") == text.replace(
        "disableModelInvocation", "disable-model-invocation"
    )
    assert run("check", cwd=project).stdout.splitlines() == ["No problems found in 1 skill file."]
