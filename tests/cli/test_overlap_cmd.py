"""``skilldeck overlap`` and the SD8xx findings of ``skilldeck check``, as a user runs them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import Run, skill, write

TDD_WORKFLOW = (
    "Use this skill when writing new features, fixing bugs, or refactoring code. Enforces "
    "test-driven development with 80%+ coverage including unit, integration, and E2E tests."
)
TDD_GUIDE = (
    "Test-Driven Development specialist enforcing write-tests-first methodology. Use "
    "PROACTIVELY when writing new features, fixing bugs, or refactoring code. Ensures 80%+ "
    "test coverage."
)
TEST_DRIVEN = "Use when implementing any feature or bugfix, before writing implementation code"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    skills = root / ".dsh" / "skills"
    write(skills / "tdd-workflow" / "SKILL.md", skill("tdd-workflow", TDD_WORKFLOW))
    write(skills / "tdd-guide" / "SKILL.md", skill("tdd-guide", TDD_GUIDE))
    write(skills / "test-driven-development.md", skill("test-driven-development", TEST_DRIVEN))
    write(skills / "release-notes.md", skill("release-notes", "Draft release notes for a tag."))
    return root


def test_overlap_json_lists_pairs_by_score_with_shared_words_and_clusters(
    run: Run, project: Path
) -> None:
    result = run("overlap", "--json", cwd=project)
    assert (result.code, result.stderr) == (0, "")
    document = json.loads(result.stdout)
    assert set(document) == {"pairs", "clusters", "families"}
    assert document["families"] == []
    pairs = document["pairs"]
    assert len(pairs) >= 2
    for pair in pairs:
        assert set(pair) == {"a", "b", "score", "shared"}
        assert set(pair["a"]) == set(pair["b"]) == {"name", "path"}
        assert isinstance(pair["score"], float) and 0 < pair["score"] <= 1
        assert all(isinstance(word, str) for word in pair["shared"])
    scores = [pair["score"] for pair in pairs]
    assert scores == sorted(scores, reverse=True)
    skills = project / ".dsh" / "skills"
    best = pairs[0]
    assert {best["a"]["name"], best["b"]["name"]} == {"tdd-guide", "tdd-workflow"}
    assert {best["a"]["path"], best["b"]["path"]} == {
        str(skills / "tdd-guide" / "SKILL.md"),
        str(skills / "tdd-workflow" / "SKILL.md"),
    }
    assert "tdd" in best["shared"]
    assert any(
        {p["a"]["name"], p["b"]["name"]} == {"tdd-workflow", "test-driven-development"}
        for p in pairs
    )
    assert document["clusters"] == [["tdd-guide", "tdd-workflow", "test-driven-development"]]


def test_overlap_text_names_pairs_paths_and_clusters(run: Run, project: Path) -> None:
    result = run("overlap", "--threshold", "0.6", cwd=project)
    assert result.code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "1 competing pair (threshold 0.60):"
    assert lines[1].endswith("  tdd-guide  <->  tdd-workflow")
    assert lines[2].startswith("        shared: tdd, ")
    assert lines[3:] == [
        "        tdd-guide: .dsh/skills/tdd-guide/SKILL.md",
        "        tdd-workflow: .dsh/skills/tdd-workflow/SKILL.md",
        "clusters:",
        "  tdd-guide, tdd-workflow",
    ]
    none = run("overlap", "--threshold", "1", cwd=project)
    assert none.stdout == "no competing skills (threshold 1.00)\n"


def test_overlap_lists_a_family_of_copies_once_and_no_pairs_among_them(
    run: Run, project: Path
) -> None:
    """Three copies of one description: one family (text and JSON), no pair between two
    of them; the pair they form with another skill names one member and the family."""
    skills = project / ".dsh" / "skills"
    for n in (1, 2):
        write(skills / f"tdd-guide-{n}" / "SKILL.md", skill(f"tdd-guide-{n}", TDD_GUIDE))
    document = json.loads(run("overlap", "--json", cwd=project).stdout)
    assert document["families"] == [
        {
            "identical": True,
            "skills": [
                {"name": name, "path": str(skills / name / "SKILL.md")}
                for name in ("tdd-guide", "tdd-guide-1", "tdd-guide-2")
            ],
        }
    ]
    named = [{p["a"]["name"], p["b"]["name"]} for p in document["pairs"]]
    assert {"tdd-guide", "tdd-workflow"} in named
    assert not any(len(pair & {"tdd-guide", "tdd-guide-1", "tdd-guide-2"}) == 2 for pair in named)
    lines = run("overlap", "--threshold", "0.6", cwd=project).stdout.splitlines()
    assert lines[0] == "1 competing pair (threshold 0.60):"
    assert lines[1].endswith("  tdd-guide (and 2 near-identical)  <->  tdd-workflow")
    assert lines[-4:] == [
        "  3 skills, the same description: tdd-guide, tdd-guide-1, tdd-guide-2",
        "        tdd-guide: .dsh/skills/tdd-guide/SKILL.md",
        "        tdd-guide-1: .dsh/skills/tdd-guide-1/SKILL.md",
        "        tdd-guide-2: .dsh/skills/tdd-guide-2/SKILL.md",
    ]
    assert lines[-5] == "1 family of near-identical descriptions:"


def test_overlap_rejects_a_threshold_outside_0_1(run: Run, project: Path) -> None:
    result = run("overlap", "--threshold", "1.5", cwd=project)
    assert result.code == 2
    assert result.stderr == (
        "skilldeck: --threshold: overlap threshold must be a number greater than 0 and at "
        "most 1, found 1.5\n"
    )


def test_check_reports_sd801_on_both_files_with_related_locations(run: Run, project: Path) -> None:
    items = json.loads(run("check", "--format", "json", cwd=project).stdout)
    overlaps = sorted((i["path"], i["code"]) for i in items if i["code"].startswith("SD8"))
    assert (".dsh/skills/tdd-guide/SKILL.md", "SD801") in overlaps
    assert (".dsh/skills/tdd-workflow/SKILL.md", "SD801") in overlaps
    on_guide = [
        i for i in items if i["path"] == ".dsh/skills/tdd-guide/SKILL.md" and i["code"] == "SD801"
    ]
    assert on_guide[0]["message"].startswith("`tdd-guide` and `tdd-workflow` describe overlapping")
    assert on_guide[0]["severity"] == "information"
    assert on_guide[0]["range"] == {
        "start": {"line": 1, "character": 6},
        "end": {"line": 1, "character": 15},
    }
    sarif = json.loads(run("check", "--format", "sarif", cwd=project).stdout)
    results = [
        r
        for r in sarif["runs"][0]["results"]
        if r["ruleId"] == "SD801"
        and r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        == ".dsh/skills/tdd-guide/SKILL.md"
    ]
    related = [
        (
            loc["physicalLocation"]["artifactLocation"]["uri"],
            loc["physicalLocation"]["region"]["startLine"],
            loc["message"]["text"],
        )
        for loc in results[0]["relatedLocations"]
    ]
    assert related[0][:2] == (".dsh/skills/tdd-workflow/SKILL.md", 2)
    assert related[0][2].startswith("`tdd-workflow`: the skill it overlaps (score 0.")


def test_check_overlap_threshold_comes_from_skilldeck_toml(run: Run, project: Path) -> None:
    write(project / "skilldeck.toml", "[overlap]\nthreshold = 0.99\n")
    items = json.loads(run("check", "--format", "json", cwd=project).stdout)
    assert [i for i in items if i["code"].startswith("SD8")] == []


def test_only_the_skills_an_agent_loads_compete_for_it(run: Run, tmp_path: Path) -> None:
    root = tmp_path / "agents"
    (root / ".git").mkdir(parents=True)
    skills = root / ".agents" / "skills"
    write(skills / "tdd-workflow" / "SKILL.md", skill("tdd-workflow", TDD_WORKFLOW))
    write(skills / "tdd-guide.md", skill("tdd-guide", TDD_GUIDE))  # a flat file

    def names(*extra: str) -> list[list[str]]:
        result = run("overlap", "--json", *extra, cwd=root)
        assert (result.code, result.stderr) == (0, ""), result.stderr
        return [
            sorted([p["a"]["name"], p["b"]["name"]]) for p in json.loads(result.stdout)["pairs"]
        ]

    assert names() == [["tdd-guide", "tdd-workflow"]]  # DSH reads flat files
    assert names("--host", "dsh") == [["tdd-guide", "tdd-workflow"]]
    assert names("--host", "codex") == []  # Codex reads bundles only: no competitor
    bad = run("overlap", "--host", "nobody", cwd=root)
    assert bad.code == 2 and "--host" in bad.stderr


def test_check_reports_the_overlap_an_agent_adds_with_its_own_folders(
    run: Run, tmp_path: Path, home: Path
) -> None:
    """GitHub Copilot reads .claude/skills besides .agents/skills; the deck does not: a
    skill there competes with the deck's for Copilot's model, and check says so on the
    deck's file, naming the agent; pairs the deck has already are not repeated."""
    root = tmp_path / "claude"
    (root / ".git").mkdir(parents=True)
    write(root / ".agents/skills/tdd-workflow/SKILL.md", skill("tdd-workflow", TDD_WORKFLOW))
    write(root / ".agents/skills/release-notes/SKILL.md", skill("release-notes", "Draft notes."))
    write(root / ".claude/skills/tdd-guide/SKILL.md", skill("tdd-guide", TDD_GUIDE))

    def overlaps() -> list[tuple[str, str, str]]:
        result = run("check", "--format", "json", cwd=root)
        assert result.code == 0, result.stderr
        return [
            (i["path"], i["code"], i["message"])
            for i in json.loads(result.stdout)
            if i["code"].startswith("SD8")
        ]

    assert overlaps() == []  # the deck alone: tdd-guide is not in it
    write(root / "skilldeck.toml", 'hosts = ["dsh", "claude-code", "copilot"]\n')
    ((path, code, message),) = overlaps()
    assert (path, code) == (".agents/skills/tdd-workflow/SKILL.md", "SD801")
    assert message.startswith(
        "`tdd-workflow` and `tdd-guide` describe overlapping tasks for GitHub Copilot (score 0."
    )
    assert "; shared: " in message
    # Once the deck has the same pair, only its own finding remains.
    write(root / ".agents/skills/tdd-guide/SKILL.md", skill("tdd-guide", TDD_GUIDE))
    found = overlaps()
    assert {(p, c) for p, c, _ in found} == {
        (".agents/skills/tdd-workflow/SKILL.md", "SD801"),
        (".agents/skills/tdd-guide/SKILL.md", "SD801"),
    }
    assert all(" for " not in message.split("(score")[0] for _, _, message in found)


