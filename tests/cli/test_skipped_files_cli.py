"""What ``list``, ``catalog``, ``load``, ``roots`` and ``check`` tell the user about skill
files the engine skips and roots that cannot be listed (SPEC §2, §3, §6).

- A skipped skill file is named on stderr with the finding ``check`` reports; stdout is
  what it was (the catalog stays the exact message).
- A root that can never be listed (a symlink loop; permission denied, run without the
  DAC capabilities when the tests run as root) is as good as missing: the read is
  complete, and ``roots`` and ``check`` say why it holds nothing.
- ``load`` says discovery was incomplete when the skill was not found in such a read.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import Result, Run, cli_environment, skill, write

from skilldeck.engine.model_view._skill_tool import unknown_skill_text

INCOMPLETE = "skilldeck: warning: discovery was incomplete; some skills may be missing"
LEGACY = (
    "SD301 unsupported key 'disableModelInvocation': use 'disable-model-invocation' "
    "(skill not loaded)"
)
MAYBE = "SD302 'user-invocable' must be true or false, found the string 'maybe' (skill not loaded)"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project with a good skill and two files the engine refuses."""
    root = tmp_path / "project"
    (root / ".git").mkdir(parents=True)
    write(root / ".agents/skills/good/SKILL.md", skill("good", "A good skill."))
    write(
        root / ".agents/skills/legacy/SKILL.md",
        skill("legacy", "Old keys.", "disableModelInvocation: true\n"),
    )
    write(root / ".dsh/skills/maybe.md", skill("maybe", "Unsure.", "user-invocable: maybe\n"))
    return root


SKIPPED_LINES = [
    f"skilldeck: warning: .dsh/skills/maybe.md skipped: {MAYBE}",
    f"skilldeck: warning: .agents/skills/legacy/SKILL.md skipped: {LEGACY}",
]


def _without_broken(project: Path) -> None:
    shutil.rmtree(project / ".agents/skills/legacy")
    (project / ".dsh/skills/maybe.md").unlink()


@pytest.mark.parametrize("command", [("list",), ("list", "--json"), ("catalog",)])
def test_list_and_catalog_name_each_skipped_file_and_keep_stdout(
    run: Run, project: Path, command: tuple[str, ...]
) -> None:
    broken = run(*command, cwd=project)
    assert broken.code == 0
    assert broken.stderr.splitlines() == SKIPPED_LINES
    _without_broken(project)
    clean = run(*command, cwd=project)
    assert (clean.code, clean.stderr) == (0, "")
    assert broken.stdout == clean.stdout  # the catalog is the exact message still


def test_load_names_the_skipped_files_and_a_skipped_skill_asked_for(
    run: Run, project: Path
) -> None:
    checked = run("check", cwd=project).stdout  # the same words as check's findings
    assert ".agents/skills/legacy/SKILL.md:4:1: " + LEGACY.replace(" ", " error ", 1) in checked
    assert ".dsh/skills/maybe.md:4:17: " + MAYBE.replace(" ", " error ", 1) in checked
    loaded = run("load", "good", cwd=project)
    assert loaded.code == 0
    assert loaded.stdout.startswith('<skill_content name="good">')
    assert loaded.stderr.splitlines() == SKIPPED_LINES

    asked = run("load", "legacy", cwd=project)
    assert asked.code == 1
    assert asked.stdout == unknown_skill_text("legacy") + "\n"  # the tool's text, exactly
    assert asked.stderr.splitlines() == [
        SKIPPED_LINES[0],
        "skilldeck: warning: skill 'legacy' exists but was skipped: "
        f".agents/skills/legacy/SKILL.md: {LEGACY}; run `skilldeck check`",
    ]


def test_a_huge_deck_of_broken_files_is_named_twenty_lines_at_most(run: Run, project: Path) -> None:
    for index in range(30):
        write(
            project / f".dsh/skills/bad-{index:02}.md",
            skill(f"bad-{index:02}", "Bad.", "user-invocable: maybe\n"),
        )
    result = run("list", cwd=project)
    lines = result.stderr.splitlines()
    assert len(lines) == 21
    assert lines[0].startswith("skilldeck: warning: .dsh/skills/bad-00.md skipped: SD302 ")
    assert lines[19].startswith("skilldeck: warning: .dsh/skills/bad-19.md skipped: SD302 ")
    assert lines[20] == (
        "skilldeck: warning: and 12 more skipped skill files; run `skilldeck check`"
    )


