"""``list --host``, ``budget --host`` and ``catalog --host`` as a user runs them."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from cli_helpers import Run, skill, write

from skilldeck.engine.hosts._table import HOSTS


@pytest.fixture
def deck(tmp_path: Path, home: Path) -> Path:
    root = tmp_path / "deck"
    (root / ".git").mkdir(parents=True)
    write(root / ".claude/skills/pdf-forms/SKILL.md", skill("pdf-forms", "Fill PDF forms."))
    write(root / ".claude/skills/tools/deep/SKILL.md", skill("deep"))
    write(root / ".agents/skills/release-notes/SKILL.md", skill("release-notes", "Notes."))
    write(root / ".agents/skills/quick.md", skill("quick", "A flat one."))
    write(tmp_path / "shared/linked/SKILL.md", skill("linked"))
    os.symlink(tmp_path / "shared/linked", root / ".agents/skills/linked")
    write(home / ".claude/skills/pdf-forms/SKILL.md", skill("pdf-forms", "Personal."))
    return root


def test_list_host_explains_each_file(run: Run, deck: Path, home: Path) -> None:
    result = run("list", "--host", "claude-code", cwd=deck)
    assert result.code == 0, result.stderr
    personal = home / ".claude/skills/pdf-forms/SKILL.md"
    assert result.stdout.splitlines() == [
        "Claude Code (claude-code, as of Claude Code 2.1.332): 3 skill files found, 1 loaded",
        "  no     deep       .claude/skills/tools/deep/SKILL.md  nested two levels below "
        ".claude/skills; Claude Code reads .claude/skills/<name>/SKILL.md only",
        f"  no     pdf-forms  .claude/skills/pdf-forms/SKILL.md  shadowed by {personal}",
        f"  loads  pdf-forms  {personal}  [catalog: full]",
    ]


def test_list_host_all_json_has_the_documented_shape(run: Run, deck: Path) -> None:
    result = run("list", "--host", "all", "--json", cwd=deck)
    assert result.code == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["hosts"] == list(HOSTS)
    assert set(document) == {"hosts", "versions", "settings", "skills"}
    assert document["settings"] == {}  # no agent's own settings file in this deck
    # every host names the version it models
    assert document["versions"] == {name: host.version for name, host in HOSTS.items()}
    assert document["versions"]["gemini-cli"] == "Gemini CLI 0.61.0"
    assert document["versions"]["copilot"] == "Copilot CLI 1.0.102"
    for entry in document["skills"]:
        assert set(entry) == {"name", "path", "hosts"}
        assert set(entry["hosts"]) == set(HOSTS)
        for cell in entry["hosts"].values():
            assert set(cell) == {"loads", "reason", "catalog", "sameName"}
            assert (cell["reason"] is None) == cell["loads"]
            assert (cell["catalog"] is None) != cell["loads"]
    by_path = {
        Path(e["path"]).relative_to(deck).as_posix(): e
        for e in document["skills"]
        if Path(e["path"]).is_relative_to(deck)
    }
    quick = by_path[".agents/skills/quick.md"]["hosts"]
    assert quick["dsh"] == {"loads": True, "reason": None, "catalog": "full", "sameName": []}
    assert quick["codex"] == {
        "loads": False,
        "reason": "flat file: Codex reads bundles only (.agents/skills/<name>/SKILL.md)",
        "catalog": None,
        "sameName": [],
    }
    assert quick["claude-code"]["reason"] == "outside Claude Code's skill folders"
    linked = by_path[".agents/skills/linked/SKILL.md"]["hosts"]
    assert linked["agentskills"]["reason"] == (
        "symlinked folder: not followed by Agent Skills standard"
    )
    assert linked["opencode"]["loads"] is True
    assert linked["codex"]["loads"] is True


def test_list_host_all_text_is_a_matrix_with_reasons(run: Run, deck: Path) -> None:
    result = run("list", "--host", "dsh,codex", cwd=deck)
    assert result.code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["skill", "path", "dsh", "codex"]
    assert lines[1:5] == [
        "linked         .agents/skills/linked/SKILL.md         full  full",
        "quick          .agents/skills/quick.md                full  no",
        "release-notes  .agents/skills/release-notes/SKILL.md  full  full",
        "",
    ]
    assert lines[5:] == [
        "not loaded:",
        "  codex: .agents/skills/quick.md: flat file: Codex reads bundles only "
        "(.agents/skills/<name>/SKILL.md)",
        "",
        "as of: dsh = skilldeck's engine (SPEC.md); codex = Codex 0.171.0",
    ]


def test_budget_json_has_the_documented_shape(run: Run, deck: Path) -> None:
    result = run("budget", "--host", "codex", "--json", cwd=deck)
    assert result.code == 0, result.stderr
    # each entry counts as Codex writes it, with its short path into the skill roots
    # table (observed, Codex 0.171.0), after Codex's own four skills
    lines = (
        "- linked: Does a thing when asked. (file: r1/linked/SKILL.md)\n"
        "- release-notes: Notes. (file: r1/release-notes/SKILL.md)\n"
    )
    document = json.loads(result.stdout)
    own = document.pop("hostOwnChars")
    assert own > 0
    # the listing as Codex counts it, in its four-byte tokens (the roots table included)
    assert 0 < document.pop("totalTokens") < 5440
    assert document == {
        "host": "codex",
        "contextTokens": 272_000,
        "budgetChars": None,
        "budgetTokens": 5440,  # 2 % of the 272,000-token window, in tokens
        "totalChars": len(lines) + own,
        "tokenEstimate": -(-(len(lines) + own) // 4),
        "entries": [
            {"name": "linked", "state": "full", "shownChars": 24},
            {"name": "release-notes", "state": "full", "shownChars": 6},
        ],
    }


def test_budget_text_past_the_budget(run: Run, deck: Path) -> None:
    result = run("budget", "--host", "codex", "--context", "400", cwd=deck)
    assert result.code == 0, result.stderr
    # 2 % of 400 tokens = 8 tokens; the skill roots table (its paths) takes them: no
    # entry fits, and the lines the listing keeps are Codex's own
    lines = result.stdout.splitlines()
    assert lines[:3] == [
        "Codex (codex) catalog",
        "  linked         left out",
        "  release-notes  left out",
    ]
    assert "; budget 8 tokens (400 tokens of context)" in lines[-1]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("budget",), "skilldeck: budget: --host H is required"),
        (("budget", "--host", "all"), "skilldeck: --host: choose one host: dsh, "),
        (("budget", "--host", "codex", "--context", "0"), "skilldeck: --context: must be"),
        (("list", "--host", "cursor"), "skilldeck: --host: unknown host 'cursor'; choose"),
        (("catalog", "--host", "dsh,codex"), "skilldeck: --host: choose one host"),
    ],
)
def test_bad_host_arguments_exit_2_with_one_line(
    run: Run, deck: Path, args: tuple[str, ...], message: str
) -> None:
    result = run(*args, cwd=deck)
    assert result.code == 2
    assert result.stderr.startswith(message), result.stderr
    assert result.stdout == ""


def test_catalog_host_dsh_is_the_catalog_byte_for_byte(run: Run, deck: Path) -> None:
    plain = run("catalog", cwd=deck)
    hosted = run("catalog", "--host", "dsh", cwd=deck)
    assert plain.code == hosted.code == 0
    assert hosted.stdout == plain.stdout
    assert "<available_skills>" in plain.stdout


def test_catalog_host_renders_that_hosts_listing(run: Run, deck: Path) -> None:
    result = run("catalog", "--host", "claude-code", cwd=deck)
    assert result.code == 0, result.stderr
    # as Claude Code 2.1.332 sends it (observed), its own skills left out (their text is
    # Claude Code's)
    assert result.stdout == (
        "The following skills are available for use with the Skill tool:\n\n"
        "- pdf-forms: Personal.\n"
    )
    cut = run("catalog", "--host", "codex", "--json", cwd=deck)
    assert json.loads(cut.stdout) == {
        "complete": True,
        "host": "codex",
        "entries": [
            {
                "name": "linked",
                "state": "full",
                "text": "Does a thing when asked.",
                "location": "r1/linked/SKILL.md",
            },
            {
                "name": "release-notes",
                "state": "full",
                "text": "Notes.",
                "location": "r1/release-notes/SKILL.md",
            },
        ],
    }


def _age(folder: Path) -> float:
    """Date every file below ``folder`` an hour back (outside the racy window, so the
    memo is stored); returns that time."""
    old = time.time() - 3600
    for directory, _dirs, names in os.walk(folder):
        for name in names:
            os.utime(os.path.join(directory, name), (old, old))
    return old


def test_a_repeated_list_is_served_from_the_memo_until_the_deck_changes(
    run: Run, deck: Path, tmp_path: Path
) -> None:
    _age(tmp_path)
    first = run("list", "--host", "agentskills", cwd=deck)
    assert first.code == 0, first.stderr
    assert run("list", "--host", "agentskills", cwd=deck).stdout == first.stdout
    assert list((tmp_path / "cache").glob("output-*.json"))
    # The same folder, moved away and linked back: every file keeps its identity, yet
    # the standard's reading (symlinks not documented) no longer follows it.
    moved = tmp_path / "elsewhere"
    (deck / ".agents/skills/release-notes").rename(moved)
    os.symlink(moved, deck / ".agents/skills/release-notes")
    again = run("list", "--host", "agentskills", cwd=deck)
    assert (
        "release-notes  .agents/skills/release-notes/SKILL.md  symlinked folder: not "
        "followed by Agent Skills standard" in again.stdout
    )
    assert again.stdout != first.stdout


def test_a_skill_added_deep_below_a_root_is_not_hidden_by_the_memo(
    run: Run, deck: Path, tmp_path: Path
) -> None:
    write(deck / ".agents/skills/group/sub/README.md", "A folder of skills.\n")
    old = _age(tmp_path)
    first = run("list", "--host", "codex", cwd=deck)
    assert first.code == 0, first.stderr
    assert "grouped" not in first.stdout
    assert list((tmp_path / "cache").glob("output-*.json"))
    # hosts.md: codex, SKILL.md deeper inside a root (the scan walks below a root)
    # (three folders deep: below what the engine's own stray search lists)
    write(deck / ".agents/skills/group/sub/grouped/SKILL.md", skill("grouped"))
    for path in ("group/sub", "group/sub/grouped", "group/sub/grouped/SKILL.md"):
        os.utime(deck / ".agents/skills" / path, (old, old))
    again = run("list", "--host", "codex", cwd=deck)
    assert "loads  grouped        .agents/skills/group/sub/grouped/SKILL.md" in again.stdout


def test_check_reports_what_the_configured_hosts_do(run: Run, tmp_path: Path) -> None:
    root = tmp_path / "many"
    (root / ".git").mkdir(parents=True)
    for number in range(10):
        name = f"skill-{number}"
        write(root / f".agents/skills/{name}/SKILL.md", skill(name, "d" * 1100))
    write(root / ".agents/skills/flat.md", skill("flat"))
    # (the ten identical descriptions would also be near duplicates: SD802, not asked here)
    write(root / "skilldeck.toml", 'ignore = ["SD501", "SD801", "SD802"]\n')
    assert run("check", cwd=root).stdout.startswith("No problems")
    write(
        root / "skilldeck.toml",
        'ignore = ["SD501", "SD801", "SD802"]\nhosts = ["dsh", "codex"]\n',
    )
    result = run("check", cwd=root)
    assert result.code == 0, result.stderr
    lines = result.stdout.splitlines()
    # Codex does not load the flat file, and cuts each description of more than 1,024
    # characters to 1,024 with "..." (observed: y-desc-1100)
    source = "Codex 0.171.0, observed by scripts/host-lab"
    assert lines[0] == (
        ".agents/skills/flat.md:2:7: SD901 information Codex does not load this skill: flat "
        f"file: Codex reads bundles only (.agents/skills/<name>/SKILL.md) (source: {source})"
    )
    assert lines[1] == (
        ".agents/skills/skill-0/SKILL.md:2:7: SD902 information Codex's skill listing cuts "
        f"this skill's entry to 1024 characters (source: {source})"
    )
    assert len(lines) == 1 + 10 + 1


def test_adding_hosts_to_the_config_file_is_not_hidden_by_checks_memo(
    run: Run, tmp_path: Path
) -> None:
    root = tmp_path / "memo"
    (root / ".git").mkdir(parents=True)
    write(root / ".agents/skills/flat.md", skill("flat"))
    write(root / "skilldeck.toml", "ignore = []\n")
    old = time.time() - 3600  # outside the racy window, so check stores its memos
    for directory, _dirs, names in os.walk(root):
        for name in names:
            os.utime(os.path.join(directory, name), (old, old))
    assert run("check", cwd=root).stdout.startswith("No problems")
    assert run("check", cwd=root).stdout.startswith("No problems")  # from the memo
    (root / "skilldeck.toml").write_text('ignore = []\nhosts = ["codex"]\n', encoding="utf-8")
    assert "SD901 information Codex does not load this skill" in run("check", cwd=root).stdout
    flagged = run("check", "--host", "codex", "--profile", "dsh", cwd=root)
    assert "SD901 information Codex does not load this skill" in flagged.stdout
    (root / "skilldeck.toml").write_text("ignore = []\n", encoding="utf-8")
    assert "SD901" in run("check", "--host", "codex", "--profile", "dsh", cwd=root).stdout
