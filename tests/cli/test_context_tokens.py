"""``context-tokens`` in ``skilldeck.toml``: each agent's context window reaches SD902 in
``check`` and the budget of ``budget --host`` / ``list --host``, every warm answer
follows a change of it (no memo keeps the old one), ``budget --context`` overrides it
for one run, and a bad entry is named."""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path

from cli_helpers import Run, skill, write

SOURCE = "Codex 0.171.0, observed by scripts/host-lab"


def _deck(tmp_path: Path) -> Path:
    root = tmp_path / "deck"
    (root / ".git").mkdir(parents=True)
    for name in ("pdf-forms", "release-notes"):
        write(root / f".agents/skills/{name}/SKILL.md", skill(name, f"Handles {name} work."))
    old = time.time() - 3600  # outside the racy window, so check stores its memos
    for directory, _dirs, names in os.walk(root):
        for name in names:
            os.utime(os.path.join(directory, name), (old, old))
    return root


def test_the_context_window_reaches_sd902_and_every_warm_answer(run: Run, tmp_path: Path) -> None:
    root = _deck(tmp_path)
    config = root / "skilldeck.toml"
    config.write_text('hosts = ["dsh", "codex"]\n', encoding="utf-8")

    def answers() -> dict[str, str]:
        check = run("check", cwd=root)
        assert check.code == 0, check.stderr
        return {
            "check": check.stdout,
            "budget": run("budget", "--host", "codex", "--json", cwd=root).stdout,
            "list": run("list", "--host", "codex", cwd=root).stdout,
        }

    warm = answers()
    assert answers() == warm  # each from its memo
    assert warm["check"].startswith("No problems")
    assert json.loads(warm["budget"])["contextTokens"] == 272_000  # Codex's default

    # Codex's listing budget is 2 % of the context window (docs/hosts.md): 100 tokens
    # of a 5,000-token window, less than its own skills and these two need.
    config.write_text(
        'hosts = ["dsh", "codex"]\n\n[context-tokens]\ncodex = 5000\n', encoding="utf-8"
    )
    small = answers()
    # (how many characters are left depends on the paths Codex lists: tmp_path's length)
    first = re.fullmatch(
        r"\.agents/skills/pdf-forms/SKILL\.md:2:7: SD902 information Codex's skill listing "
        rf"cuts this skill's entry to (\d+) characters \(source: {re.escape(SOURCE)}\)",
        small["check"].splitlines()[0],
    )
    assert first is not None, small["check"]
    assert int(first.group(1)) < len("Handles pdf-forms work.")
    budget = json.loads(small["budget"])
    assert (budget["contextTokens"], budget["budgetTokens"]) == (5000, 100)
    cut = "loads  pdf-forms      .agents/skills/pdf-forms/SKILL.md  [catalog: cut]"
    assert cut in small["list"]
    fresh = {
        "check": run("check", "--no-cache", cwd=root).stdout,
        "budget": run("budget", "--host", "codex", "--json", "--no-cache", cwd=root).stdout,
        "list": run("list", "--host", "codex", "--no-cache", cwd=root).stdout,
    }
    assert small == fresh

    # --context wins over the file for one run; the file's window is back after it.
    wide = run("budget", "--host", "codex", "--json", "--context", "272000", cwd=root)
    assert wide.stdout == warm["budget"]
    assert answers() == small

    config.write_text('hosts = ["dsh", "codex"]\n', encoding="utf-8")
    assert answers() == warm


def test_a_bad_entry_is_named(run: Run, tmp_path: Path) -> None:
    root = _deck(tmp_path)
    config = root / "skilldeck.toml"
    for text, message in (
        ("[context-tokens]\ncodex = 0\n", "'context-tokens.codex' must be at least 1, not 0"),
        ('[context-tokens]\ncodex = "1M"\n', "'context-tokens.codex' must be a whole number"),
        ("[context-tokens]\nclaude = 1000\n", "unknown host \"claude\" in 'context-tokens'"),
        ("context-tokens = 1000\n", "'context-tokens' must be a table of host names"),
    ):
        config.write_text(text, encoding="utf-8")
        result = run("check", cwd=root)
        assert result.code == 2, (text, result.stdout)
        assert message in result.stderr, (text, result.stderr)
