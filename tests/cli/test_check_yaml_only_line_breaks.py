"""``skilldeck check`` on U+2028, U+2029 and U+0085 outside quotes: YAML (ruamel, libyaml)
reads them as line breaks, editors (and LSP, and skilldeck's positions) do not. The
finding points at the character and says so; the one fix quotes the value, the
character written as an escape, and is offered only when the skill then loads with the
description as written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import Run, write

from skilldeck.engine.files._skill_file import analyze_skill_file

PATH = ".agents/skills/lsep/SKILL.md"
BREAKS = [
    pytest.param("\u2028", "U+2028 LINE SEPARATOR", "\\u2028", id="line-separator"),
    pytest.param("\u2029", "U+2029 PARAGRAPH SEPARATOR", "\\u2029", id="paragraph-separator"),
    pytest.param("\x85", "U+0085 NEXT LINE", "\\u0085", id="next-line"),
]
PREFIX = "invalid YAML in frontmatter: "
DROPPED = " (skill not loaded)"


def project(tmp_path: Path, text: str) -> tuple[Path, Path]:
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    return root, write(root / PATH, text)


def only_finding(run: Run, root: Path) -> dict[str, object]:
    (finding,) = json.loads(run("check", "--format", "json", "--no-cache", cwd=root).stdout)
    assert isinstance(finding, dict)
    return finding


def at(line: int, start: int, end: int) -> dict[str, dict[str, int]]:
    return {"start": {"line": line, "character": start}, "end": {"line": line, "character": end}}


@pytest.mark.parametrize(("char", "named", "escape"), BREAKS)
def test_a_break_in_an_unquoted_value_is_named_and_the_value_quoted(
    run: Run, tmp_path: Path, char: str, named: str, escape: str
) -> None:
    # The tester's file: "this line continues the value of 'name'" at the whole line, and
    # "Indent the line" made `description` part of name's value (a new SD103).
    root, path = project(tmp_path, f"---\nname: lsep\ndescription: a{char}b c\n---\nbody\n")
    message = (
        f"YAML reads {named} in the unquoted value of 'description' as a line break (an "
        "editor shows none), so the text after it starts a new line; quote the value"
    )
    result = run("check", "--no-cache", cwd=root)
    assert result.code == 1
    assert result.stdout.splitlines()[0] == f"{PATH}:3:15: SD103 error {PREFIX}{message}{DROPPED}"
    finding = only_finding(run, root)
    assert finding["message"] == PREFIX + message + DROPPED
    assert finding["range"] == at(2, 14, 15)  # the character, on the editor's line 3

    diff = run("check", "--diff", "--no-cache", cwd=root)
    assert diff.stdout.split("\n")[2:] == [
        "@@ -1,5 +1,5 @@",
        " ---",
        " name: lsep",
        f"-description: a{char}b c",
        f'+description: "a{escape}b c"',
        " ---",
        " body",
        "",
    ]
    assert diff.stderr.strip().endswith("Would fix 1 problem in 1 file.")

    fixed = run("check", "--fix", "--no-cache", cwd=root)
    assert fixed.stdout.splitlines()[0] == f"Fixed {PATH}: SD103 Quote the value (line 3)"
    assert path.read_text(encoding="utf-8") == (
        f'---\nname: lsep\ndescription: "a{escape}b c"\n---\nbody\n'
    )
    analysis = analyze_skill_file(path, expected_name="lsep")
    assert analysis.frontmatter is not None
    description = analysis.frontmatter.get("description")
    assert description is not None and description.value == f"a{char}b c"


@pytest.mark.parametrize(("char", "named", "escape"), BREAKS)
def test_a_break_that_hides_a_key_in_a_value_is_named(
    run: Run, tmp_path: Path, char: str, named: str, escape: str
) -> None:
    # The editor shows one line; YAML read the text after the break as a second key.
    text = f"---\nname: lsep\ndescription: Sums up{char}user-invocable: false\n---\nbody\n"
    root, path = project(tmp_path, text)
    finding = only_finding(run, root)
    assert finding["code"] == "SD103"
    assert (
        finding["message"]
        == PREFIX
        + (
            f"YAML reads {named} in the unquoted value of 'description' as a line break (an "
            "editor shows none), so the text after it starts a new line; quote the value"
        )
        + DROPPED
    )
    assert finding["range"] == at(2, 20, 21)
    run("check", "--fix", "--no-cache", cwd=root)
    assert path.read_text(encoding="utf-8") == (
        f'---\nname: lsep\ndescription: "Sums up{escape}user-invocable: false"\n---\nbody\n'
    )


@pytest.mark.parametrize(("char", "named", "escape"), BREAKS)
def test_a_break_in_a_key_is_named_and_not_fixed(
    run: Run, tmp_path: Path, char: str, named: str, escape: str
) -> None:
    # "Indent the line" made `descr` part of name's value ('lsep descr'), and a key
    # 'iption': no fix now (what the author meant is not for a fix to guess).
    text = f"---\nname: lsep\ndescr{char}iption: a b\n---\nbody\n"
    root, path = project(tmp_path, text)
    finding = only_finding(run, root)
    assert (
        finding["message"]
        == PREFIX
        + (
            f"YAML reads {named} in the key 'descr{escape}iption' as a line break (an editor "
            "shows none), so the key ends there; remove the character"
        )
        + DROPPED
    )
    assert finding["range"] == at(2, 5, 6)
    diff = run("check", "--diff", "--no-cache", cwd=root)
    assert diff.stdout == ""
    run("check", "--fix", "--no-cache", cwd=root)
    assert path.read_text(encoding="utf-8") == text


@pytest.mark.parametrize("style", ["|", ">"])
@pytest.mark.parametrize(("char", "named", "escape"), BREAKS)
def test_a_break_in_a_block_value_is_named_and_not_fixed(
    run: Run, tmp_path: Path, char: str, named: str, escape: str, style: str
) -> None:
    text = f"---\nname: lsep\ndescription: {style}\n  line one{char}more\n---\nbody\n"
    root, path = project(tmp_path, text)
    finding = only_finding(run, root)
    assert (
        finding["message"]
        == PREFIX
        + (
            f"YAML reads {named} in the block value of 'description' as a line break (an "
            "editor shows none), so the text after it starts a new line outside the block; "
            "remove the character or break the line there"
        )
        + DROPPED
    )
    assert finding["range"] == at(3, 10, 11)
    run("check", "--fix", "--no-cache", cwd=root)
    assert path.read_text(encoding="utf-8") == text


@pytest.mark.parametrize(("char", "named", "escape"), BREAKS)
def test_a_break_in_the_name_is_named(
    run: Run, tmp_path: Path, char: str, named: str, escape: str
) -> None:
    # The parser said "could not find expected ':'" at the next line's start.
    root, path = project(tmp_path, f"---\nname: ls{char}ep\ndescription: a b\n---\nbody\n")
    finding = only_finding(run, root)
    assert finding["range"] == at(1, 8, 9)
    assert str(finding["message"]).startswith(f"{PREFIX}YAML reads {named} in the unquoted")
    run("check", "--fix", "--no-cache", cwd=root)
    # Quoted, the name is 'ls<break>ep': no kebab-case name (SD203), told as such.
    assert path.read_text(encoding="utf-8") == (
        f'---\nname: "ls{escape}ep"\ndescription: a b\n---\nbody\n'
    )
    codes = [f["code"] for f in json.loads(run("check", "--format", "json", cwd=root).stdout)]
    assert "SD203" in codes and "SD103" not in codes


@pytest.mark.parametrize(
    "text",
    [
        pytest.param('description: "a\u2028b c"\n', id="double-quoted"),
        pytest.param("description: 'a\u2029b c'\n", id="single-quoted"),
        pytest.param("description: a b\u2028\n", id="at-the-end-of-the-value"),
        pytest.param("description: |\n  line one\u2029\n  two\n", id="ending-a-block-line"),
        pytest.param("# a note\u2028 \ndescription: d\n", id="ending-a-comment"),
    ],
)
def test_a_break_inside_quotes_or_ending_a_line_is_no_yaml_error(
    run: Run, tmp_path: Path, text: str
) -> None:
    # Every YAML reader (libyaml, ruamel's pure parser, an editor) reads these alike.
    root, _ = project(tmp_path, f"---\nname: lsep\n{text}---\nbody\n")
    found = json.loads(run("check", "--format", "json", "--no-cache", cwd=root).stdout)
    assert [f["code"] for f in found if f["code"] in ("SD103", "SD104")] == []


@pytest.mark.parametrize(
    ("text", "start", "message", "fixed"),
    [
        pytest.param(
            # libyaml and ruamel's pure parser both read 'a<U+2028>b c' (the spaces
            # folded away); an editor, and the agents' js-yaml, read the spaces too.
            "description: a\u2028  b c\n",
            (2, 14),
            "YAML reads U+2028 LINE SEPARATOR in the unquoted value of 'description' as a "
            "line break (an editor shows none), so the text after it starts a new line; "
            "quote the value",
            'description: "a\\u2028  b c"\n',
            id="indented-after-the-break",
        ),
        pytest.param(
            # libyaml read 'line one<U+2028>more', ruamel's pure parser gave up.
            "description: |\n  line one\u2028  more\n",
            (3, 10),
            "YAML reads U+2028 LINE SEPARATOR in the block value of 'description' as a line "
            "break (an editor shows none), so the text after it starts a new line outside "
            "the block; remove the character or break the line there",
            None,
            id="block-indented-after-the-break",
        ),
        pytest.param(
            # libyaml read the key 'user-invocable' out of the comment.
            "description: d\n# a note\x85user-invocable: false\n",
            (3, 8),
            "YAML reads U+0085 NEXT LINE in a comment as a line break (an editor shows none), "
            "so the text after it is no comment; remove the character",
            None,
            id="in-a-comment",
        ),
    ],
)
def test_a_break_yaml_readers_part_on_is_an_error_whatever_the_parser(
    run: Run,
    tmp_path: Path,
    text: str,
    start: tuple[int, int],
    message: str,
    fixed: str | None,
) -> None:
    # Where YAML readers disagree (libyaml starts a line at column 0, ruamel's pure
    # parser counts the column on, an editor sees no break) the skill is not loaded by
    # any of their guesses: the same finding with or without libyaml.
    original = f"---\nname: lsep\n{text}---\nbody\n"
    root, path = project(tmp_path, original)
    finding = only_finding(run, root)
    assert finding["message"] == PREFIX + message + DROPPED
    assert finding["range"] == at(start[0], start[1], start[1] + 1)
    run("check", "--fix", "--no-cache", cwd=root)
    expected = original if fixed is None else f"---\nname: lsep\n{fixed}---\nbody\n"
    assert path.read_text(encoding="utf-8") == expected
