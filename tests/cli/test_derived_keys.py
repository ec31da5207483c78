"""No cache or memo key is bumped by hand (issue #42): a rule added, a rule's logic or
its table row changed, or a setting changed, and every warm answer ``check`` and the
hosts' views print is the fresh one, from each cache: the per-file index cache, the
deck memo, the output memo and the hosts-view memo. Each edit is made in a copy of the
package, run as a real process, against a cache the unedited copy warmed."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_helpers import Run, skill, write

#: Each edit of the code: what it does to the deck's findings.
EDITS: dict[str, Callable[[object], None]] = {}


def _rules_table_row(copy) -> None:  # type: ignore[no-untyped-def]
    """A rule's row in the rules table: SD204's message."""
    copy.edit(
        "message=\"missing required key 'description'\"",
        'message="no description: the catalog would have nothing to show"',
    )


def _rule_logic(copy) -> None:  # type: ignore[no-untyped-def]
    """A check's logic: `yes` is no longer read as true (SD303 becomes SD302)."""
    copy.edit(
        '_TRUE_SPELLINGS = frozenset({"true", "yes", "on", "1"})',
        '_TRUE_SPELLINGS = frozenset({"true", "on", "1"})',
    )


def _new_rule(copy) -> None:  # type: ignore[no-untyped-def]
    """A new per-file rule, as CONTRIBUTING.md adds one: its declaration in the family's
    module of ``engine/rules`` and its check in the family's module of ``engine/checks``,
    after the family's last (each tuple renamed and extended at the module's end, so the
    edit holds whichever rule is last)."""
    rules = copy.edit(
        'RULES: tuple[Rule, ...] = (\n    Rule(\n        code="SD201",\n',
        '_RULES_BEFORE: tuple[Rule, ...] = (\n    Rule(\n        code="SD201",\n',
    )
    with rules.open("a", encoding="utf-8") as module:
        module.write(
            "\n\nRULES: tuple[Rule, ...] = (\n"
            "    *_RULES_BEFORE,\n"
            "    Rule(\n"
            '        code="SD299",\n'
            '        name="added-by-a-test",\n'
            "        severity=Severity.WARNING,\n"
            '        message="a rule added after the cache was warm",\n'
            '        summary="A rule the derived-keys test adds.",\n'
            '        why="Added by tests/cli/test_derived_keys.py in a copy of the package: '
            'every skill file gets it, so a warm answer without it is stale.",\n'
            "    ),\n"
            ")\n"
        )
    checks = copy.edit(
        "CHECKS: tuple[Check, ...] = (check_name, check_description",
        "_CHECKS_BEFORE: tuple[Check, ...] = (check_name, check_description",
    )
    with checks.open("a", encoding="utf-8") as module:
        module.write(
            "\n\ndef check_added(ctx: CheckContext, fm: Frontmatter) -> None:\n"
            '    ctx.findings.append(rule("SD299").finding(first_line_span(ctx.text)))\n'
            "\n\n"
            "CHECKS: tuple[Check, ...] = (*_CHECKS_BEFORE, check_added)\n"
        )


EDITS = {"rules-table": _rules_table_row, "rule-logic": _rule_logic, "new-rule": _new_rule}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    (folder / ".git").mkdir(parents=True)
    skills = folder / ".dsh" / "skills"
    write(skills / "nodesc" / "SKILL.md", "---\nname: nodesc\n---\nBody.\n")
    write(skills / "yesflag" / "SKILL.md", skill("yesflag", extra="user-invocable: yes\n"))
    write(skills / "clean" / "SKILL.md", skill("clean", "Cleans things when asked to."))
    return folder


def _codes(stdout: str) -> list[str]:
    return sorted(f["code"] for f in json.loads(stdout))


@pytest.mark.parametrize("edit", list(EDITS))
def test_a_changed_rule_changes_every_warm_answer(
    run: Run, project: Path, package_copy, edit: str
) -> None:
    env = package_copy.env()

    def check(*args: str) -> str:
        result = run("check", *args, cwd=project, env=env)
        assert result.code in (0, 1), result.stderr
        return result.stdout

    hosts = ("list", "--host", "dsh,codex", "--json")
    selected = ("--format", "json", "--select", "SD2,SD3")
    # The unedited code warms every cache: the index (any check), the deck memo and the
    # output memo (a plain check), and the hosts-view memo.
    before = {
        "json": check("--format", "json"),
        "github": check("--format", "github"),
        "selected": check(*selected),
        "hosts": run(*hosts, cwd=project, env=env).stdout,
    }
    assert check("--format", "json") == before["json"]  # answered by its memo
    assert _codes(before["json"]) == ["SD204", "SD303"]

    EDITS[edit](package_copy)

    # Each path first from the cache the old code left: a run with --select reads only
    # the index cache (no memo is kept for it), the first github run the deck memo, the
    # json run the output memo, list --host the hosts-view memo.
    after = {
        "selected": check(*selected),
        "github": check("--format", "github"),
        "json": check("--format", "json"),
        "hosts": run(*hosts, cwd=project, env=env).stdout,
    }
    fresh = {
        "selected": check(*selected, "--no-cache"),
        "github": check("--format", "github", "--no-cache"),
        "json": check("--format", "json", "--no-cache"),
        "hosts": run(*hosts, "--no-cache", cwd=project, env=env).stdout,
    }
    assert after == fresh
    changed = [path for path in after if after[path] != before[path]]
    # The hosts' view shows DSH's reason for a skill it does not load (SD204's message)
    # and which skills it loads (SD302 drops one); a warning changes neither.
    hosts_change = edit != "new-rule"
    assert changed == ["selected", "github", "json", *(["hosts"] if hosts_change else [])]
    expected = {
        "rules-table": ["SD204", "SD303"],
        "rule-logic": ["SD204", "SD302"],
        "new-rule": ["SD204", "SD299", "SD299", "SD299", "SD303"],
    }[edit]
    assert _codes(after["json"]) == expected


@pytest.mark.parametrize(
    ("before", "after", "code"),
    [
        # a setting that reaches each file's analysis (the index cache's key)
        ("catalog-description-max-length = 500", "catalog-description-max-length = 10", "SD501"),
        # one that reaches only the deck's verdicts (the memos' keys)
        ("[overlap]\nthreshold = 1.0", "[overlap]\nthreshold = 0.05", "SD801"),
    ],
)
def test_a_changed_setting_changes_every_warm_answer(
    run: Run, project: Path, before: str, after: str, code: str
) -> None:
    skills = project / ".dsh" / "skills"
    write(skills / "review-code" / "SKILL.md", skill("review-code", "Review Python code."))
    write(skills / "code-review" / "SKILL.md", skill("code-review", "Review Python code now."))
    config = project / "skilldeck.toml"

    def check(*args: str) -> str:
        result = run("check", *args, cwd=project)
        assert result.code in (0, 1), result.stderr
        return result.stdout

    config.write_text(before + "\n", encoding="utf-8")
    warm = check("--format", "json")
    assert check("--format", "json") == warm
    budget = run("budget", "--host", "dsh", cwd=project).stdout
    assert code not in _codes(warm)

    config.write_text(after + "\n", encoding="utf-8")
    now = check("--format", "json")
    assert now == check("--format", "json", "--no-cache")
    assert code in _codes(now)
    if code == "SD501":  # DSH's listing cuts at the configured length
        assert run("budget", "--host", "dsh", cwd=project).stdout != budget