def _sd8(run: Run, project: Path) -> list[tuple[str, str, str]]:
    result = run("check", "--format", "json", cwd=project)
    assert result.code == 0, result.stderr
    return sorted(
        (i["path"].rsplit("/", 2)[-2], i["code"], i["message"].split(" describe")[0])
        for i in json.loads(result.stdout)
        if i["code"].startswith("SD8")
    )


def test_pairs_declared_distinct_are_not_reported_and_the_memo_follows_the_setting(
    run: Run, project: Path
) -> None:
    """`[overlap] distinct` silences SD801 between the skills of a group (a pattern
    group too); a re-check after the setting changes follows it (the deck memo is keyed
    by it), and `overlap` says how many pairs it left out."""
    before = _sd8(run, project)
    assert ("tdd-guide", "SD801", "`tdd-guide` and `tdd-workflow`") in before
    write(project / "skilldeck.toml", '[overlap]\ndistinct = [["tdd-guide", "tdd-workflow"]]\n')
    after = _sd8(run, project)
    assert ("tdd-guide", "SD801", "`tdd-guide` and `tdd-workflow`") not in after
    assert ("tdd-workflow", "SD801", "`tdd-workflow` and `tdd-guide`") not in after
    # the other pairs of the two skills still stand
    pair = {"`tdd-guide` and `tdd-workflow`", "`tdd-workflow` and `tdd-guide`"}
    assert after == [f for f in before if f[2] not in pair]
    assert any("test-driven-development" in f[2] for f in after)
    text = run("overlap", cwd=project).stdout.splitlines()
    assert text[-1] == "1 pair declared distinct ([overlap] distinct)"
    assert not any(line.endswith("tdd-guide  <->  tdd-workflow") for line in text)
    write(project / "skilldeck.toml", '[overlap]\ndistinct = [["t*"]]\n')
    assert _sd8(run, project) == []
    assert run("overlap", cwd=project).stdout.splitlines() == [
        "no competing skills (threshold 0.23)",
        "3 pairs declared distinct ([overlap] distinct)",
    ]


