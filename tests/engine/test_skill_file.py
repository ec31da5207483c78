from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from skilldeck.engine.config._rule_settings import RuleSettings
from skilldeck.engine.files._skill_file import (
    SkillFileAnalysis,
    analyze_skill_bytes,
    analyze_skill_file,
    analyze_skill_text,
)
from skilldeck.engine.files._skill_read import (
    MAX_SKILL_FILE_BYTES,
    SkillReadError,
    read_skill_body,
    read_skill_bytes,
)
from skilldeck.engine.rules._findings import Severity
from skilldeck.engine.rules._rules import NOT_LOADED
from skilldeck.engine.text._positions import FILE_START, Position, Span

PATH = "/root/pdf-forms/SKILL.md"
S = NOT_LOADED


def analyze(text, expected="pdf-forms", **settings):
    return analyze_skill_text(
        text, path=PATH, expected_name=expected, settings=RuleSettings(**settings)
    )


def only(analysis, code):
    found = [f for f in analysis.findings if f.code == code]
    assert len(found) == 1, analysis.findings
    return found[0]


def apply(text, fix):
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    for edit in sorted(fix.edits, key=lambda e: e.span.start, reverse=True):
        start = offsets[edit.span.start.line] + edit.span.start.character
        end = offsets[edit.span.end.line] + edit.span.end.character
        text = text[:start] + edit.new_text + text[end:]
    return text


GOOD = "---\nname: pdf-forms\ndescription: Fill PDF forms.\n---\n# Body\n"


def test_a_good_skill_is_accepted_with_its_fields(tmp_path):
    text = (
        "---\nname: pdf-forms\ndescription: Fill PDF forms.\nwhenToUse: forms\n"
        "metadata:\n  version: '1'\ndisable-model-invocation: YES\nuser-invocable: 0\n---\nbody\n"
    )
    analysis = analyze(text)
    # Only the non-canonical spellings are hinted at; nothing that affects loading.
    assert [(f.code, f.severity) for f in analysis.findings] == [
        ("SD303", Severity.HINT),
        ("SD303", Severity.HINT),
    ]
    assert analysis.accepted
    assert (analysis.name, analysis.description, analysis.when_to_use) == (
        "pdf-forms",
        "Fill PDF forms.",
        "forms",
    )
    assert dict(analysis.metadata) == {"version": "1"}
    assert not analysis.invocation.model_invocable
    assert not analysis.invocation.user_invocable
    assert analysis.body_start_line == 9


def test_missing_name_with_fix():
    text = "---\ndescription: d\n---\n"
    finding = only(analyze(text), "SD201")
    assert finding.message == "missing required key 'name' (skill not loaded)"
    assert finding.span == Span(Position(0, 0), Position(2, 3))
    assert finding.drops_skill
    assert apply(text, finding.fixes[0]) == "---\nname: pdf-forms\ndescription: d\n---\n"


@pytest.mark.parametrize(
    ("value", "found", "span"),
    [
        ("''", "an empty string", Span.at(1, 6, 8)),
        (
            "12",
            "the number 12 (YAML read the unquoted '12' as a number; quote it to keep the text)",
            Span.at(1, 6, 8),
        ),
        ("", "null", Span.at(1, 0, 4)),
        ("[a]", "a list", Span.at(1, 6, 9)),
        ("!!str", "an empty string", Span.at(1, 6, 11)),
    ],
)
def test_empty_or_wrong_typed_name(value, found, span):
    finding = only(analyze(f"---\nname: {value}\ndescription: d\n---\n"), "SD202")
    assert finding.message == f"'name' must be a non-empty string, found {found} (skill not loaded)"
    assert finding.span == span


