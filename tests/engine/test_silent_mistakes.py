"""Silent mistakes get a finding: near-miss keys (SD404) and /name mentions that reach no
skill (SD704) or a skill the gesture will not inject (SD705)."""

from __future__ import annotations

from pathlib import Path

import pytest

from skilldeck.engine.checks._near_misses import near_miss_key, nearest_names
from skilldeck.engine.config._rule_settings import RuleSettings
from skilldeck.engine.config._skilldeck_config import SkilldeckConfig
from skilldeck.engine.deck._deck import (
    ProvidedSkill,
    deck_findings,
    mention_findings,
    mention_targets,
    mentions_affected,
)
from skilldeck.engine.files._skill_file import analyze_skill_text
from skilldeck.engine.filesystem._fs_provider import scan_deck
from skilldeck.engine.filesystem._roots import SkillRoot
from skilldeck.engine.registry._model import InvocationPolicy, SkillCandidate
from skilldeck.engine.rules._findings import Finding, Fix, Severity
from skilldeck.engine.text._positions import Span


def near_misses(text: str, profile: str = "dsh") -> list[Finding]:
    analysis = analyze_skill_text(
        text, path="/r/a/SKILL.md", expected_name="a", settings=RuleSettings(profile=profile)
    )
    return [f for f in analysis.findings if f.code == "SD404"]


def apply(text: str, fix: Fix) -> str:
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    for edit in sorted(fix.edits, key=lambda e: e.span.start, reverse=True):
        start = offsets[edit.span.start.line] + edit.span.start.character
        end = offsets[edit.span.end.line] + edit.span.end.character
        text = text[:start] + edit.new_text + text[end:]
    return text


@pytest.mark.parametrize(
    ("key", "intended", "effect"),
    [
        ("user_invocable", "user-invocable", "ignored: the skill stays user-invocable"),  # snake
        ("UserInvocable", "user-invocable", "ignored: the skill stays user-invocable"),  # camel
        ("User-Invocable", "user-invocable", "ignored: the skill stays user-invocable"),  # case
        (
            "disable_model_invocation",
            "disable-model-invocation",
            "ignored: the model can still invoke the skill",
        ),
        (
            "allowed_tools",
            "allowed-tools",
            "ignored: agents that act on 'allowed-tools' will not see it",
        ),
        ("descripton", "description", "ignored: the catalog shows `description` only"),  # typo
        ("Description", "description", "ignored: the catalog shows `description` only"),
        ("when_to_use", "whenToUse", "ignored: no routing hint is kept"),
        ("metdata", "metadata", "ignored: nothing is kept as metadata"),
        ("nmae", "name", "ignored: the skill's name is read from `name` only"),  # swap
    ],
)
def test_near_miss_key_names_the_intended_key_and_the_consequence(
    key: str, intended: str, effect: str
) -> None:
    text = f"---\nname: a\ndescription: Alpha.\n{key}: false\n---\nBody.\n"
    [finding] = near_misses(text)
    assert finding.severity is Severity.WARNING
    assert finding.message == (
        f"'{key}' is not a key of the dsh profile: did you mean '{intended}'? {effect}"
    )
    assert finding.span == Span.at(3, 0, len(key))
    if key in ("descripton", "Description", "nmae"):
        assert finding.fixes == ()  # the intended key is already set: renaming would clash
        return
    [fix] = finding.fixes
    assert fix.title == f"Rename to '{intended}'"
    fixed = apply(text, fix)
    assert fixed == f"---\nname: a\ndescription: Alpha.\n{intended}: false\n---\nBody.\n"
    assert near_misses(fixed) == []


def test_the_issue_example_is_no_longer_silent() -> None:
    text = (
        "---\nname: a\ndescription: Alpha.\nuser_invocable: false\nallowed_tools: Bash\n"
        "descripton: typo\n---\nUse /b and /bb and /nonexistent.\n"
    )
    keys = [f.message.split("'")[1] for f in near_misses(text)]
    assert keys == ["user_invocable", "allowed_tools", "descripton"]


@pytest.mark.parametrize(
    "key", ["license", "model", "compatibility", "context", "vendor-x", "game"]
)
def test_other_agents_keys_and_unrelated_keys_stay_quiet(key: str) -> None:
    assert near_misses(f"---\nname: a\ndescription: Alpha.\n{key}: x\n---\n") == []


def test_legacy_camel_case_invocation_keys_stay_sd301() -> None:
    text = "---\nname: a\ndescription: Alpha.\ndisableModelInvocation: true\n---\n"
    analysis = analyze_skill_text(text, path="/r/a/SKILL.md", expected_name="a")
    assert [f.code for f in analysis.findings] == ["SD301"]


def test_near_misses_follow_the_profile_keys() -> None:
    # compatibility is an agentskills key: its typo is a near miss there.
    [finding] = near_misses("---\nname: a\ndescription: d\ncompatability: x\n---\n", "agentskills")
    assert "did you mean 'compatibility'?" in finding.message


