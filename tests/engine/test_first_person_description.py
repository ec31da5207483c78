"""SD208: a description in the first person, reported at the word where the source spells
it (plain, quoted with escapes, folded), never for a user's words quoted as a trigger;
and its count on the real skills of ``../shared/corpora``."""

from __future__ import annotations

from pathlib import Path

import pytest

from skilldeck.engine.config._rule_settings import RuleSettings
from skilldeck.engine.files._skill_file import SkillFileAnalysis, analyze_skill_file
from skilldeck.engine.rules._findings import Finding, Severity
from skilldeck.engine.text._positions import Span

MESSAGE = (
    "description speaks in the first person ('{word}'); it is read as the model's own "
    "instructions: say in the third person what the skill does"
)


def analyze(tmp_path: Path, frontmatter: str, **settings: object) -> SkillFileAnalysis:
    path = tmp_path / "pdf" / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"---\nname: pdf\n{frontmatter}---\n# PDF\n", encoding="utf-8")
    return analyze_skill_file(path, expected_name="pdf", settings=RuleSettings(**settings))  # type: ignore[arg-type]


def sd208(analysis: SkillFileAnalysis) -> list[Finding]:
    return [f for f in analysis.findings if f.code == "SD208"]


def test_a_plain_description_is_reported_at_its_first_person_word(tmp_path: Path) -> None:
    analysis = analyze(
        tmp_path,
        "description: Nest.js expert. If another expert fits better, I will recommend them.\n",
    )
    (finding,) = sd208(analysis)
    assert finding.message == MESSAGE.format(word="I")
    assert finding.severity is Severity.WARNING
    column = len("description: Nest.js expert. If another expert fits better, ")
    assert finding.span == Span.at(2, column, column + 1)
    assert not finding.fixes
    assert analysis.accepted  # the skill still loads


def test_only_the_first_word_is_reported(tmp_path: Path) -> None:
    analysis = analyze(
        tmp_path, "description: Helps me write the updates my company likes to use.\n"
    )
    (finding,) = sd208(analysis)
    assert finding.message == MESSAGE.format(word="me")
    column = len("description: Helps ")
    assert finding.span == Span.at(2, column, column + 2)


def test_a_double_quoted_value_maps_through_its_escapes(tmp_path: Path) -> None:
    # `\t` and `\u2019` are two and six source characters for one character each.
    analysis = analyze(tmp_path, 'description: "Formats tables.\\tI\\u2019ll align columns."\n')
    (finding,) = sd208(analysis)
    assert finding.message == MESSAGE.format(word="I\u2019ll")
    start = len('description: "Formats tables.\\t')
    assert finding.span == Span.at(2, start, start + len("I\\u2019ll"))


def test_a_single_quoted_value_maps_past_its_doubled_quotes(tmp_path: Path) -> None:
    analysis = analyze(tmp_path, "description: 'Reads the user''s notes; we''ll sort them.'\n")
    (finding,) = sd208(analysis)
    assert finding.message == MESSAGE.format(word="we'll")
    start = len("description: 'Reads the user''s notes; ")
    assert finding.span == Span.at(2, start, start + len("we''ll"))


def test_a_folded_description_is_reported_on_the_line_that_spells_the_word(
    tmp_path: Path,
) -> None:
    analysis = analyze(
        tmp_path,
        "description: >-\n  Reviews TypeScript code. If another expert\n"
        "  fits better, I will\n  recommend switching.\n",
    )
    (finding,) = sd208(analysis)
    column = len("  fits better, ")
    assert finding.span == Span.at(4, column, column + 1)


def test_a_word_split_by_an_escaped_line_break_spans_both_lines(tmp_path: Path) -> None:
    # An escaped line break joins "m" and "yself" with nothing between them.
    analysis = analyze(tmp_path, 'description: "Teaches the agent to fix things m\\\n  yself."\n')
    (finding,) = sd208(analysis)
    assert finding.message == MESSAGE.format(word="myself")
    start = len('description: "Teaches the agent to fix things ')
    assert (finding.span.start.line, finding.span.start.character) == (2, start)
    assert (finding.span.end.line, finding.span.end.character) == (3, len("  yself"))


@pytest.mark.parametrize(
    "description",
    [
        'Reviews pull requests. Use when the user says "review my PR".',
        "Reviews pull requests. Use when asked to 'check my site' or 'audit us'.",
        "Reviews pull requests. Use when asked \u201chelp me ship\u201d.",
        "Reviews pull requests with `git log --author=me`.",
        "Measures I/O throughput of US regions and I-beam loads.",
        "Formats the user's notes; they're kept as written.",
        "Mines logs for errors, e.g. timeouts.",
    ],
)
def test_no_first_person_outside_quotes_no_finding(tmp_path: Path, description: str) -> None:
    analysis = analyze(tmp_path, f"description: {description}\n")
    assert analysis.description == description
    assert sd208(analysis) == []


def test_a_user_setting_turns_it_off_or_down(tmp_path: Path) -> None:
    frontmatter = "description: I can help you fill in PDF forms.\n"
    assert sd208(analyze(tmp_path, frontmatter, overrides={"SD208": "off"})) == []
    (finding,) = sd208(analyze(tmp_path, frontmatter, overrides={"SD208": "information"}))
    assert finding.severity is Severity.INFORMATION
    assert finding.span == Span.at(2, len("description: "), len("description: I"))


def _corpora() -> Path | None:
    here = Path(__file__).resolve().parents[2]
    for base in (here.parent, here.parent.parent):
        found = base / "shared" / "corpora" / "antigravity-awesome-skills" / "skills"
        if found.is_dir():
            return found
    return None


def test_the_real_corpus_descriptions_in_the_first_person() -> None:
    skills = _corpora()
    if skills is None:
        pytest.skip("../shared/corpora is absent")
    found = {}
    for path in sorted(skills.rglob("SKILL.md")):
        analysis = analyze_skill_file(str(path), expected_name=path.parent.name)
        for finding in analysis.findings:
            if finding.code == "SD208":
                found[path.parent.name] = finding.message.split("'")[1]
    # Read by hand (2026-12-06): every one speaks as the skill or its author, outside
    # quotes; "review my copy" (copy-editing), "make me a GIF" (slack-gif-creator) and
    # "review my UI" (web-design-guidelines) are quoted triggers and not reported.
    assert found == {
        "firebase": "I",  # the description cut mid-sentence: "Key insight: ... I"
        "internal-comms-anthropic": "me",  # "resources to help me write ..."
        "internal-comms-community": "me",
        "nestjs-expert": "I",  # "I will recommend switching and stop."
        "personal-tool-builder": "my",  # "Use when: ... scratch my itch"
        "typescript-expert": "I",
    }