QUOTE_CASES = [
    # (key line as written, expected message tail, value span, key line after the fix)
    (
        "name: 2024",
        "'name' must be a non-empty string, found the number 2024 "
        "(YAML read the unquoted '2024' as a number; quote it to keep the text)",
        Span.at(1, 6, 10),
        'name: "2024"',
    ),
    (
        "name: true",
        "'name' must be a non-empty string, found the boolean true "
        "(YAML read the unquoted 'true' as a boolean; quote it to keep the text)",
        Span.at(1, 6, 10),
        'name: "true"',
    ),
    (
        "description: 3.10",
        "'description' must be a non-empty string, found the number 3.1 "
        "(YAML read the unquoted '3.10' as a number; quote it to keep the text)",
        Span.at(1, 13, 17),
        'description: "3.10"',
    ),
    (
        "description: null  # not yet",
        "'description' must be a non-empty string, found null "
        "(YAML read the unquoted 'null' as null; quote it to keep the text)",
        Span.at(1, 13, 17),
        'description: "null"  # not yet',
    ),
    (
        "description: FALSE",
        "'description' must be a non-empty string, found the boolean false "
        "(YAML read the unquoted 'FALSE' as a boolean; quote it to keep the text)",
        Span.at(1, 13, 18),
        'description: "FALSE"',
    ),
    (
        "description: 0x1F",
        "'description' must be a non-empty string, found the number 31 "
        "(YAML read the unquoted '0x1F' as a number; quote it to keep the text)",
        Span.at(1, 13, 17),
        'description: "0x1F"',
    ),
    (
        "whenToUse: ~",
        "'whenToUse' must be a non-empty string, found null "
        "(YAML read the unquoted '~' as null; quote it to keep the text); the field is ignored",
        Span.at(1, 11, 12),
        'whenToUse: "~"',
    ),
    (
        "whenToUse: -.inf",
        "'whenToUse' must be a non-empty string, found the number -inf "
        "(YAML read the unquoted '-.inf' as a number; quote it to keep the text); "
        "the field is ignored",
        Span.at(1, 11, 16),
        'whenToUse: "-.inf"',
    ),
]


@pytest.mark.parametrize(("line", "message", "span", "fixed"), QUOTE_CASES)
def test_a_value_yaml_misreads_gets_a_quote_fix(line, message, span, fixed):
    key = line.split(":")[0]
    rest = {"name": "name: pdf-forms", "description": "description: d", "whenToUse": ""}
    others = "".join(f"{v}\n" for k, v in rest.items() if k != key and v)
    text = f"---\n{line}\n{others}---\nbody\n"
    code = {"name": "SD202", "description": "SD205", "whenToUse": "SD401"}[key]
    finding = only(analyze(text), code)
    assert finding.message == message + (S if code != "SD401" else "")
    assert finding.span == span
    [fix] = finding.fixes
    assert fix.title == "Quote the value"
    fixed_text = apply(text, fix)
    assert fixed_text == f"---\n{fixed}\n{others}---\nbody\n"
    after = analyze(fixed_text, expected=None)
    assert after.findings == ()
    assert after.accepted


def test_quote_fix_in_a_flow_mapping_keeps_the_yaml_valid():
    text = "---\n{name: pdf-forms, description: 1e3}\n---\n"
    finding = only(analyze(text), "SD205")
    assert finding.span == Span.at(1, 31, 34)
    assert apply(text, finding.fixes[0]) == '---\n{name: pdf-forms, description: "1e3"}\n---\n'
    assert analyze(apply(text, finding.fixes[0])).description == "1e3"


@pytest.mark.parametrize(
    "line",
    [
        "description: !!int 3",  # tagged on purpose: quoting would change the intent
        "description: !!null ''",
        "description: ''",  # already text
        "description:",  # nothing written to quote
        "description: [3]",  # a collection, not a scalar
        "description: |\n  ",  # a blank block scalar
    ],
)
def test_no_quote_fix_when_yaml_did_not_misread_a_plain_scalar(line):
    text = f"---\nname: pdf-forms\n{line}\n---\n"
    finding = only(analyze(text), "SD205")
    assert finding.fixes == ()
    assert "quote it" not in finding.message


def test_non_kebab_name_with_kebab_fix():
    text = "---\nname: PdfForms\ndescription: d\n---\n"
    analysis = analyze(text)
    finding = only(analysis, "SD203")
    assert finding.message == (
        "name 'PdfForms' is not kebab-case (lowercase a-z, digits, single hyphens): "
        "uppercase letter 'P' at position 1 (skill not loaded)"
    )
    assert finding.span == Span.at(1, 6, 14)
    assert finding.fixes[0].title == "Rename to 'pdf-forms'"
    assert apply(text, finding.fixes[0]) == "---\nname: pdf-forms\ndescription: d\n---\n"
    assert not analysis.accepted
    assert analysis.name == "PdfForms"


