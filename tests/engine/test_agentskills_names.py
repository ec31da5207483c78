"""Names under the ``agentskills`` profile: the standard's rules (any script, NFKC,
lowercase, name = directory) judge the file; SPEC's runtime keeps ASCII kebab-case."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from skilldeck import SkilldeckConfig, default_registry
from skilldeck.engine.config._rule_settings import RuleSettings
from skilldeck.engine.files._skill_file import analyze_skill_text
from skilldeck.engine.model_view._gesture import expand_user_message
from skilldeck.engine.model_view._skill_tool import execute_skill_tool
from skilldeck.engine.rules._findings import Severity

AGENTSKILLS = RuleSettings(profile="agentskills")
DSH = RuleSettings()


def judge(name: str, folder: str, settings: RuleSettings) -> list[tuple[str, Severity, str]]:
    text = f"---\nname: {name}\ndescription: Does X.\n---\nBody.\n"
    analysis = analyze_skill_text(
        text, path=f"/r/{folder}/SKILL.md", expected_name=folder, settings=settings
    )
    return [(f.code, f.severity, f.message) for f in analysis.findings]


RUNTIME_NOTE = (
    "is valid under the Agent Skills standard, but skilldeck's catalog, `skill` tool and "
    "/name gesture take only ASCII kebab-case names (a-z, 0-9, single hyphens) "
    "(skill not loaded)"
)


@pytest.mark.parametrize(
    ("name", "folder"),
    [
        ("навык", "навык"),
        ("мой-навык", "мой-навык"),
        ("技能", "技能"),
        ("cafe\u0301", "café"),  # combining accent in the name, composed in the folder
        ("café", "cafe\u0301"),
    ],
)
def test_standard_names_in_other_scripts_are_no_error_under_agentskills(
    name: str, folder: str
) -> None:
    assert judge(name, folder, AGENTSKILLS) == [
        ("SD606", Severity.WARNING, f"name '{name}' {RUNTIME_NOTE}")
    ]


def test_uppercase_in_any_script_is_an_error_under_agentskills() -> None:
    assert judge("НАВЫК", "НАВЫК", AGENTSKILLS) == [
        (
            "SD203",
            Severity.ERROR,
            "name 'НАВЫК' is not kebab-case (lowercase a-z, digits, single hyphens): "
            "uppercase letter '\u041d' (U+041D) at position 1 (skill not loaded)",
        )
    ]


def test_a_combining_mark_nfkc_cannot_compose_is_not_a_letter() -> None:
    [(code, severity, message)] = judge("x\u0301", "x\u0301", AGENTSKILLS)
    assert (code, severity) == ("SD203", Severity.ERROR)
    assert message.endswith(
        "U+0301 COMBINING ACUTE ACCENT at position 2 is neither a letter, a digit nor a hyphen"
        " (skill not loaded)"
    )


def test_name_must_equal_its_directory_under_agentskills_only() -> None:
    message = "name 'pdf-forms' differs from its folder 'forms'"
    assert judge("pdf-forms", "forms", AGENTSKILLS) == [("SD206", Severity.ERROR, message)]
    assert judge("pdf-forms", "forms", DSH) == [("SD206", Severity.WARNING, message)]
    # Compared as the standard compares them: after NFKC normalisation. The ligature
    # still passes for another spelling of the name (SD1004, issue #40).
    assert judge("ﬁle", "file", AGENTSKILLS) == [
        (
            "SD1004",
            Severity.ERROR,
            "name `ﬁle` passes for `file`: `ﬁ` (U+FB01 LATIN SMALL LIGATURE FI) is a "
            "compatibility form of `fi`",
        ),
        ("SD606", Severity.WARNING, f"name 'ﬁle' {RUNTIME_NOTE}"),
    ]


def test_name_length_is_counted_after_nfkc() -> None:
    codes = [code for code, _, _ in judge("ﬁ" * 33, "ﬁ" * 33, AGENTSKILLS)]
    assert "SD601" in codes  # 33 ligatures are 66 characters once normalised


@pytest.mark.parametrize("name", ["навык", "技能", "cafe\u0301"])
def test_dsh_keeps_ascii_kebab_case(name: str) -> None:
    [(code, severity, _)] = judge(name, name, DSH)
    assert (code, severity) == ("SD203", Severity.ERROR)


async def test_the_runtime_never_loads_a_standard_only_name(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    for name in ("навык", "review"):
        folder = project / ".agents" / "skills" / name
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text(
            f"---\nname: {name}\ndescription: Does {name}.\n---\nDo {name}.\n", encoding="utf-8"
        )
    config = replace(
        SkilldeckConfig(dsh_home=str(tmp_path / "h1"), agents_home=str(tmp_path / "h2")),
        profile="agentskills",
    )
    registry = default_registry(config)
    cwd = str(project)
    assert [s.name for s in await registry.list(cwd=cwd)] == ["review"]
    assert await registry.get("навык", cwd=cwd) is None
    result = await execute_skill_tool(registry, {"name": "навык"}, cwd=cwd)
    assert result.text.startswith('Error: invalid skill name: got "навык".')
    assert await expand_user_message(registry, "/навык please", cwd=cwd) == []
