"""Skill bodies reach the model trimmed exactly as the reference runtime trims them.

The reference filesystem provider loads ``content: body.trim()`` (JavaScript's trim):
leading and trailing whitespace and line breaks go, everything inside stays. The ``skill``
tool result, the ``/name`` gesture and ``skilldeck load`` all show that text.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from skilldeck.engine.config._skilldeck_config import SkilldeckConfig
from skilldeck.engine.deck._defaults import default_registry
from skilldeck.engine.model_view._gesture import expand_user_message
from skilldeck.engine.model_view._skill_tool import execute_skill_tool
from skilldeck.engine.registry._model import InvocationPolicy, SkillDefinition
from skilldeck.engine.registry._registry import SkillRegistry
from skilldeck.engine.text._catalog_text import trim_body

FRONTMATTER = "---\nname: trim\ndescription: Trim.\n---\n"


def _project(tmp_path: Path, body: str, *, newline: str = "\n") -> Path:
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    skill = project / ".dsh" / "skills" / "trim" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_bytes((FRONTMATTER.replace("\n", newline) + body).encode())
    return project


CASES = [
    # (body after the frontmatter, what the model sees between the instruction tags)
    ("\nDo X.\n\n", "Do X."),  # the example
    ("\n\n   Do X.\n  Then Y.   \n\n\n", "Do X.\n  Then Y."),
    ("\r\nDo X.\r\nThen Y.  \r\n\r\n", "Do X.\r\nThen Y."),  # CRLF inside is kept
    ("\t\u00a0Do X.\u2028\u3000", "Do X."),  # JavaScript's whitespace set
    ("\ufeffDo X.\x1c", "Do X.\x1c"),  # U+FEFF trims, U+001C does not (unlike str.strip)
    ("\n\n", ""),
]


@pytest.mark.parametrize(("body", "shown"), CASES)
def test_trim_body_matches_javascript_trim(body: str, shown: str) -> None:
    assert trim_body(body) == shown


@pytest.mark.parametrize(("body", "shown"), CASES[:3])
async def test_tool_result_and_gesture_show_the_trimmed_body(
    tmp_path: Path, body: str, shown: str
) -> None:
    project = _project(tmp_path, body)
    registry = default_registry(SkilldeckConfig(include_user_roots=False))
    result = await execute_skill_tool(registry, {"name": "trim"}, cwd=str(project))
    assert result.ok
    assert f"<skill_instructions>\n{shown}\n</skill_instructions>\n</skill_content>" in result.text
    (injection,) = await expand_user_message(registry, "/trim please", cwd=str(project))
    assert injection.text == result.text


def test_load_prints_the_trimmed_body_with_crlf_kept(tmp_path: Path) -> None:
    project = _project(tmp_path, "\r\n\r\nDo X.\r\nThen Y.  \r\n", newline="\r\n")
    done = subprocess.run(
        [sys.executable, "-m", "skilldeck", "load", "trim", "--no-cache"],
        cwd=project,
        capture_output=True,
        text=False,
        check=True,
        env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"},
    )
    assert b"<skill_instructions>\nDo X.\r\nThen Y.\n</skill_instructions>\n" in done.stdout


async def test_a_runtime_skill_body_is_trimmed_too() -> None:
    """SPEC section 5 trims the body whichever provider served it (the filesystem
    provider trims what it reads; a runtime or third-party definition is trimmed when
    rendered)."""
    registry = SkillRegistry()
    registry.register(
        SkillDefinition(
            name="padded",
            description="Padded.",
            source="runtime",
            provider="runtime",
            invocation=InvocationPolicy(model_invocable=True, user_invocable=True),
            resource_base=None,
            content="\n\n  Do X.\n  Then Y.  \n\n\ufeff",
        )
    )
    result = await execute_skill_tool(registry, {"name": "padded"})
    assert "<skill_instructions>\nDo X.\n  Then Y.\n</skill_instructions>" in result.text
    (injection,) = await expand_user_message(registry, "/padded", cwd=None)
    assert injection.text == result.text