def test_near_identical_descriptions_are_reported_even_when_declared_distinct(
    run: Run, project: Path
) -> None:
    skills = project / ".dsh" / "skills"
    write(skills / "tdd-guide-copy" / "SKILL.md", skill("tdd-guide-copy", TDD_GUIDE))
    write(project / "skilldeck.toml", '[overlap]\ndistinct = [["tdd-guide*"]]\n')
    result = run("check", "--format", "json", cwd=project)
    found = {(i["code"], i["message"]) for i in json.loads(result.stdout)}
    family = "2 skills have the same description: `tdd-guide`, `tdd-guide-copy`; the model "
    assert ("SD802", family + "cannot tell them apart") in found


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ('"c4-*"', "must be a list of groups of skill names"),
        ('["c4-*"]', 'must be a list of groups (lists) of skill names, found "c4-*"'),
        ("[[]]", "each group must list one or more non-empty skill names or patterns, found []"),
        ('[["a", 1]]', "each group must list one or more non-empty skill names"),
    ],
)
def test_a_bad_distinct_setting_is_an_error_naming_the_key(
    run: Run, project: Path, value: str, problem: str
) -> None:
    write(project / "skilldeck.toml", f"[overlap]\ndistinct = {value}\n")
    result = run("check", cwd=project)
    assert result.code == 2
    assert "'overlap.distinct'" in result.stderr and problem in result.stderr, result.stderr


