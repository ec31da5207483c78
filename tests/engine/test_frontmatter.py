from __future__ import annotations

import pytest

from skilldeck.engine.frontmatter._frontmatter import (
    _NOT_PRINTABLE,
    Frontmatter,
    parse_frontmatter,
    resolve_plain,
)
from skilldeck.engine.text._positions import Position, Span


def ok(text: str) -> Frontmatter:
    parsed = parse_frontmatter(text)
    assert parsed.frontmatter is not None, parsed.findings
    return parsed.frontmatter


def fatal(text: str):
    parsed = parse_frontmatter(text)
    assert parsed.frontmatter is None
    (finding,) = [f for f in parsed.findings if f.drops_skill]
    return finding


def test_entries_keep_key_and_value_spans_in_code_points():
    fm = ok('---\nname: pdf\ndescription: "h\u00e9llo \U0001f600 w"\n---\nbody\n')
    name, desc = fm.entries
    assert (name.key, name.value, name.style) == ("name", "pdf", "plain")
    assert name.key_span == Span.at(1, 0, 4)
    assert name.value_span == Span.at(1, 6, 9)
    assert desc.value == "h\u00e9llo \U0001f600 w"
    assert desc.style == "double"
    assert desc.value_span == Span.at(2, 13, 24)  # the emoji is one code point
    assert fm.span == Span(Position(0, 0), Position(3, 3))
    assert fm.yaml_span == Span(Position(1, 0), Position(3, 0))
    assert fm.body_start_line == 4


def test_crlf_and_bom_are_tolerated():
    fm = ok("\ufeff---\r\nname: a\r\ndescription: b\r\n---\r\nbody\r\n")
    assert fm.get("name").value == "a"
    assert fm.get("description").value_span == Span.at(2, 13, 14)
    assert fm.body_start_line == 4


def test_delimiter_lookalikes_inside_values_are_not_delimiters():
    text = (
        "---\nname: a\ndescription: |\n  ---\n  ----\nnote: 'x\n  ---\n  y'\n"
        'other: "p\n----\nq"\n---\nbody\n'
    )
    fm = ok(text)
    assert fm.get("description").value == "---\n----\n"
    assert fm.get("description").style == "literal"
    assert fm.get("note").value == "x --- y"
    assert fm.get("other").value == "p ---- q"
    assert fm.body_start_line == 12


def test_eof_right_after_the_closing_line():
    fm = ok("---\nname: a\n---")
    assert fm.body_start_line == 3
    assert ok("---\nname: a\n---\r").get("name").value == "a"


def test_last_duplicate_wins_in_get_and_all_are_kept():
    parsed = parse_frontmatter("---\nname: a\nname: b\n---\n")
    assert [e.value for e in parsed.frontmatter.entries] == ["a", "b"]
    assert parsed.frontmatter.get("name").value == "b"
    (dup,) = parsed.findings
    assert dup.code == "SD105"
    assert dup.message == "duplicate key 'name' (first defined on line 2) (skill not loaded)"
    assert dup.span == Span.at(2, 0, 4)
    assert dup.related[0].span == Span.at(1, 0, 4)


@pytest.mark.parametrize(
    ("raw", "value"),
    [
        ("yes", "yes"),
        ("on", "on"),
        ("true", True),
        ("False", False),
        ("~", None),
        ("", None),
        ("12", 12),
        ("0x1f", 31),
        ("0o17", 15),
        ("1.5", 1.5),
        ("1e3", 1000.0),
        ("2024-01-01", "2024-01-01"),
        ("-.inf", float("-inf")),
        ("a: b", "a: b"),
        ("9" * 5000, "9" * 5000),
    ],
)
def test_plain_scalars_resolve_by_the_yaml_1_2_core_schema(raw, value):
    assert resolve_plain(raw) == value


def test_values_and_styles():
    fm = ok("---\nq: '1'\nn: 1\nf: >\n  a\n  b\nm:\n  k: [1, x]\n  2: z\ne:\nt: !!str 5\n---\n")
    assert fm.get("q").value == "1" and fm.get("q").style == "single"
    assert fm.get("n").value == 1
    assert fm.get("f").value == "a b\n" and fm.get("f").style == "folded"
    assert fm.get("m").value == {"k": [1, "x"], "2": "z"} and fm.get("m").style == "mapping"
    assert fm.get("e").value is None and fm.get("e").style == "null"
    assert fm.get("e").value_span == Span.at(9, 2, 2)
    assert fm.get("t").value == "5"