def test_missing_description_with_fix():
    text = "---\nname: pdf-forms\nlicense: MIT\n---\n"
    finding = only(analyze(text), "SD204")
    assert finding.message == "missing required key 'description' (skill not loaded)"
    assert finding.span == Span.at(0, 0, 3)  # the opening `---` line only (#31)
    assert apply(text, finding.fixes[0]) == (
        "---\nname: pdf-forms\ndescription: Describe what this skill does and when to use it.\n"
        "license: MIT\n---\n"
    )


@pytest.mark.parametrize(
    ("value", "found"),
    [
        ("'  '", "a blank string"),
        (
            "true",
            "the boolean true "
            "(YAML read the unquoted 'true' as a boolean; quote it to keep the text)",
        ),
        ("", "null"),
    ],
)
def test_empty_or_wrong_typed_description(value, found):
    analysis = analyze(f"---\nname: pdf-forms\ndescription: {value}\n---\n")
    assert only(analysis, "SD205").message == (
        f"'description' must be a non-empty string, found {found} (skill not loaded)"
    )
    assert not analysis.accepted


def test_name_differs_from_folder_and_flat_stem():
    finding = only(analyze("---\nname: pdf\ndescription: d\n---\n"), "SD206")
    assert finding.message == "name 'pdf' differs from its folder 'pdf-forms'"
    assert finding.severity is Severity.WARNING
    assert not finding.drops_skill
    assert finding.fixes[0].edits[0].new_text == "pdf-forms"
    flat = analyze_skill_text(
        "---\nname: pdf\ndescription: d\n---\n", path="/root/forms.md", expected_name="forms"
    )
    assert only(flat, "SD206").message == "name 'pdf' differs from its file name 'forms'"
    assert flat.accepted
    assert analyze("---\nname: pdf\ndescription: d\n---\n", expected=None).findings == ()


@pytest.mark.parametrize(
    ("line", "message", "fixed"),
    [
        (
            "disableModelInvocation: true",
            "unsupported key 'disableModelInvocation': use 'disable-model-invocation'",
            "disable-model-invocation: true",
        ),
        (
            "userInvocable: false",
            "unsupported key 'userInvocable': use 'user-invocable'",
            "user-invocable: false",
        ),
        (
            "modelInvocable: false",
            "unsupported key 'modelInvocable': use 'disable-model-invocation' "
            "with the opposite value",
            "disable-model-invocation: true",
        ),
    ],
)
def test_legacy_invocation_keys_drop_the_skill_and_name_the_right_key(line, message, fixed):
    text = f"---\nname: pdf-forms\ndescription: d\n{line}\n---\n"
    analysis = analyze(text)
    finding = only(analysis, "SD301")
    assert finding.message == message + S
    assert finding.span == Span.at(3, 0, line.index(":"))
    assert finding.drops_skill and not analysis.accepted
    fixed_text = apply(text, finding.fixes[0])
    assert fixed_text == f"---\nname: pdf-forms\ndescription: d\n{fixed}\n---\n"
    assert analyze(fixed_text).accepted


def test_non_boolean_invocation_value_drops_and_offers_true_and_false():
    text = "---\nname: pdf-forms\ndescription: d\nuser-invocable: maybe\n---\n"
    analysis = analyze(text)
    finding = only(analysis, "SD302")
    assert finding.message == (
        "'user-invocable' must be true or false, found the string 'maybe' (skill not loaded)"
    )
    assert finding.span == Span.at(3, 16, 21)
    assert [fix.title for fix in finding.fixes] == ["Replace with 'true'", "Replace with 'false'"]
    assert analyze(apply(text, finding.fixes[1])).invocation.user_invocable is False
    assert not analysis.accepted
    for spelling in ("'yes'", "On", "OFF", "1", "'0'", "True"):
        assert analyze(
            f"---\nname: pdf-forms\ndescription: d\nuser-invocable: {spelling}\n---\n"
        ).accepted, spelling
    assert not analyze("---\nname: pdf-forms\ndescription: d\nuser-invocable: 2\n---\n").accepted


