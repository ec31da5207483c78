from __future__ import annotations

import pytest

from skilldeck.engine.config._rule_settings import RuleSettings
from skilldeck.engine.files._skill_file import analyze_skill_text
from skilldeck.engine.rules._profiles import PROFILES, get_profile

AGENTSKILLS = RuleSettings(profile="agentskills")


def codes(analysis):
    return [f.code for f in analysis.findings]


def test_profiles_exist_and_unknown_names_list_the_valid_ones():
    assert set(PROFILES) == {"dsh", "agentskills", "claude-code", "codex"}
    with pytest.raises(ValueError, match="unknown profile 'vim'; choose one of: dsh, agentskills"):
        get_profile("vim")
    with pytest.raises(ValueError, match="unknown profile"):
        RuleSettings(profile="vim")


def test_key_documentation_is_usable_for_completion_and_hover():
    dsh = get_profile("dsh")
    dmi = dsh.key("disable-model-invocation")
    assert dmi is not None
    assert dmi.value_type == "boolean"
    assert dmi.values == ("true", "false")
    assert dmi.default == "false"
    assert "catalog" in dmi.documentation
    assert dsh.key("name").required and dsh.key("description").required
    context = dsh.key("context")
    assert context is not None and not context.enforced and context.surface == "not enforced"
    assert context.values == ("fork",)  # completion offers `fork` for `context:`
    for profile in ("dsh", "claude-code", "codex"):
        assert get_profile(profile).key("context") == context
    assert get_profile("agentskills").key_names == {
        "name",
        "description",
        "license",
        "compatibility",
        "metadata",
        "allowed-tools",
    }
    assert get_profile("claude-code").key("model") is not None
    assert get_profile("codex").key("name") is not None
    for profile in PROFILES.values():
        for info in profile.keys:
            assert info.documentation.endswith((".", ")", "**")), (profile.name, info.key)


def test_unknown_keys_are_never_an_error_under_dsh():
    text = "---\nname: a\ndescription: d\nlicense: MIT\nmodel: opus\nwhen_to_use: x\n---\n"
    analysis = analyze_skill_text(text, path="/r/a/SKILL.md", expected_name="a")
    # Other agents' keys stay quiet; a near miss of a dsh key is a warning (SD404).
    assert [(f.code, f.severity.value) for f in analysis.findings] == [("SD404", "warning")]
    assert analysis.findings[0].message.startswith("'when_to_use' is not a key of the dsh")
    assert analysis.accepted


def test_agentskills_rules_report_but_do_not_drop():
    long_name = "a" * 65
    text = (
        f"---\nname: {long_name}\ndescription: {'d' * 1025}\ncompatibility: {'c' * 501}\n"
        "metadata:\n  version: 1\n  owner: me\nuser-invocable: false\nvendor-x: on\n---\n"
    )
    analysis = analyze_skill_text(
        text, path=f"/r/{long_name}/SKILL.md", expected_name=long_name, settings=AGENTSKILLS
    )
    by_code = {f.code: f for f in analysis.findings}
    assert by_code["SD601"].message == (
        "name is 65 characters; the Agent Skills standard allows at most 64"
    )
    assert by_code["SD602"].message == (
        "description is 1025 characters; the Agent Skills standard allows at most 1024"
    )
    assert by_code["SD603"].message == (
        "'compatibility' must be a string of at most 500 characters, found 501 characters"
    )
    assert by_code["SD604"].message == (
        "metadata value for 'version' must be a string under the Agent Skills standard, "
        "found the number 1"
    )
    assert by_code["SD604"].span.start.line == 5 and by_code["SD604"].span.start.character == 2
    non_standard = [f for f in analysis.findings if f.code == "SD605"]
    assert [f.message.split("'")[1] for f in non_standard] == ["user-invocable", "vendor-x"]
    assert non_standard[0].fixes == ()  # moving a dsh key would change behaviour
    move = non_standard[1].fixes[0]
    assert move.title == "Move 'vendor-x' under metadata"
    assert analysis.accepted
    assert not analysis.invocation.user_invocable


def apply(text, fix):
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)

    def offset(pos):
        return offsets[pos.line] + pos.character

    for edit in sorted(fix.edits, key=lambda e: e.span.start, reverse=True):
        text = text[: offset(edit.span.start)] + edit.new_text + text[offset(edit.span.end) :]
    return text


def test_move_under_metadata_fix_produces_a_standard_file():
    text = "---\nname: a\ndescription: d\nvendor-x: on\nversion: 3\n---\nbody\n"
    analysis = analyze_skill_text(
        text, path="/r/a/SKILL.md", expected_name="a", settings=AGENTSKILLS
    )
    fix = next(f for f in analysis.findings if "vendor-x" in f.message).fixes[0]
    fixed = apply(text, fix)
    assert (
        fixed == "---\nname: a\ndescription: d\nversion: 3\nmetadata:\n  vendor-x: on\n---\nbody\n"
    )
    again = analyze_skill_text(fixed, path="/r/a/SKILL.md", expected_name="a", settings=AGENTSKILLS)
    fix2 = next(f for f in again.findings if f.code == "SD605").fixes[0]
    assert apply(fixed, fix2) == (
        '---\nname: a\ndescription: d\nmetadata:\n  version: "3"\n  vendor-x: on\n---\nbody\n'
    )


def test_profile_rules_are_silent_under_other_profiles():
    text = f"---\nname: a\ndescription: {'d' * 1100}\nvendor: x\n---\n"
    for profile in ("dsh", "claude-code", "codex"):
        analysis = analyze_skill_text(
            text,
            path="/r/a/SKILL.md",
            expected_name="a",
            settings=RuleSettings(profile=profile, catalog_max_description_length=2000),
        )
        # The open profiles keep an unknown key, with a hint that nothing reads it.
        assert codes(analysis) == ["SD405"], profile


def test_another_agents_key_is_known_and_a_near_miss_only_of_this_profiles_key():
    """``license`` and ``model`` (Claude Code's keys) are no unknown key under ``dsh``
    (SD405); ``when_to_use`` (Claude Code's routing hint, documented under its profile)
    is a misspelling of ``whenToUse`` under ``dsh`` (SD404), and fine under
    ``claude-code``."""
    text = "---\nname: a\ndescription: d\nlicense: MIT\nmodel: opus\nwhen_to_use: Often.\n---\n"

    def judged(profile: str) -> list[str]:
        settings = RuleSettings(profile=profile)
        analysis = analyze_skill_text(
            text, path="/r/a/SKILL.md", expected_name="a", settings=settings
        )
        return [f"{f.code} {f.message}" for f in analysis.findings]

    assert judged("dsh") == [
        "SD404 'when_to_use' is not a key of the dsh profile: did you mean 'whenToUse'? "
        "ignored: no routing hint is kept"
    ]
    assert judged("claude-code") == []
