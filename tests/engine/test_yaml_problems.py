"""YAML errors in the author's words: message, the range of the cause, and a fix."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skilldeck.engine.files._skill_file import analyze_skill_file
from skilldeck.engine.frontmatter._frontmatter import parse_frontmatter
from skilldeck.engine.frontmatter._yaml_problems import explain
from skilldeck.engine.rules._findings import Finding, Fix
from skilldeck.engine.text._positions import Position, Span

PREFIX = "invalid YAML in frontmatter: "
DROPPED = " (skill not loaded)"


def apply(text: str, fix: Fix) -> str:
    starts = [0]
    for line in text.split("\n"):
        starts.append(starts[-1] + len(line) + 1)
    for edit in sorted(fix.edits, key=lambda e: e.span.start, reverse=True):
        start = starts[edit.span.start.line] + edit.span.start.character
        end = starts[edit.span.end.line] + edit.span.end.character
        text = text[:start] + edit.new_text + text[end:]
    return text


def check(tmp_path: Path, text: str, code: str = "SD103") -> tuple[Finding, Path]:
    path = tmp_path / "pdf" / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    analysis = analyze_skill_file(path, expected_name="pdf")
    [finding] = analysis.findings
    assert finding.code == code and finding.drops_skill and not analysis.accepted
    return finding, path


CASES = [
    pytest.param(
        "---\nname: pdf\ndescription: d\nmetadata:\n\tversion: '1'\n---\n",
        "tab used for indentation; YAML needs spaces",
        Span.at(4, 0, 1),
        "Replace the indentation tabs with spaces",
        "---\nname: pdf\ndescription: d\nmetadata:\n  version: '1'\n---\n",
        id="tab-indentation",
    ),
    pytest.param(
        '---\nname: pdf\ndescription: "Fill PDF forms\nlicense: MIT\n---\n',
        "double quote opened at 3:14 is never closed",
        Span.at(2, 13, 14),
        "Close the quote at the end of line 3",
        '---\nname: pdf\ndescription: "Fill PDF forms"\nlicense: MIT\n---\n',
        id="unclosed-double-quote",
    ),
    pytest.param(
        "---\nname: pdf\ndescription: 'Fill PDF forms\n---\n",
        "single quote opened at 3:14 is never closed",
        Span.at(2, 13, 14),
        "Close the quote at the end of line 3",
        "---\nname: pdf\ndescription: 'Fill PDF forms'\n---\n",
        id="unclosed-single-quote",
    ),
    pytest.param(
        "---\nname: pdf\ndescription: Use this: it works\n---\n",
        "': ' inside the value of 'description' starts a nested mapping; quote the value",
        Span.at(2, 21, 22),
        "Quote the value",
        '---\nname: pdf\ndescription: "Use this: it works"\n---\n',
        id="colon-in-plain-value",
    ),
    pytest.param(
        "---\nname: pdf\ndescription: Fill PDF forms\nfrom structured data\nlicense: MIT\n---\n",
        "this line continues the value of 'description' but is not indented; indent it or "
        "quote the whole value",
        Span.at(3, 0, 20),
        "Indent the line",
        "---\nname: pdf\ndescription: Fill PDF forms\n  from structured data\nlicense: MIT\n---\n",
        id="unindented-continuation",
    ),
    pytest.param(
        "---\nname:pdf\ndescription: Fill PDF forms.\n---\n",
        "missing space after ':' in 'name:pdf'; YAML reads the line as text, not as the key 'name'",
        Span.at(1, 4, 5),
        "Insert a space after 'name:'",
        "---\nname: pdf\ndescription: Fill PDF forms.\n---\n",
        id="missing-space-after-colon",
    ),
    pytest.param(
        '---\nname: pdf\ndescription: `pdf` forms, "filled" \\ fast\n---\n',
        "a value cannot start with '`' unquoted (YAML reserves it); quote the value",
        Span.at(2, 13, 14),
        "Quote the value",
        '---\nname: pdf\ndescription: "`pdf` forms, \\"filled\\" \\\\ fast"\n---\n',
        id="reserved-first-character",
    ),
    pytest.param(
        "---\nname: pdf\ndescription: Use for: PDFs # internal note\n---\n",
        "': ' inside the value of 'description' starts a nested mapping; quote the value",
        Span.at(2, 20, 21),
        "Quote the value",
        '---\nname: pdf\ndescription: "Use for: PDFs" # internal note\n---\n',
        id="quote-stops-at-a-comment",
    ),
    pytest.param(
        "---\nname: pdf\ndescription: Use this: it works\n  on forms\nlicense: MIT\n---\n",
        "': ' inside the value of 'description' starts a nested mapping; quote the value",
        Span.at(2, 21, 22),
        "Quote the value",
        '---\nname: pdf\ndescription: "Use this: it works\n  on forms"\nlicense: MIT\n---\n',
        id="quote-spans-the-continuation-lines",
    ),
    pytest.param(
        '---\nname: pdf\ndescription: "Save forms to C:\\Users"\n---\n',
        "'\\U' must be followed by 8 hexadecimal digits in a double-quoted value; "
        "write '\\\\' for a backslash, or quote the value with single quotes",
        Span.at(2, 30, 32),
        "Escape the backslash",
        '---\nname: pdf\ndescription: "Save forms to C:\\\\Users"\n---\n',
        id="windows-path-in-double-quotes",
    ),
    pytest.param(
        '---\nname: pdf\ndescription: "Fill forms \\q fast"\n---\n',
        "'\\q' is not an escape YAML knows in a double-quoted value; "
        "write '\\\\' for a backslash, or quote the value with single quotes",
        Span.at(2, 25, 27),
        "Escape the backslash",
        '---\nname: pdf\ndescription: "Fill forms \\\\q fast"\n---\n',
        id="unknown-escape",
    ),
    pytest.param(
        '---\nname: pdf\ndescription: "Fill forms \\ud83d\\ude00"\n---\n',
        "'\\ud83d' is half of a UTF-16 surrogate pair, which YAML does not join; "
        "write the character itself or its '\\U' escape of 8 digits",
        Span.at(2, 25, 37),
        "Write it as '\\U0001F600'",
        '---\nname: pdf\ndescription: "Fill forms \\U0001F600"\n---\n',
        id="surrogate-pair-escape",
    ),
    pytest.param(
        # YAML reads U+2028 as a line break, an editor does not: the finding is at the
        # character (not "this line continues the value of 'name'" at the whole line,
        # whose "Indent the line" made `description` part of the name).
        "---\nname: pdf\ndescription: Fill\u2028PDF forms\n---\n",
        "YAML reads U+2028 LINE SEPARATOR in the unquoted value of 'description' as a line "
        "break (an editor shows none), so the text after it starts a new line; quote the value",
        Span.at(2, 17, 18),
        "Quote the value",
        '---\nname: pdf\ndescription: "Fill\\u2028PDF forms"\n---\n',
        id="line-separator-in-a-plain-value",
    ),
    pytest.param(
        "---\nname: pdf\nmetadata:\n  note: a\x85b c\ndescription: d\n---\n",
        "YAML reads U+0085 NEXT LINE in the unquoted value of 'note' as a line break (an "
        "editor shows none), so the text after it starts a new line; quote the value",
        Span.at(3, 9, 10),
        "Quote the value",
        '---\nname: pdf\nmetadata:\n  note: "a\\u0085b c"\ndescription: d\n---\n',
        id="next-line-in-a-nested-plain-value",
    ),
]


#: The cases the hosts' reading model (observed by the host lab on its y-colon and
#: y-unclosed-flow cases: an unparsable plain value is quoted and read) loads anyway.
LOADED_ANYWAY = {
    "colon-in-plain-value": ". Claude Code and Codex load it anyway",
    "reserved-first-character": ". Claude Code and Codex load it anyway",
    "quote-stops-at-a-comment": ". Claude Code and Codex load it anyway",
}


@pytest.mark.parametrize(("text", "message", "span", "title", "fixed"), CASES)
def test_yaml_errors_name_the_cause_and_fix_it(
    request: pytest.FixtureRequest,
    tmp_path: Path,
    text: str,
    message: str,
    span: Span,
    title: str,
    fixed: str,
) -> None:
    finding, path = check(tmp_path, text)
    anyway = LOADED_ANYWAY.get(request.node.callspec.id, "")
    assert finding.message == PREFIX + message + anyway + DROPPED
    assert finding.span == span
    [fix] = finding.fixes
    assert fix.title == title
    assert apply(text, fix) == fixed
    path.write_text(fixed, encoding="utf-8")
    assert analyze_skill_file(path, expected_name="pdf").accepted


def test_a_parser_message_names_the_token_not_a_python_tuple(tmp_path: Path) -> None:
    finding, _ = check(tmp_path, "---\n%YAML 1.2\n---\nbody\n")
    assert finding.message == (
        PREFIX + "expected '<document start>', but found '<stream end>'" + DROPPED
    )


def test_a_quote_after_a_closing_backslash_is_not_offered(tmp_path: Path) -> None:
    # A quote added after the line's last backslash would be escaped by it: the value
    # would stay open, and --fix would add a quote at every pass.
    finding, _ = check(tmp_path, '---\nname: pdf\ndescription: "Fill C:\\\n---\n')
    assert finding.message == PREFIX + "double quote opened at 3:14 is never closed" + DROPPED
    assert finding.fixes == ()


def test_duplicate_keys_point_at_the_second_and_name_the_first(tmp_path: Path) -> None:
    finding, _ = check(tmp_path, "---\nname: pdf\ndescription: a\nname: pdf\n---\n", "SD105")
    # Claude Code reads the last of a key given twice (host lab, y-duplicate-name)
    assert finding.message == (
        "duplicate key 'name' (first defined on line 2). Claude Code loads it anyway" + DROPPED
    )
    assert finding.span == Span.at(3, 0, 4)


def test_an_unexplained_error_keeps_the_parser_words(tmp_path: Path) -> None:
    finding, _ = check(tmp_path, "---\nname: pdf\ndescription: [a, b\n---\n")
    assert finding.message.startswith(PREFIX)
    assert finding.fixes == ()


_TOKENS = st.sampled_from(
    [
        "name", "description", "a b", "1", ":", ": ", "\n", "\n  ", "\t", " ", "'", '"',
        "@", "`", "-", "- ", "[", "{", "#", "|", ">", "\\", "x:y", "\u00e9",
        "\u2028", "\u2029", "\x85",
    ]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(_TOKENS, max_size=30).map("".join))
def test_explanations_point_inside_the_document_and_their_fixes_apply(yaml: str) -> None:
    text = f"---\n{yaml}\n---\n"
    lines = text.split("\n")
    for finding in parse_frontmatter(text).findings:
        spans = [finding.span] + [e.span for fix in finding.fixes for e in fix.edits]
        for span in spans:
            assert span.start <= span.end
            assert span.end.line < len(lines)
            assert span.end.character <= len(lines[span.end.line])
        for fix in finding.fixes:
            apply(text, fix)


_QUOTED = st.sampled_from(
    ['"', "'", "\\", "\\U", "\\u", "\\x", "d83d", "\\ude00", "0", "a", " ", "C:", "\n", "# c",
     "\u2028", "\x85", "k: v"]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(_QUOTED, max_size=12).map("".join))
def test_a_fix_resolves_the_finding_it_is_offered_for(value: str) -> None:
    # A fix that leaves its finding where it was, saying the same, would be applied
    # again by each pass of --fix (a quote added at every pass, once).
    text = f"---\nname: pdf\ndescription: {value}\n---\n"
    for finding in parse_frontmatter(text).findings:
        for fix in finding.fixes:
            after = parse_frontmatter(apply(text, fix)).findings
            assert (finding.code, finding.message, finding.span) not in {
                (f.code, f.message, f.span) for f in after
            }, (text, fix.title)


def test_a_lone_key_without_a_space_is_named_not_just_called_text(tmp_path: Path) -> None:
    text = "---\nname:pdf\n---\n"
    finding, _ = check(tmp_path, text, "SD104")
    assert finding.message == (
        "frontmatter must be a YAML mapping of keys to values, found the string 'name:pdf': "
        "missing space after ':' in 'name:pdf'; YAML reads the line as text, not as the key "
        "'name'" + DROPPED
    )
    assert finding.span == Span.at(1, 4, 5)
    [fix] = finding.fixes
    assert apply(text, fix) == "---\nname: pdf\n---\n"


@pytest.mark.parametrize(
    ("yaml", "span", "message"),
    [
        pytest.param(
            "description: d # note\u2028more\n",
            Span.at(2, 21, 22),
            "YAML reads U+2028 LINE SEPARATOR in a comment as a line break (an editor shows "
            "none), so the text after it is no comment; remove the character",
            id="comment-after-a-value",
        ),
        pytest.param(
            # A key is one line: quotes do not keep its break from ending it.
            '"de\u2029sc": d\ndescription: d\n',
            Span.at(2, 3, 4),
            "YAML reads U+2029 PARAGRAPH SEPARATOR in the key '\"de\\u2029sc\"' as a line "
            "break (an editor shows none), so the key ends there; remove the character",
            id="quoted-key",
        ),
        pytest.param(
            "metadata: {a: b\x85c}\ndescription: d\n",
            Span.at(2, 15, 16),
            "YAML reads U+0085 NEXT LINE as a line break (an editor shows none), so the text "
            "after it starts a new line; remove the character, or quote the value it is in",
            id="flow-mapping",
        ),
        pytest.param(
            # Nothing after it, but the editor's reading stops at it: libyaml read the
            # block, ruamel's pure parser did not.
            "description: |\u2028  \n  text\n",
            Span.at(2, 14, 15),
            "YAML reads U+2028 LINE SEPARATOR as a line break (an editor shows none), so the "
            "text after it starts a new line; remove the character, or quote the value it is in",
            id="after-a-block-indicator",
        ),
    ],
)
def test_a_break_yaml_alone_reads_is_named_where_it_stands(
    yaml: str, span: Span, message: str
) -> None:
    parsed = parse_frontmatter(f"---\nname: pdf\n{yaml}---\n")
    [finding] = parsed.findings
    assert (finding.code, finding.span, finding.fixes) == ("SD103", span, ())
    assert finding.message == PREFIX + message + DROPPED


def _end_of_last_edit(text: str, fix: Fix) -> Position:
    """Where the last of ``fix``'s edits ends in the text it makes."""
    marker = "\x00"  # no YAML text holds it
    last = max(fix.edits, key=lambda e: (e.span.start, e.span.end))
    marked = Fix(
        fix.title,
        tuple(replace(e, new_text=e.new_text + marker) if e is last else e for e in fix.edits),
    )
    before = apply(text, marked).split(marker)[0]
    return Position(before.count("\n"), len(before) - (before.rfind("\n") + 1))