@pytest.mark.parametrize(
    ("value", "shown", "canonical", "span"),
    [
        ('"yes"', '"yes"', "true", Span.at(3, 16, 21)),
        ("on", "on", "true", Span.at(3, 16, 18)),
        ("1", "1", "true", Span.at(3, 16, 17)),
        ('"True"', '"True"', "true", Span.at(3, 16, 22)),
        ("'false'", "'false'", "false", Span.at(3, 16, 23)),
        ("NO  # later", "NO", "false", Span.at(3, 16, 18)),
        ("0", "0", "false", Span.at(3, 16, 17)),
    ],
)
def test_non_canonical_boolean_is_a_fixable_hint(value, shown, canonical, span):
    text = f"---\nname: pdf-forms\ndescription: d\nuser-invocable: {value}\n---\n"
    analysis = analyze(text)
    finding = only(analysis, "SD303")
    assert finding.message == (
        f"'user-invocable' is {shown}, which skilldeck reads as {canonical}; "
        f"write {canonical} so every YAML tool reads the same boolean"
    )
    assert finding.span == span
    assert finding.severity is Severity.HINT
    assert not finding.drops_skill and analysis.accepted
    assert analysis.invocation.user_invocable is (canonical == "true")
    [fix] = finding.fixes
    assert fix.title == f"Replace with '{canonical}'"
    fixed = apply(text, fix)
    comment = "  # later" if "#" in value else ""
    assert fixed == (
        f"---\nname: pdf-forms\ndescription: d\nuser-invocable: {canonical}{comment}\n---\n"
    )
    after = analyze(fixed)
    assert after.findings == ()
    assert after.invocation == analysis.invocation


@pytest.mark.parametrize("value", ["true", "false", "True", "FALSE", "!!bool true"])
def test_yaml_booleans_need_no_canonical_hint(value):
    analysis = analyze(
        f"---\nname: pdf-forms\ndescription: d\ndisable-model-invocation: {value}\n---\n"
    )
    assert analysis.findings == ()


def test_non_canonical_boolean_hint_in_a_block_scalar_has_no_fix():
    text = "---\nname: pdf-forms\ndescription: d\ndisable-model-invocation: >-\n  yes\n---\n"
    analysis = analyze(text)
    finding = only(analysis, "SD303")
    assert finding.message == (
        "'disable-model-invocation' is the string 'yes', which skilldeck reads as true; "
        "write true so every YAML tool reads the same boolean"
    )
    assert finding.fixes == ()
    assert not analysis.invocation.model_invocable


def test_non_canonical_boolean_can_be_switched_off():
    text = "---\nname: pdf-forms\ndescription: d\nuser-invocable: off\n---\n"
    assert analyze(text, overrides={"non-canonical-boolean": "off"}).findings == ()


def test_wrong_typed_optional_fields_are_dropped_with_a_warning():
    analysis = analyze(
        "---\nname: pdf-forms\ndescription: d\nwhenToUse: [a]\nmetadata: text\n---\n"
    )
    assert only(analysis, "SD401").message == (
        "'whenToUse' must be a non-empty string, found a list; the field is ignored"
    )
    assert only(analysis, "SD401").span == Span.at(3, 11, 14)
    assert only(analysis, "SD402").message == (
        "'metadata' must be a mapping, found the string 'text'; the field is ignored"
    )
    assert analysis.accepted
    assert analysis.when_to_use is None and analysis.metadata is None


def test_deferred_keys_are_information():
    analysis = analyze(
        "---\nname: pdf-forms\ndescription: d\ncontext: fork\narguments: [a]\n"
        "argument-hint: '[file]'\nallowed-tools: Bash\ndisallowed-tools: Write\n---\n"
    )
    found = [(f.code, f.severity, f.span.start.line) for f in analysis.findings]
    assert found == [("SD403", Severity.INFORMATION, line) for line in range(3, 8)]
    assert analysis.findings[0].message == (
        "'context' is not enforced by skilldeck: "
        "the skill always runs in the current conversation, never in a fork"
    )
    assert analysis.accepted


