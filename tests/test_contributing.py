"""CONTRIBUTING.md stays true: every command it names exists, every path it names is in
the tree, and its table of rule codes names every family module."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

from skilldeck.engine.checks._context import CheckContext
from skilldeck.engine.config._setting_kinds import Kind, Reading
from skilldeck.lsp import navigation

ROOT = Path(__file__).resolve().parents[1]
PAGE = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
ENGINE = ROOT / "server" / "skilldeck" / "engine"
#: Where the tools of the running environment are (``.venv/bin`` in a checkout).
BIN = Path(sys.executable).parent


def _commands() -> list[str]:
    blocks = re.findall(r"^```\n(.*?)^```", PAGE, re.M | re.S)
    lines = [line.split("#")[0].strip() for block in blocks for line in block.splitlines()]
    return [line for line in lines if line]


def test_every_command_it_names_exists() -> None:
    commands = _commands()
    assert len(commands) >= 6
    for command in commands:
        program = command.split()[0]
        if program.startswith(".venv/bin/"):
            assert (BIN / program.removeprefix(".venv/bin/")).exists(), command
        else:
            path = ROOT / program
            assert path.is_file() and os.access(path, os.X_OK), command
    for script in sorted(set(re.findall(r"`(scripts/[a-z_-]+)", PAGE))):
        assert os.access(ROOT / script, os.X_OK), script


def test_every_path_it_names_is_in_the_tree() -> None:
    named = set(re.findall(r"`((?:server|tests|docs|clients)/[^`\s]+)`", PAGE))
    named |= set(re.findall(r"`([a-z_]+/_[a-z0-9_]+\.py)`", PAGE))  # checks/_sd2_... etc.
    assert named
    for path in sorted(named):
        relative = path.rstrip("/")
        candidates = [ROOT / relative, ENGINE / relative]
        assert any(c.exists() for c in candidates), path


def test_the_rule_code_table_names_every_family_module() -> None:
    families = {p.name for p in (ENGINE / "rules").glob("_sd*.py")}
    listed = set(re.findall(r"^\| SD[0-9x]+ \| [^|]+\| `(_sd[a-z0-9_]+\.py)`", PAGE, re.M))
    assert listed == families
    checks = {p.name for p in (ENGINE / "checks").glob("_sd*.py")}
    assert checks <= families  # a per-file family checks in the module of the same name


def test_every_helper_it_names_exists() -> None:
    members = re.findall(r"`ctx\.([a-z_]+)", PAGE)
    assert "value_chars_span" in members
    for member in members:
        assert hasattr(CheckContext, member) or member in CheckContext.__init__.__code__.co_names
    recipe = PAGE.split("## Add a setting", 1)[1].split("## Add a language-server feature")[0]
    named = set(re.findall(r"`([a-z_]+)`", recipe))
    kind_members = {name for name in named if hasattr(Kind, name)}
    assert {"read", "check", "json_schema", "merge", "is_set", "to_json"} <= kind_members
    assert hasattr(Reading, "entry_problem") and "at.entry_problem" in recipe
    for function in ("rename_target", "own_name_span"):
        assert f"`{function}`" in PAGE and hasattr(navigation, function), function
    helpers = (ROOT / "tests" / "lsp" / "editing_fixtures.py").read_text(encoding="utf-8")
    for helper in ("start_editor", "open_doc", "doc_id", "rng"):
        assert f"`{helper}`" in PAGE and f"def {helper}(" in helpers, helper


def test_the_tables_the_setting_recipe_names_exist() -> None:
    schema = (ROOT / "tests" / "test_settings_schema.py").read_text(encoding="utf-8")
    keys = (ROOT / "tests" / "engine" / "test_cache_keys.py").read_text(encoding="utf-8")
    assert "`EXAMPLES` in `tests/test_settings_schema.py`" in PAGE
    assert "\nEXAMPLES: dict[" in schema
    assert "`CHANGED` in `tests/engine/test_cache_keys.py`" in PAGE
    assert "\nCHANGED: dict[" in keys
