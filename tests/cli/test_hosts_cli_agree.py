"""The hosts' views agree with the engine and with each other, as a user runs them:
DSH's view is the deck's (remote sources included), an agent's overlap is among what it
lists, Copilot's ASCII names, reasons as ``check`` gives them, Codex's listed lines, the
SD903 of a nested Codex copy, ``--max-description-length`` and disabled skills in
``budget``."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from cli_helpers import Run, skill, write

INVOICES = "Convert scanned invoices into spreadsheet rows with totals and vendor names"
OTHERS = {
    "deploy": "Deploy the application to production servers",
    "pdf-forms": "Fill PDF forms and extract their fields",
    "release-notes": "Write release notes from the git history",
    "sql-review": "Review SQL migrations for locking problems",
}


def _project(tmp_path: Path, name: str) -> Path:
    root = tmp_path / name
    (root / ".git").mkdir(parents=True)
    return root


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.email=a@b", "-c", "user.name=n", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
    )


@pytest.fixture
def sourced(tmp_path: Path, run: Run) -> Path:
    """A project whose git source (rank 50) wins the name ``local`` and adds
    ``team-review``."""
    team = tmp_path / "team"
    write(team / "skills/local/SKILL.md", skill("local", "Team copy of local."))
    write(team / "skills/team-review/SKILL.md", skill("team-review", "Review team code."))
    _git(team, "init", "-q", ".")
    _git(team, "add", "-A")
    _git(team, "commit", "-qm", "one")
    root = _project(tmp_path, "proj")
    write(root / ".agents/skills/local/SKILL.md", skill("local", "Project local skill."))
    write(
        root / "skilldeck.toml",
        f'[[sources]]\nname = "team"\ntype = "git"\nurl = "{team}"\npath = "skills"\nrank = 50\n',
    )
    updated = run("sources", "update", cwd=root)
    assert updated.code == 0, updated.stderr
    return root


def test_dsh_view_is_the_decks_with_its_remote_sources(run: Run, sourced: Path) -> None:
    winners = json.loads(run("list", "--json", cwd=sourced).stdout)["skills"]
    assert [(s["name"], s["source"]) for s in winners] == [
        ("local", "git:team"),
        ("team-review", "git:team"),
    ]
    paths = {s["name"]: s["path"] for s in winners}

    listed = run("list", "--host", "dsh", cwd=sourced)
    assert listed.code == 0, listed.stderr
    assert listed.stdout.splitlines()[1:] == [
        "  no     local        .agents/skills/local/SKILL.md  shadowed by git:team skill at "
        f"{paths['local']} (rank 50)",
        f"  loads  local        {paths['local']}  [catalog: full]",
        f"  loads  team-review  {paths['team-review']}  [catalog: full]",
    ]
    budget = json.loads(run("budget", "--host", "dsh", "--json", cwd=sourced).stdout)
    assert budget["entries"] == [
        {"name": "local", "state": "full", "shownChars": len("Team copy of local.")},
        {"name": "team-review", "state": "full", "shownChars": len("Review team code.")},
    ]
    catalog = json.loads(run("catalog", "--host", "dsh", "--json", cwd=sourced).stdout)
    assert [(e["name"], e["description"]) for e in catalog["entries"]] == [
        ("local", "Team copy of local."),
        ("team-review", "Review team code."),
    ]
    matrix = json.loads(run("list", "--host", "dsh,codex", "--json", cwd=sourced).stdout)
    cells = {entry["path"]: entry["hosts"] for entry in matrix["skills"]}
    assert cells[paths["team-review"]]["dsh"]["loads"] is True
    assert cells[paths["team-review"]]["codex"]["loads"] is False


def _invoices(root: Path) -> None:
    for name, description in OTHERS.items():
        write(root / f".agents/skills/{name}/SKILL.md", skill(name, description))
    write(root / ".agents/skills/invoice-a/SKILL.md", skill("invoice-a", INVOICES))
    write(
        root / ".agents/skills/invoice-b/SKILL.md",
        skill("invoice-b", INVOICES, "disable-model-invocation: true\n"),
    )


def test_an_agents_overlap_is_among_what_it_lists(run: Run, tmp_path: Path) -> None:
    root = _project(tmp_path, "lists")
    _invoices(root)
    # DSH keeps invoice-b from its model: nothing competes in the deck
    assert run("overlap", cwd=root).stdout.startswith("no competing skills")
    # Codex lists it (disable-model-invocation is no Codex key): a family of two
    codex = run("overlap", "--host", "codex", "--json", cwd=root)
    assert codex.code == 0, codex.stderr
    families = json.loads(codex.stdout)["families"]
    assert [[s["name"] for s in family["skills"]] for family in families] == [
        ["invoice-a", "invoice-b"]
    ]
    checked = run("check", "--host", "codex", cwd=root).stdout
    sd802 = [line for line in checked.splitlines() if "SD802" in line]
    assert [line.split(":")[0] for line in sd802] == [
        ".agents/skills/invoice-a/SKILL.md",
        ".agents/skills/invoice-b/SKILL.md",
    ]
    assert "2 skills have the same description for Codex: `invoice-a`, `invoice-b`" in sd802[0]
    # GitHub Copilot honours the key: nothing competes for it either
    copilot = json.loads(run("overlap", "--host", "copilot", "--json", cwd=root).stdout)
    assert copilot["families"] == []


def test_an_agents_overlap_counts_names_the_deck_refuses(run: Run, tmp_path: Path) -> None:
    root = _project(tmp_path, "names")
    for name, description in OTHERS.items():
        write(root / f".agents/skills/{name}/SKILL.md", skill(name, description))
    write(root / ".agents/skills/invoice-a/SKILL.md", skill("invoice-a", INVOICES))
    write(root / ".agents/skills/Invoice-C/SKILL.md", skill("Invoice-C", INVOICES))
    codex = json.loads(run("overlap", "--host", "codex", "--json", cwd=root).stdout)
    assert [[s["name"] for s in family["skills"]] for family in codex["families"]] == [
        ["Invoice-C", "invoice-a"]
    ]


def test_copilot_does_not_load_a_non_ascii_name(run: Run, tmp_path: Path) -> None:
    root = _project(tmp_path, "ascii")
    write(root / ".agents/skills/café/SKILL.md", skill("café", "Brew coffee recipes."))
    reason = "name 'café' has the non-ASCII character 'é'; GitHub Copilot allows ASCII only"
    listed = run("list", "--host", "copilot", cwd=root)
    assert listed.stdout.splitlines()[1:] == [
        f"  no     café  .agents/skills/café/SKILL.md  {reason}"
    ]
    checked = run("check", "--host", "copilot", cwd=root).stdout
    assert f"SD901 information GitHub Copilot does not load this skill: {reason}" in checked
    # Codex has no such rule
    assert "  loads  café" in run("list", "--host", "codex", cwd=root).stdout


def test_list_host_gives_the_reason_check_gives(run: Run, tmp_path: Path) -> None:
    root = _project(tmp_path, "reasons")
    write(root / ".agents/skills/one/SKILL.md", skill("same", "First copy."))
    write(root / ".agents/skills/two/SKILL.md", skill("same", "Second copy."))
    write(root / ".agents/skills/deploy/SKILL.md", skill("deploy", "Deploy."))
    os.symlink("deploy", root / ".agents/skills/deploy-link")
    unstable = (
        "same name as .agents/skills/one/SKILL.md in the same folder: OpenCode keeps one of "
        "them, and which one is not stable"
    )
    opencode = run("list", "--host", "opencode", cwd=root).stdout
    assert f"  no     same    .agents/skills/two/SKILL.md  {unstable}" in opencode.splitlines()
    document = json.loads(run("list", "--host", "opencode", "--json", cwd=root).stdout)
    cells = {Path(e["path"]).relative_to(root).as_posix(): e["hosts"] for e in document["skills"]}
    assert cells[".agents/skills/two/SKILL.md"]["opencode"]["reason"] == unstable
    once = "the same file as .agents/skills/deploy/SKILL.md: Codex lists it once"
    codex = run("list", "--host", "codex", cwd=root).stdout
    assert f"  no     deploy  .agents/skills/deploy-link/SKILL.md  {once}" in codex.splitlines()


def test_catalog_host_codex_prints_the_lines_budget_counts(run: Run, tmp_path: Path) -> None:
    root = _project(tmp_path, "lines")
    write(root / ".agents/skills/alpha/SKILL.md", skill("alpha", "Alpha does alpha things."))
    write(root / ".agents/skills/beta/SKILL.md", skill("beta", "Beta."))
    catalog = run("catalog", "--host", "codex", cwd=root)
    assert catalog.code == 0, catalog.stderr
    # as Codex 0.171.0 sends it (observed): a skill roots table (r0: its own skills,
    # whose entries are its text and are not written) and short paths into it
    lines = (
        "- alpha: Alpha does alpha things. (file: r1/alpha/SKILL.md)\n"
        "- beta: Beta. (file: r1/beta/SKILL.md)\n"
    )
    text = catalog.stdout
    assert text.startswith("<skills_instructions>\n## Skills\n")
    assert "### Skill roots\n- `r0` = `" in text
    assert f"- `r1` = `{root}/.agents/skills`\n### Available skills\n" + lines in text
    assert text.endswith(lines + "</skills_instructions>\n")
    budget = json.loads(run("budget", "--host", "codex", "--json", cwd=root).stdout)
    assert budget["totalChars"] - budget["hostOwnChars"] == len(lines)


def test_both_same_named_codex_skills_get_sd903_when_one_is_nested(
    run: Run, tmp_path: Path
) -> None:
    root = _project(tmp_path, "nested")
    write(root / ".agents/skills/deploy/SKILL.md", skill("deploy", "Deploy the app."))
    write(root / ".agents/skills/grp/deploy/SKILL.md", skill("deploy", "Deploy to staging."))
    lines = run("check", "--host", "codex", cwd=root).stdout.splitlines()
    sd903 = [line.split(": SD903")[0] for line in lines if ": SD903 " in line]
    assert sd903 == [
        ".agents/skills/deploy/SKILL.md:2:7",
        ".agents/skills/grp/deploy/SKILL.md:2:7",
    ]
    # the nested copy is still no skill of the deck (SD007), and gets no SD901
    assert any("grp/deploy/SKILL.md:1:1: SD007" in line for line in lines)
    assert not any("grp/deploy" in line and "SD901" in line for line in lines)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ("catalog", "--max-description-length", "2"),
            "skilldeck: --max-description-length: must be at least 3, not 2\n",
        ),
        (
            ("catalog", "--host", "codex", "--max-description-length", "5"),
            "skilldeck: --max-description-length: sets DSH's catalog only; Codex keeps its "
            "own per-entry cap (docs/hosts.md)\n",
        ),
    ],
)
def test_max_description_length_errors_name_the_flag(
    run: Run, tmp_path: Path, args: tuple[str, ...], message: str
) -> None:
    root = _project(tmp_path, "cap")
    write(root / ".agents/skills/alpha/SKILL.md", skill("alpha", "Alpha does alpha things."))
    result = run(*args, cwd=root)
    assert (result.code, result.stdout, result.stderr) == (2, "", message)
    # with DSH the flag applies
    capped = run("catalog", "--host", "dsh", "--max-description-length", "5", "--json", cwd=root)
    assert json.loads(capped.stdout)["entries"] == [{"name": "alpha", "description": "Al..."}]


@pytest.mark.parametrize("host", ["dsh", "copilot", "claude-code"])
def test_budget_lists_a_disabled_skill_as_left_out(run: Run, tmp_path: Path, host: str) -> None:
    root = _project(tmp_path, "disabled")
    folder = ".claude/skills" if host == "claude-code" else ".agents/skills"
    write(root / f"{folder}/lint-a/SKILL.md", skill("lint-a", "Lint it."))
    write(
        root / f"{folder}/lint-b/SKILL.md",
        skill("lint-b", "Lint it too.", "disable-model-invocation: true\n"),
    )
    listed = run("list", "--host", host, cwd=root).stdout
    assert f"lint-b  {folder}/lint-b/SKILL.md  [catalog: left-out]" in listed
    report = json.loads(run("budget", "--host", host, "--json", cwd=root).stdout)
    assert report["entries"] == [
        {"name": "lint-a", "state": "full", "shownChars": len("Lint it.")},
        {"name": "lint-b", "state": "left-out", "shownChars": 0},
    ]
    # the entry as the host writes it, a line break each, and the host's own skills
    written = {
        "dsh": "- lint-a: Lint it.\n",
        "copilot": "<skill>\n  <name>lint-a</name>\n  <description>Lint it.</description>\n"
        "  <location>project</location>\n</skill>\n",
        "claude-code": "- lint-a: Lint it.\n",
    }[host]
    assert report["totalChars"] == len(written) + report["hostOwnChars"]
    text = run("budget", "--host", host, cwd=root).stdout.splitlines()
    assert "  lint-b  left out (not offered to the model)" in text
    # left out because the host lists no such skill, not for its budget: no SD902
    checked = run("check", "--host", host, cwd=root).stdout
    assert "SD902" not in checked
