"""An agent's own settings change what it lists: ``list --host``, ``catalog --host``,
``budget --host`` and ``check --host`` read them from the files (and variables) that
agent reads, say which they applied, and see an edit to them.

The behaviours are the host lab's observations (``tests/hosts/cases.toml``, the ``s-*``
cases, and ``l-claude-synced``; recorded from Claude Code 2.1.332, OpenCode 1.18.33 and
Kimi Code 2.1.0): here they are held through the CLI on real files.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import Run, skill, write


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / ".git").mkdir(parents=True)
    for name in ("deploy", "notes", "review", "lint"):
        write(root / f".claude/skills/{name}/SKILL.md", skill(name, f"The {name} skill."))
    return root


def test_claude_code_skill_overrides_from_the_project_and_the_user(
    run: Run, project: Path, home: Path
) -> None:
    # skillOverrides is keyed by the skill's folder; the project's file wins over the
    # user's key by key, .claude/settings.local.json over both (s-claude-overrides-user)
    write(home / ".claude/settings.json", '{"skillOverrides": {"deploy": "off", "lint": "off"}}')
    write(project / ".claude/settings.json", '{"skillOverrides": {"lint": "on"}}')
    write(
        project / ".claude/settings.local.json",
        '{"skillOverrides": {"notes": "name-only", "review": "user-invocable-only"}}',
    )
    result = run("list", "--host", "claude-code", cwd=project)
    assert result.code == 0, result.stderr
    assert result.stdout.splitlines() == [
        "Claude Code (claude-code, as of Claude Code 2.1.332): 4 skill files found, 3 loaded",
        "  settings read: ~/.claude/settings.json",
        f"  settings read: {project}/.claude/settings.json",
        f"  settings read: {project}/.claude/settings.local.json",
        "  skill overrides: deploy=off, lint=on, notes=name-only, review=user-invocable-only",
        "  no     deploy  .claude/skills/deploy/SKILL.md  turned off by skillOverrides "
        "(settings.json, settings.json, settings.local.json)",
        "  loads  lint    .claude/skills/lint/SKILL.md  [catalog: full]",
        "  loads  notes   .claude/skills/notes/SKILL.md  [catalog: name-only]",
        "  loads  review  .claude/skills/review/SKILL.md  [catalog: left-out]",
    ]
    catalog = run("catalog", "--host", "claude-code", cwd=project)
    assert catalog.code == 0, catalog.stderr
    assert catalog.stdout == (
        "The following skills are available for use with the Skill tool:\n\n"
        "- lint: The lint skill.\n"
        "- notes\n"
    )


def test_claude_code_entry_cap_from_settings(run: Run, project: Path, home: Path) -> None:
    # skillListingMaxDescChars: the project's value over the user's, the ellipsis
    # counted (s-claude-maxdesc, s-claude-maxdesc-user)
    write(home / ".claude/settings.json", '{"skillListingMaxDescChars": 10}')
    write(project / ".claude/settings.json", '{"skillListingMaxDescChars": 12}')
    result = run("catalog", "--host", "claude-code", cwd=project)
    assert result.code == 0, result.stderr
    assert "- deploy: The deploy \u2026\n" in result.stdout
    budget = json.loads(run("budget", "--host", "claude-code", "--json", cwd=project).stdout)
    states = {entry["name"]: (entry["state"], entry["shownChars"]) for entry in budget["entries"]}
    assert states["deploy"] == ("cut", 12)
    assert result.stdout.splitlines()[2:] == [
        "- deploy: The deploy \u2026",
        "- lint: The lint sk\u2026",
        "- notes: The notes s\u2026",
        "- review: The review \u2026",
    ]


def test_an_edit_to_a_settings_file_is_seen_by_the_next_run(run: Run, project: Path) -> None:
    first = run("list", "--host", "claude-code", cwd=project)
    assert "4 loaded" in first.stdout.splitlines()[0]
    # the output memo of the first run must not answer the second: the settings changed
    write(project / ".claude/settings.json", '{"skillOverrides": {"deploy": "off"}}')
    second = run("list", "--host", "claude-code", cwd=project)
    assert second.code == 0, second.stderr
    assert "3 loaded" in second.stdout.splitlines()[0]
    assert "turned off by skillOverrides (settings.json)" in second.stdout


def test_a_settings_file_that_does_not_parse_is_named_and_skipped(run: Run, project: Path) -> None:
    write(project / ".claude/settings.json", '{"skillOverrides": {"deploy": "off",}')
    result = run("list", "--host", "claude-code", cwd=project)
    assert result.code == 0, result.stderr
    assert result.stdout.splitlines()[:2] == [
        "Claude Code (claude-code, as of Claude Code 2.1.332): 4 skill files found, 4 loaded",
        f"  settings not read (does not parse): {project}/.claude/settings.json",
    ]


def test_claude_code_does_not_load_a_skill_in_a_folder_named_synced(
    run: Run, project: Path
) -> None:
    write(project / ".claude/skills/synced/SKILL.md", skill("shared", "Synced here."))
    result = run("list", "--host", "claude-code", cwd=project)
    assert (
        "  no     shared  .claude/skills/synced/SKILL.md  the folder name 'synced' is "
        "reserved: Claude Code keeps it for its own skills and does not load a skill there"
    ) in result.stdout.splitlines()


def test_opencode_skills_paths_and_the_claude_code_switch(run: Run, tmp_path: Path) -> None:
    root = tmp_path / "oc"
    (root / ".git").mkdir(parents=True)
    write(
        root / "opencode.json",
        '{"skills": {"paths": ["team", "~/shared"], "urls": ["https://example.invalid/s"]}}',
    )
    write(root / "team/SKILL.md", skill("team-root", "At the top of a skills.paths folder."))
    write(root / "team/group/nested/SKILL.md", skill("nested", "Nested in it."))
    write(root / "team/.hidden/secret/SKILL.md", skill("secret", "Below a dot folder."))
    write(root / ".claude/skills/claude-one/SKILL.md", skill("claude-one", "In .claude."))
    result = run("list", "--host", "opencode", cwd=root)
    assert result.code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[:5] == [
        "OpenCode (opencode, as of OpenCode 1.18.33): 4 skill files found, 3 loaded",
        f"  settings read: {root}/opencode.json",
        f"  more skills from: {root}/team",
        "  more skills from: ~/shared",
        "  not downloaded by skilldeck: https://example.invalid/s",
    ]
    assert any(line.startswith("  loads  team-root") for line in lines)
    assert any(line.startswith("  loads  nested") for line in lines)
    assert any(line.startswith("  no     secret") and "hidden" in line for line in lines)
    assert any(line.startswith("  loads  claude-one") for line in lines)
    off = run(
        "list", "--host", "opencode", cwd=root, env={"OPENCODE_DISABLE_CLAUDE_CODE_SKILLS": "1"}
    )
    assert "  environment: OPENCODE_DISABLE_CLAUDE_CODE_SKILLS=1" in off.stdout.splitlines()
    assert "  not read: .claude/skills folders" in off.stdout.splitlines()
    assert "claude-one" not in off.stdout


def test_kimi_code_extra_skill_dirs_are_an_extra_section(
    run: Run, tmp_path: Path, home: Path
) -> None:
    root = tmp_path / "kimi"
    (root / ".git").mkdir(parents=True)
    (root / "sub").mkdir()
    write(home / ".kimi-code/config.toml", 'extra_skill_dirs = ["more"]\n')
    # relative to the project root, not the start folder (s-kimi-extra)
    write(root / "more/extra-one/SKILL.md", skill("extra-one", "From extra_skill_dirs."))
    write(root / ".agents/skills/own/SKILL.md", skill("own", "The project's."))
    result = run("catalog", "--host", "kimi-code", cwd=root / "sub")
    assert result.code == 0, result.stderr
    text = result.stdout
    assert text.index("### Project") < text.index("- own: The project's.")
    assert text.index("### Extra") < text.index("- extra-one: From extra_skill_dirs.")
    assert text.index("- own:") < text.index("### Extra")


def test_gemini_cli_reads_no_project_folder_in_an_untrusted_folder(
    run: Run, tmp_path: Path, home: Path
) -> None:
    # Folder trust on: the project is read once ~/.gemini/trustedFolders.json trusts it
    # (observed: s-gemini-trusted); untrusted, Gemini CLI 0.61.0 does not start a headless
    # run there, and its code reads no workspace skill (skillManager.ts@5411f113).
    root = tmp_path / "gem"
    (root / ".git").mkdir(parents=True)
    write(root / ".agents/skills/own/SKILL.md", skill("own", "The project's."))
    write(home / ".agents/skills/mine/SKILL.md", skill("mine", "The user's."))
    write(home / ".gemini/settings.json", '{"security": {"folderTrust": {"enabled": true}}}')
    untrusted = run("list", "--host", "gemini-cli", cwd=root)
    assert untrusted.code == 0, untrusted.stderr
    assert untrusted.stdout.splitlines() == [
        "Gemini CLI (gemini-cli, as of Gemini CLI 0.61.0): 1 skill files found, 1 loaded",
        "  settings read: ~/.gemini/settings.json",
        "  folder trust is on and this folder is not trusted: no project folder is read",
        f"  loads  mine  {home}/.agents/skills/mine/SKILL.md  [catalog: full]",
    ]
    write(home / ".gemini/trustedFolders.json", json.dumps({str(root): "TRUST_FOLDER"}))
    trusted = run("list", "--host", "gemini-cli", cwd=root)
    assert "2 skill files found, 2 loaded" in trusted.stdout.splitlines()[0]
    by_variable = run(
        "list", "--host", "gemini-cli", cwd=root, env={"GEMINI_CLI_TRUST_WORKSPACE": "true"}
    )
    assert "  environment: GEMINI_CLI_TRUST_WORKSPACE=true" in by_variable.stdout.splitlines()


def test_gemini_cli_folder_trust_is_on_unless_turned_off(
    run: Run, tmp_path: Path, home: Path
) -> None:
    # Gemini CLI 0.61.0 with a settings file that does not name folder trust refuses to
    # run headless in a folder it was not told to trust: trust is on by default. Where
    # the user keeps a trusted-folders file that does not hold this folder, no project
    # folder is read; with trust turned off, it is.
    root = tmp_path / "gem"
    (root / ".git").mkdir(parents=True)
    write(root / ".agents/skills/own/SKILL.md", skill("own", "The project's."))
    write(home / ".gemini/trustedFolders.json", json.dumps({"/elsewhere": "TRUST_FOLDER"}))
    listed = run("list", "--host", "gemini-cli", cwd=root).stdout.splitlines()
    assert listed[0].endswith("0 skill files found, 0 loaded")
    assert "  folder trust is on and this folder is not trusted: no project folder is read" in (
        listed
    )
    write(home / ".gemini/settings.json", '{"security": {"folderTrust": {"enabled": false}}}')
    listed = run("list", "--host", "gemini-cli", cwd=root).stdout.splitlines()
    assert listed[0].endswith("1 skill files found, 1 loaded")
