from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from skilldeck.engine.filesystem._bundled import bundled_skill_folder

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "agent_loop.py"


def run_example(tmp_path: Path) -> str:
    completed = subprocess.run(
        [sys.executable, str(EXAMPLE)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    assert completed.stderr == ""
    return completed.stdout


def section(output: str, title: str) -> str:
    """The text of the section whose header line starts with ``=== title``."""
    start = output.index(f"=== {title}")
    end = output.find("\n=== ", start + 1)
    return output[start : end if end != -1 else len(output)]


def test_example_prints_each_step_the_model_receives(tmp_path: Path) -> None:
    output = run_example(tmp_path)
    headers = [line for line in output.splitlines() if line.startswith("=== ")]
    assert headers == [
        "=== tool schema handed to the model API ===",
        "=== step 1: initial catalog (~247 tokens) ===",
        "=== step 1: user message ===",
        '=== step 1: model calls {"tool": "skill", "arguments": {"name": "release-notes"}}'
        " -> ok ===",
        "=== step 2: catalog unchanged, nothing appended ===",
        '=== step 2: model calls {"tool": "skill", "arguments": {"name": "Release_Notes"}}'
        " -> error: invalid-name ===",
        '=== step 2: model calls {"tool": "skill", "arguments": {"name": "deploy-checklist"}}'
        " -> error: not-model-invocable ===",
        '=== step 2: model calls {"tool": "skill", "arguments": {"name": "ghost-skill"}}'
        " -> error: unknown-skill ===",
        "=== step 3: user message ===",
        "=== step 3: injected for /deploy-checklist ===",
        "=== (a runtime skill `changelog-lint` was registered) ===",
        "=== step 4: replacement catalog (~244 tokens) ===",
        '=== step 4: model calls {"tool": "skill", "arguments": {"name": "skill-authoring"}}'
        " -> ok ===",
        "=== (every skill was removed) ===",
        "=== step 5: empty-replacement catalog (~115 tokens) ===",
        '=== step 5: model calls {"tool": "skill", "arguments": {"name": "release-notes"}}'
        " -> error: unknown-skill ===",
    ]

    initial = section(output, "step 1: initial catalog")
    assert "- `release-notes`: Draft release notes" in initial
    assert "- `skill-authoring`: Write or improve an agent skill" in initial
    assert "deploy-checklist" not in initial  # user-only: never in the catalog

    replacement = section(output, "step 4: replacement catalog")
    assert "supersedes every earlier skill catalog" in replacement
    assert "- `changelog-lint`: Check a CHANGELOG.md for &lt;missing&gt; dates &amp;" in (
        replacement
    )

    bundled = section(output, 'step 4: model calls {"tool": "skill", "arguments": {"name": "skill')
    assets = bundled_skill_folder() / "assets"
    assert f"Skill folder: {assets}\n" in bundled
    assert "<skill_instructions>\n# Writing a good skill\n" in bundled

    injected = section(output, "step 3: injected for /deploy-checklist")
    assert "run `make deploy`" in injected
    assert output.count('<skill_content name="deploy-checklist">') == 1  # once per message

    empty = section(output, "step 5: empty-replacement catalog")
    assert "<available_skills>\n</available_skills>" in empty
    assert "Do not call it with any name from an earlier catalog." in empty
