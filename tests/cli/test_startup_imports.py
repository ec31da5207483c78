"""What a one-shot command imports: `check` on an unchanged deck is mostly interpreter
start and imports (~0.2 s at 10,000 skills), so machinery only the servers need
(asyncio, the root watcher, the MCP SDK, the language server) stays out of it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import skilldeck

SERVER_ONLY = ("asyncio", "watchfiles", "mcp", "pygls", "lsprotocol")
#: skilldeck modules only the servers need.
SERVER_MODULES = (
    "skilldeck.engine.filesystem._watch",
    "skilldeck.engine.filesystem._watch_gate",
    "skilldeck.lsp",
    "skilldeck.mcp",
)

SKILL = "---\nname: tidy\ndescription: Tidy the change before review.\n---\nSteps.\n"


def _imported_by_check(project: Path, cache: Path) -> set[str]:
    script = (
        "import sys, runpy, json\n"
        "sys.argv = ['skilldeck', 'check', '--cwd', sys.argv[1]]\n"
        "try:\n"
        "    runpy.run_module('skilldeck', run_name='__main__')\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(json.dumps(sorted(sys.modules)), file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(project)],
        capture_output=True,
        text=True,
        env={"SKILLDECK_CACHE_DIR": str(cache), "HOME": str(project.parent), "PATH": ""},
        check=False,
        timeout=60,
    )
    # The last line of stderr is the module list (check's own report goes to stdout).
    modules: list[str] = json.loads(done.stderr.splitlines()[-1])
    return set(modules)


def test_check_imports_nothing_only_the_servers_need(tmp_path: Path) -> None:
    project = tmp_path / "project"
    skill = project / ".dsh" / "skills" / "tidy" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text(SKILL)
    (project / ".git").mkdir()
    for run in ("cold", "warm"):
        modules = _imported_by_check(project, tmp_path / "cache")
        assert "skilldeck.cli.check" in modules, run
        loaded = sorted(
            name
            for name in modules
            if name.split(".")[0] in SERVER_ONLY
            or any(name == m or name.startswith(m + ".") for m in SERVER_MODULES)
        )
        assert loaded == [], f"{run} check imported {loaded}"


def test_a_check_its_memo_answers_imports_no_analysis_code(tmp_path: Path) -> None:
    """Nothing changed since the last run: the memo answers, so neither the YAML parser nor
    the per-file rules nor the scan are imported (they were ~70 modules of a warm run)."""
    project = tmp_path / "project"
    skill = project / ".dsh" / "skills" / "tidy" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text(SKILL)
    (project / ".git").mkdir()
    for path in (skill, skill.parent, skill.parent.parent):  # not "just modified"
        os.utime(path, (1_700_000_000, 1_700_000_000))
    cold = _imported_by_check(project, tmp_path / "cache")
    assert "skilldeck.engine.files._skill_file" in cold  # the deck was checked
    warm = _imported_by_check(project, tmp_path / "cache")
    analysis = sorted(
        name
        for name in warm
        if name.split(".")[0] == "ruamel"
        or name.startswith(
            (
                "skilldeck.engine.files._skill_file",
                "skilldeck.engine.frontmatter._frontmatter",
                "skilldeck.engine.frontmatter._yaml_problems",
                "skilldeck.engine.safety._file",
                "skilldeck.engine.filesystem._fs_provider",
                "skilldeck.cli.fix",
            )
        )
    )
    assert analysis == [], f"a memoised check imported {analysis}"


def test_a_check_imports_no_other_command(tmp_path: Path) -> None:
    """The parser is built with the subcommand the line names (the others' modules, such
    as the hosts' report, the catalog or the MCP command, are ~10 ms of a warm run)."""
    project = tmp_path / "project"
    skill = project / ".dsh" / "skills" / "tidy" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text(SKILL)
    (project / ".git").mkdir()
    modules = _imported_by_check(project, tmp_path / "cache")
    commands = sorted(
        name
        for name in modules
        if name.startswith("skilldeck.cli.") and name.endswith(("_cmd", "host_report"))
    )
    assert commands == []


def test_version_imports_no_command(tmp_path: Path) -> None:
    """``skilldeck --version`` answers before any command module (and so the analysis)
    is imported: it cost as much CPU as a ``check`` of one file."""
    script = (
        "import sys, runpy, json\n"
        "sys.argv = ['skilldeck', '--version']\n"
        "try:\n"
        "    runpy.run_module('skilldeck', run_name='__main__')\n"
        "except SystemExit as stop:\n"
        "    print(json.dumps([stop.code, sorted(sys.modules)]), file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        env={"HOME": str(tmp_path), "PATH": ""},
        check=False,
        timeout=60,
    )
    code, modules = json.loads(done.stderr.splitlines()[-1])
    assert (code, done.stdout) == (0, f"skilldeck {skilldeck.__version__}\n")
    imported = sorted(
        name
        for name in modules
        if name.startswith(("skilldeck.cli.", "skilldeck.engine.checks", "skilldeck.engine.safety"))
    )
    assert imported == ["skilldeck.cli.errors", "skilldeck.cli.main"]
