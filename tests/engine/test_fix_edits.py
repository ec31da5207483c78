"""Applying fix edits as an LSP client does, and combining fixes into a fix-all."""

from __future__ import annotations

import time

import pytest

from skilldeck.engine.config._rule_settings import RuleSettings
from skilldeck.engine.files._skill_file import analyze_skill_text
from skilldeck.engine.frontmatter._fix_edits import (
    CHECK_BUDGET,
    REMOVED,
    FixCheck,
    apply_edits,
    fix_all,
)
from skilldeck.engine.rules._findings import Finding, Fix, Severity, TextEdit
from skilldeck.engine.text._positions import Position, Span


def insert(line: int, character: int, text: str) -> TextEdit:
    at = Position(line, character)
    return TextEdit(Span(at, at), text)


def test_edits_apply_against_the_original_text_at_every_kind_of_line_break() -> None:
    text = "a\r\nb\rc\nd\u2028e"
    edits = [TextEdit(Span.at(2, 0, 1), "C"), insert(1, 1, "!"), TextEdit(Span.at(3, 0, 3), "D")]

    # U+2028 is no line break for LSP: line 3 is "d\u2028e".
    assert apply_edits(text, edits) == "a\r\nb!\rC\nD"


def test_an_insert_goes_before_a_replacement_starting_at_the_same_place() -> None:
    edits = [TextEdit(Span.at(0, 0, 3), "new"), insert(0, 0, "pre-")]

    assert apply_edits("old rest", edits) == "pre-new rest"


def test_inserts_at_one_place_go_in_list_order() -> None:
    assert apply_edits("ab", [insert(0, 1, "1"), insert(0, 1, "2")]) == "a12b"


def test_a_character_past_the_line_end_means_the_line_end() -> None:
    assert apply_edits("ab\r\ncd", [insert(0, 9, "!")]) == "ab!\r\ncd"


def test_overlapping_edits_are_refused() -> None:
    with pytest.raises(ValueError, match="overlapping"):
        apply_edits("abcdef", [TextEdit(Span.at(0, 0, 3), "x"), TextEdit(Span.at(0, 2, 4), "y")])


def test_a_fix_must_make_exactly_its_change() -> None:
    text = "---\nname: &n alpha\ndescription: *n\n---\n"
    rename = [TextEdit(Span.at(1, 6, 14), "&n beta")]

    assert not FixCheck(text).exact(rename, {"name": "beta"})  # the alias changes too
    assert FixCheck(text).exact(rename, {"name": "beta", "description": "beta"})
    dangling = [TextEdit(Span.at(1, 6, 14), "beta")]
    assert not FixCheck(text).exact(dangling, {"name": "beta"})
    duplicate = [insert(2, 0, "name: beta\n")]
    assert not FixCheck(text).exact(duplicate, {"name": "beta"})
    assert FixCheck("---\nx: 1\ny: 2\n---\n").exact(
        [TextEdit(Span.at(1, 0, 1), "z")], {"x": REMOVED, "z": 1}
    )


def test_fix_all_skips_a_fix_that_changes_a_key_an_earlier_fix_changed() -> None:
    text = (
        "---\nname: notes\ndescription: d\n"
        "disableModelInvocation: true\nmodelInvocable: false\n---\n"
    )
    analysis = analyze_skill_text(text, path="/d/notes/SKILL.md", expected_name="notes")
    first, second = (f for f in analysis.findings if f.code == "SD301")
    assert first.fixes and second.fixes  # each alone is fine

    combined = fix_all(text, analysis.findings)

    assert combined.findings == (first,)
    assert apply_edits(text, combined.edits) == (
        "---\nname: notes\ndescription: d\n"
        "disable-model-invocation: true\nmodelInvocable: false\n---\n"
    )


def test_fix_all_skips_overlapping_fixes_and_keeps_text_order() -> None:
    text = "---\nname: a\ndescription: d\nx: 1\n---\n"
    span = Span.at(0, 0, 3)

    def finding(*edits: TextEdit) -> Finding:
        return Finding("SD999", Severity.HINT, "m", span, fixes=(Fix("f", edits),))

    late = finding(TextEdit(Span.at(3, 0, 1), "y"))
    clash = finding(TextEdit(Span.at(3, 0, 4), "z: 2"))
    early = finding(insert(1, 0, "w: 0\n"))

    combined = fix_all(text, [late, clash, early])

    assert combined.findings == (late, early)
    assert [edit.span.start.line for edit in combined.edits] == [1, 3]
    assert apply_edits(text, combined.edits) == "---\nw: 0\nname: a\ndescription: d\ny: 1\n---\n"


def test_fix_all_of_a_file_without_frontmatter_is_empty() -> None:
    assert fix_all("no frontmatter\n", []).edits == ()


def test_an_edit_outside_the_yaml_is_never_exact() -> None:
    text = "---\nname: a\n---\nbody\n"
    check = FixCheck(text)

    assert check.exact([insert(1, 9, " # ok")], {})
    assert not check.exact([insert(3, 0, "more ")], {})  # the body
    assert not check.exact([insert(2, 0, "x: 1\n---\n")], {"x": 1})  # a new closing line
    assert not check.exact([insert(0, 3, " ")], {})  # the opening line


def test_checking_the_fixes_of_a_huge_frontmatter_stays_within_its_budget() -> None:
    keys = "".join(f"x-k{i}: 1\n" for i in range(2000))
    text = f"---\nname: alpha\ndescription: d\n{keys}---\n"
    started = time.perf_counter()

    analysis = analyze_skill_text(
        text,
        path="/d/alpha/SKILL.md",
        expected_name="alpha",
        settings=RuleSettings(profile="agentskills"),
    )

    # ~0.2 s idle; unbounded checking took minutes. The bound is for a hang, not a speed
    # claim (a loaded machine took 5.5 s): what bounds the work is the budget, below.
    assert time.perf_counter() - started < 60
    moves = [f for f in analysis.findings if f.code == "SD605"]
    assert len(moves) == 2000
    offered = [f for f in moves if f.fixes]
    assert 0 < len(offered) <= CHECK_BUDGET // len(text) + 1
    [move] = offered[0].fixes
    assert apply_edits(text, move.edits).endswith('metadata:\n  x-k0: "1"\n---\n')
