"""Description rules: the catalog cut (SD501) underlines only what the catalog drops;
a placeholder description (SD207) is flagged."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skilldeck.engine.config._rule_settings import RuleSettings
from skilldeck.engine.files._skill_file import (
    SkillFileAnalysis,
    analyze_skill_file,
    analyze_skill_text,
)
from skilldeck.engine.rules._findings import Finding, Severity
from skilldeck.engine.text._positions import Position, Span


def analyze(tmp_path: Path, frontmatter: str, **settings: object) -> SkillFileAnalysis:
    path = tmp_path / "pdf" / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"---\nname: pdf\n{frontmatter}---\n# PDF\n", encoding="utf-8")
    return analyze_skill_file(path, expected_name="pdf", settings=RuleSettings(**settings))  # type: ignore[arg-type]


def only(analysis: SkillFileAnalysis, code: str) -> Finding:
    found = [f for f in analysis.findings if f.code == code]
    assert len(found) == 1, analysis.findings
    return found[0]


LONG = (
    "Fill in PDF forms from structured data - read the form's fields, match them to the "
    "data by label, fill them, flatten the form when asked and save a copy beside the "
    "original, never overwriting it or"
)


def test_truncation_underlines_only_the_text_past_the_cut(tmp_path: Path) -> None:
    description = LONG + " any other file the user did not name."
    analysis = analyze(
        tmp_path, f"description: {description}\n", catalog_max_description_length=200
    )
    finding = only(analysis, "SD501")
    assert finding.message == (
        f"description is {len(description)}/200 characters; the catalog cuts it after "
        "'\u2026never overwriting it or'"
    )
    hidden = description[197:]  # the catalog keeps 197 characters and "..."
    cut = len("description: ") + 197 + len(hidden) - len(hidden.lstrip())
    assert finding.span == Span.at(2, cut, len("description: ") + len(description))
    assert analysis.accepted


def test_truncation_of_a_folded_description_starts_on_the_right_line(tmp_path: Path) -> None:
    words = LONG.split(" ")
    lines = [" ".join(words[i : i + 6]) for i in range(0, len(words), 6)]
    block = "".join(f"  {line}\n" for line in lines)
    analysis = analyze(
        tmp_path, f"description: >\n{block}  and more.\n", catalog_max_description_length=100
    )
    finding = only(analysis, "SD501")
    assert finding.message == (
        f"description is {len(LONG) + 10}/100 characters; the catalog cuts it after "
        "'\u2026them to the data by label,'"
    )
    hidden_first = " ".join(words)[97:].lstrip()[0]
    line, character = finding.span.start.line, finding.span.start.character
    source = (block + "  and more.\n").split("\n")[line - 3]
    assert source[character] == hidden_first
    assert finding.span.end == Span.at(3 + len(lines) + 1, 0, 0).start  # the value's end


def test_truncation_of_a_quoted_description_skips_the_quote(tmp_path: Path) -> None:
    analysis = analyze(tmp_path, 'description: "abc def ghi"\n', catalog_max_description_length=8)
    finding = only(analysis, "SD501")
    assert finding.message == "description is 11/8 characters; the catalog cuts it after 'abc d'"
    assert finding.span == Span.at(2, 19, 26)  # from "ef ghi" through the closing quote


def test_truncation_of_a_description_with_escapes_starts_at_the_hidden_word(
    tmp_path: Path,
) -> None:
    # The escapes spell one character each (\u00e9 is "é", \t white space, and an
    # escaped line break joins two lines): the underline starts at the first word the
    # catalog drops, as its source spells it.
    written = '"R\\u00e9sum\\u00e9s\\tand caf\\u00e9 menus\\\n  , then the rest"'
    analysis = analyze(tmp_path, f"description: {written}\n", catalog_max_description_length=24)
    finding = only(analysis, "SD501")
    assert finding.message == (
        "description is 37/24 characters; the catalog cuts it after "
        "'R\u00e9sum\u00e9s and caf\u00e9 menu'"
    )
    line = f"description: {written}".split("\n")[0]
    # From the "s" of "menus" (the catalog keeps "menu") to the closing quote.
    assert finding.span == Span(
        Position(2, line.rindex("s\\")), Position(3, len('  , then the rest"'))
    )


@pytest.mark.parametrize(
    ("written", "shown"),
    [
        (
            "Describe what this skill does and when to use it.",
            "Describe what this skill does and when t...",
        ),
        ("TODO", "TODO"),
        ("'TBD'", "TBD"),
        ("description", "description"),
        ('"TODO: write this"', "TODO: write this"),
        ("<description>", "<description>"),
        ("...", "..."),
        ("'**  Description  **'", "**  Description  **"),
        (
            "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor.",
            "Lorem ipsum dolor sit amet, consectetur ...",
        ),
    ],
)
def test_placeholder_descriptions_are_flagged(tmp_path: Path, written: str, shown: str) -> None:
    analysis = analyze(tmp_path, f"description: {written}\n")
    finding = only(analysis, "SD207")
    assert finding.message == (
        f"description is a placeholder ('{shown}'); the model picks skills by their "
        "description: say what this skill does and when to use it"
    )
    assert finding.span == Span.at(2, 13, 13 + len(written))
    assert finding.severity is Severity.WARNING and analysis.accepted


@pytest.mark.parametrize(
    "written",
    [
        "Fill PDF forms.",
        "Todo lists: keep one per project and tick items off.",
        "Describe a diff to a reviewer.",
        "TBDs in contracts: find and list them.",
    ],
)
def test_real_descriptions_are_not_placeholders(tmp_path: Path, written: str) -> None:
    analysis = analyze(tmp_path, f"description: '{written}'\n")
    assert [f.code for f in analysis.findings] == []


_WORDS = st.lists(st.from_regex(r"[a-z]{1,8}", fullmatch=True), min_size=2, max_size=30)


@settings(max_examples=150, deadline=None)
@given(
    words=_WORDS,
    gaps=st.lists(st.sampled_from([" ", "  ", "   "]), min_size=30, max_size=30),
    cap=st.integers(3, 120),
    quoted=st.booleans(),
)
def test_the_underline_holds_exactly_what_the_catalog_drops(
    words: list[str], gaps: list[str], cap: int, quoted: bool
) -> None:
    description = words[0] + "".join(gap + word for gap, word in zip(gaps, words[1:], strict=False))
    written = f'"{description}"' if quoted else description
    text = f"---\nname: pdf\ndescription: {written}\n---\n"
    analysis = analyze_skill_text(
        text,
        path="/r/pdf/SKILL.md",
        expected_name="pdf",
        settings=RuleSettings(catalog_max_description_length=cap),
    )
    cuts = [f for f in analysis.findings if f.code == "SD501"]
    collapsed = " ".join(description.split())
    if len(collapsed) <= cap:
        assert cuts == []
        return
    [finding] = cuts
    line = text.split("\n")[2]
    underlined = line[finding.span.start.character : finding.span.end.character]
    assert " ".join(underlined.rstrip('"').split()) == collapsed[cap - 3 :].strip()