def test_near_miss_helpers() -> None:
    assert near_miss_key("description", ["description"]) is None
    assert nearest_names("bb", ["a", "b"]) == ["b"]
    assert nearest_names("reveiw", ["review", "reviews", "x"]) == ["review"]
    # equally near: code-point order
    assert nearest_names("deplo", ["deplot", "deploy", "x"]) == ["deplot", "deploy"]
    assert nearest_names("nonexistent", ["a", "b"]) == []


def write_skill(root: Path, name: str, body: str, extra: str = "") -> Path:
    path = root / name / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"---\nname: {name}\ndescription: Does {name}.\n{extra}---\n{body}\n")
    return path


def mention_findings_of(
    tmp_path: Path, provided: tuple[ProvidedSkill, ...] = ()
) -> dict[str, list[tuple[str, str, Span, list[str]]]]:
    root = SkillRoot(400, "custom", str(tmp_path / "skills"), True, frozenset())
    scan = scan_deck(SkilldeckConfig(include_default_roots=False), None, roots=[root])
    return {
        Path(path).parent.name: [
            (f.code, f.message, f.span, [fix.title for fix in f.fixes])
            for f in found
            if f.code in ("SD704", "SD705")
        ]
        for path, found in deck_findings(scan, provided).items()
    }


def test_mentions_that_reach_no_skill_or_a_hidden_one(tmp_path: Path) -> None:
    skills = tmp_path / "skills"
    write_skill(skills, "a", "Use /b and /bb and /nonexistent now.\nThen /hidden and /a.")
    write_skill(skills, "b", "Plain.")
    write_skill(skills, "hidden", "Plain.", "user-invocable: false\n")
    found = mention_findings_of(tmp_path)
    assert found["a"] == [
        (
            "SD704",
            "'/bb' names no skill in this deck; did you mean /b?",
            Span.at(4, 11, 14),
            ["Replace with '/b'"],
        ),
        ("SD704", "'/nonexistent' names no skill in this deck", Span.at(4, 19, 31), []),
        (
            "SD705",
            "'/hidden' names a skill with `user-invocable: false`: the /name gesture will not "
            "inject it",
            Span.at(5, 5, 12),
            [],
        ),
    ]
    assert found["b"] == found["hidden"] == []


def test_unknown_mention_fix_replaces_only_the_name(tmp_path: Path) -> None:
    skills = tmp_path / "skills"
    path = write_skill(skills, "a", "Run /reviw first.")
    write_skill(skills, "review", "Plain.")
    root = SkillRoot(400, "custom", str(skills), True, frozenset())
    scan = scan_deck(SkilldeckConfig(include_default_roots=False), None, roots=[root])
    [finding] = [f for f in deck_findings(scan)[str(path)] if f.code == "SD704"]
    [fix] = finding.fixes
    assert apply(path.read_text(), fix).endswith("---\nRun /review first.\n")


def test_provided_skills_are_mention_targets(tmp_path: Path) -> None:
    write_skill(tmp_path / "skills", "a", "Try /bundled and /quiet now.")
    provided = tuple(
        ProvidedSkill(
            SkillCandidate(
                name=name,
                description="Provided.",
                invocation=InvocationPolicy(user_invocable=name == "bundled"),
                rank=900,
                source="bundled",
                provider="bundled",
            ),
            "bundled",
        )
        for name in ("bundled", "quiet")
    )
    assert [code for code, *_ in mention_findings_of(tmp_path, provided)["a"]] == ["SD705"]


def test_mention_rules_can_be_switched_off(tmp_path: Path) -> None:
    skills = tmp_path / "skills"
    write_skill(skills, "a", "Use /nope.")
    config = SkilldeckConfig(include_default_roots=False, rule_overrides={"SD704": None})
    root = SkillRoot(400, "custom", str(skills), True, frozenset())
    scan = scan_deck(config, None, roots=[root])
    assert [f.code for found in deck_findings(scan).values() for f in found] == []


def test_an_incomplete_deck_reports_no_unknown_mention(tmp_path: Path) -> None:
    skills = tmp_path / "skills"
    path = write_skill(skills, "a", "Use /nope and /hidden now.")
    write_skill(skills, "hidden", "Plain.", "user-invocable: false\n")
    root = SkillRoot(400, "custom", str(skills), True, frozenset())
    scan = scan_deck(SkilldeckConfig(include_default_roots=False), None, roots=[root])
    [entry] = [e for e in scan.entries() if e.path == str(path)]
    targets = mention_targets(e for e in scan.entries())
    complete = [f.code for f in mention_findings(entry, targets, None)]
    partial = [f.code for f in mention_findings(entry, targets, None, complete=False)]
    assert (complete, partial) == (["SD704", "SD705"], ["SD705"])


def test_which_files_a_name_change_affects() -> None:
    after = {"b": True, "hidden": True, "bb": True}
    changed = {"hidden", "bb"}  # the names whose winner changed (the index knows them)
    at = Span.at(0, 0, 1)
    assert mentions_affected([("hidden", at)], changed, after)  # now injected
    assert mentions_affected([("bbb", at)], changed, after)  # unknown, bb is near
    assert not mentions_affected([("b", at)], changed, after)  # same verdict
    assert not mentions_affected([("nonexistent", at)], changed, after)  # nothing near
