"""``check --select / --ignore`` reports what a full check reports for the selected rules,
though the deck-wide passes of the others do not run (tests/engine/test_deck_passes.py
pins that they do not), and a partial run leaves no memo a full run would reuse."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from cli_helpers import Run, write

SHARED = (
    "Use this skill when writing new features, fixing bugs, or refactoring code. Enforces "
    "test-driven development with 80%+ coverage including unit, integration, and E2E tests."
)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    skills = root / ".dsh" / "skills"
    for name, body in (("tdd-workflow", "Run /reviw first."), ("tdd-guide", "Ask /nope now.")):
        write(
            skills / name / "SKILL.md", f"---\nname: {name}\ndescription: {SHARED}\n---\n{body}\n"
        )
    write(
        skills / "review" / "SKILL.md",
        "---\nname: review\ndescription: Review a change before merging.\nuser_invocable: no\n"
        "---\nPlain.\n",
    )
    old = time.time() - 3600  # outside the racy window, so memos are stored
    for directory, folders, files in os.walk(root):
        for name in folders + files:
            os.utime(os.path.join(directory, name), (old, old))
    return root


def _findings(run: Run, project: Path, *flags: str) -> list[tuple[str, str, str]]:
    result = run("check", "--format", "json", *flags, cwd=project)
    assert result.code in (0, 1), result.stderr
    return sorted((i["path"], i["code"], i["message"]) for i in json.loads(result.stdout))


def test_ignored_and_selected_rules_report_what_the_full_check_reports(
    run: Run, project: Path
) -> None:
    full = _findings(run, project, "--no-cache")
    assert {"SD404", "SD704", "SD802"} <= {code for _, code, _ in full}
    for flags, kept in (
        (("--ignore", "SD801,SD802"), lambda code: code not in ("SD801", "SD802")),
        (("--ignore", "SD7"), lambda code: not code.startswith("SD7")),
        (("--select", "SD704"), lambda code: code == "SD704"),
        (("--select", "SD802,SD404"), lambda code: code in ("SD802", "SD404")),
    ):
        expected = [item for item in full if kept(item[1])]
        assert _findings(run, project, "--no-cache", *flags) == expected, flags
        assert _findings(run, project, *flags) == expected, flags


def test_a_partial_run_leaves_no_memo_a_full_run_reuses(run: Run, project: Path) -> None:
    selected = _findings(run, project, "--select", "SD704")
    assert [code for _, code, _ in selected] == ["SD704", "SD704"]
    full = _findings(run, project)
    assert full == _findings(run, project, "--no-cache")
    assert "SD802" in {code for _, code, _ in full}