def test_a_symlink_loop_root_is_complete_and_says_why(run: Run, project: Path) -> None:
    (project / "loop").symlink_to(project / "loop")
    flags = ("--custom-skill-dir", "loop")
    _without_broken(project)

    listed = run("list", "--json", *flags, cwd=project)
    assert listed.code == 0
    assert json.loads(listed.stdout)["complete"] is True
    assert [s["name"] for s in json.loads(listed.stdout)["skills"]] == ["good"]
    assert listed.stderr == ""
    catalog = run("catalog", *flags, cwd=project)
    assert (catalog.code, catalog.stderr) == (0, "")
    assert "- `good`: A good skill." in catalog.stdout

    roots = run("roots", *flags, cwd=project)
    assert (
        f" 300  custom          {project}/loop  (cannot be listed: Too many levels of "
        "symbolic links)" in roots.stdout.splitlines()
    )
    (loop,) = [
        r
        for r in json.loads(run("roots", "--json", *flags, cwd=project).stdout)
        if r["source"] == "custom"
    ]
    assert (loop["exists"], loop["problem"]) == (
        False,
        "cannot be listed: Too many levels of symbolic links",
    )

    checked = run("check", *flags, cwd=project)
    assert checked.code == 0
    assert checked.stderr.splitlines() == [
        f"skilldeck: warning: {project}/loop: skill root cannot be listed: Too many levels "
        "of symbolic links; nothing scanned"
    ]


def _without_dac(tmp_path: Path, home: Path, *args: str, cwd: Path) -> Result:
    """``python ARGS`` as a user permission bits apply to: as root, without the
    capabilities that bypass them (``setpriv``); otherwise as this user."""
    command = [sys.executable, *args]
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("running as root without setpriv: permission bits do not apply")
        command = [setpriv, "--bounding-set=-dac_override,-dac_read_search", *command]
    done = subprocess.run(
        command,
        cwd=cwd,
        env=cli_environment(tmp_path, home),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    return Result(done.returncode, done.stdout, done.stderr)


def test_a_root_without_permission_is_complete_and_says_why(
    tmp_path: Path, home: Path, project: Path
) -> None:
    _without_broken(project)
    locked = project / "locked"
    write(locked / "hidden" / "SKILL.md", skill("hidden"))
    flags = ("--custom-skill-dir", "locked")

    def skilldeck(*args: str) -> Result:
        return _without_dac(tmp_path, home, "-m", "skilldeck", *args, *flags, cwd=project)

    locked.chmod(0)
    try:
        probe = _without_dac(
            tmp_path, home, "-c", f"import os; os.listdir({str(locked)!r})", cwd=project
        )
        if "PermissionError" not in probe.stderr:
            pytest.skip(f"permission bits do not apply here: {probe.stderr}")
        listed = skilldeck("list", "--json")
        roots = skilldeck("roots")
        checked = skilldeck("check")
    finally:
        locked.chmod(0o755)
    assert (listed.code, listed.stderr) == (0, "")
    assert json.loads(listed.stdout)["complete"] is True
    assert f"{locked}  (cannot be listed: Permission denied)" in roots.stdout
    assert checked.code == 0
    assert checked.stderr.splitlines() == [
        f"skilldeck: warning: {locked}: skill root cannot be listed: Permission denied; "
        "nothing scanned"
    ]


FLAKY_PROVIDER = """\
from skilldeck.engine.registry import ProviderObservation


class Flaky:
    name = "flaky"

    async def list(self, options):
        return ProviderObservation([], complete=False)

    async def get(self, candidate, options):
        return None


def factory(control):
    return Flaky()
"""


def test_load_says_discovery_was_incomplete_when_the_skill_was_not_found(
    run: Run, project: Path, tmp_path: Path
) -> None:
    _without_broken(project)
    write(tmp_path / "modules" / "flaky_source.py", FLAKY_PROVIDER)
    env = {"PYTHONPATH": os.pathsep.join([str(tmp_path / "modules"), *sys.path])}
    flags = ("--provider", "flaky_source:factory")
    missing = run("load", "missing", *flags, cwd=project, env=env)
    assert missing.code == 1
    assert missing.stdout == unknown_skill_text("missing") + "\n"
    assert missing.stderr.splitlines() == [INCOMPLETE]
    assert run("list", *flags, cwd=project, env=env).stderr.splitlines() == [INCOMPLETE]
    found = run("load", "good", *flags, cwd=project, env=env)
    assert (found.code, found.stderr) == (0, "")
