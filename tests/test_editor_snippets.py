"""docs/editors.md shows exactly the configs scripts/editors-check.sh runs in each editor."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "editors.md").read_text(encoding="utf-8")


def test_every_snippet_is_the_file_the_editor_check_loads() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "editor-snippets"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_every_config_file_is_shown_in_the_doc() -> None:
    shown = set(re.findall(r"<!-- snippet: (docs/editors/[^ ]+) -->", DOC))
    files = {f"docs/editors/{p.name}" for p in (ROOT / "docs" / "editors").iterdir()}
    assert shown == files


def test_the_helix_config_names_markdowns_default_servers_again() -> None:
    # Helix 25.07.1 languages.toml: language-servers = [ "marksman", "markdown-oxide" ];
    # a language's list replaces it (#41.13).
    config = tomllib.loads((ROOT / "docs" / "editors" / "helix-languages.toml").read_text())
    [markdown] = [lang for lang in config["language"] if lang["name"] == "markdown"]
    assert markdown["language-servers"] == ["marksman", "markdown-oxide", "skilldeck"]
    assert config["language-server"]["skilldeck"] == {"command": "skilldeck", "args": ["serve"]}