def test_description_longer_than_the_catalog_cap_shows_the_catalog_text():
    description = "word " * 30
    analysis = analyze(
        f"---\nname: pdf-forms\ndescription: {description}\n---\n",
        catalog_max_description_length=20,
    )
    finding = only(analysis, "SD501")
    assert finding.message == (
        "description is 149/20 characters; the catalog cuts it after 'word word word wo'"
    )
    assert finding.span == Span.at(2, 13 + 17, 13 + len(description.rstrip()))
    assert analysis.accepted


def test_overrides_change_severity_and_switching_off_a_drop_still_drops():
    text = "---\nname: pdf\ndescription: d\nuserInvocable: false\n---\n"
    default = analyze(text)
    assert [f.code for f in default.findings] == ["SD206", "SD301"]
    changed = analyze(text, overrides={"name-mismatch": Severity.ERROR, "SD301": None})
    assert [(f.code, f.severity) for f in changed.findings] == [("SD206", Severity.ERROR)]
    assert changed.suppressed_drops == ("SD301",)
    assert not changed.accepted
    assert analyze(text, overrides={"SD206": "off"}).findings[0].code == "SD301"
    with pytest.raises(ValueError, match="unknown rule 'SD999'"):
        RuleSettings(overrides={"SD999": None})
    with pytest.raises(ValueError, match='invalid severity "loud"'):
        RuleSettings(overrides={"SD206": "loud"})
    assert hash(RuleSettings(overrides={"SD206": None})) == hash(
        RuleSettings(overrides={"name-mismatch": "off"})
    )


def test_json_round_trip_is_exact_except_the_frontmatter():
    text = (
        "---\nname: pdf\ndescription: d\nname: pdf\nmetadata:\n  n: 1\n  f: 1.5\n  l: [x, null]\n"
        "  m: {a: true}\n---\n"
    )
    analysis = analyze(text, overrides={"SD105": None})
    data = json.loads(json.dumps(analysis.to_json()))
    back = SkillFileAnalysis.from_json(data)
    assert back.frontmatter is None
    assert back == SkillFileAnalysis(**{**analysis.__dict__, "frontmatter": None})
    assert back.findings[0].fixes == analysis.findings[0].fixes
    for garbage in (
        None,
        [],
        {"version": 99},
        {**data, "findings": [{"code": "SD999"}]},
        {**data, "metadata": {"x": object()}},
        {**data, "name": 3},
    ):
        with pytest.raises(ValueError):
            SkillFileAnalysis.from_json(garbage)


def test_related_locations_name_the_file():
    finding = only(analyze("---\nname: pdf-forms\nname: pdf-forms\ndescription: d\n---\n"), "SD105")
    assert finding.related[0].path == PATH


# --- reading ---------------------------------------------------------------------------


def test_analyze_skill_file_reads_a_real_file(tmp_path):
    path = tmp_path / "pdf-forms" / "SKILL.md"
    path.parent.mkdir()
    path.write_text(GOOD, encoding="utf-8")
    analysis = analyze_skill_file(path, expected_name="pdf-forms")
    assert analysis.accepted and analysis.path == str(path)
    assert read_skill_body(path) == "# Body\n"


def test_missing_and_unreadable_files_become_findings(tmp_path):
    missing = analyze_skill_file(tmp_path / "nope.md", expected_name="nope")
    assert missing.findings[0].message == (
        "cannot read skill file: no such file or directory (skill not loaded)"
    )
    assert missing.findings[0].span == FILE_START
    with pytest.raises(SkillReadError) as raised:
        read_skill_bytes(tmp_path / "nope.md")
    assert isinstance(raised.value.os_error, FileNotFoundError)
    if os.geteuid() != 0:
        locked = tmp_path / "locked.md"
        locked.write_text(GOOD)
        locked.chmod(0)
        assert analyze_skill_file(locked, expected_name=None).findings[0].message == (
            "cannot read skill file: permission denied"
        )