def test_a_generalist_and_a_specialist_of_its_task_are_named_so(run: Run, tmp_path: Path) -> None:
    """`review` (a name that says the task alone) catches F# review requests too: the pair
    scores at least 0.30 and the text output says which one is the generalist."""
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    skills = root / ".dsh" / "skills"
    write(
        skills / "review.md",
        skill(
            "review",
            "PR Reviewer agent. Reviews implemented code using a 3-tier taxonomy. Outputs "
            "review-report.md.",
        ),
    )
    write(
        skills / "fsharp-reviewer.md",
        skill(
            "fsharp-reviewer",
            "Expert F# code reviewer specializing in functional idioms, type safety and "
            "computation expressions. Use for all F# code changes.",
        ),
    )
    write(skills / "release-notes.md", skill("release-notes", "Draft release notes for a tag."))
    result = run("overlap", "--threshold", "0.3", cwd=root)
    assert (result.code, result.stderr) == (0, "")
    lines = result.stdout.splitlines()
    assert lines[0] == "1 competing pair (threshold 0.30):"
    assert lines[1].endswith("  fsharp-reviewer  <->  review")
    assert float(lines[1].split()[0]) >= 0.3
    assert lines[3] == "        generalist: review (named for the task alone)"
    checked = run("check", "--format", "json", cwd=root)
    messages = [i["message"] for i in json.loads(checked.stdout) if i["code"] == "SD801"]
    assert sorted(m.split(" describe")[0] for m in messages) == [
        "`fsharp-reviewer` and `review`",
        "`review` and `fsharp-reviewer`",
    ]
