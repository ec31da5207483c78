"""``skilldeck check --fix / --diff / --unsafe-fixes / --select / --ignore / --statistics``
on real files: what is written, what is left alone, and what is printed."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from cli_helpers import Run, cli_environment, write

from skilldeck.cli.fix import FixTarget, Skipped, _diff_name, plan_file, write_plan
from skilldeck.engine.config._rule_settings import RuleSettings
from skilldeck.engine.files._skill_file import analyze_skill_file
from skilldeck.engine.rules import Fix, TextEdit
from skilldeck.engine.text import Span

CRLF_SKILL = (
    "---\r\nname: a\r\ndescription: Alpha.\r\nuser_invocable: false\r\n"
    "disable-model-invocation: yes\r\n---\r\nUse /b and /bb now.\r\n"
)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    write(root / ".dsh/skills/b/SKILL.md", "---\nname: b\ndescription: B.\n---\nB.\n")
    return root


def skill_a(project: Path, text: str = CRLF_SKILL) -> Path:
    path = project / ".dsh/skills/a/SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8"))
    return path


def test_fix_applies_safe_fixes_keeps_crlf_and_mode(run: Run, project: Path) -> None:
    path = skill_a(project)
    path.chmod(0o640)
    result = run("check", "--fix", "--no-cache", cwd=project)
    assert path.read_bytes() == CRLF_SKILL.replace("invocation: yes", "invocation: true").encode()
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert sorted(os.listdir(path.parent)) == ["SKILL.md"]  # no temporary file left
    lines = result.stdout.splitlines()
    assert lines[:2] == [
        "Fixed .dsh/skills/a/SKILL.md: SD303 Replace with 'true' (line 5)",
        "Fixed 1 problem.",
    ]
    # What remains: the unsafe fixes were not applied, and they decide the exit status.
    assert [line.split(" ")[1] for line in lines[2:-1]] == ["SD404", "SD704"]
    assert lines[-1] == "Found 2 problems (2 warnings) in 2 skill files; 0 skills dropped."
    assert result.code == 0
    assert run("check", "--fix", "--fail-on", "warning", cwd=project).code == 1


def test_unsafe_fixes_rename_the_near_miss_key_and_the_mention(run: Run, project: Path) -> None:
    path = skill_a(project)
    result = run("check", "--fix", "--unsafe-fixes", "--no-cache", cwd=project)
    assert path.read_bytes() == (
        b"---\r\nname: a\r\ndescription: Alpha.\r\nuser-invocable: false\r\n"
        b"disable-model-invocation: true\r\n---\r\nUse /b and /b now.\r\n"
    )
    assert result.stdout.splitlines() == [
        "Fixed .dsh/skills/a/SKILL.md: SD404 Rename to 'user-invocable' (line 4)",
        "Fixed .dsh/skills/a/SKILL.md: SD303 Replace with 'true' (line 5)",
        "Fixed .dsh/skills/a/SKILL.md: SD704 Replace with '/b' (line 7)",
        "Fixed 3 problems.",
        "No problems found in 2 skill files.",
    ]
    assert result.code == 0


def test_diff_prints_the_change_and_writes_nothing(run: Run, project: Path) -> None:
    path = skill_a(project)
    before = path.read_bytes()
    result = run("check", "--diff", "--no-cache", cwd=project)
    assert path.read_bytes() == before
    # (the run helper reads stdout in universal-newlines mode: CRLF arrives as \n)
    assert result.stdout == (
        "--- a/.dsh/skills/a/SKILL.md\n"
        "+++ b/.dsh/skills/a/SKILL.md\n"
        "@@ -2,6 +2,6 @@\n"
        " name: a\n"
        " description: Alpha.\n"
        " user_invocable: false\n"
        "-disable-model-invocation: yes\n"
        "+disable-model-invocation: true\n"
        " ---\n"
        " Use /b and /bb now.\n"
    )
    assert result.stderr.strip().endswith("Would fix 1 problem in 1 file.")
    assert result.code == 1
    clean = run("check", "--diff", "--select", "SD2", cwd=project)
    assert (clean.code, clean.stdout) == (0, "")


def test_a_symlink_leaving_the_root_is_never_written(
    run: Run, project: Path, tmp_path: Path
) -> None:
    outside = write(tmp_path / "elsewhere/SKILL.md", CRLF_SKILL)
    before = outside.read_bytes()
    link = project / ".dsh/skills/a/SKILL.md"
    link.parent.mkdir(parents=True)
    link.symlink_to(outside)
    result = run("check", "--fix", "--unsafe-fixes", "--no-cache", cwd=project)
    assert outside.read_bytes() == before
    assert link.is_symlink()
    assert (
        f"skilldeck: .dsh/skills/a/SKILL.md: it resolves to {outside}, outside its root "
        f"{project / '.dsh/skills'}; left alone"
    ) in result.stderr
    assert "Fixed 0 problems." in result.stdout


def test_a_symlink_inside_the_root_writes_its_target(run: Run, project: Path) -> None:
    target = skill_a(project)
    other = project / ".dsh/skills/alias.md"
    other.symlink_to(target)
    run("check", "--fix", "--no-cache", cwd=project)
    assert other.is_symlink()
    assert b"invocation: true" in target.read_bytes()


def test_a_read_only_file_is_left_alone(run: Run, project: Path) -> None:
    path = skill_a(project)
    path.chmod(0o444)
    before = path.read_bytes()
    result = run("check", "--fix", "--no-cache", cwd=project)
    assert path.read_bytes() == before
    assert stat.S_IMODE(path.stat().st_mode) == 0o444
    assert "skilldeck: .dsh/skills/a/SKILL.md: it is read-only; left alone" in result.stderr
    assert "SD303" in result.stdout  # still reported


def test_a_file_changed_between_read_and_write_is_left_alone(project: Path) -> None:
    path = skill_a(project)
    settings = RuleSettings()
    analysis = analyze_skill_file(path, expected_name="a", settings=settings)
    target = FixTarget(str(project / ".dsh/skills"), "a", settings, analysis.mentions)
    plan = plan_file(str(path), target, analysis.findings, unsafe=False)
    assert plan is not None and not isinstance(plan, Skipped)
    edited = CRLF_SKILL.replace("Alpha.", "Alpha, edited meanwhile.")
    path.write_bytes(edited.encode())
    assert write_plan(plan) == Skipped(
        str(path), "it changed on disk since it was read; left alone"
    )
    assert path.read_bytes() == edited.encode()
    assert sorted(os.listdir(path.parent)) == ["SKILL.md"]


def test_a_file_changed_since_it_was_checked_is_left_alone(project: Path) -> None:
    path = skill_a(project)
    settings = RuleSettings()
    analysis = analyze_skill_file(path, expected_name="a", settings=settings)
    path.write_bytes(b"---\nname: a\ndescription: Alpha.\n---\nNew.\n")
    target = FixTarget(str(project / ".dsh/skills"), "a", settings, analysis.mentions)
    assert plan_file(str(path), target, analysis.findings, unsafe=True) == Skipped(
        str(path), "it changed on disk since it was checked; left alone"
    )


def test_select_ignore_and_statistics(run: Run, project: Path) -> None:
    skill_a(project)
    only = run("check", "--select", "SD404,SD7", "--ignore", "unknown-skill-mention", cwd=project)
    assert [line.split(" ")[1] for line in only.stdout.splitlines()[:-1]] == ["SD404"]
    stats = run("check", "--statistics", cwd=project)
    assert stats.stdout == (
        "1\tSD303\t[*] non-canonical-boolean\n"
        "1\tSD404\t    near-miss-key\n"
        "1\tSD704\t    unknown-skill-mention\n"
    )
    unsafe = run(
        "check", "--statistics", "--format", "json", "--select", "SD404,SD704", cwd=project
    )
    assert json.loads(unsafe.stdout) == [
        {"code": "SD404", "name": "near-miss-key", "count": 1, "fixable": False},
        {"code": "SD704", "name": "unknown-skill-mention", "count": 1, "fixable": False},
    ]
    bad = run("check", "--ignore", "SD99", cwd=project)
    assert bad.code == 2
    assert "--ignore 'SD99' matches no rule" in bad.stderr
    assert run("check", "--unsafe-fixes", cwd=project).code == 2


def test_near_miss_families_through_check(run: Run, project: Path) -> None:
    skill_a(
        project,
        "---\nname: a\ndescription: Alpha.\nallowed_tools: Bash\nUserInvocable: false\n"
        "Disable-Model-Invocation: true\ndescripton: typo\nlicense: MIT\n---\nSee /bb now.\n",
    )
    items = json.loads(
        run("check", "--format", "json", "--select", "SD404,SD7", cwd=project).stdout
    )
    assert [
        (i["code"], i["range"]["start"]["line"], i["message"].split("?")[0]) for i in items
    ] == [
        (
            "SD404",
            3,
            "'allowed_tools' is not a key of the dsh profile: did you mean 'allowed-tools'",
        ),
        (
            "SD404",
            4,
            "'UserInvocable' is not a key of the dsh profile: did you mean 'user-invocable'",
        ),
        (
            "SD404",
            5,
            "'Disable-Model-Invocation' is not a key of the dsh profile: did you mean "
            "'disable-model-invocation'",
        ),
        ("SD404", 6, "'descripton' is not a key of the dsh profile: did you mean 'description'"),
        ("SD704", 9, "'/bb' names no skill in this deck; did you mean /b"),
    ]


ALIASED = "---\nname: docx\ndescription: Edits docx files.\ndisable-model-invocation: yes\n---\n"


def test_a_symlinked_alias_folder_settles_and_is_fixed_once(run: Run, project: Path) -> None:
    # Issue #32.8: `docx -> docx-official` in one root; each run renamed the one real
    # file to the other folder's name (and back on the next pass).
    real = write(project / ".dsh/skills/docx-official/SKILL.md", ALIASED)
    (project / ".dsh/skills/docx").symlink_to("docx-official")
    fixed = ALIASED.replace("invocation: yes", "invocation: true")

    first = run("check", "--fix", "--unsafe-fixes", "--no-cache", cwd=project)
    assert real.read_text(encoding="utf-8") == fixed  # the safe fix, the name kept
    fixes = [line for line in first.stdout.splitlines() if line.startswith("Fixed ")]
    assert fixes == [
        "Fixed .dsh/skills/docx-official/SKILL.md: SD303 Replace with 'true' (line 4)",
        "Fixed 1 problem.",
    ]
    assert (
        "skilldeck: .dsh/skills/docx-official/SKILL.md: renaming it to 'docx-official' is "
        "ambiguous: the same file is reached as 'docx' and 'docx-official' (through a "
        "symlink); left alone"
    ) in first.stderr
    assert "changed on disk" not in first.stderr

    second = run("check", "--fix", "--unsafe-fixes", "--no-cache", cwd=project)
    assert real.read_text(encoding="utf-8") == fixed
    assert "Fixed 0 problems." in second.stdout


def test_a_rename_onto_an_existing_folder_is_refused(run: Run, project: Path) -> None:
    path = write(project / ".dsh/skills/notes/SKILL.md", skill_text("Notes Tool"))
    taken = write(project / ".dsh/skills/notes-tool/SKILL.md", skill_text("other-notes"))

    result = run("check", "--fix", "--unsafe-fixes", "--no-cache", "--select", "SD203", cwd=project)

    assert path.read_text(encoding="utf-8") == skill_text("Notes Tool")
    assert (
        "skilldeck: .dsh/skills/notes/SKILL.md: renaming it to 'notes-tool' is ambiguous: "
        f"{taken.parent} already exists; left alone"
    ) in result.stderr
    assert "Fixed 0 problems." in result.stdout


def skill_text(name: str) -> str:
    return f"---\nname: {name}\ndescription: Takes notes.\n---\nBody.\n"


WINDOWS_PATH_SKILL = '---\nname: a\ndescription: "Find C:\\Users\\q files"\n---\nBody.\n'


def test_fix_escapes_backslashes_once_and_settles(run: Run, project: Path) -> None:
    # A Windows path in double quotes: each bad escape is named and fixed by doubling its
    # backslash (what the author wrote is kept); a second --fix changes nothing.
    path = skill_a(project, WINDOWS_PATH_SKILL)
    checked = run("check", "--no-cache", str(path), cwd=project)
    assert "'\\U' must be followed by 8 hexadecimal digits in a double-quoted value" in (
        checked.stdout
    )
    result = run("check", "--fix", "--no-cache", str(path), cwd=project)
    assert (
        path.read_text() == '---\nname: a\ndescription: "Find C:\\\\Users\\\\q files"\n---\nBody.\n'
    )
    assert result.stdout.splitlines()[:3] == [
        "Fixed .dsh/skills/a/SKILL.md: SD103 Escape the backslash (line 3)",
        "Fixed .dsh/skills/a/SKILL.md: SD103 Escape the backslash (line 3)",
        "Fixed 2 problems.",
    ]
    again = run("check", "--fix", "--no-cache", str(path), cwd=project)
    assert again.stdout.splitlines()[0] == "Fixed 0 problems."
    assert path.read_text().count("\\\\") == 2


def test_a_fix_that_would_leave_its_finding_is_refused(project: Path) -> None:
    # Whatever a rule offers, --fix applies no edit after which the same finding stands
    # where it stood: such a fix would be applied again at every pass.
    path = skill_a(project, '---\nname: a\ndescription: "Open\n---\nBody.\n')
    settings = RuleSettings()
    [finding] = analyze_skill_file(path, expected_name="a", settings=settings).findings
    idle = Fix("Add a space", (TextEdit(Span.at(4, 5, 5), " "),))
    target = FixTarget(str(project / ".dsh/skills"), "a", settings)
    assert plan_file(str(path), target, [replace(finding, fixes=(idle,))], unsafe=False) == (
        Skipped(str(path), "SD103: 'Add a space' would leave the problem as it is; left alone")
    )


def test_diff_carries_each_file_to_what_fix_writes(run: Run, project: Path) -> None:
    # The tab hides the rest of the frontmatter until it is fixed: --diff shows the
    # fixes found after it too, as --fix applies them.
    text = "---\nname: two\ndescription: d two\nuser-invocable: yes\nmetadata:\n\tv: 1\n---\nb\n"
    path = write(project / ".dsh/skills/two/SKILL.md", text)
    diff = run("check", "--diff", "--no-cache", str(path), cwd=project)
    assert diff.stdout == (
        "--- a/.dsh/skills/two/SKILL.md\n"
        "+++ b/.dsh/skills/two/SKILL.md\n"
        "@@ -1,8 +1,8 @@\n"
        " ---\n name: two\n description: d two\n"
        "-user-invocable: yes\n+user-invocable: true\n"
        " metadata:\n-\tv: 1\n+  v: 1\n"
        " ---\n b\n"
    )
    assert diff.stderr.strip().endswith("Would fix 2 problems in 1 file.")
    assert path.read_text() == text
    fixed = run("check", "--fix", "--no-cache", str(path), cwd=project)
    assert fixed.stdout.splitlines()[:3] == [
        "Fixed .dsh/skills/two/SKILL.md: SD103 Replace the indentation tabs with spaces (line 6)",
        "Fixed .dsh/skills/two/SKILL.md: SD303 Replace with 'true' (line 4)",
        "Fixed 2 problems.",
    ]
    assert path.read_text() == text.replace("yes", "true").replace("\tv", "  v")


def test_diff_keeps_the_bytes_patch_tools_match(project: Path, tmp_path: Path, home: Path) -> None:
    # A byte order mark, CRLF and U+2028 inside a line: the diff's lines
    # are the file's own, cut at \n only, the mark on the first.
    path = project / ".dsh/skills/c/SKILL.md"
    path.parent.mkdir(parents=True)
    path.write_bytes(
        "\ufeff---\r\nname: c\r\ndescription: d\r\nuser-invocable: yes\r\n---\r\n"
        "x y\u2028z\r\n".encode()
    )
    completed = subprocess.run(
        [sys.executable, "-m", "skilldeck", "check", "--diff", "--no-cache"],
        cwd=project,
        env=cli_environment(tmp_path, home),
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert (
        completed.stdout
        == (
            "--- a/.dsh/skills/c/SKILL.md\n"
            "+++ b/.dsh/skills/c/SKILL.md\n"
            "@@ -1,6 +1,6 @@\n"
            " \ufeff---\r\n name: c\r\n description: d\r\n"
            "-user-invocable: yes\r\n+user-invocable: true\r\n"
            " ---\r\n x y\u2028z\r\n"
        ).encode()
    )


@pytest.mark.parametrize(
    ("shown", "header"),
    [
        ("a/.agents/skills/pdf/SKILL.md", "a/.agents/skills/pdf/SKILL.md"),
        ("a/skills/my skill/SKILL.md", "a/skills/my skill/SKILL.md\t"),
        ("a/skills/two\nlines/SKILL.md", '"a/skills/two\\nlines/SKILL.md"'),
        ('a/skills/say "hi"/SKILL.md', '"a/skills/say \\"hi\\"/SKILL.md"'),
        ("a/skills/caf\u00e9/SKILL.md", '"a/skills/caf\\303\\251/SKILL.md"'),
        ("a/skills/caf\udce9/SKILL.md", '"a/skills/caf\\351/SKILL.md"'),
    ],
)
def test_diff_headers_quote_names_as_git_does(shown: str, header: str) -> None:
    assert _diff_name(shown) == header