def test_directories_and_fifos_are_refused_without_opening(tmp_path):
    assert analyze_skill_file(tmp_path, expected_name=None).findings[0].message == (
        "skill path is a directory, not a regular file; it was not opened (skill not loaded)"
    )
    fifo = tmp_path / "SKILL.md"
    os.mkfifo(fifo)
    analysis = analyze_skill_file(fifo, expected_name=None)  # would block if opened
    assert analysis.findings[0].message == (
        "skill path is a FIFO (named pipe), not a regular file; it was not opened"
        " (skill not loaded)"
    )
    link = tmp_path / "null.md"
    link.symlink_to("/dev/null")
    assert "a character device" in analyze_skill_file(link, expected_name=None).findings[0].message
    assert stat.S_ISFIFO(fifo.stat().st_mode)


def test_symlinks_to_regular_files_are_followed(tmp_path):
    target = tmp_path / "real.md"
    target.write_text(GOOD)
    link = tmp_path / "pdf-forms.md"
    link.symlink_to(target)
    assert analyze_skill_file(link, expected_name="pdf-forms").accepted


def test_read_cap_is_enforced_and_reported(tmp_path):
    path = tmp_path / "big.md"
    path.write_bytes(b"x" * 2000)
    with pytest.raises(SkillReadError) as raised:
        read_skill_bytes(path, max_bytes=1000)
    assert raised.value.finding.message == (
        "file is larger than the 1000 bytes cap for skill files; it was not read past the cap"
        " (skill not loaded)"
    )
    assert read_skill_bytes(path, max_bytes=2000) == b"x" * 2000
    assert MAX_SKILL_FILE_BYTES == 1024 * 1024


@pytest.mark.skipif(not os.path.isfile("/proc/self/status"), reason="needs Linux /proc")
def test_a_file_whose_size_says_less_than_it_holds_is_read_to_its_end():
    # /proc files report size 0; the read does not stop at the size fstat gave.
    data = read_skill_bytes("/proc/self/status")
    assert os.stat("/proc/self/status").st_size == 0
    assert data.startswith(b"Name:") and b"\nPid:" in data
    with pytest.raises(SkillReadError):
        read_skill_bytes("/proc/self/status", max_bytes=10)


def test_read_skill_body_refuses_a_file_that_lost_its_frontmatter(tmp_path):
    path = Path(tmp_path / "a.md")
    path.write_text("no frontmatter\n")
    with pytest.raises(SkillReadError, match="missing frontmatter"):
        read_skill_body(path)


def test_bytes_entry_point_decodes_utf8_with_bom():
    analysis = analyze_skill_bytes(
        b"\xef\xbb\xbf" + GOOD.replace("\n", "\r\n").encode(), path=PATH, expected_name="pdf-forms"
    )
    assert analysis.accepted
    assert analysis.description == "Fill PDF forms."


def test_wide_lines_hold_the_non_ascii_lines_positions_can_point_into():
    text = (
        "---\nname: caf\u00e9\ndescription: \U0001f600 ok\nmetadata: {a: b}\n---\n"
        + "body \u00e9 line\n" * 3
    )
    analysis = analyze_skill_text(text, path="/r/cafe/SKILL.md", expected_name="cafe")
    # The frontmatter's non-ASCII lines (the name finding is on line 1); no body line.
    assert [f.code for f in analysis.findings] == ["SD203"]
    assert analysis.wide_lines == ((1, "name: caf\u00e9"), (2, "description: \U0001f600 ok"))
    again = type(analysis).from_json(json.loads(json.dumps(analysis.to_json())))
    assert again.wide_lines == analysis.wide_lines
    ascii_only = analyze_skill_text(
        "---\nname: a\ndescription: b\n---\n\u00e9\n", path="/r/a/SKILL.md", expected_name="a"
    )
    assert ascii_only.wide_lines == ()


def test_wide_lines_count_a_lone_carriage_return_as_a_line_break():
    # Editors (and LSP) break lines at a lone \r too: the name is on line 3 for them.
    text = '---\ndescription: "a\rb"\nname: caf\u00e9\n---\n'
    analysis = analyze_skill_text(text, path="/r/cafe/SKILL.md", expected_name="cafe")
    (finding,) = [f for f in analysis.findings if f.code == "SD203"]
    assert finding.span.start.line == 3
    assert analysis.wide_lines == ((3, "name: caf\u00e9"),)
