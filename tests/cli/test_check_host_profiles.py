"""``check --profile claude-code`` / ``--profile codex``: what the author reads.

Under a host profile the verdict on a file is that agent's observed release's (issue
#39): a file it loads is never "(skill not loaded)"; what skilldeck's engine refuses
there is a warning that says what the agent does and who rejects the file. Which files
load is held to the host lab's records case by case in
``tests/hosts/test_profiles_observed.py``; here are the lines a user reads.
"""

from __future__ import annotations

from pathlib import Path

from cli_helpers import Run, write

COLON = "---\nname: deploy\ndescription: Use when: deploying\n---\n\nBody.\n"
NO_DESCRIPTION = "---\nname: notes\n---\n\nFirst line of the notes.\n"


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    write(root / ".agents/skills/deploy/SKILL.md", COLON)
    write(root / ".agents/skills/notes/SKILL.md", NO_DESCRIPTION)
    path = root / ".agents/skills/marked/SKILL.md"
    path.parent.mkdir(parents=True)
    path.write_bytes(b"\xef\xbb\xbf---\nname: marked\ndescription: Saved with a BOM.\n---\n\nB.\n")
    long = "a" * 65
    write(root / f".agents/skills/{long}/SKILL.md", f"---\nname: {long}\ndescription: Long.\n---\n")
    return root


def test_claude_code_loads_what_its_release_loads(run: Run, tmp_path: Path) -> None:
    result = run("check", "--profile", "claude-code", cwd=_project(tmp_path))
    assert result.stdout.splitlines() == [
        ".agents/skills/deploy/SKILL.md:3:22: SD103 warning invalid YAML in frontmatter: "
        "': ' inside the value of 'description' starts a nested mapping; quote the value. "
        "Claude Code 2.1.332 reads the value as written and loads the skill, as does Codex; "
        "DeepSeek Harness and the Agent Skills standard reject it",
        ".agents/skills/notes/SKILL.md:1:1: SD204 information missing required key "
        "'description'. Claude Code 2.1.332 takes the first line of the body and loads the "
        "skill; DeepSeek Harness, Codex and the Agent Skills standard reject it",
        "Found 2 problems (1 warning, 1 info) in 4 skill files; 0 skills dropped.",
    ]
    # Only warnings and information: the check passes (the agent loads every skill).
    assert result.code == 0, result.stderr


def test_codex_drops_what_its_release_drops(run: Run, tmp_path: Path) -> None:
    result = run("check", "--profile", "codex", cwd=_project(tmp_path))
    long = "a" * 65
    assert result.stdout.splitlines() == [
        f".agents/skills/{long}/SKILL.md:2:7: SD111 error name is 65 characters; Codex "
        "0.171.0 loads names of at most 64 (skill not loaded)",
        ".agents/skills/deploy/SKILL.md:3:22: SD103 warning invalid YAML in frontmatter: "
        "': ' inside the value of 'description' starts a nested mapping; quote the value. "
        "Codex 0.171.0 reads the value as written and loads the skill, as does Claude Code; "
        "DeepSeek Harness and the Agent Skills standard reject it",
        ".agents/skills/marked/SKILL.md:1:1: SD110 error the file starts with a UTF-8 byte "
        "order mark, which Codex 0.171.0 does not skip: it finds no frontmatter; DeepSeek "
        "Harness and Claude Code skip the mark (skill not loaded)",
        ".agents/skills/notes/SKILL.md:1:1: SD204 error missing required key 'description'. "
        "Claude Code loads it anyway; Codex 0.171.0 does not (skill not loaded)",
        "Found 4 problems (3 errors, 1 warning) in 4 skill files; 3 skills dropped.",
    ]


def test_skilldecks_own_profile_keeps_the_engines_verdict_and_names_the_lenient(
    run: Run, tmp_path: Path
) -> None:
    """Under ``dsh`` (the default) the engine refuses the file (SPEC §2), and says which
    agents read it as written; a byte order mark and a long name are no concern of it."""
    result = run("check", cwd=_project(tmp_path))
    assert result.stdout.splitlines()[0] == (
        ".agents/skills/deploy/SKILL.md:3:22: SD103 error invalid YAML in frontmatter: "
        "': ' inside the value of 'description' starts a nested mapping; quote the value. "
        "Claude Code and Codex load it anyway (skill not loaded)"
    )
    assert "SD110" not in result.stdout and "SD111" not in result.stdout
    assert result.stdout.splitlines()[-1].endswith("; 2 skills dropped.")


def test_claude_codes_own_when_to_use_is_no_misspelling_under_its_profile(
    run: Run, tmp_path: Path
) -> None:
    """Claude Code reads ``when_to_use`` (case k-when-to-use): under its profile the key is
    documented, not a near miss; under ``dsh`` it is a misspelling of ``whenToUse``."""
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    write(
        root / ".agents/skills/hint/SKILL.md",
        "---\nname: hint\ndescription: Hints.\nwhen_to_use: When asked.\n---\n\nBody.\n",
    )
    claude = run("check", "--profile", "claude-code", cwd=root).stdout
    assert claude == "No problems found in 1 skill file.\n"
    dsh = run("check", cwd=root).stdout
    assert dsh.startswith(".agents/skills/hint/SKILL.md:4:1: SD404 "), dsh
    assert "whenToUse" in dsh


def test_a_flat_file_is_not_said_to_load_where_the_agent_reads_bundles_only(
    run: Run, tmp_path: Path
) -> None:
    """Codex and Claude Code read no flat skill file (``<name>.md``): what they would make
    of its content is said, never that they load it; under ``dsh``, which reads flat
    files, neither is named as loading it anyway."""
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    write(root / ".agents/skills/legacy.md", "---\nname: legacy\ndescription: Use when: x\n---\n")
    codex = run("check", "--profile", "codex", cwd=root)
    assert codex.stdout.splitlines()[0] == (
        ".agents/skills/legacy.md:3:22: SD103 warning invalid YAML in frontmatter: "
        "': ' inside the value of 'description' starts a nested mapping; quote the value. "
        "Codex 0.171.0 reads the value as written, but loads skills only from "
        "<name>/SKILL.md, not from a flat file like this one; DeepSeek Harness and the "
        "Agent Skills standard reject it"
    )
    dsh = run("check", cwd=root)
    assert dsh.stdout.splitlines()[0] == (
        ".agents/skills/legacy.md:3:22: SD103 error invalid YAML in frontmatter: "
        "': ' inside the value of 'description' starts a nested mapping; quote the value "
        "(skill not loaded)"
    )