@settings(max_examples=300, deadline=None)
@given(st.lists(_TOKENS, max_size=30).map("".join))
def test_a_fix_gets_the_yaml_past_what_it_edits(yaml: str) -> None:
    # "Indent the line" under a line break only YAML reads made `description` part of
    # name's value, and "Close the quote" of a lone `'` made an empty text (no mapping):
    # errors in what they edited. Every fix offered for a YAML error leaves none there
    # or before (an error further on is the next one to fix).
    text = f"---\n{yaml}\n---\n"
    for finding in parse_frontmatter(text).findings:
        for fix in finding.fixes:
            end = _end_of_last_edit(text, fix)
            after = parse_frontmatter(apply(text, fix)).findings
            assert all(not f.drops_skill or f.span.start >= end for f in after), (
                text,
                fix.title,
                [(f.message, f.span) for f in after],
            )


def test_a_line_that_reads_as_a_key_is_not_called_a_continuation() -> None:
    # Where the parser's line is not the editor's (a break only YAML reads), the line
    # the parser named may read `key: value`: indenting it is no fix.
    yaml = "name: lsep\ndescription: a b c\n"
    explained = explain(
        yaml,
        problem="could not find expected ':'",
        context="while scanning a simple key",
        problem_offset=len(yaml) - 1,
        context_offset=yaml.index("description"),
        position=lambda at: Position(0, at),
    )
    assert explained is None
