"""SD604's range: the key of the ``metadata`` value that is not text, where the source
spells it (plain, quoted, escaped; in a block or a flow mapping), at the mapping's own
level, never a deeper key of the same name; the whole value only when no key matches."""

from __future__ import annotations

import pytest

from skilldeck.engine.config._rule_settings import RuleSettings
from skilldeck.engine.files._skill_file import analyze_skill_text
from skilldeck.engine.frontmatter import LineIndex


def _sd604(metadata: str) -> list[str]:
    text = f"---\nname: x\ndescription: Does x.\n{metadata}---\nBody.\n"
    analysis = analyze_skill_text(
        text, path="/r/x/SKILL.md", expected_name="x", settings=RuleSettings(profile="agentskills")
    )
    index = LineIndex(text)
    return [
        text[index.offset(f.span.start) : index.offset(f.span.end)]
        for f in analysis.findings
        if f.code == "SD604"
    ]


@pytest.mark.parametrize(
    ("metadata", "spelt"),
    [
        ("metadata:\n  version: 1.0\n", ["version"]),
        ("metadata:\n  owner: docs\n  version: 1.0\n", ["version"]),
        ("metadata:\n  'version': 1.0\n", ["'version'"]),
        ('metadata:\n  "version" : 1.0\n', ['"version"']),
        ("metadata:\n  1: 2\n", ["1"]),
        # Wrong before: a deeper key of the same name came first; a flow mapping and an
        # escaped key were not found (the whole value was the range).
        ("metadata:\n  nested:\n    version: x\n  version: 1.0\n", ["nested", "version"]),
        ("metadata: {owner: docs, version: 1.0}\n", ["version"]),
        ('metadata:\n  "ver\\x73ion": 1.0\n', ['"ver\\x73ion"']),
    ],
)
def test_sd604_points_at_the_key(metadata: str, spelt: list[str]) -> None:
    assert _sd604(metadata) == spelt


def test_the_deeper_key_of_the_same_name_is_not_the_one_reported() -> None:
    text = "metadata:\n  nested:\n    version: x\n  version: 1.0\n"
    full = f"---\nname: x\ndescription: Does x.\n{text}---\nBody.\n"
    analysis = analyze_skill_text(
        full, path="/r/x/SKILL.md", expected_name="x", settings=RuleSettings(profile="agentskills")
    )
    lines = sorted(f.span.start.line for f in analysis.findings if f.code == "SD604")
    assert lines == [4, 6]  # `nested:` and the second `version:`, not line 5's