def test_missing_and_unterminated_frontmatter():
    missing = fatal("# Title\n---\nname: a\n---\n")
    assert missing.code == "SD101"
    assert missing.span == Span.at(0, 0, 7)
    assert fatal("--- \nname: a\n---\n").code == "SD101"
    # A file holding only the opening line is a frontmatter not yet closed (#31), not a
    # missing one.
    only_opening = fatal("---")
    assert (only_opening.code, only_opening.span) == ("SD102", Span.at(0, 0, 3))
    assert fatal("\ufeff---\r").code == "SD102"
    assert fatal("----").code == "SD101"
    unterminated = fatal("---\nname: a\n----\n --- \n")
    assert unterminated.code == "SD102"
    assert unterminated.span == Span.at(0, 0, 3)


def test_yaml_errors_point_at_the_cause():
    finding = fatal("---\nname: a\ndescription: Use for: PDFs\n---\n")
    assert finding.code == "SD103"
    assert finding.message == (
        "invalid YAML in frontmatter: ': ' inside the value of 'description' starts a nested "
        "mapping; quote the value (skill not loaded)"
    )
    assert finding.span == Span.at(2, 20, 21)
    flow = fatal("---\nname: a\ndescription: [a, b\n---\n")
    assert flow.code == "SD103" and flow.span.start == flow.span.end  # the parser's place
    tab = fatal("---\nname: a\n\tdescription: b\n---\n")
    assert tab.code == "SD103" and tab.span.start.line == 2
    second = fatal("---\na: 1\n...\nb: 2\n---\n")
    assert second.code == "SD103" and second.span.start.line == 3


def test_non_mapping_top_level():
    finding = fatal("---\n- a\n- b\n---\n")
    assert finding.code == "SD104"
    assert finding.message == (
        "frontmatter must be a YAML mapping of keys to values, found a list (skill not loaded)"
    )
    assert finding.span.start == Position(1, 0)
    assert fatal("---\njust text\n---\n").message.endswith(
        "found the string 'just text' (skill not loaded)"
    )


def test_empty_frontmatter_is_an_empty_mapping():
    assert ok("---\n---\n").entries == ()
    assert ok("---\n# only a comment\n---\nbody").entries == ()


def test_tags_never_construct_objects():
    parsed = parse_frontmatter("---\nname: !!python/name:os.system a\nx: !custom [1]\n---\n")
    fm = parsed.frontmatter
    assert fm.get("name").value == "a"
    assert fm.get("x").value == [1]
    messages = [f.message for f in parsed.findings]
    assert messages == [
        "YAML tag '!!python/name:os.system' is ignored; the value is read as plain text",
        "YAML tag '!custom' is ignored; the value is read as plain list",
    ]


def test_complex_keys_are_ignored_with_a_finding():
    parsed = parse_frontmatter("---\n? [a, b]\n: v\nname: x\n---\n")
    assert [e.key for e in parsed.frontmatter.entries] == ["name"]
    assert parsed.findings[0].code == "SD109"
    assert parsed.findings[0].span.start == Position(1, 2)


def test_unicode_line_separators_keep_positions_aligned_with_the_document():
    fm = ok('---\na: "x\u2028y"\nname: b\n---\n')
    assert fm.get("name").key_span == Span.at(2, 0, 4)


def test_the_characters_refused_in_frontmatter_are_exactly_those_yaml_forbids() -> None:
    # YAML 1.2, production [1] c-printable: the characters a stream may hold.
    printable = (
        (0x09, 0x09),
        (0x0A, 0x0A),
        (0x0D, 0x0D),
        (0x20, 0x7E),
        (0x85, 0x85),
        (0xA0, 0xD7FF),
        (0xE000, 0xFFFD),
        (0x10000, 0x10FFFF),
    )
    allowed = bytearray(0x110000)
    for low, high in printable:
        allowed[low : high + 1] = b"\x01" * (high - low + 1)
    refused = [c for c in range(0x110000) if _NOT_PRINTABLE.match(chr(c)) is not None]
    assert refused == [c for c in range(0x110000) if not allowed[c]]
