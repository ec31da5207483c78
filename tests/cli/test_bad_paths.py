"""Paths the OS refuses or that name nothing skilldeck reads: a precise message, exit 2."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from cli_helpers import Run, skill, write


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / ".git").mkdir(parents=True)
    write(root / ".dsh/skills/fine/SKILL.md", skill("fine"))
    return root


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ('custom-skill-dirs = ["team\\u0000skills"]\n', "custom-skill-dirs"),
        ('bundled-skill-dir = "b\\u0000"\n', "bundled-skill-dir"),
    ],
)
def test_a_nul_in_a_config_path_names_the_key(run: Run, project: Path, text: str, key: str) -> None:
    config = write(project / "skilldeck.toml", text)
    for command in (("check",), ("list",), ("catalog",), ("roots",)):
        result = run(*command, cwd=project)
        assert (result.code, result.stdout) == (2, ""), command
        assert result.stderr == (
            f"skilldeck: {config}: '{key}' must not contain a NUL character\n"
        ), command


def test_a_name_too_long_is_reported_as_such(run: Run, project: Path) -> None:
    long_name = "a" * 300
    for raw in (long_name, f"{long_name}.md", f".dsh/skills/{long_name}/SKILL.md"):
        result = run("check", raw, cwd=project)
        assert (result.code, result.stdout) == (2, "")
        assert result.stderr == f"skilldeck: check: file name too long: {raw}\n"
    missing = run("check", "nowhere.md", cwd=project)
    assert missing.stderr == "skilldeck: check: no such file or directory: nowhere.md\n"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_path_that_is_no_skill_bundle_root_or_project_is_a_usage_error(
    run: Run, project: Path
) -> None:
    os.mkfifo(project / "fifo.md")
    fifo = run("check", "fifo.md", cwd=project)
    assert (fifo.code, fifo.stdout) == (2, "")
    assert fifo.stderr == (
        "skilldeck: check: fifo.md is a FIFO (named pipe), not a skill file, bundle, skill root or "
        "project\n"
    )
    if os.path.exists("/dev/zero"):
        device = run("check", "/dev/zero", cwd=project)
        assert (device.code, device.stdout) == (2, "")
        assert device.stderr == (
            "skilldeck: check: /dev/zero is a character device, not a skill file, bundle, "
            "skill root or project\n"
        )
    # A regular file that is no skill file was already one; a real skill still checks.
    plain = write(project / "notes.txt", "hello\n")
    other = run("check", str(plain), cwd=project)
    assert other.code == 2
    assert other.stderr.startswith("skilldeck: check: not a skill file: ")
    fine = run("check", ".dsh/skills/fine", cwd=project)
    assert (fine.code, fine.stdout) == (0, "No problems found in 1 skill file.\n")


def test_a_config_file_with_a_byte_order_mark_is_read(run: Run, project: Path) -> None:
    # Windows editors save "UTF-8 with BOM"; the BOM is accepted, not an invalid statement.
    (project / "skilldeck.toml").write_bytes(b'\xef\xbb\xbfignore = ["SD203"]\n')
    write(project / ".dsh/skills/odd/SKILL.md", skill("Odd_Name"))
    result = run("check", cwd=project)
    assert (result.code, result.stdout, result.stderr) == (
        0,
        "No problems found in 2 skill files.\n",
        "",
    )
    (project / "skilldeck.toml").write_bytes(b"\xef\xbb\xbfignore = ]\n")
    broken = run("check", cwd=project)
    assert broken.code == 2
    assert broken.stderr.startswith(f"skilldeck: {project / 'skilldeck.toml'}: invalid TOML: ")
    assert "(at line 1, column 10)" in broken.stderr  # columns count after the BOM
    (project / "skilldeck.toml").write_bytes(b'profile = "\xff"\n')
    binary = run("check", cwd=project)
    assert binary.code == 2
    assert binary.stderr.startswith(
        f"skilldeck: {project / 'skilldeck.toml'}: invalid TOML: not UTF-8 text"
    )


def test_options_naming_a_path_too_long_say_so(run: Run, project: Path) -> None:
    long_name = "b" * 300
    config = run("check", "--config", long_name, cwd=project)
    assert (config.code, config.stderr) == (
        2,
        f"skilldeck: --config: file name too long: {long_name}\n",
    )
    cwd = run("list", "--cwd", long_name, cwd=project)
    assert (cwd.code, cwd.stderr) == (2, f"skilldeck: --cwd: file name too long: {long_name}\n")
